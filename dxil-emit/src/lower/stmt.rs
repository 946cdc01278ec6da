//! Statements and control flow. Locals stay in SSA form: where control flow merges, each
//! variable whose value differs between the incoming edges gets a phi; loop headers get phis for
//! the variables the loop assigns, completed when the back edge is known.

use super::{unsupported, Flat, LoopCtx, Lowerer, Vars, R};
use crate::ir::{BlockId, Value};
use hlslc_frontend::ast::UnaryOp;
use hlslc_sema::tast::{ConstValue, ExprId, ExprKind, ParamDir, StmtId, StmtKind, Storage, VarId};
use hlslc_sema::types::TypeId;
use std::collections::BTreeSet;

impl Lowerer<'_> {
    /// Lowers a statement (with `-Zi`, its instructions get its location).
    pub(crate) fn stmt(&mut self, s: StmtId) -> R<()> {
        if self.debug_scope.is_none() {
            return self.stmt_here(s);
        }
        let saved = self.set_location(Some(self.t.stmt_span(s)));
        let r = self.stmt_here(s);
        self.restore_location(saved);
        r
    }

    fn stmt_here(&mut self, s: StmtId) -> R<()> {
        let t = self.t;
        if self.terminated {
            return Ok(());
        }
        let span = Some(t.stmt_span(s));
        match &t.stmt(s).kind {
            StmtKind::Expr(e) => {
                self.expr(*e)?;
            }
            StmtKind::Decl(vars) => {
                for &v in vars {
                    let var = t.var(v);
                    if var.storage == Storage::GroupShared {
                        continue;
                    }
                    if var.storage == Storage::Static && self.vars.contains_key(&v) {
                        continue;
                    }
                    let init = match var.init {
                        Some(e) if var.precise => {
                            let outer = std::mem::replace(&mut self.precise, true);
                            let v = self.expr(e);
                            self.precise = outer;
                            v?
                        }
                        Some(e) => self.expr(e)?,
                        None if var.storage == Storage::Static => self.zero_of(var.ty),
                        None if self.is_ray_query(var.ty) => self.allocate_ray_queries(var.ty, Some(var.span))?,
                        None => {
                            let kinds = self.leaf_kinds(var.ty);
                            kinds.into_iter().map(|k| self.undef_of(k)).collect()
                        }
                    };
                    self.vars.insert(v, init);
                }
            }
            StmtKind::Block(list) => {
                for &st in list {
                    self.stmt(st)?;
                }
            }
            StmtKind::Empty | StmtKind::Case(_) | StmtKind::Default => {}
            StmtKind::If { cond, then, otherwise } => self.if_stmt(*cond, *then, *otherwise)?,
            StmtKind::For { init, cond, step, body } => {
                if let Some(i) = init {
                    self.stmt(*i)?;
                }
                self.loop_stmt(s, *cond, *step, *body, false)?;
            }
            StmtKind::While { cond, body } => self.loop_stmt(s, Some(*cond), None, *body, false)?,
            StmtKind::DoWhile { body, cond } => self.loop_stmt(s, Some(*cond), None, *body, true)?,
            StmtKind::Switch { cond, body } => self.switch_stmt(*cond, *body)?,
            StmtKind::Break => {
                let cur = self.current();
                let vars = self.vars.clone();
                let Some(ctx) = self.loops.last_mut() else { return unsupported("`break` outside a loop or switch", span) };
                ctx.breaks.push((cur, vars));
                let target = ctx.break_block;
                self.b.br(target);
                self.terminated = true;
            }
            StmtKind::Continue => {
                let cur = self.current();
                let vars = self.vars.clone();
                let Some(ctx) = self.loops.iter_mut().rev().find(|c| c.continue_block != c.break_block) else {
                    return unsupported("`continue` outside a loop", span);
                };
                ctx.continues.push((cur, vars));
                let target = ctx.continue_block;
                self.b.br(target);
                self.terminated = true;
            }
            StmtKind::Return(value) => {
                let v = match value {
                    Some(e) => self.expr(*e)?,
                    None => Vec::new(),
                };
                let cur = self.current();
                let vars = self.vars.clone();
                let Some(ctx) = self.returns.last_mut() else { return unsupported("`return` here", span) };
                ctx.edges.push((cur, vars, v));
                let target = ctx.block;
                self.b.br(target);
                self.terminated = true;
            }
            StmtKind::Discard => {
                let t = self.cbool(true);
                self.op(crate::ops::DxilOp::Discard, crate::ops::Overload::None, &[t], span)?;
            }
        }
        Ok(())
    }

    /// Ends an inlined body: branches to its return block, merges the values reaching it and
    /// returns the function's result (`len` components of `ty`).
    pub(crate) fn finish_returns(&mut self, ty: TypeId, len: usize) -> R<Flat> {
        let mut ctx = self.returns.pop().expect("return context");
        if !self.terminated {
            let kinds = self.leaf_kinds(ty);
            let undef: Flat = kinds.into_iter().map(|k| self.undef_of(k)).collect();
            ctx.edges.push((self.current(), self.vars.clone(), undef));
            self.b.br(ctx.block);
        }
        self.switch_to(ctx.block);
        if ctx.edges.is_empty() {
            self.b.unreachable();
            self.terminated = true;
            let kinds = self.leaf_kinds(ty);
            return Ok(kinds.into_iter().map(|k| self.undef_of(k)).collect());
        }
        let edges: Vec<(BlockId, Vars)> = ctx.edges.iter().map(|(b, v, _)| (*b, v.clone())).collect();
        let mut vals = Vec::new();
        for i in 0..len {
            let incoming: Vec<(Value, BlockId)> = ctx.edges.iter().map(|(b, _, r)| (r.get(i).copied().unwrap_or(r[0]), *b)).collect();
            vals.push(self.merge_value(incoming));
        }
        self.vars = self.merge(edges);
        Ok(vals)
    }

    /// One phi (or the common value when all edges agree).
    fn merge_value(&mut self, incoming: Vec<(Value, BlockId)>) -> Value {
        let first = incoming[0].0;
        if incoming.iter().all(|(v, _)| *v == first) {
            return first;
        }
        let ty = self.b.type_of(first);
        self.b.phi(ty, incoming)
    }

    /// The variables after a merge of `edges` into the current block (phis where they differ;
    /// variables missing on some edge are out of scope and dropped).
    pub(crate) fn merge(&mut self, edges: Vec<(BlockId, Vars)>) -> Vars {
        if edges.len() == 1 {
            return edges.into_iter().next().map(|e| e.1).unwrap_or_default();
        }
        let mut keys: Vec<VarId> = edges[0].1.keys().copied().filter(|k| edges.iter().all(|(_, v)| v.contains_key(k))).collect();
        keys.sort();
        let mut out = Vars::new();
        for k in keys {
            let n = edges[0].1[&k].len();
            let mut vals = Vec::new();
            for i in 0..n {
                let incoming = edges.iter().map(|(b, v)| (v[&k].get(i).copied().unwrap_or(v[&k][0]), *b)).collect();
                vals.push(self.merge_value(incoming));
            }
            out.insert(k, vals);
        }
        out
    }

    /// Continues in `block` after the edges into it (unreachable when there are none).
    pub(crate) fn enter_merge(&mut self, block: BlockId, edges: Vec<(BlockId, Vars)>) {
        self.switch_to(block);
        if edges.is_empty() {
            self.b.unreachable();
            self.terminated = true;
        } else {
            self.vars = self.merge(edges);
        }
    }

    fn if_stmt(&mut self, cond: ExprId, then: StmtId, otherwise: Option<StmtId>) -> R<()> {
        let c = self.expr(cond)?[0];
        if let Some(ConstValue::Bool(b)) = self.const_of(c) {
            return match (b, otherwise) {
                (true, _) => self.stmt(then),
                (false, Some(o)) => self.stmt(o),
                (false, None) => Ok(()),
            };
        }
        let tb = self.new_block();
        let eb = otherwise.map(|_| self.new_block());
        let merge = self.new_block();
        let before = self.vars.clone();
        let mut edges = Vec::new();
        self.b.cond_br(c, tb, eb.unwrap_or(merge));
        if eb.is_none() {
            edges.push((self.current(), before.clone()));
        }
        self.switch_to(tb);
        self.stmt(then)?;
        if !self.terminated {
            edges.push((self.current(), self.vars.clone()));
            self.b.br(merge);
        }
        if let (Some(eb), Some(o)) = (eb, otherwise) {
            self.vars = before;
            self.switch_to(eb);
            self.stmt(o)?;
            if !self.terminated {
                edges.push((self.current(), self.vars.clone()));
                self.b.br(merge);
            }
        }
        self.enter_merge(merge, edges);
        Ok(())
    }

    fn loop_stmt(&mut self, s: StmtId, cond: Option<ExprId>, step: Option<ExprId>, body: StmtId, do_while: bool) -> R<()> {
        if !do_while {
            if let Some(c) = cond {
                // `while (false)` never runs (evaluate side-effect-free constant conditions only).
                if let ExprKind::Const(ConstValue::Bool(false)) = self.t.expr(c).kind {
                    return Ok(());
                }
            }
        }
        let mut assigned = BTreeSet::new();
        self.assigned_in_stmt(s, &mut assigned, 0);
        let header = self.new_block();
        let body_b = self.new_block();
        let latch = self.new_block();
        let exit = self.new_block();
        let pre = self.current();
        self.b.br(header);
        self.switch_to(header);
        // Header phis for the variables the loop changes.
        let mut phis: Vec<(VarId, usize, Value)> = Vec::new();
        for v in assigned {
            let Some(vals) = self.vars.get(&v).cloned() else { continue };
            let mut new = Vec::new();
            for (i, x) in vals.into_iter().enumerate() {
                let ty = self.b.type_of(x);
                let p = self.b.phi(ty, vec![(x, pre)]);
                phis.push((v, i, p));
                new.push(p);
            }
            self.vars.insert(v, new);
        }
        let mut exit_edges = Vec::new();
        let mut ctx = LoopCtx { break_block: exit, continue_block: latch, breaks: Vec::new(), continues: Vec::new() };
        if do_while {
            self.b.br(body_b);
        } else {
            match cond {
                Some(c) => {
                    let cv = self.expr(c)?[0];
                    match self.const_of(cv) {
                        Some(ConstValue::Bool(true)) => self.b.br(body_b),
                        _ => {
                            exit_edges.push((self.current(), self.vars.clone()));
                            self.b.cond_br(cv, body_b, exit);
                        }
                    }
                }
                None => self.b.br(body_b),
            }
        }
        self.switch_to(body_b);
        self.loops.push(LoopCtx { ..std::mem::replace(&mut ctx, LoopCtx { break_block: exit, continue_block: latch, breaks: Vec::new(), continues: Vec::new() }) });
        let r = self.stmt(body);
        let mut ctx = self.loops.pop().expect("loop context");
        r?;
        if !self.terminated {
            ctx.continues.push((self.current(), self.vars.clone()));
            self.b.br(latch);
        }
        self.switch_to(latch);
        if ctx.continues.is_empty() {
            self.b.unreachable();
        } else {
            self.vars = self.merge(std::mem::take(&mut ctx.continues));
            if let Some(st) = step {
                self.expr(st)?;
            }
            let back = if do_while {
                let cv = self.expr(cond.expect("do-while condition"))?[0];
                match self.const_of(cv) {
                    Some(ConstValue::Bool(false)) => {
                        exit_edges.push((self.current(), self.vars.clone()));
                        self.b.br(exit);
                        false
                    }
                    Some(ConstValue::Bool(true)) => {
                        self.b.br(header);
                        true
                    }
                    _ => {
                        exit_edges.push((self.current(), self.vars.clone()));
                        self.b.cond_br(cv, header, exit);
                        true
                    }
                }
            } else {
                self.b.br(header);
                true
            };
            let latch_end = self.current();
            for (v, i, p) in &phis {
                let val = if back { self.vars.get(v).and_then(|f| f.get(*i).copied()) } else { None };
                match val {
                    Some(x) => self.b.add_incoming(*p, x, latch_end),
                    None if back => {
                        let ty = self.b.type_of(*p);
                        let u = Value::Const(self.b.module.undef(ty));
                        self.b.add_incoming(*p, u, latch_end)
                    }
                    None => {}
                }
            }
        }
        exit_edges.extend(ctx.breaks);
        self.enter_merge(exit, exit_edges);
        Ok(())
    }

    fn switch_stmt(&mut self, cond: ExprId, body: StmtId) -> R<()> {
        let t = self.t;
        let c = self.expr(cond)?[0];
        let list = match &t.stmt(body).kind {
            StmtKind::Block(l) => l.clone(),
            _ => vec![body],
        };
        let cty = self.b.type_of(c);
        if let Value::Const(k) = c {
            return self.const_switch(k, cty, &list);
        }
        let exit = self.new_block();
        let mut labels = Vec::new();
        let mut cases = Vec::new();
        let mut default = None;
        for &st in &list {
            match t.stmt(st).kind {
                StmtKind::Case(v) => {
                    let b = self.new_block();
                    labels.push((st, b));
                    cases.push((self.b.module.const_int(cty, v), b));
                }
                StmtKind::Default => {
                    let b = self.new_block();
                    labels.push((st, b));
                    default = Some(b);
                }
                _ => {}
            }
        }
        let switch_block = self.current();
        let before = self.vars.clone();
        let mut exit_edges = Vec::new();
        if default.is_none() {
            exit_edges.push((switch_block, before.clone()));
        }
        self.b.switch(c, default.unwrap_or(exit), cases);
        self.terminated = true;
        // A switch is a break target only: `continue` skips it (continue_block == break_block).
        self.loops.push(LoopCtx { break_block: exit, continue_block: exit, breaks: Vec::new(), continues: Vec::new() });
        let mut li = 0;
        let mut result = Ok(());
        for &st in &list {
            if let Some(&(_, blk)) = labels.get(li).filter(|(l, _)| *l == st) {
                li += 1;
                let mut edges = vec![(switch_block, before.clone())];
                if !self.terminated {
                    edges.push((self.current(), self.vars.clone()));
                    self.b.br(blk);
                }
                self.switch_to(blk);
                self.vars = self.merge(edges);
                continue;
            }
            if let Err(e) = self.stmt(st) {
                result = Err(e);
                break;
            }
        }
        let ctx = self.loops.pop().expect("switch context");
        result?;
        if !self.terminated {
            exit_edges.push((self.current(), self.vars.clone()));
            self.b.br(exit);
        }
        exit_edges.extend(ctx.breaks);
        self.enter_merge(exit, exit_edges);
        Ok(())
    }

    /// A switch on a constant (as dxc's optimizer leaves it): only the label the value selects
    /// (else `default`) is reachable, so the statements from there on are lowered in line, falling
    /// through later labels, up to a `break` (an edge to the exit). No `switch` instruction and no
    /// dead case blocks: their values would otherwise meet in phis, and a phi of resource handles
    /// is what DXIL readers (dxil-spirv) cannot map back to one resource.
    fn const_switch(&mut self, k: crate::ir::ConstId, cty: crate::ir::TypeId, list: &[StmtId]) -> R<()> {
        let t = self.t;
        let mut start = None;
        let mut default = None;
        for (i, &st) in list.iter().enumerate() {
            match t.stmt(st).kind {
                StmtKind::Case(v) if start.is_none() && self.b.module.const_int(cty, v) == k => start = Some(i),
                StmtKind::Default => default = Some(i),
                _ => {}
            }
        }
        let Some(start) = start.or(default) else { return Ok(()) };
        let exit = self.new_block();
        self.loops.push(LoopCtx { break_block: exit, continue_block: exit, breaks: Vec::new(), continues: Vec::new() });
        let mut result = Ok(());
        for &st in &list[start..] {
            if let Err(e) = self.stmt(st) {
                result = Err(e);
                break;
            }
        }
        let ctx = self.loops.pop().expect("switch context");
        result?;
        let mut edges = ctx.breaks;
        if !self.terminated {
            edges.push((self.current(), self.vars.clone()));
            self.b.br(exit);
        }
        self.enter_merge(exit, edges);
        Ok(())
    }

    /// Variables a statement may assign (including through inlined calls).
    fn assigned_in_stmt(&self, s: StmtId, out: &mut BTreeSet<VarId>, depth: u32) {
        let t = self.t;
        if depth > 64 {
            return;
        }
        match &t.stmt(s).kind {
            StmtKind::Expr(e) | StmtKind::Return(Some(e)) => self.assigned_in_expr(*e, out, depth),
            StmtKind::Decl(vs) => {
                for v in vs {
                    out.insert(*v);
                    if let Some(i) = t.var(*v).init {
                        self.assigned_in_expr(i, out, depth);
                    }
                }
            }
            StmtKind::Block(l) => l.iter().for_each(|x| self.assigned_in_stmt(*x, out, depth)),
            StmtKind::If { cond, then, otherwise } => {
                self.assigned_in_expr(*cond, out, depth);
                self.assigned_in_stmt(*then, out, depth);
                if let Some(o) = otherwise {
                    self.assigned_in_stmt(*o, out, depth);
                }
            }
            StmtKind::For { init, cond, step, body } => {
                if let Some(i) = init {
                    self.assigned_in_stmt(*i, out, depth);
                }
                for e in cond.iter().chain(step.iter()) {
                    self.assigned_in_expr(*e, out, depth);
                }
                self.assigned_in_stmt(*body, out, depth);
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } | StmtKind::Switch { cond, body } => {
                self.assigned_in_expr(*cond, out, depth);
                self.assigned_in_stmt(*body, out, depth);
            }
            _ => {}
        }
    }

    fn root_var(&self, mut e: ExprId) -> Option<VarId> {
        loop {
            match &self.t.expr(e).kind {
                ExprKind::Var(v) => return Some(*v),
                ExprKind::This => return self.this_stack.last().copied(),
                ExprKind::Field { base, .. } | ExprKind::Swizzle { base, .. } | ExprKind::MatrixSwizzle { base, .. } | ExprKind::Index { base, .. } => e = *base,
                ExprKind::OutArg { lvalue, .. } => e = *lvalue,
                ExprKind::Cast { expr, .. } if self.t.expr(e).lvalue => e = *expr,
                _ => return None,
            }
        }
    }

    fn assigned_in_expr(&self, e: ExprId, out: &mut BTreeSet<VarId>, depth: u32) {
        let t = self.t;
        let add = |x: ExprId, out: &mut BTreeSet<VarId>| {
            if let Some(v) = self.root_var(x) {
                out.insert(v);
            }
        };
        match &t.expr(e).kind {
            ExprKind::Assign { lhs, rhs, .. } | ExprKind::CompoundAssign { lhs, rhs, .. } => {
                add(*lhs, out);
                self.assigned_in_expr(*lhs, out, depth);
                self.assigned_in_expr(*rhs, out, depth);
            }
            ExprKind::Unary { op, operand } => {
                if matches!(op, UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec) {
                    add(*operand, out);
                }
                self.assigned_in_expr(*operand, out, depth);
            }
            ExprKind::Call { func, this_arg, args } => {
                let f = t.func(*func);
                for (p, a) in f.params.iter().zip(args) {
                    if matches!(t.var(*p).storage, Storage::Param(ParamDir::Out | ParamDir::InOut)) {
                        add(*a, out);
                    }
                    self.assigned_in_expr(*a, out, depth);
                }
                if let Some(a) = this_arg {
                    add(*a, out);
                    self.assigned_in_expr(*a, out, depth);
                }
                if let Some(b) = f.body {
                    self.assigned_in_stmt(b, out, depth + 1);
                }
            }
            ExprKind::Intrinsic { object, args, .. } => {
                for a in args.iter().chain(object.iter()) {
                    if t.expr(*a).lvalue {
                        add(*a, out);
                    }
                    self.assigned_in_expr(*a, out, depth);
                }
            }
            ExprKind::Binary { lhs, rhs, .. } | ExprKind::Comma { lhs, rhs } => {
                self.assigned_in_expr(*lhs, out, depth);
                self.assigned_in_expr(*rhs, out, depth);
            }
            ExprKind::Ternary { cond, then, otherwise } => {
                for x in [cond, then, otherwise] {
                    self.assigned_in_expr(*x, out, depth);
                }
            }
            ExprKind::Cast { expr, .. } => self.assigned_in_expr(*expr, out, depth),
            ExprKind::Construct { args } => args.iter().for_each(|a| self.assigned_in_expr(*a, out, depth)),
            ExprKind::Field { base, .. } | ExprKind::Swizzle { base, .. } | ExprKind::MatrixSwizzle { base, .. } => {
                self.assigned_in_expr(*base, out, depth)
            }
            ExprKind::Index { base, index } => {
                self.assigned_in_expr(*base, out, depth);
                self.assigned_in_expr(*index, out, depth);
            }
            ExprKind::OutArg { lvalue, .. } => self.assigned_in_expr(*lvalue, out, depth),
            _ => {}
        }
    }
}
