//! Statements and structured control flow, with DXC's block names (`if.true`, `for.check`...).

use super::layout::Layout;
use super::{unsupported, Breakable, Lowerer, VarHome, R};
use crate::id::SpvId;
use hlslc_sema::tast::{ConstValue, ExprId, ExprKind, FuncId, RawAttr, StmtId, StmtKind, Storage};
use hlslc_sema::types::{ScalarKind, TypeTable};
use spirv::{FunctionControl, LoopControl, SelectionControl, StorageClass};

impl<'m> Lowerer<'m> {
    /// Lowers a user function: parameters are pointers to function-storage variables.
    /// Lowers user function `fid` as `id`; the parameters in `bound` are not parameters of the
    /// SPIR-V function but the buffer variables given there.
    pub(crate) fn lower_function(&mut self, fid: FuncId, id: crate::id::SpvId, bound: &[super::BoundParam]) -> R<()> {
        let m = self.m;
        let f = m.func(fid);
        // A function returning resources returns nothing: its callers know what it returns at
        // compile time (`resvalue.rs`).
        if self.mixes_resources(f.ret) {
            return unsupported(
                format!("the function '{}' returning a struct with both resource and non-resource members", f.name),
                Some(f.span),
            );
        }
        let ret = if self.holds_resources(f.ret) { self.b.ctx.type_void() } else { self.ty(f.ret, Layout::Logical)? };
        let mut ptys = Vec::new();
        let this_bound = bound.iter().find(|b| b.index == super::BoundParam::THIS).and_then(|b| b.res.clone());
        let mut this_slots = Vec::new();
        if let Some(t) = f.this_type {
            if this_bound.is_some() {
                // A method of a struct holding resources: `this` is the copy's compile-time
                // value, its data leaves pointer parameters (`resmixed.rs`).
                self.data_slots(t, &mut this_slots);
                for &st in &this_slots {
                    ptys.push(self.ptr_ty(st, Layout::Logical, StorageClass::Function)?);
                }
            } else {
                ptys.push(self.ptr_ty(t, Layout::Logical, StorageClass::Function)?);
            }
        }
        let mut homes = Vec::new();
        for (k, &p) in f.params.iter().enumerate() {
            if bound.iter().any(|b| b.index == k) {
                // A parameter that mixes resources and data: a pointer parameter for each data
                // leaf (`resmixed.rs`).
                if bound.iter().any(|b| b.index == k && b.res.is_some()) {
                    let mut slots = Vec::new();
                    self.data_slots(m.var(p).ty, &mut slots);
                    for st in slots {
                        ptys.push(self.ptr_ty(st, Layout::Logical, StorageClass::Function)?);
                    }
                }
                continue;
            }
            // A resource parameter is a pointer to the caller's resource (a memory object
            // declaration, see `expr.rs::call`); other parameters point to a Function copy.
            let (pty, home) = match self.resource_param_storage(m.var(p).ty) {
                Some((sc, layout)) => {
                    let t = self.ty(m.var(p).ty, Layout::Logical)?;
                    (self.b.ctx.type_pointer(sc, t), (sc, layout))
                }
                None => (self.ptr_ty(m.var(p).ty, Layout::Logical, StorageClass::Function)?, (StorageClass::Function, Layout::Logical)),
            };
            ptys.push(pty);
            homes.push(home);
        }
        let fty = self.b.ctx.type_function(ret, &ptys);
        // `[noinline]` is `DontInline` (SPIR-V.rst, "Function attributes"); the optimizer's
        // inliner leaves such functions alone.
        let control = if f.attrs.iter().any(|a| a.namespace.is_none() && a.name.eq_ignore_ascii_case("noinline")) {
            FunctionControl::DONT_INLINE
        } else {
            FunctionControl::NONE
        };
        self.b.begin_function(id, ret, fty, control)?;
        let name = if m.entries.iter().any(|e| e.func == fid) {
            format!("src.{}", f.name)
        } else {
            operator_name(&f.qualified_name.replace("::", "."))
        };
        self.b.ctx.name(id, &name);
        let is_entry = m.entries.iter().any(|e| e.func == fid);
        self.inline_function_attrs(fid, id, is_entry)?;
        let mut pi = 0;
        self.this_ptr = None;
        self.this_res = None;
        if let (Some(t), Some(val)) = (f.this_type, &this_bound) {
            let mut data = Vec::new();
            for _ in &this_slots {
                let p = self.b.parameter(ptys[pi])?;
                pi += 1;
                self.b.ctx.name(p, "param.this");
                data.push(p);
            }
            self.this_res = Some(self.res_fill_data(val, t, &mut data.into_iter()));
        } else if f.this_type.is_some() {
            let p = self.b.parameter(ptys[0])?;
            self.b.ctx.name(p, "param.this");
            self.this_ptr = Some(p);
            pi = 1;
        }
        let mut hi = 0;
        let mut debug_params = Vec::new();
        self.const_params.clear();
        for (k, &pv) in f.params.iter().enumerate() {
            if let Some(b) = bound.iter().find(|b| b.index == k) {
                if let Some(c) = b.konst {
                    self.vars.insert(pv, VarHome::Value(b.ptr));
                    self.const_params.insert(pv, c);
                    continue;
                }
                if let Some(val) = &b.res {
                    let mut slots = Vec::new();
                    self.data_slots(m.var(pv).ty, &mut slots);
                    let mut data = Vec::new();
                    for _ in slots {
                        let p = self.b.parameter(ptys[pi])?;
                        pi += 1;
                        self.b.ctx.name(p, &m.var(pv).name);
                        data.push(p);
                    }
                    let val = self.res_fill_data(val, m.var(pv).ty, &mut data.into_iter());
                    self.set_res_state(pv, val);
                    self.resource_locals.insert(pv, self.cf_depth);
                    continue;
                }
                self.vars.insert(pv, VarHome::Ptr { ptr: b.ptr, storage: b.storage, layout: b.layout });
                self.resource_locals.insert(pv, self.cf_depth);
                self.counters.remove(&pv);
                if let Some(c) = b.counter {
                    self.counters.insert(pv, c);
                }
                continue;
            }
            let p = self.b.parameter(ptys[pi])?;
            pi += 1;
            self.b.ctx.name(p, &m.var(pv).name);
            if !is_entry {
                self.ext_decorations(p, &m.var(pv).attrs, Some(m.var(pv).span))?;
            }
            let (storage, layout) = homes[hi];
            hi += 1;
            self.vars.insert(pv, VarHome::Ptr { ptr: p, storage, layout });
            if storage == StorageClass::Function {
                debug_params.push((pv, p));
            }
            if storage != StorageClass::Function {
                self.resource_locals.insert(pv, self.cf_depth);
                self.pointer_params.insert(p);
            }
        }
        let entry = self.b.new_block()?;
        self.b.ctx.name(entry, "bb.entry");
        self.b.switch_to_block(entry)?;
        self.debug_function_start(fid, id, &debug_params, bound.is_empty())?;
        self.ret_ty = f.ret;
        match f.body {
            Some(body) => self.stmt(body)?,
            None => return unsupported(format!("calling '{}', which has no body", f.name), Some(f.span)),
        }
        self.const_params.clear();
        if !self.b.is_terminated() {
            if f.ret == TypeTable::VOID || self.holds_resources(f.ret) {
                self.b.ret()?;
            } else {
                let u = self.b.ctx.undef(ret);
                self.b.ret_value(u)?;
            }
        }
        self.b.end_function()?;
        Ok(())
    }

    /// The storage class and layout of a parameter of resource type (or array of resources),
    /// `None` for other types.
    pub(crate) fn resource_param_storage(&self, t: hlslc_sema::types::TypeId) -> Option<(StorageClass, Layout)> {
        let mut e = t;
        while let hlslc_sema::types::Type::Array { elem, .. } = self.m.types.get(e) {
            e = *elem;
        }
        // Descriptors only: constant/texture buffers are passed as struct values, streams and
        // patches as the values they hold.
        use hlslc_sema::types::{ObjectKind, ResourceClass};
        match self.m.types.get(e) {
            // A ray query is a state object: the callee works on the caller's.
            hlslc_sema::types::Type::Object { kind: ObjectKind::RayQuery, .. } => Some((StorageClass::Function, Layout::Logical)),
            hlslc_sema::types::Type::Object { kind, .. }
                if matches!(kind.resource_class(), Some(ResourceClass::Srv | ResourceClass::Uav | ResourceClass::Sampler))
                    && !matches!(kind, ObjectKind::TextureBuffer) =>
            {
                Some(self.object_storage(*kind))
            }
            _ => None,
        }
    }

    /// Makes sure there is an open block: code after `return`/`break` goes into a new block
    /// that nothing branches to, as DXC does.
    fn ensure_block(&mut self) -> R<()> {
        if self.b.is_terminated() {
            let bb = self.b.new_block()?;
            self.b.switch_to_block(bb)?;
        }
        Ok(())
    }

    pub(crate) fn stmt(&mut self, s: StmtId) -> R<()> {
        // Statements that branch: what they contain may run zero or several times, which a
        // resource local's rebinding must know (see `assign_resource_local`).
        let branches = matches!(
            self.m.stmt(s).kind,
            StmtKind::If { .. } | StmtKind::For { .. } | StmtKind::While { .. } | StmtKind::DoWhile { .. } | StmtKind::Switch { .. }
        );
        self.cf_depth += branches as u32;
        let r = self.stmt_inner(s);
        self.cf_depth -= branches as u32;
        r
    }

    fn stmt_inner(&mut self, s: StmtId) -> R<()> {
        let m = self.m;
        let stmt = m.stmt(s);
        let span = m.spans.stmts.get(s.0 as usize).copied();
        if !matches!(stmt.kind, StmtKind::Block(_) | StmtKind::Empty) {
            self.ensure_block()?;
            self.debug_line(span)?;
        }
        // Inline SPIR-V attributes of a statement (those of a declaration go to its variables).
        self.stmt_inline_attrs(stmt, span)?;
        match &stmt.kind {
            StmtKind::Expr(e) => {
                self.effect(*e)?;
            }
            StmtKind::Decl(vars) => {
                for &v in vars {
                    self.local(v, &stmt.attrs)?;
                }
            }
            StmtKind::Block(stmts) => {
                self.debug_enter_block(span);
                for &st in stmts {
                    self.stmt(st)?;
                    // What follows a `break`/`continue`/`return`/`discard` is dead: DXC emits
                    // nothing for it, and a dead block that branches to a continue target or
                    // merge block would sit outside the construct it jumps into.
                    if self.b.is_terminated() {
                        break;
                    }
                }
                self.debug_leave_block(span);
            }
            StmtKind::If { cond, then, otherwise } => {
                // A constant condition: DXC emits only the statement taken, with no branch.
                if let Some(taken) = self.const_condition(*cond) {
                    if taken {
                        self.stmt(*then)?;
                    } else if let Some(o) = otherwise {
                        self.stmt(*o)?;
                    }
                    return Ok(());
                }
                let c = self.rvalue(*cond)?;
                let t = self.label("if.true");
                let f = otherwise.map(|_| self.label("if.false"));
                let merge = self.label("if.merge");
                self.b.selection_merge(merge, selection_control(&stmt.attrs))?;
                self.b.branch_conditional(c, t, f.unwrap_or(merge))?;
                // Each arm starts from the state before the `if`; the states of the arms that
                // reach the merge meet there (`cf.rs`).
                let (then, otherwise) = (*then, *otherwise);
                let arm = |l: &mut Self, bb: SpvId, s: StmtId| -> R<bool> {
                    l.start_block(bb)?;
                    l.stmt(s)?;
                    let open = !l.b.is_terminated();
                    l.branch_if_open(merge)?;
                    Ok(open)
                };
                self.res_if(
                    |l| arm(l, t, then),
                    |l| match (f, otherwise) {
                        (Some(f), Some(o)) => arm(l, f, o),
                        _ => Ok(true),
                    },
                )?;
                self.start_block(merge)?;
            }
            StmtKind::For { init, cond, step, body } => {
                if let Some(i) = init {
                    self.stmt(*i)?;
                }
                self.lower_loop("for", *cond, *step, *body, false, &stmt.attrs)?;
            }
            StmtKind::While { cond, body } => self.lower_loop("while", Some(*cond), None, *body, false, &stmt.attrs)?,
            StmtKind::DoWhile { body, cond } => self.lower_loop("do_while", Some(*cond), None, *body, true, &stmt.attrs)?,
            StmtKind::Switch { cond, body } => self.lower_switch(*cond, *body, &stmt.attrs)?,
            StmtKind::Case(_) | StmtKind::Default => {
                return unsupported("a case label outside the top level of its switch", span);
            }
            StmtKind::Break => {
                let Some(t) = self.breakables.last().copied() else { return unsupported("'break' here", span) };
                self.b.branch(t.break_to)?;
            }
            StmtKind::Continue => {
                let Some(t) = self.breakables.iter().rev().find_map(|b| b.continue_to) else {
                    return unsupported("'continue' here", span);
                };
                self.b.branch(t)?;
            }
            StmtKind::Return(v) => match v {
                // `return f();` in a void function: the call, then a plain return.
                Some(_) if self.holds_resources(self.ret_ty) => self.b.ret()?,
                Some(e) if m.expr(*e).ty == TypeTable::VOID => {
                    self.rvalue(*e)?;
                    self.b.ret()?;
                }
                Some(e) => {
                    let v = self.rvalue(*e)?;
                    self.b.ret_value(v)?;
                }
                None => self.b.ret()?,
            },
            StmtKind::Discard => self.b.kill()?,
            StmtKind::Empty => {}
        }
        Ok(())
    }

    /// A label for a block whose code comes later (see `new_block_with_label`).
    pub(crate) fn label(&mut self, name: &str) -> SpvId {
        let l = self.b.ctx.alloc_id();
        self.b.ctx.name(l, name);
        l
    }

    /// Lays out the block of a label from [`Lowerer::label`] and moves the cursor there.
    pub(crate) fn start_block(&mut self, label: SpvId) -> R<()> {
        self.b.new_block_with_label(label)?;
        self.b.switch_to_block(label)?;
        Ok(())
    }

    fn branch_if_open(&mut self, target: SpvId) -> R<()> {
        if !self.b.is_terminated() {
            self.b.branch(target)?;
        }
        Ok(())
    }

    /// The value of a literal, possibly under numeric conversions (which `constant` applies).
    fn literal_value(&self, e: ExprId) -> Option<ConstValue> {
        match &self.m.expr(e).kind {
            ExprKind::Const(c) => Some(*c),
            ExprKind::Cast { expr, .. } => self.literal_value(*expr),
            _ => None,
        }
    }

    /// A local variable (`static` locals are module-scope `Private` variables).
    /// `stmt_attrs` are the attributes of the declaration statement (`[[vk::ext_decorate(..)]]
    /// float x;` writes them there).
    fn local(&mut self, v: hlslc_sema::tast::VarId, stmt_attrs: &[RawAttr]) -> R<()> {
        let var = self.m.var(v);
        let attrs: Vec<RawAttr> = var.attrs.iter().chain(stmt_attrs).cloned().collect();
        self.ext_requirements(&attrs, Some(var.span))?;
        // `[[vk::ext_storage_class(N)]]`: a module-scope variable of that class.
        if let Some(id) = self.ext_storage_variable(v, &attrs)? {
            self.ext_decorations(id, &attrs, Some(var.span))?;
            if let Some(init) = var.init {
                let val = self.rvalue(init)?;
                self.b.store(id, val, None)?;
            }
            return Ok(());
        }
        if var.storage == Storage::Static {
            // A static local of resource type: each use designates what its initializer does
            // (as a static global's, see `heap.rs`).
            let holds = self.is_descriptor_object(var.ty) || self.holds_resources(var.ty);
            if let (true, Some(init)) = (holds, var.init) {
                self.vars.insert(v, VarHome::Alias(init));
                return Ok(());
            }
            if self.mixes_resources(var.ty) {
                return unsupported(
                    format!("the static variable '{}' of a struct type with both resource and non-resource members", var.name),
                    Some(var.span),
                );
            }
            let pty = self.ptr_ty(var.ty, Layout::Logical, StorageClass::Private)?;
            // `static uint n = 0;` has a cast of a literal as its initializer: fold it here.
            let literal = var.const_value.or_else(|| var.init.and_then(|e| self.literal_value(e)));
            let init = match literal {
                Some(c) if self.shape(var.ty).is_some() => Some(self.constant(var.ty, c)?),
                _ => None,
            };
            let id = self.b.global_variable(pty, StorageClass::Private, init);
            self.b.ctx.name(id, &var.name);
            self.ext_decorations(id, &attrs, Some(var.span))?;
            self.vars.insert(v, VarHome::Ptr { ptr: id, storage: StorageClass::Private, layout: Layout::Logical });
            if let (None, Some(e)) = (init, var.init) {
                // A non-constant initializer runs the first time the declaration is reached:
                // `init_done_NAME` (a Private bool, false at first) guards it, as in DXC.
                let bool_ty = self.b.ctx.type_bool();
                let bool_ptr = self.b.ctx.type_pointer(StorageClass::Private, bool_ty);
                let no = self.b.ctx.const_bool(false);
                let done = self.b.global_variable(bool_ptr, StorageClass::Private, Some(no));
                self.b.ctx.name(done, &format!("init.done.{}", var.name));
                let is_done = self.b.load(bool_ty, done, None)?;
                let done_bb = self.label("if.init.done");
                let todo_bb = self.label("if.init.todo");
                self.b.selection_merge(done_bb, SelectionControl::NONE)?;
                self.b.branch_conditional(is_done, done_bb, todo_bb)?;
                self.start_block(todo_bb)?;
                let val = self.rvalue(e)?;
                let val = self.convert_layout(val, var.ty, Layout::Logical, Layout::Logical)?;
                self.b.store(id, val, None)?;
                let yes = self.b.ctx.const_bool(true);
                self.b.store(done, yes, None)?;
                self.b.branch(done_bb)?;
                self.start_block(done_bb)?;
            }
            return Ok(());
        }
        // A resource or an array of resources: an alias of the resource(s) last assigned (a
        // `RayQuery` is a state object: a Function variable).
        let ray_query = matches!(self.m.types.get(var.ty), hlslc_sema::types::Type::Object { kind: hlslc_sema::types::ObjectKind::RayQuery, .. });
        if !ray_query && (self.is_descriptor_object(var.ty) || self.is_resource_array(var.ty)) {
            return self.resource_local(v);
        }
        // A struct (or array of structs) of resources: a value known at compile time.
        // (A struct that mixes resources and data has a Function variable for each data
        // leaf, `resmixed.rs`.)
        if self.is_res_struct(var.ty) {
            let fresh = self.res_fresh(var.ty, &var.name)?;
            let val = match var.init {
                Some(init) => {
                    let src = self.res_value(init)?;
                    self.res_copy_into(fresh, src, var.ty, init)?
                }
                None => fresh,
            };
            self.resource_locals.insert(v, self.cf_depth);
            self.set_res_state(v, val);
            return Ok(());
        }
        if self.mixes_resources(var.ty) {
            return unsupported(
                format!("the local variable '{}' of a struct type with both resource and non-resource members", var.name),
                Some(var.span),
            );
        }

        let pty = self.ptr_ty(var.ty, Layout::Logical, StorageClass::Function)?;
        let id = self.b.local_variable(pty, None)?;
        // DXC leaves a ray query variable unnamed.
        if !ray_query {
            self.b.ctx.name(id, &var.name);
        }
        self.ext_decorations(id, &attrs, Some(var.span))?;
        self.vars.insert(v, VarHome::Ptr { ptr: id, storage: StorageClass::Function, layout: Layout::Logical });
        self.debug_variable(v, id, None)?;
        if let Some(init) = var.init {
            let val = self.rvalue(init)?;
            self.b.store(id, val, None)?;
        }
        Ok(())
    }

    /// A local of resource type is not a Function variable (an opaque value cannot be stored
    /// there in valid SPIR-V, DXC's legalization removes such variables): it is an alias of the
    /// pointer of the resource it was last given (`Texture2D t = gTex;`, `= gTexs[i];`), which
    /// its initializer and each later assignment (see [`Self::assign_resource_local`]) set.
    fn resource_local(&mut self, v: hlslc_sema::tast::VarId) -> R<()> {
        let var = self.m.var(v);
        self.resource_locals.insert(v, self.cf_depth);
        match var.init {
            Some(init) => self.bind_resource_local(v, init),
            None => {
                self.set_res_state(v, super::resvalue::ResValue::Unset);
                Ok(())
            }
        }
    }

    /// `local = resource;` for a local of resource type: from here on, on this control-flow
    /// path, the local designates the right side's resource (see `cf.rs` for where paths
    /// meet).
    pub(crate) fn assign_resource_local(&mut self, v: hlslc_sema::tast::VarId, rhs: hlslc_sema::tast::ExprId, _e: hlslc_sema::tast::ExprId) -> R<Option<()>> {
        if !self.resource_locals.contains_key(&v) {
            return Ok(None);
        }
        self.bind_resource_local(v, rhs).map(Some)
    }

    fn bind_resource_local(&mut self, v: hlslc_sema::tast::VarId, init: hlslc_sema::tast::ExprId) -> R<()> {
        let m = self.m;
        let var = m.var(v);
        // A struct or array of resources, an initializer list, a choice: a value held at
        // compile time.
        if self.is_res_struct(var.ty)
            || self.res_held(init)
            || matches!(m.expr(init).kind, ExprKind::Construct { .. } | ExprKind::Ternary { .. } | ExprKind::Comma { .. } | ExprKind::Call { .. })
        {
            let val = self.res_value(init)?;
            // The data of a struct that mixes resources and data goes into the local's own
            // variables (`resmixed.rs`).
            let val = match self.res_state(v) {
                Some(dst) => self.res_copy_into(dst, val, var.ty, init)?,
                None => val,
            };
            self.set_res_state(v, val);
            return Ok(());
        }
        let place = match self.lvalue(init) {
            Ok(p) => p,
            Err(_) => return unsupported("a local variable of resource type initialized from a non-lvalue", Some(var.span)),
        };
        let Some((ptr, storage, layout)) = Self::place_ptr(&place) else {
            return unsupported("a local variable of resource type initialized from a non-lvalue", Some(var.span));
        };
        // The counter: the initializer's, or for an element of an array of buffers
        // (`bufs[i]`), the same element of the array of counters.
        self.counters.remove(&v);
        let root = super::resources::indexed_root(m, init);
        if let ExprKind::Var(g) = m.expr(root).kind {
            if let Some(&c) = self.counters.get(&g) {
                let c = if root == init { c } else { self.counter_element(c, init)? };
                self.counters.insert(v, c);
            }
        }
        self.vars.insert(v, VarHome::Ptr { ptr, storage, layout });
        self.note_heap_alias(v, init, ptr, storage)
    }

    /// `for`/`while`: header (merge instruction) → check → body → continue (step) → header.
    /// `do-while`: header → body → continue (check) → header or merge.
    fn lower_loop(
        &mut self,
        kind: &str,
        cond: Option<hlslc_sema::tast::ExprId>,
        step: Option<hlslc_sema::tast::ExprId>,
        body: StmtId,
        do_while: bool,
        attrs: &[RawAttr],
    ) -> R<()> {
        // A condition that creates blocks gets its own block after the header, as in DXC.
        // Locals holding resources that the body assigns designate none at its start (another
        // iteration may have assigned them) nor after the loop.
        let assigned = self.res_assigned_in(body);
        self.res_forget(&assigned);
        let split = !do_while && cond.is_some_and(|c| self.creates_blocks(c));
        let header = self.label(&format!("{kind}.{}", if split { "header" } else { "check" }));
        let body_bb = self.label(&format!("{kind}.body"));
        let cont = self.label(&format!("{kind}.continue"));
        let merge = self.label(&format!("{kind}.merge"));
        self.b.branch(header)?;
        self.start_block(header)?;
        // The merge instruction must come right before the header's branch.
        match (do_while, cond) {
            (false, Some(c)) if split => {
                let check = self.label(&format!("{kind}.check"));
                self.b.loop_merge(merge, cont, loop_control(attrs))?;
                self.b.branch(check)?;
                self.start_block(check)?;
                let c = self.rvalue(c)?;
                self.b.branch_conditional(c, body_bb, merge)?;
            }
            (false, Some(c)) => {
                let c = self.rvalue(c)?;
                self.b.loop_merge(merge, cont, loop_control(attrs))?;
                self.b.branch_conditional(c, body_bb, merge)?;
            }
            _ => {
                self.b.loop_merge(merge, cont, loop_control(attrs))?;
                self.b.branch(body_bb)?;
            }
        }
        self.start_block(body_bb)?;
        self.breakables.push(Breakable { break_to: merge, continue_to: Some(cont) });
        let r = self.stmt(body);
        self.breakables.pop();
        r?;
        self.branch_if_open(cont)?;
        self.start_block(cont)?;
        if let Some(s) = step {
            self.effect(s)?;
        }
        match (do_while, cond) {
            (true, Some(c)) => {
                let c = self.rvalue(c)?;
                self.b.branch_conditional(c, header, merge)?;
            }
            _ => self.b.branch(header)?,
        }
        self.start_block(merge)?;
        self.res_forget(&assigned);
        Ok(())
    }

    /// `switch`: the body's top-level `case`/`default` labels start blocks; falling off one
    /// case's statements branches into the next label's block.
    fn lower_switch(&mut self, cond: hlslc_sema::tast::ExprId, body: StmtId, attrs: &[RawAttr]) -> R<()> {
        let m = self.m;
        let stmts: Vec<StmtId> = match &m.stmt(body).kind {
            StmtKind::Block(s) => s.clone(),
            _ => vec![body],
        };
        let sel = self.rvalue(cond)?;
        // A 64-bit selector takes 64-bit case literals (two words each).
        let wide = matches!(m.types.component(m.expr(cond).ty), Some(ScalarKind::Int64 | ScalarKind::UInt64));
        let mut labels: Vec<(StmtId, SpvId)> = Vec::new();
        let mut cases = Vec::new();
        let mut default = None;
        for &s in &stmts {
            match m.stmt(s).kind {
                StmtKind::Case(v) => {
                    let name = if v < 0 { format!("switch.n{}", -v) } else { format!("switch.{v}") };
                    let bb = self.label(&name);
                    labels.push((s, bb));
                    cases.push((v as u64, bb));
                }
                StmtKind::Default => {
                    let bb = self.label("switch.default");
                    labels.push((s, bb));
                    default = Some(bb);
                }
                _ => {}
            }
        }
        let merge = self.label("switch.merge");
        // Locals holding resources that a case assigns designate none at the start of each
        // case nor after the switch.
        let assigned = self.res_assigned_in(body);
        // A constant selector: the case taken is known, and so is what it leaves in those
        // locals (up to its first top-level `break`; the other cases are dead code).
        let taken = match self.flat_constant(cond).as_deref() {
            Some([ConstValue::Int(k)]) => {
                cases
                    .iter()
                    .find(|(v, _)| if wide { *v == *k as u64 } else { *v as u32 == *k as u32 })
                    .map(|&(_, bb)| bb)
                    .or(default)
            }
            _ => None,
        };
        let before = self.res_snapshot();
        let mut in_taken = false;
        let mut left_taken: Option<super::cf::ResSnapshot> = None;
        self.b.selection_merge(merge, selection_control(attrs))?;
        self.b.switch(sel, default.unwrap_or(merge), &cases, wide)?;
        self.breakables.push(Breakable { break_to: merge, continue_to: None });
        let mut result = Ok(());
        for &s in &stmts {
            if let Some(&(_, bb)) = labels.iter().find(|(l, _)| *l == s) {
                if !self.b.is_terminated() {
                    self.b.branch(bb)?;
                }
                self.start_block(bb)?;
                if Some(bb) == taken && left_taken.is_none() {
                    in_taken = true;
                    self.res_restore(&before);
                } else if !in_taken {
                    self.res_forget(&assigned);
                }
                continue;
            }
            result = self.stmt(s);
            if result.is_err() {
                break;
            }
            if in_taken && self.b.is_terminated() {
                in_taken = false;
                left_taken = Some(self.res_snapshot());
            }
        }
        if in_taken {
            left_taken = Some(self.res_snapshot());
        }
        self.breakables.pop();
        result?;
        self.branch_if_open(merge)?;
        self.start_block(merge)?;
        match (taken, left_taken) {
            (Some(_), Some(state)) => self.res_restore(&state),
            // No case taken: nothing ran.
            (None, _) if self.flat_constant(cond).is_some() => self.res_restore(&before),
            _ => self.res_forget(&assigned),
        }
        Ok(())
    }
}

fn selection_control(attrs: &[RawAttr]) -> SelectionControl {
    if attrs.iter().any(|a| a.name == "flatten") {
        SelectionControl::FLATTEN
    } else if attrs.iter().any(|a| a.name == "branch") {
        SelectionControl::DONT_FLATTEN
    } else {
        SelectionControl::NONE
    }
}

fn loop_control(attrs: &[RawAttr]) -> LoopControl {
    if attrs.iter().any(|a| a.name == "unroll") {
        LoopControl::UNROLL
    } else if attrs.iter().any(|a| a.name == "loop" || a.name == "fastopt") {
        LoopControl::DONT_UNROLL
    } else {
        LoopControl::NONE
    }
}

/// DXC's spelling of an overloaded operator method (clang's operator kind names):
/// `S.operator*` is `S.operator_Star`, `S.operator[]` is `S.operator_Subscript`.
fn operator_name(name: &str) -> String {
    let Some(pos) = name.rfind("operator") else { return name.to_string() };
    let (head, sym) = (&name[..pos], &name[pos + "operator".len()..]);
    let kind = match sym {
        "+" => "Plus",
        "-" => "Minus",
        "*" => "Star",
        "/" => "Slash",
        "%" => "Percent",
        "^" => "Caret",
        "&" => "Amp",
        "|" => "Pipe",
        "~" => "Tilde",
        "!" => "Exclaim",
        "=" => "Equal",
        "<" => "Less",
        ">" => "Greater",
        "+=" => "PlusEqual",
        "-=" => "MinusEqual",
        "*=" => "StarEqual",
        "/=" => "SlashEqual",
        "%=" => "PercentEqual",
        "^=" => "CaretEqual",
        "&=" => "AmpEqual",
        "|=" => "PipeEqual",
        "<<" => "LessLess",
        ">>" => "GreaterGreater",
        "<<=" => "LessLessEqual",
        ">>=" => "GreaterGreaterEqual",
        "==" => "EqualEqual",
        "!=" => "ExclaimEqual",
        "<=" => "LessEqual",
        ">=" => "GreaterEqual",
        "&&" => "AmpAmp",
        "||" => "PipePipe",
        "++" => "PlusPlus",
        "--" => "MinusMinus",
        "," => "Comma",
        "()" => "Call",
        "[]" => "Subscript",
        _ => return name.to_string(),
    };
    format!("{head}operator_{kind}")
}
