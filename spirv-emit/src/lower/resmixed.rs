//! Structs that mix resources and data (`struct Material { Texture2D t; SamplerState s;
//! float4 tint; }`), and `out`/`inout` resource parameters.
//!
//! DXC emits a Function variable of such a struct (a struct holding pointers to resources) and
//! relies on spirv-opt's legalization to take it apart. hlslc takes it apart while lowering, as
//! that legalization's scalar replacement would: a local of such a type is a [`ResValue`] whose
//! resource leaves designate module-scope resources (known at compile time, as for structs of
//! resources only) and whose *data* leaves (a member, or element, holding no resource) are
//! Function variables of their own. Copying such a value copies its data leaves into the
//! destination's variables and rebinds its resource leaves.
//!
//! A parameter of such a type selects a copy of the function for the resources passed (as a
//! struct of resources does); each data leaf is a parameter of its own, a pointer to a copy the
//! caller makes (`param.var.NAME`).
//!
//! An `out`/`inout` parameter of resource type makes the caller's variable designate what the
//! callee assigns to it: every assignment of the parameter in the callee's body (with the
//! callee's other parameters designating what the caller passes) must designate the same
//! resource, as DXC requires once its legalization has inlined the call.

use super::layout::Layout;
use super::place::Place;
use super::resvalue::ResValue;
use super::{unsupported, Lowerer, VarHome, R};
use crate::id::SpvId;
use hlslc_sema::tast::{ExprId, ExprKind, FuncId, VarId};
use hlslc_sema::types::TypeId;
use spirv::StorageClass;

/// A parameter's state saved while a callee's parameters are bound in the caller's context.
pub(crate) type SavedParam = (VarId, Option<VarHome>, Option<SpvId>);

impl<'m> Lowerer<'m> {
    /// A type holding no resource: a leaf of data inside a struct that mixes resources and data.
    pub(crate) fn is_data_type(&self, t: TypeId) -> bool {
        !self.holds_resources(t) && !self.mixes_resources(t) && !self.is_descriptor_object(t)
    }

    /// The types of the data leaves of a value of type `t`, in order (members first to last,
    /// elements first to last, depth first).
    pub(crate) fn data_slots(&self, t: TypeId, out: &mut Vec<TypeId>) {
        if self.is_data_type(t) {
            out.push(t);
        } else if self.is_res_struct(t) {
            for pt in self.res_part_types(t) {
                self.data_slots(pt, out);
            }
        }
    }

    /// A fresh value of type `t` for the variable `name`: a Function variable for each data
    /// leaf, nothing assigned to its resources.
    pub(crate) fn res_fresh(&mut self, t: TypeId, name: &str) -> R<ResValue> {
        if self.is_data_type(t) {
            let ptr = self.temp_var(t, name)?;
            return Ok(ResValue::Leaf { ptr, sc: StorageClass::Function, layout: Layout::Logical, counter: None });
        }
        if self.is_res_struct(t) {
            let mut parts = Vec::new();
            for pt in self.res_part_types(t) {
                parts.push(self.res_fresh(pt, name)?);
            }
            return Ok(ResValue::Parts(parts));
        }
        Ok(ResValue::Unset)
    }

    /// `dst = src` for values of type `t`: the data of `src` is stored into `dst`'s data leaves
    /// (which stay the destination's variables), its resources replace `dst`'s. A type without
    /// data gives `src` itself.
    pub(crate) fn res_copy_into(&mut self, dst: ResValue, src: ResValue, t: TypeId, e: ExprId) -> R<ResValue> {
        let mut slots = Vec::new();
        self.data_slots(t, &mut slots);
        if slots.is_empty() {
            return Ok(src);
        }
        if self.is_data_type(t) {
            match (&dst, src) {
                (ResValue::Leaf { ptr: d, .. }, ResValue::Leaf { ptr: s, sc, layout, .. }) => {
                    let v = self.load(&Place::Ptr { ptr: s, sc, layout, ty: t })?;
                    self.b.store(*d, v, None)?;
                }
                // Nothing was assigned to the source's data: nothing to copy.
                (_, ResValue::Unset) => {}
                _ => return unsupported(format!("copying this value of type '{}' inside a struct with resources", self.type_name(t)), self.expr_span(e)),
            }
            return Ok(dst);
        }
        match (dst, src) {
            (ResValue::Parts(d), ResValue::Parts(s)) if d.len() == s.len() => {
                let pts = self.res_part_types(t);
                let mut out = Vec::new();
                for ((dp, sp), pt) in d.into_iter().zip(s).zip(pts) {
                    out.push(self.res_copy_into(dp, sp, pt, e)?);
                }
                Ok(ResValue::Parts(out))
            }
            (d, ResValue::Unset) => Ok(d),
            _ => unsupported(format!("this copy of a value of type '{}', which holds resources and data", self.type_name(t)), self.expr_span(e)),
        }
    }

    /// Splits `val` (of type `t`) into its resources (data leaves made [`ResValue::Unset`], the
    /// key of a function copy) and the pointers of its data leaves, in [`Self::data_slots`] order.
    pub(crate) fn res_split_data(&self, val: &ResValue, t: TypeId, data: &mut Vec<Option<SpvId>>) -> ResValue {
        if self.is_data_type(t) {
            data.push(match val {
                ResValue::Leaf { ptr, .. } => Some(*ptr),
                _ => None,
            });
            return ResValue::Unset;
        }
        match val {
            ResValue::Parts(p) if self.is_res_struct(t) => {
                let pts = self.res_part_types(t);
                ResValue::Parts(p.iter().zip(pts).map(|(x, pt)| self.res_split_data(x, pt, data)).collect())
            }
            other => {
                // No parts known (nothing assigned): each data slot is unset too.
                let mut slots = Vec::new();
                self.data_slots(t, &mut slots);
                data.extend(slots.iter().map(|_| None));
                other.clone()
            }
        }
    }

    /// The inverse of [`Self::res_split_data`] in a function's copy: the data leaves of `val`
    /// become the pointers `data` gives (the copy's parameters), in order.
    pub(crate) fn res_fill_data(&self, val: &ResValue, t: TypeId, data: &mut std::vec::IntoIter<SpvId>) -> ResValue {
        if self.is_data_type(t) {
            return match data.next() {
                Some(ptr) => ResValue::Leaf { ptr, sc: StorageClass::Function, layout: Layout::Logical, counter: None },
                None => ResValue::Unset,
            };
        }
        let pts = self.res_part_types(t);
        match val {
            ResValue::Parts(p) if p.len() == pts.len() => {
                ResValue::Parts(p.iter().zip(pts).map(|(x, pt)| self.res_fill_data(x, pt, data)).collect())
            }
            ResValue::Unset if self.is_res_struct(t) => {
                ResValue::Parts(pts.into_iter().map(|pt| self.res_fill_data(&ResValue::Unset, pt, data)).collect())
            }
            other => other.clone(),
        }
    }

    /// For an `in` argument `a` of a parameter of type `t` that mixes resources and data: the
    /// resources it passes, and copies (`param.var.NAME`) of its data, to pass by pointer.
    pub(crate) fn res_mixed_argument(&mut self, a: ExprId, t: TypeId, name: &str) -> R<(ResValue, Vec<SpvId>)> {
        let val = self.res_value(a)?;
        let mut data = Vec::new();
        let res = self.res_split_data(&val, t, &mut data);
        let mut slots = Vec::new();
        self.data_slots(t, &mut slots);
        let mut ptrs = Vec::new();
        for (src, st) in data.into_iter().zip(slots) {
            let tmp = self.temp_var(st, &format!("param.var.{name}"))?;
            if let Some(s) = src {
                let v = self.load(&Place::Ptr { ptr: s, sc: StorageClass::Function, layout: Layout::Logical, ty: st })?;
                self.b.store(tmp, v, None)?;
            }
            ptrs.push(tmp);
        }
        Ok((res, ptrs))
    }

    /// Binds the parameters of `func` that hold resources to what `args` designate, in the
    /// caller's context (to evaluate what the callee returns or assigns); undone by
    /// [`Self::res_unbind_params`].
    pub(crate) fn res_bind_params(&mut self, func: FuncId, args: &[ExprId]) -> R<Vec<SavedParam>> {
        let m = self.m;
        let f = m.func(func);
        let mut saved = Vec::new();
        for (i, &pv) in f.params.iter().enumerate() {
            let Some(&a) = args.get(i) else { break };
            if !self.holds_resources(m.var(pv).ty) {
                continue;
            }
            let a = match &m.expr(a).kind {
                ExprKind::OutArg { lvalue, .. } => *lvalue,
                _ => a,
            };
            let out_only = matches!(m.var(pv).storage, hlslc_sema::tast::Storage::Param(hlslc_sema::tast::ParamDir::Out));
            let val = if out_only { self.res_unset(m.var(pv).ty) } else { self.res_value(a)? };
            saved.push((pv, self.vars.remove(&pv), self.counters.remove(&pv)));
            self.set_res_state(pv, val);
        }
        Ok(saved)
    }

    pub(crate) fn res_unbind_params(&mut self, saved: Vec<SavedParam>) {
        for (pv, home, counter) in saved.into_iter().rev() {
            self.vars.remove(&pv);
            self.counters.remove(&pv);
            if let Some(h) = home {
                self.vars.insert(pv, h);
            }
            if let Some(c) = counter {
                self.counters.insert(pv, c);
            }
        }
    }

    /// What the `out`/`inout` resource parameter `pv` of `func` designates when a call with
    /// `args` returns: what every assignment to it in the body designates (`inval`, what an
    /// `inout` argument passes, when the body assigns none).
    pub(crate) fn res_out_value(&mut self, func: FuncId, args: &[ExprId], pv: VarId, inval: Option<ResValue>, e: ExprId) -> R<ResValue> {
        let m = self.m;
        let f = m.func(func);
        let pname = m.var(pv).name.clone();
        let Some(body) = f.body else {
            return unsupported(format!("calling '{}', which has no body", f.name), self.expr_span(e));
        };
        let Some(range) = m.spans.stmts.get(body.0 as usize).copied() else {
            return unsupported(format!("the out parameter '{pname}' of '{}'", f.name), self.expr_span(e));
        };
        let is_pv = |mut x: ExprId| loop {
            match &m.expr(x).kind {
                ExprKind::Cast { expr, .. } => x = *expr,
                ExprKind::Var(v) => return *v == pv,
                _ => return false,
            }
        };
        let mut rhss = Vec::new();
        for (i, ex) in m.exprs.iter().enumerate() {
            let Some(sp) = m.spans.exprs.get(i) else { continue };
            if sp.file != range.file || sp.start < range.start || sp.end > range.end {
                continue;
            }
            if let ExprKind::Assign { op: None, lhs, rhs } = &ex.kind {
                if is_pv(*lhs) {
                    rhss.push(*rhs);
                }
            }
        }
        if rhss.is_empty() {
            // Any other write (a member, a nested out argument) cannot be followed here.
            return match inval {
                Some(v) if !super::resvalue::written_in_pub(m, pv, body) => Ok(v),
                _ => unsupported(
                    format!("the out parameter '{pname}' of '{}', which is not assigned a resource directly in its body", f.name),
                    self.expr_span(e),
                ),
            };
        }
        // The body's top-level statements: when every assignment is one of them and no
        // `return` comes before the last, the last assignment is what the caller gets; other
        // bodies must assign the same resource on every path (an `inout` argument's own
        // resource counting as one).
        use hlslc_sema::tast::StmtKind;
        let tops: Vec<hlslc_sema::tast::StmtId> = match &m.stmt(body).kind {
            StmtKind::Block(b) => b.clone(),
            _ => vec![body],
        };
        let top_assign = |x: ExprId| tops.iter().any(|&st| matches!(m.stmt(st).kind, StmtKind::Expr(y) if y == x));
        let mut returns = 0usize;
        for (k, &st) in tops.iter().enumerate() {
            if matches!(m.stmt(st).kind, StmtKind::Return(_)) && k + 1 != tops.len() {
                returns += 1;
            }
        }
        let nested_return = {
            fn has_return(m: &hlslc_sema::tast::Module, s: hlslc_sema::tast::StmtId) -> bool {
                match &m.stmt(s).kind {
                    StmtKind::Return(_) => true,
                    StmtKind::Block(b) => b.iter().any(|&x| has_return(m, x)),
                    StmtKind::If { then, otherwise, .. } => has_return(m, *then) || otherwise.is_some_and(|o| has_return(m, o)),
                    StmtKind::For { body, .. } | StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } | StmtKind::Switch { body, .. } => has_return(m, *body),
                    _ => false,
                }
            }
            tops.iter().any(|&st| !matches!(m.stmt(st).kind, StmtKind::Return(_)) && has_return(m, st))
        };
        let exprs_stmts = |x: ExprId| {
            // The assignment is a whole top-level statement (possibly under casts to void).
            top_assign(x) || tops.iter().any(|&st| matches!(m.stmt(st).kind, StmtKind::Expr(y) if matches!(&m.expr(y).kind, ExprKind::Cast { expr, .. } if *expr == x)))
        };
        let simple = returns == 0 && !nested_return && rhss.iter().all(|&r| {
            m.exprs.iter().enumerate().any(|(i, ex)| matches!(&ex.kind, ExprKind::Assign { op: None, rhs, .. } if *rhs == r) && exprs_stmts(ExprId(i as u32)))
        });
        let rhss = if simple {
            let last = tops.iter().rev().find_map(|&st| {
                let StmtKind::Expr(mut y) = m.stmt(st).kind else { return None };
                if let ExprKind::Cast { expr, .. } = &m.expr(y).kind {
                    y = *expr;
                }
                match &m.expr(y).kind {
                    ExprKind::Assign { op: None, lhs, rhs } if is_pv(*lhs) => Some(*rhs),
                    _ => None,
                }
            });
            last.map_or(rhss, |r| vec![r])
        } else {
            rhss
        };
        let saved = self.res_bind_params(func, args)?;
        let mut result: Option<ResValue> = if simple { None } else { Some(inval.clone().unwrap_or(ResValue::Unset)) };
        let mut failed = None;
        for r in rhss {
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
                    "the resource assigned to the out parameter '{pname}' of '{}' must be a global resource or a parameter's (or part of one): {}",
                    f.name, err.message
                ),
                span: err.span.or(self.expr_span(e)),
                notes: err.notes,
            });
        }
        match result {
            Some(ResValue::Conflict) => Err(super::LowerError {
                fatal: false,
                message: format!(
                    "'{}' does not assign the same resource to its out parameter '{pname}' on every path; SPIR-V for Vulkan cannot choose a resource at run time",
                    f.name
                ),
                span: self.expr_span(e),
                notes: Vec::new(),
            }),
            Some(v) => Ok(v),
            None => Ok(ResValue::Unset),
        }
    }

    /// After a call: the argument `a` of an `out`/`inout` resource parameter designates `val`.
    pub(crate) fn res_set_out_argument(&mut self, a: ExprId, val: ResValue) -> R<()> {
        let m = self.m;
        let lhs = match &m.expr(a).kind {
            ExprKind::OutArg { lvalue, .. } => *lvalue,
            _ => a,
        };
        if let ExprKind::Var(v) = m.expr(lhs).kind {
            if self.resource_locals.contains_key(&v) {
                self.set_res_state(v, val);
                return Ok(());
            }
        }
        if self.res_assign_value(lhs, val)? {
            return Ok(());
        }
        unsupported(
            format!("'{}' as the argument of an out/inout resource parameter (a local variable or a part of a local struct is needed)", self.expr_text(lhs)),
            self.expr_span(a),
        )
    }
}
