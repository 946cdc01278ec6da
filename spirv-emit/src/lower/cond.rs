//! Conditional expressions: `?:`, and the short-circuiting `&&` / `||` of HLSL 2021, in DXC's
//! shapes.
//!
//! - HLSL 2021+ with a scalar condition: only the operand needed is evaluated. The value goes
//!   through a function variable (`%temp_var_ternary`, `%temp_var_logical`) written in blocks
//!   `ternary.lhs`/`ternary.rhs`/`ternary.merge` or `logical.lhs.cond`/`logical.merge`.
//! - Otherwise (HLSL 2018, or a vector condition) every operand is evaluated first; a scalar or
//!   vector result is an `OpSelect` (a scalar condition splatted to the result's width), any other
//!   result is stored to `%temp_var_ternary` in `if.true`/`if.false` blocks.

use super::layout::Layout;
use super::{Lowerer, R};
use crate::id::SpvId;
use hlslc_sema::tast::ExprId;
use hlslc_sema::types::{Type, TypeId};
use spirv::{Op, SelectionControl};

impl<'m> Lowerer<'m> {
    /// True when a condition of this expression's type short-circuits (HLSL 2021+, scalar).
    pub(crate) fn short_circuits(&self, cond: ExprId) -> bool {
        self.opts.hlsl_version >= 2021
            && !matches!(self.m.types.get(self.m.expr(cond).ty), Type::Vector(_, n) if *n > 1)
            && !matches!(self.m.types.get(self.m.expr(cond).ty), Type::Matrix { .. })
    }

    /// Whether evaluating `e` creates blocks (a short-circuiting `&&`/`||` or a `?:`): then a
    /// loop condition cannot be evaluated in the loop header, which ends in the merge instruction.
    pub(crate) fn creates_blocks(&self, e: ExprId) -> bool {
        use hlslc_frontend::ast::BinaryOp;
        use hlslc_sema::tast::ExprKind as K;
        let any = |es: &[ExprId]| es.iter().any(|&x| self.creates_blocks(x));
        match &self.m.expr(e).kind {
            K::Binary { op: BinaryOp::LogAnd | BinaryOp::LogOr, lhs, .. } if self.short_circuits(*lhs) => true,
            K::Ternary { .. } => true,
            K::Const(_) | K::Var(_) | K::This | K::Str(_) => false,
            K::Unary { operand, .. } => self.creates_blocks(*operand),
            K::Binary { lhs, rhs, .. } | K::Assign { lhs, rhs, .. } | K::CompoundAssign { lhs, rhs, .. } | K::Comma { lhs, rhs } => any(&[*lhs, *rhs]),
            K::Cast { expr, .. } => self.creates_blocks(*expr),
            K::Construct { args } => any(args),
            // A call's body is another function; its arguments are evaluated here.
            K::Call { this_arg, args, .. } | K::Intrinsic { object: this_arg, args, .. } => {
                this_arg.is_some_and(|t| self.creates_blocks(t)) || any(args)
            }
            K::Field { base, .. } | K::Swizzle { base, .. } | K::MatrixSwizzle { base, .. } => self.creates_blocks(*base),
            K::Index { base, index } => any(&[*base, *index]),
            K::OutArg { lvalue, .. } => self.creates_blocks(*lvalue),
            #[allow(unreachable_patterns)]
            _ => true,
        }
    }

    /// `lhs && rhs` (`and`) or `lhs || rhs` evaluating `rhs` only when needed.
    pub(crate) fn short_circuit(&mut self, and: bool, lhs: ExprId, rhs: ExprId) -> R<SpvId> {
        let bool_ty = self.b.ctx.type_bool();
        let tmp = self.temp_var(self.m.expr(lhs).ty, "temp.var.logical")?;
        let a = self.rvalue(lhs)?;
        let init = self.b.ctx.const_bool(!and);
        self.b.store(tmp, init, None)?;
        let go = if and { a } else { self.b.unary(Op::LogicalNot, bool_ty, a)? };
        let (rhs_bb, merge) = (self.label("logical.lhs.cond"), self.label("logical.merge"));
        self.b.selection_merge(merge, SelectionControl::NONE)?;
        self.b.branch_conditional(go, rhs_bb, merge)?;
        self.start_block(rhs_bb)?;
        let b = self.rvalue(rhs)?;
        self.b.store(tmp, b, None)?;
        self.b.branch(merge)?;
        self.start_block(merge)?;
        Ok(self.b.load(bool_ty, tmp, None)?)
    }

    pub(crate) fn ternary(&mut self, cond: ExprId, then: ExprId, otherwise: ExprId, ty: TypeId) -> R<SpvId> {
        let t = self.ty(ty, Layout::Logical)?;
        if self.short_circuits(cond) {
            let tmp = self.temp_var(ty, "temp.var.ternary")?;
            let c = self.rvalue(cond)?;
            let (t_bb, f_bb, merge) = (self.label("ternary.lhs"), self.label("ternary.rhs"), self.label("ternary.merge"));
            self.b.selection_merge(merge, SelectionControl::NONE)?;
            self.b.branch_conditional(c, t_bb, f_bb)?;
            for (bb, side) in [(t_bb, then), (f_bb, otherwise)] {
                self.start_block(bb)?;
                let v = self.rvalue(side)?;
                self.b.store(tmp, v, None)?;
                self.b.branch(merge)?;
            }
            self.start_block(merge)?;
            return Ok(self.b.load(t, tmp, None)?);
        }
        let mut c = self.rvalue(cond)?;
        let a = self.rvalue(then)?;
        let b = self.rvalue(otherwise)?;
        if let Some(shape) = self.shape(ty).filter(|s| !s.is_matrix()) {
            let cond_n = match self.m.types.get(self.m.expr(cond).ty) {
                Type::Vector(_, n) => *n as u32,
                _ => 1,
            };
            if shape.count() > 1 && cond_n == 1 {
                let bool_ty = self.b.ctx.type_bool();
                let bvec = self.b.ctx.type_vector(bool_ty, shape.count());
                c = self.b.composite_construct(bvec, &vec![c; shape.count() as usize])?;
            }
            return Ok(self.b.select(t, c, a, b)?);
        }
        // Matrices, structs and objects: OpSelect cannot choose them.
        let tmp = self.temp_var(ty, "temp.var.ternary")?;
        let (t_bb, f_bb, merge) = (self.label("if.true"), self.label("if.false"), self.label("if.merge"));
        self.b.selection_merge(merge, SelectionControl::NONE)?;
        self.b.branch_conditional(c, t_bb, f_bb)?;
        for (bb, v) in [(t_bb, a), (f_bb, b)] {
            self.start_block(bb)?;
            self.b.store(tmp, v, None)?;
            self.b.branch(merge)?;
        }
        self.start_block(merge)?;
        Ok(self.b.load(t, tmp, None)?)
    }
}
