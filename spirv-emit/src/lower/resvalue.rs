//! Compile-time resource values: which resource a local, a struct member, a parameter or an
//! element of an array of resources designates.
//!
//! SPIR-V for Vulkan cannot store an image, a sampler or a buffer in memory, nor put one in a
//! struct (`OpTypeStruct must not contain an opaque type`); a runtime array cannot be loaded.
//! DXC emits such code anyway and relies on spirv-opt's legalization (inlining, scalar
//! replacement, copy propagation) to remove it. hlslc resolves the same thing while lowering:
//! a value whose type holds only resources (a resource, a fixed array of them, a struct whose
//! members all hold resources, arrays of such structs) is a [`ResValue`], a tree whose leaves
//! are pointers to module-scope resources (or access chains into them). It is threaded through
//! locals (their state changes with each assignment, see `cf.rs`), struct members, function
//! parameters (each list of resources passed selects a copy of the function, as buffer
//! parameters already did) and global structs of resources (split into one variable per
//! resource, as spirv-opt's descriptor scalar replacement does for DXC).
//!
//! What cannot be known at compile time (a resource chosen by a run-time condition, a struct
//! of resources indexed by a run-time index) is an error that names the variable.

use super::layout::Layout;
use super::place::Place;
use super::{unsupported, Lowerer, VarHome, R};
use crate::id::SpvId;
use hlslc_sema::tast::{ExprId, ExprKind, VarId};
use hlslc_sema::types::{ObjectKind, Type, TypeId};
use spirv::StorageClass;

/// The resources a value of a resource-holding type designates.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ResValue {
    /// A resource, or a whole array of resources: a pointer to it (a module-scope variable, or
    /// an access chain into one in the current function) and its counter, if it has one.
    Leaf { ptr: SpvId, sc: StorageClass, layout: Layout, counter: Option<SpvId> },
    /// The members of a struct (bases first, then fields) or the elements of an array.
    Parts(Vec<ResValue>),
    /// Nothing assigned yet.
    Unset,
    /// Different resources on different control-flow paths that meet here.
    Conflict,
}

impl ResValue {
    /// The leaves' pointers, for the key of a function copy (`0` for an unknown leaf).
    pub(crate) fn key(&self, out: &mut Vec<SpvId>) {
        match self {
            ResValue::Leaf { ptr, .. } => out.push(*ptr),
            ResValue::Parts(p) => {
                out.push(SpvId(u32::MAX));
                for x in p {
                    x.key(out);
                }
                out.push(SpvId(u32::MAX - 1));
            }
            ResValue::Unset | ResValue::Conflict => out.push(SpvId(0)),
        }
    }

    fn leaves(&self, out: &mut Vec<SpvId>) {
        match self {
            ResValue::Leaf { ptr, .. } => out.push(*ptr),
            ResValue::Parts(p) => p.iter().for_each(|x| x.leaves(out)),
            _ => {}
        }
    }

    /// The value where control-flow paths with values `self` and `other` meet: leaves that
    /// differ become [`ResValue::Conflict`].
    pub(crate) fn merge(&self, other: &ResValue) -> ResValue {
        match (self, other) {
            (a, b) if a == b => a.clone(),
            (ResValue::Parts(a), ResValue::Parts(b)) if a.len() == b.len() => {
                ResValue::Parts(a.iter().zip(b).map(|(x, y)| x.merge(y)).collect())
            }
            _ => ResValue::Conflict,
        }
    }

    /// The part at `path`.
    fn get(&self, path: &[u32]) -> Option<&ResValue> {
        match path.split_first() {
            None => Some(self),
            Some((&i, rest)) => match self {
                ResValue::Parts(p) => p.get(i as usize)?.get(rest),
                _ => None,
            },
        }
    }

    /// Replaces the part at `path` with `v`.
    fn set(&mut self, path: &[u32], v: ResValue) -> bool {
        match path.split_first() {
            None => {
                *self = v;
                true
            }
            Some((&i, rest)) => match self {
                ResValue::Parts(p) => p.get_mut(i as usize).is_some_and(|x| x.set(rest, v)),
                _ => false,
            },
        }
    }
}

impl<'m> Lowerer<'m> {
    /// A resource that can be a [`ResValue`] leaf: a descriptor (not a ray query, a stream or a
    /// patch, which are values or state).
    fn is_descriptor(&self, t: TypeId) -> bool {
        matches!(self.m.types.get(t), Type::Object { kind, .. } if *kind != ObjectKind::RayQuery)
            && self.resource_param_storage(t).is_some()
    }

    /// Whether values of `t` hold only resources: a resource, a fixed array of such values, or
    /// a struct whose members (at least one) all hold only resources.
    pub(crate) fn holds_resources(&self, t: TypeId) -> bool {
        match self.m.types.get(t) {
            Type::Object { .. } => self.is_descriptor(t),
            Type::Array { elem, len: Some(_) } => self.holds_resources(*elem),
            Type::Struct(sid) => {
                let def = &self.m.types.structs[sid.0 as usize];
                let mut members = def.bases.iter().copied().chain(def.fields.iter().map(|f| f.ty)).peekable();
                members.peek().is_some() && members.all(|mt| self.holds_resources(mt))
            }
            _ => false,
        }
    }

    /// A struct of resources, or an array of them: only a [`ResValue`] can hold it.
    pub(crate) fn is_res_struct(&self, t: TypeId) -> bool {
        match self.m.types.get(t) {
            // (A struct that mixes resources and data is held the same way, its data leaves in
            // Function variables of their own: `resmixed.rs`.)
            Type::Struct(_) => self.holds_resources(t) || self.mixes_resources(t),
            Type::Array { elem, len: Some(_) } => self.is_res_struct(*elem),
            _ => false,
        }
    }

    /// A fixed array whose elements hold resources (not a buffer, whose `[]` reads its data).
    pub(crate) fn is_res_array(&self, t: TypeId) -> bool {
        matches!(self.m.types.get(t), Type::Array { len: Some(_), .. }) && (self.holds_resources(t) || self.mixes_resources(t))
    }

    /// A struct with resource members beside other members (or an array of them): held as a
    /// [`ResValue`] whose data leaves are Function variables (`resmixed.rs`).
    pub(crate) fn mixes_resources(&self, t: TypeId) -> bool {
        match self.m.types.get(t) {
            Type::Array { elem, .. } => self.mixes_resources(*elem),
            Type::Struct(sid) if !self.holds_resources(t) => {
                let def = &self.m.types.structs[sid.0 as usize];
                def.bases.iter().copied().chain(def.fields.iter().map(|f| f.ty)).any(|mt| {
                    self.holds_resources(mt) || self.mixes_resources(mt) || matches!(self.m.types.get(mt), Type::Object { .. } if self.is_descriptor(mt))
                })
            }
            _ => false,
        }
    }

    /// The member types of a struct (bases first) or the elements of a fixed array.
    pub(crate) fn res_part_types(&self, t: TypeId) -> Vec<TypeId> {
        match self.m.types.get(t) {
            Type::Struct(sid) => {
                let def = &self.m.types.structs[sid.0 as usize];
                def.bases.iter().copied().chain(def.fields.iter().map(|f| f.ty)).collect()
            }
            Type::Array { elem, len: Some(n) } => vec![*elem; *n as usize],
            _ => Vec::new(),
        }
    }

    /// The value of a variable of type `t` nothing was assigned to.
    pub(crate) fn res_unset(&self, t: TypeId) -> ResValue {
        if self.is_res_struct(t) {
            ResValue::Parts(self.res_part_types(t).into_iter().map(|mt| self.res_unset(mt)).collect())
        } else {
            ResValue::Unset
        }
    }

    /// The current value of a variable that holds resources (`None` for other variables).
    pub(crate) fn res_state(&self, v: VarId) -> Option<ResValue> {
        match self.vars.get(&v)? {
            VarHome::Res(r) => Some(r.clone()),
            VarHome::Ptr { ptr, storage, layout } => Some(ResValue::Leaf {
                ptr: *ptr,
                sc: *storage,
                layout: *layout,
                counter: self.counters.get(&v).copied(),
            }),
            _ => None,
        }
    }

    /// Makes variable `v` designate `val` from here on.
    pub(crate) fn set_res_state(&mut self, v: VarId, val: ResValue) {
        self.counters.remove(&v);
        match val {
            ResValue::Leaf { ptr, sc, layout, counter } => {
                self.vars.insert(v, VarHome::Ptr { ptr, storage: sc, layout });
                if let Some(c) = counter {
                    self.counters.insert(v, c);
                }
            }
            other => {
                self.vars.insert(v, VarHome::Res(other));
            }
        }
    }

    /// The resources expression `e` (of a type that holds resources) designates.
    pub(crate) fn res_value(&mut self, e: ExprId) -> R<ResValue> {
        let m = self.m;
        let ex = m.expr(e);
        // A data member given to a struct that mixes resources and data (`{ tex, 2.0 }`), or
        // read from one: a leaf in a Function variable (`resmixed.rs`).
        if self.is_data_type(ex.ty) && !self.res_held(e) {
            let v = self.rvalue(e)?;
            let ptr = self.temp_var(ex.ty, "temp.var")?;
            self.b.store(ptr, v, None)?;
            return Ok(ResValue::Leaf { ptr, sc: StorageClass::Function, layout: Layout::Logical, counter: None });
        }
        match &ex.kind {
            ExprKind::Var(v) => match self.vars.get(v).cloned() {
                Some(VarHome::Res(r)) => Ok(r),
                Some(VarHome::Alias(init)) if !m.expr(init).lvalue => self.res_value(init),
                _ => self.res_leaf_of(e),
            },
            ExprKind::This => match self.this_res.clone() {
                Some(v) => Ok(v),
                None => self.res_leaf_of(e),
            },
            ExprKind::Field { base, index, via_base } if self.is_res_struct(m.expr(*base).ty) => {
                let mut val = self.res_value(*base)?;
                let mut cur = m.expr(*base).ty;
                let mut path = Vec::new();
                for &step in via_base {
                    let (bty, _) = self.struct_member(cur, step, true);
                    path.push(step);
                    cur = bty;
                }
                let (_, idx) = self.struct_member(cur, *index, false);
                path.push(idx);
                for i in path {
                    val = match val {
                        ResValue::Parts(mut p) if (i as usize) < p.len() => p.swap_remove(i as usize),
                        ResValue::Conflict => ResValue::Conflict,
                        _ => ResValue::Unset,
                    };
                }
                Ok(val)
            }
            ExprKind::Index { base, index } if self.is_res_array(m.expr(*base).ty) => {
                let val = self.res_value(*base)?;
                match val {
                    ResValue::Parts(mut p) => match self.const_index(*index).or_else(|| self.folded_index(*index)) {
                        Some(i) if (i as usize) < p.len() => Ok(p.swap_remove(i as usize)),
                        Some(_) => unsupported("an index out of bounds of this array of resources", self.expr_span(e)),
                        None => unsupported(
                            format!("indexing the array '{}' of resources held at compile time with a run-time index", self.expr_text(*base)),
                            self.expr_span(e),
                        ),
                    },
                    ResValue::Leaf { ptr, sc, layout, counter } => {
                        let idx = self.rvalue(*index)?;
                        let base_place = Place::Ptr { ptr, sc, layout, ty: m.expr(*base).ty };
                        let Place::Ptr { ptr, .. } = self.chain(&base_place, &[idx], ex.ty)? else { unreachable!("chain gives a pointer") };
                        // The same element of the array of counters (when `e` is a buffer; the
                        // counter of a partly indexed array of arrays is not followed).
                        let counter = match counter {
                            Some(c) if matches!(m.types.get(ex.ty), Type::Object { .. }) => {
                                let st = self.counter_struct();
                                let pty = self.b.ctx.type_pointer(self.storage_block().0, st);
                                Some(self.b.access_chain(pty, c, &[idx])?)
                            }
                            _ => None,
                        };
                        Ok(ResValue::Leaf { ptr, sc, layout, counter })
                    }
                    other => Ok(other),
                }
            }
            ExprKind::Cast { expr, .. } if m.expr(*expr).ty == ex.ty || self.holds_resources(m.expr(*expr).ty) => self.res_value(*expr),
            ExprKind::Comma { lhs, rhs } | ExprKind::Binary { op: hlslc_frontend::ast::BinaryOp::Comma, lhs, rhs } => {
                self.effect(*lhs)?;
                self.res_value(*rhs)
            }
            ExprKind::Ternary { cond, then, otherwise } => match self.const_condition(*cond) {
                Some(true) => self.res_value(*then),
                Some(false) => self.res_value(*otherwise),
                None => unsupported(
                    "choosing between resources with a run-time condition (SPIR-V for Vulkan cannot select a resource at run time)",
                    self.expr_span(e),
                ),
            },
            ExprKind::Construct { args } => {
                let mut queue: Vec<(ResValue, TypeId)> = Vec::new();
                for &a in args.iter().rev() {
                    let v = self.res_value(a)?;
                    queue.push((v, m.expr(a).ty));
                }
                self.res_build(ex.ty, &mut queue, e)
            }
            // A function returning resources: what its `return`s designate; the call (a copy
            // of the function that returns nothing) runs for its other effects.
            ExprKind::Call { func, this_arg: None, args } => {
                let val = self.res_returned(*func, args, e)?;
                self.call(*func, None, args, ex.ty)?;
                Ok(val)
            }
            // A method returning resources: the same, with `this` designating what the object
            // does while its returns are found (`resmixed.rs` binds it in the method's copy).
            ExprKind::Call { func, this_arg: Some(t), args } => {
                let obj = if self.is_res_struct(m.expr(*t).ty) { Some(self.res_value(*t)?) } else { None };
                let saved = match obj {
                    Some(o) => Some(std::mem::replace(&mut self.this_res, Some(o))),
                    None => None,
                };
                let val = self.res_returned(*func, args, e);
                if let Some(s) = saved {
                    self.this_res = s;
                }
                let val = val?;
                self.call(*func, Some(*t), args, ex.ty)?;
                Ok(val)
            }
            _ if matches!(m.types.get(ex.ty), Type::Object { .. }) || self.is_resource_array(ex.ty) => self.res_leaf_of(e),
            _ => unsupported(format!("this expression of type '{}' holding resources", self.type_name(ex.ty)), self.expr_span(e)),
        }
    }

    /// What a call of `func` with `args` returns, when its type holds resources: the value of
    /// every `return` reached (arms of constant conditions not taken left out), with the
    /// callee's parameters designating what the arguments do. They must all agree.
    fn res_returned(&mut self, func: hlslc_sema::tast::FuncId, args: &[ExprId], e: ExprId) -> R<ResValue> {
        let m = self.m;
        let f = m.func(func);
        let Some(body) = f.body else {
            return unsupported(format!("calling '{}', which has no body", f.name), self.expr_span(e));
        };
        // A parameter passed a constant and never written in the body is that constant while
        // the returns are found (`getTexture(0)` with `if (i == 0) return t0;`), as DXC's
        // legalization finds after inlining.
        let mut consts = Vec::new();
        for (i, &pv) in f.params.iter().enumerate() {
            let Some(&a) = args.get(i) else { break };
            if let Some([c]) = self.flat_constant(a).as_deref() {
                if !written_in(m, pv, body) {
                    consts.push((pv, self.const_params.insert(pv, *c)));
                }
            }
        }
        let mut rets = Vec::new();
        self.collect_returns(body, &mut rets);
        for (pv, old) in consts.into_iter().rev() {
            match old {
                Some(c) => self.const_params.insert(pv, c),
                None => self.const_params.remove(&pv),
            };
        }
        let mut saved = Vec::new();
        for (i, &pv) in f.params.iter().enumerate() {
            let Some(&a) = args.get(i) else { break };
            if !self.holds_resources(m.var(pv).ty) {
                continue;
            }
            let val = self.res_value(a)?;
            saved.push((pv, self.vars.remove(&pv), self.counters.remove(&pv)));
            self.set_res_state(pv, val);
        }
        let mut result: Option<ResValue> = None;
        let mut failed = None;
        for r in rets {
            match self.res_value(r) {
                Ok(v) => result = Some(result.map_or(v.clone(), |p| p.merge(&v))),
                Err(err) => {
                    failed = Some(err);
                    break;
                }
            }
        }
        self.res_unbind_params(saved);
        if let Some(err) = failed {
            return Err(super::LowerError {
                fatal: false,
                message: format!(
                    "the resource returned by '{}' must be a global resource or a parameter's (or part of one): {}",
                    f.name, err.message
                ),
                span: err.span.or(self.expr_span(e)),
                notes: err.notes,
            });
        }
        match result {
            None => unsupported(format!("calling '{}', which returns resources but has no return statement", f.name), self.expr_span(e)),
            Some(ResValue::Conflict) => Err(super::LowerError {
                fatal: false,
                message: format!(
                    "'{}' returns different resources depending on the control flow; SPIR-V for Vulkan cannot choose a resource at run time",
                    f.name
                ),
                span: self.expr_span(e),
                notes: Vec::new(),
            }),
            Some(v) => Ok(v),
        }
    }

    /// The constant argument `a` for parameter `pv` of `func` when the copy of `func` must be
    /// made for it: `pv` is a scalar the body never writes, and the body passes it to a call
    /// that returns resources (`Texture2D get(int i) {...}` called as `get(i)`), so the
    /// resources that call returns can be known.
    pub(crate) fn resource_selector(&self, func: hlslc_sema::tast::FuncId, pv: VarId, a: ExprId) -> Option<hlslc_sema::tast::ConstValue> {
        let m = self.m;
        if !matches!(m.types.get(m.var(pv).ty), Type::Scalar(_)) || !matches!(m.var(pv).storage, hlslc_sema::tast::Storage::Param(hlslc_sema::tast::ParamDir::In)) {
            return None;
        }
        let body = m.func(func).body?;
        let range = m.spans.stmts.get(body.0 as usize).copied()?;
        let selects = m.exprs.iter().enumerate().any(|(i, e)| {
            let ExprKind::Call { args, .. } = &e.kind else { return false };
            let inside = m.spans.exprs.get(i).is_some_and(|sp| sp.file == range.file && sp.start >= range.start && sp.end <= range.end);
            inside
                && self.holds_resources(e.ty)
                && args.iter().any(|&x| {
                    let mut x = x;
                    while let ExprKind::Cast { expr, .. } = &m.expr(x).kind {
                        x = *expr;
                    }
                    matches!(m.expr(x).kind, ExprKind::Var(v) if v == pv)
                })
        });
        if !selects || written_in(m, pv, body) {
            return None;
        }
        match self.flat_constant(a)?.as_slice() {
            [c] => Some(*c),
            _ => None,
        }
    }

    /// The expressions of the `return` statements of `s` that can run (the arm a constant
    /// condition does not take is left out, and what follows a statement that always returns);
    /// whether `s` always returns.
    fn collect_returns(&self, s: hlslc_sema::tast::StmtId, out: &mut Vec<ExprId>) -> bool {
        use hlslc_sema::tast::StmtKind;
        match &self.m.stmt(s).kind {
            StmtKind::Return(Some(e)) => {
                out.push(*e);
                true
            }
            StmtKind::Block(b) => b.iter().any(|&x| self.collect_returns(x, out)),
            StmtKind::If { cond, then, otherwise } => match self.const_condition(*cond) {
                Some(true) => self.collect_returns(*then, out),
                Some(false) => otherwise.is_some_and(|o| self.collect_returns(o, out)),
                None => {
                    let t = self.collect_returns(*then, out);
                    let o = otherwise.is_some_and(|o| self.collect_returns(o, out));
                    t && o
                }
            },
            StmtKind::For { body, .. } | StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } | StmtKind::Switch { body, .. } => {
                self.collect_returns(*body, out);
                false
            }
            _ => false,
        }
    }

    /// A leaf value from an lvalue expression (a resource variable or an element of one).
    fn res_leaf_of(&mut self, e: ExprId) -> R<ResValue> {
        let place = self.lvalue(e)?;
        let Some((ptr, sc, layout)) = Self::place_ptr(&place) else {
            return unsupported("this resource expression", self.expr_span(e));
        };
        let counter = self.counter_of_expr(e)?;
        Ok(ResValue::Leaf { ptr, sc, layout, counter })
    }

    /// Builds a value of type `t` from the front of `queue` (reversed): a part of the right type
    /// is taken whole, an aggregate part is split into its own parts (an initializer list
    /// flattens its elements, as HLSL does).
    fn res_build(&mut self, t: TypeId, queue: &mut Vec<(ResValue, TypeId)>, e: ExprId) -> R<ResValue> {
        loop {
            let Some((v, vt)) = queue.pop() else {
                return unsupported("too few resources in this initializer", self.expr_span(e));
            };
            if vt == t || (!self.is_res_struct(t) && !self.is_res_array(t) && matches!(self.m.types.get(vt), Type::Object { .. })) {
                return Ok(v);
            }
            // A data member of a struct that mixes resources and data: built from the data
            // that comes next (an initializer list spreads `uint2(5, 7)` into two scalars).
            if self.is_data_type(t) {
                if self.m.types.same_value_type(vt, t) {
                    return Ok(v);
                }
                return self.res_build_data(t, (v, vt), queue, e);
            }
            if self.is_res_struct(t) || self.is_res_array(t) {
                if !self.is_res_struct(vt) && !self.is_res_array(vt) {
                    // A single resource starts the aggregate's parts.
                    queue.push((v, vt));
                    let mut parts = Vec::new();
                    for pt in self.res_part_types(t) {
                        parts.push(self.res_build(pt, queue, e)?);
                    }
                    return Ok(ResValue::Parts(parts));
                }
            }
            // Split the aggregate `v` into its parts and go on.
            let pts = self.res_part_types(vt);
            let parts = match v {
                ResValue::Parts(p) => p,
                ResValue::Leaf { ptr, sc, layout, counter } => {
                    let mut p = Vec::new();
                    for (i, &pt) in pts.iter().enumerate() {
                        let idx = self.b.ctx.const_i32(i as i32);
                        let base = Place::Ptr { ptr, sc, layout, ty: vt };
                        let Place::Ptr { ptr, .. } = self.chain(&base, &[idx], pt)? else { unreachable!("chain gives a pointer") };
                        let _ = counter;
                        p.push(ResValue::Leaf { ptr, sc, layout, counter: None });
                    }
                    p
                }
                other => vec![other; pts.len()],
            };
            for (p, pt) in parts.into_iter().zip(pts).rev() {
                queue.push((p, pt));
            }
            if queue.is_empty() {
                return unsupported("this initializer of resources", self.expr_span(e));
            }
            if self.is_res_struct(t) || self.is_res_array(t) {
                let mut parts = Vec::new();
                for pt in self.res_part_types(t) {
                    parts.push(self.res_build(pt, queue, e)?);
                }
                return Ok(ResValue::Parts(parts));
            }
        }
    }

    /// A data leaf of type `t` built from `first` and the data items after it in `queue`, as
    /// an initializer list of data builds a value; what is left of them goes back.
    fn res_build_data(&mut self, t: TypeId, first: (ResValue, TypeId), queue: &mut Vec<(ResValue, TypeId)>, e: ExprId) -> R<ResValue> {
        use super::cast::Part;
        queue.push(first);
        let mut parts = Vec::new();
        while let Some((ResValue::Leaf { ptr, sc, layout, .. }, pt)) = queue.last().cloned() {
            if !self.is_data_type(pt) {
                break;
            }
            queue.pop();
            let v = self.load(&Place::Ptr { ptr, sc, layout, ty: pt })?;
            parts.push(Part::Value(v, pt));
        }
        if parts.is_empty() {
            return unsupported(format!("this initializer of the '{}' member of a struct with resources", self.type_name(t)), self.expr_span(e));
        }
        parts.reverse();
        let built = self.build_from(t, &mut parts, e)?;
        let leaf = |me: &mut Self, v: SpvId, ty: TypeId| -> R<ResValue> {
            let ptr = me.temp_var(ty, "temp.var")?;
            me.b.store(ptr, v, None)?;
            Ok(ResValue::Leaf { ptr, sc: StorageClass::Function, layout: Layout::Logical, counter: None })
        };
        for p in parts {
            let (v, pt) = match p {
                Part::Value(v, pt) => (v, pt),
                Part::Scalar(v, k) => match self.m.types.lookup(&Type::Scalar(k)) {
                    Some(pt) => (v, pt),
                    None => return unsupported("this initializer list for a struct with resources", self.expr_span(e)),
                },
            };
            let l = leaf(self, v, pt)?;
            queue.push((l, pt));
        }
        leaf(self, built, t)
    }

    /// The place of a resource that a value designates; `what` names it in errors.
    pub(crate) fn res_place(&mut self, val: ResValue, ty: TypeId, what: &str, e: ExprId) -> R<Place> {
        match val {
            ResValue::Leaf { ptr, sc, layout, .. } => Ok(Place::Ptr { ptr, sc, layout, ty }),
            ResValue::Unset => unsupported(format!("using '{what}' before a resource is assigned to it"), self.expr_span(e)),
            ResValue::Conflict => Err(super::LowerError {
                fatal: false,
                message: format!(
                    "'{what}' designates different resources depending on the control flow that reaches this use; SPIR-V for Vulkan cannot choose a resource at run time"
                ),
                span: self.expr_span(e),
                notes: vec!["assign it the same resource on every path, or use it only inside the branch that assigns it".into()],
            }),
            ResValue::Parts(_) => unsupported(format!("'{what}', a struct or array of resources, as a value here"), self.expr_span(e)),
        }
    }

    /// The place of `base.field` (or `arr[i]`) where `base` is a struct (array) of resources.
    pub(crate) fn res_member_place(&mut self, e: ExprId) -> R<Place> {
        let val = self.res_value(e)?;
        let what = self.expr_text(e);
        self.res_place(val, self.m.expr(e).ty, &what, e)
    }

    fn res_assign_part(&mut self, lhs: ExprId, rhs: Result<ExprId, ResValue>) -> R<bool> {
        let m = self.m;
        let mut path = Vec::new();
        let mut cur = lhs;
        loop {
            match &m.expr(cur).kind {
                ExprKind::Field { base, index, via_base } if self.is_res_struct(m.expr(*base).ty) => {
                    let mut t = m.expr(*base).ty;
                    let mut steps = Vec::new();
                    for &step in via_base {
                        let (bty, _) = self.struct_member(t, step, true);
                        steps.push(step);
                        t = bty;
                    }
                    steps.push(self.struct_member(t, *index, false).1);
                    path.splice(0..0, steps);
                    cur = *base;
                }
                ExprKind::Index { base, index } if self.is_res_struct(m.expr(*base).ty) => {
                    let Some(i) = self.const_index(*index).or_else(|| self.folded_index(*index)) else {
                        return unsupported("assigning to an element of an array of structs of resources at a run-time index", self.expr_span(lhs));
                    };
                    path.insert(0, i);
                    cur = *base;
                }
                ExprKind::Var(_) | ExprKind::This if !path.is_empty() => {
                    let var = match &m.expr(cur).kind {
                        ExprKind::Var(v) => Some(*v),
                        _ => None,
                    };
                    let home = match var {
                        Some(v) => self.vars.get(&v).cloned(),
                        None => self.this_res.clone().map(VarHome::Res),
                    };
                    let Some(VarHome::Res(mut whole)) = home else { return Ok(false) };
                    let val = match rhs {
                        Ok(r) => self.res_value(r)?,
                        Err(val) => val,
                    };
                    // The data of a struct that mixes resources and data is copied into the
                    // destination's variables (`resmixed.rs`).
                    let dst = whole.get(&path).cloned().unwrap_or(ResValue::Unset);
                    let val = self.res_copy_into(dst, val, m.expr(lhs).ty, lhs)?;
                    if !whole.set(&path, val) {
                        return unsupported("assigning to this part of a struct of resources", self.expr_span(lhs));
                    }
                    match var {
                        Some(v) => {
                            self.vars.insert(v, VarHome::Res(whole));
                        }
                        None => self.this_res = Some(whole),
                    }
                    return Ok(true);
                }
                _ => return Ok(false),
            }
        }
    }

    /// `lhs = rhs` where `lhs` is a part of a local or parameter holding resources
    /// (`cb.buf = gBuf;`): from here on that part designates what `rhs` does. `Ok(false)`
    /// when `lhs` is not such a part.
    pub(crate) fn res_assign(&mut self, lhs: ExprId, rhs: ExprId) -> R<bool> {
        self.res_assign_part(lhs, Ok(rhs))
    }

    /// [`Self::res_assign`] with the value assigned already known.
    pub(crate) fn res_assign_value(&mut self, lhs: ExprId, val: ResValue) -> R<bool> {
        self.res_assign_part(lhs, Err(val))
    }

    /// Checks that a value passed to another function designates module-scope resources only
    /// (the callee's copy is bound to them; an access chain of the caller cannot cross).
    pub(crate) fn res_check_global(&self, val: &ResValue, param: &str, a: ExprId) -> R<()> {
        let mut leaves = Vec::new();
        val.leaves(&mut leaves);
        if leaves.iter().all(|p| self.global_ids.contains(p)) {
            return Ok(());
        }
        unsupported(
            format!("passing an element of an array of resources inside the struct or array argument for the parameter '{param}'"),
            self.expr_span(a),
        )
    }

    /// Whether `e` is (a part of) a value held at compile time: a variable whose home is a
    /// [`ResValue`], a member of a struct of resources, an element of either.
    pub(crate) fn res_held(&self, e: ExprId) -> bool {
        let m = self.m;
        match &m.expr(e).kind {
            ExprKind::Var(v) => match self.vars.get(v) {
                Some(VarHome::Res(_)) => true,
                Some(VarHome::Alias(init)) => !m.expr(*init).lvalue && self.holds_resources(m.expr(e).ty),
                _ => false,
            },
            ExprKind::Field { base, .. } => self.is_res_struct(m.expr(*base).ty),
            ExprKind::Index { base, .. } => self.is_res_array(m.expr(*base).ty) && self.res_held(*base),
            ExprKind::Cast { expr, .. } => self.res_held(*expr),
            ExprKind::This => self.this_res.is_some(),
            _ => false,
        }
    }

    /// A constant index that sema did not fold into a literal (`i` of a `static const`).
    fn folded_index(&self, e: ExprId) -> Option<u32> {
        match self.m.expr(e).kind {
            ExprKind::Var(v) => match self.m.var(v).const_value {
                Some(hlslc_sema::tast::ConstValue::Int(i)) if i >= 0 => Some(i as u32),
                _ => None,
            },
            _ => None,
        }
    }

    /// The source spelling of a variable or member access, for messages.
    pub(crate) fn expr_text(&self, e: ExprId) -> String {
        let m = self.m;
        match &m.expr(e).kind {
            ExprKind::Var(v) => m.var(*v).name.clone(),
            ExprKind::Field { base, index, via_base } => {
                let mut t = m.expr(*base).ty;
                for &step in via_base {
                    t = self.struct_member(t, step, true).0;
                }
                let name = match m.types.get(t) {
                    Type::Struct(sid) => m.types.structs[sid.0 as usize].fields.get(*index as usize).map_or(String::new(), |f| f.name.clone()),
                    _ => String::new(),
                };
                format!("{}.{name}", self.expr_text(*base))
            }
            ExprKind::Index { base, index } => match self.const_index(*index) {
                Some(i) => format!("{}[{i}]", self.expr_text(*base)),
                None => format!("{}[...]", self.expr_text(*base)),
            },
            ExprKind::Cast { expr, .. } => self.expr_text(*expr),
            _ => "this expression".into(),
        }
    }

    /// The counter of the buffer that `obj` designates: a counted buffer variable's, the same
    /// element of an array of counters for `bufs[i]`, a struct member's.
    pub(crate) fn counter_of_expr(&mut self, obj: ExprId) -> R<Option<SpvId>> {
        let m = self.m;
        let root = super::resources::indexed_root(m, obj);
        let held = match &m.expr(root).kind {
            ExprKind::Var(v) => matches!(self.vars.get(v), Some(VarHome::Res(_))),
            ExprKind::Field { base, .. } => self.is_res_struct(m.expr(*base).ty),
            ExprKind::Call { .. } => self.holds_resources(m.expr(root).ty),
            _ => false,
        };
        if held {
            return Ok(match self.res_value(obj)? {
                ResValue::Leaf { counter, .. } => counter,
                _ => None,
            });
        }
        let counter = match &m.expr(root).kind {
            ExprKind::Var(v) => self.counters.get(v).copied(),
            _ => None,
        };
        match counter {
            Some(c) if root != obj => Ok(Some(self.counter_element(c, obj)?)),
            other => Ok(other),
        }
    }
}

pub(crate) fn written_in_pub(m: &hlslc_sema::tast::Module, v: VarId, s: hlslc_sema::tast::StmtId) -> bool {
    written_in(m, v, s)
}

/// Whether the body `s` of a function may write variable `v`: an assignment to it (or to a part
/// of it), an increment or decrement of it, passing it as an `out`/`inout` argument or to an
/// intrinsic (some have `out` parameters), found by the source range of the body.
fn written_in(m: &hlslc_sema::tast::Module, v: VarId, s: hlslc_sema::tast::StmtId) -> bool {
    let Some(range) = m.spans.stmts.get(s.0 as usize).copied() else { return true };
    let root_is_v = |mut e: ExprId| loop {
        match &m.expr(e).kind {
            ExprKind::Field { base, .. } | ExprKind::Index { base, .. } => e = *base,
            ExprKind::Cast { expr, .. } => e = *expr,
            ExprKind::Var(x) => return *x == v,
            _ => return false,
        }
    };
    for (i, e) in m.exprs.iter().enumerate() {
        let Some(sp) = m.spans.exprs.get(i) else { continue };
        if sp.file != range.file || sp.start < range.start || sp.end > range.end {
            continue;
        }
        use hlslc_frontend::ast::UnaryOp as U;
        let writes = match &e.kind {
            ExprKind::Assign { lhs, .. } | ExprKind::CompoundAssign { lhs, .. } => root_is_v(*lhs),
            ExprKind::Unary { op: U::PreInc | U::PreDec | U::PostInc | U::PostDec, operand } => root_is_v(*operand),
            ExprKind::OutArg { lvalue, .. } => root_is_v(*lvalue),
            ExprKind::Call { func, args, this_arg } => {
                let params = &m.func(*func).params;
                this_arg.is_some_and(root_is_v)
                    || args.iter().enumerate().any(|(k, &a)| {
                        let by_value = params.get(k).is_some_and(|&p| {
                            matches!(m.var(p).storage, hlslc_sema::tast::Storage::Param(hlslc_sema::tast::ParamDir::In))
                        });
                        !by_value && root_is_v(a)
                    })
            }
            ExprKind::Intrinsic { args, object, .. } => args.iter().chain(object.iter()).any(|&a| root_is_v(a)),
            _ => false,
        };
        if writes {
            return true;
        }
    }
    false
}
