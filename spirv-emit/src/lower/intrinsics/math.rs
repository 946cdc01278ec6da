//! Math intrinsics: GLSL.std.450 where DXC uses it, core arithmetic otherwise.
//!
//! Component-wise intrinsics apply to matrices row by row (GLSL.std.450 and the arithmetic
//! instructions take scalars and vectors only): DXC extracts row `r` of every matrix operand,
//! applies the instruction to the row vectors, and rebuilds the matrix ([`Lowerer::per_row`]).

use super::super::layout::Layout;
use super::super::{Lowerer, R};
use crate::id::SpvId;
use crate::types::Decoration;
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::tast::{ConstValue, ExprId};
use hlslc_sema::types::{ScalarKind, TypeId};
use spirv::{GlslStd450Op as G, Op};

impl<'m> Lowerer<'m> {
    /// A math intrinsic, or `None` when `op` is not one.
    pub(super) fn math_intrinsic(
        &mut self,
        op: I,
        args: &[ExprId],
        ty: TypeId,
        _e: ExprId,
    ) -> R<Option<SpvId>> {
        let arg_ty = |l: &Self, i: usize| args.get(i).map(|&a| l.m.expr(a).ty).unwrap_or(ty);
        let kind = self
            .m
            .types
            .component(arg_ty(self, 0))
            .unwrap_or(ScalarKind::Float);
        let (f, s) = (kind.is_float(), kind.is_signed_int());
        let finite = self.opts.finite_math_only;
        // GLSL.std.450 instructions taking the arguments as they are, component-wise.
        let glsl = match op {
            I::Sin => Some(G::Sin),
            I::Cos => Some(G::Cos),
            I::Tan => Some(G::Tan),
            I::Asin => Some(G::Asin),
            I::Acos => Some(G::Acos),
            I::Atan => Some(G::Atan),
            I::Atan2 => Some(G::Atan2),
            I::Sinh => Some(G::Sinh),
            I::Cosh => Some(G::Cosh),
            I::Tanh => Some(G::Tanh),
            I::Exp => Some(G::Exp),
            I::Exp2 => Some(G::Exp2),
            I::Log => Some(G::Log),
            I::Log2 => Some(G::Log2),
            I::Sqrt => Some(G::Sqrt),
            I::Rsqrt => Some(G::InverseSqrt),
            I::Floor => Some(G::Floor),
            I::Ceil => Some(G::Ceil),
            I::Trunc => Some(G::Trunc),
            I::Round => Some(G::RoundEven),
            I::Frac => Some(G::Fract),
            I::Pow => Some(G::Pow),
            I::Lerp => Some(G::FMix),
            I::Step => Some(G::Step),
            I::Smoothstep => Some(G::SmoothStep),
            I::Fma => Some(G::Fma),
            I::Degrees => Some(G::Degrees),
            I::Radians => Some(G::Radians),
            I::Abs if f => Some(G::FAbs),
            I::Abs if s => Some(G::SAbs),
            // HLSL's min/max ignore a NaN operand: NMin/NMax, unless NaNs are ruled out.
            I::Min if f && finite => Some(G::FMin),
            I::Min if f => Some(G::NMin),
            I::Min if s => Some(G::SMin),
            I::Min | I::Umin => Some(G::UMin),
            I::Max if f && finite => Some(G::FMax),
            I::Max if f => Some(G::NMax),
            I::Max if s => Some(G::SMax),
            I::Max | I::Umax => Some(G::UMax),
            I::Clamp if f => Some(G::FClamp),
            I::Clamp if s => Some(G::SClamp),
            I::Clamp | I::Uclamp => Some(G::UClamp),
            _ => None,
        };
        if let Some(g) = glsl {
            let vals = self.operands(args)?;
            let v = self.per_row(ty, &vals, |l, rt, p| Ok(l.b.glsl(rt, g, p)?))?;
            return Ok(Some(v));
        }
        // GLSL.std.450 instructions on whole vectors (no matrices).
        let whole = match op {
            I::Normalize => Some(G::Normalize),
            I::Length => Some(G::Length),
            I::Distance => Some(G::Distance),
            I::Cross => Some(G::Cross),
            I::Reflect => Some(G::Reflect),
            I::Refract => Some(G::Refract),
            I::Faceforward => Some(G::FaceForward),
            I::Determinant => Some(G::Determinant),
            _ => None,
        };
        if let Some(g) = whole {
            let rty = self.ty(ty, Layout::Logical)?;
            let mut vals = Vec::new();
            for &a in args {
                vals.push(self.rvalue(a)?);
            }
            return Ok(Some(self.b.glsl(rty, g, &vals)?));
        }
        let v = match op {
            I::Abs | I::Uabs => self.rvalue(args[0])?,
            I::Saturate => {
                let vals = self.operands(args)?;
                self.per_row(ty, &vals, |l, rt, p| {
                    let n = l.width_of(rt);
                    let zero = l.splat(kind, n, ConstValue::Float(0.0))?;
                    let one = l.splat(kind, n, ConstValue::Float(1.0))?;
                    Ok(l.b.glsl(rt, G::FClamp, &[p[0], zero, one])?)
                })?
            }
            I::Sign => {
                // FSign/SSign in the operand's type, converted to `int` (from a float, or from a
                // 16- or 64-bit int).
                let vals = self.operands(args)?;
                self.per_row(ty, &vals, |l, rt, p| {
                    let n = l.width_of(rt);
                    let at = l.vector_ty(kind, n, Layout::Logical);
                    let v = l.b.glsl(at, if f { G::FSign } else { G::SSign }, p)?;
                    l.convert_kind(v, kind, ScalarKind::Int, n)
                })?
            }
            I::Rcp => {
                let vals = self.operands(args)?;
                self.per_row(ty, &vals, |l, rt, p| {
                    let one = l.splat(kind, l.width_of(rt), ConstValue::Float(1.0))?;
                    Ok(l.b.binary(Op::FDiv, rt, one, p[0])?)
                })?
            }
            I::Mad | I::Umad => {
                // DXC keeps `mad` exact: Fma for floats, a multiply and an add otherwise, each
                // decorated NoContraction.
                let vals = self.operands(args)?;
                self.per_row(ty, &vals, |l, rt, p| {
                    if f {
                        let v = l.b.glsl(rt, G::Fma, p)?;
                        l.no_contraction(v);
                        return Ok(v);
                    }
                    let m = l.b.binary(Op::IMul, rt, p[0], p[1])?;
                    l.no_contraction(m);
                    let a = l.b.binary(Op::IAdd, rt, m, p[2])?;
                    l.no_contraction(a);
                    Ok(a)
                })?
            }
            I::Fmod => {
                let vals = self.operands(args)?;
                self.per_row(ty, &vals, |l, rt, p| Ok(l.b.binary(Op::FRem, rt, p[0], p[1])?))?
            }
            I::Ldexp => {
                // x * exp2(e).
                let vals = self.operands(args)?;
                self.per_row(ty, &vals, |l, rt, p| {
                    let e = l.b.glsl(rt, G::Exp2, &[p[1]])?;
                    Ok(l.b.binary(Op::FMul, rt, p[0], e)?)
                })?
            }
            I::Log10 => {
                // log2(x) / log2(10), the factor scaling the whole value.
                let vals = self.operands(args)?;
                let l2 = self.per_row(ty, &vals, |l, rt, p| Ok(l.b.glsl(rt, G::Log2, p)?))?;
                let k = self.scalar_const(kind, ConstValue::Float(0.30103))?;
                let rty = self.ty(ty, Layout::Logical)?;
                let shape = self.shape(ty).map(|s| (s.count(), s.is_matrix()));
                match shape {
                    Some((_, true)) => self.b.binary(Op::MatrixTimesScalar, rty, l2, k)?,
                    Some((n, false)) if n > 1 => self.b.binary(Op::VectorTimesScalar, rty, l2, k)?,
                    _ => self.b.binary(Op::FMul, rty, l2, k)?,
                }
            }
            I::Sincos => {
                // sin into the first out argument, then cos (reading `x` again) into the second.
                for (arg, g) in [(args[1], G::Sin), (args[2], G::Cos)] {
                    let vals = self.operands(&args[..1])?;
                    let xt = arg_ty(self, 0);
                    let v = self.per_row(xt, &vals, |l, rt, p| Ok(l.b.glsl(rt, g, p)?))?;
                    let place = self.lvalue(arg)?;
                    self.store(&place, v)?;
                }
                let rty = self.ty(ty, Layout::Logical)?;
                self.no_value(rty)
            }
            I::Dot | I::Udot => {
                let (a, b) = (self.rvalue(args[0])?, self.rvalue(args[1])?);
                let rty = self.ty(ty, Layout::Logical)?;
                let n = self.shape(arg_ty(self, 0)).map_or(1, |s| s.count());
                if n == 1 {
                    let op = if f { Op::FMul } else { Op::IMul };
                    return Ok(Some(self.b.binary(op, rty, a, b)?));
                }
                if f {
                    return Ok(Some(self.b.binary(Op::Dot, rty, a, b)?));
                }
                self.int_dot(rty, a, b, n)?
            }
            I::All | I::Any => {
                let x = self.rvalue(args[0])?;
                let at = arg_ty(self, 0);
                let rty = self.ty(ty, Layout::Logical)?;
                let o = if op == I::All { Op::All } else { Op::Any };
                if let Some(s) = self.shape(at).filter(|s| s.is_matrix()) {
                    // Row by row (a SPIR-V vector has at most four components), then the rows.
                    let row_ty = self.vector_ty(kind, s.cols, Layout::Logical);
                    let mut rows = Vec::new();
                    for r in 0..s.rows {
                        let row = self.b.composite_extract(row_ty, x, &[r])?;
                        let b = self.convert_kind(row, kind, ScalarKind::Bool, s.cols)?;
                        rows.push(self.b.unary(o, rty, b)?);
                    }
                    let bv = self.vector_ty(ScalarKind::Bool, s.rows, Layout::Logical);
                    let all_rows = self.b.composite_construct(bv, &rows)?;
                    return Ok(Some(self.b.unary(o, rty, all_rows)?));
                }
                let n = self.shape(at).map_or(1, |s| s.count());
                let b = self.convert_kind(x, kind, ScalarKind::Bool, n)?;
                if n == 1 {
                    return Ok(Some(b));
                }
                self.b.unary(o, rty, b)?
            }
            I::And | I::Or => {
                let vals = self.operands(args)?;
                let o = if op == I::And {
                    Op::LogicalAnd
                } else {
                    Op::LogicalOr
                };
                self.per_row(ty, &vals, |l, rt, p| Ok(l.b.binary(o, rt, p[0], p[1])?))?
            }
            I::Select => {
                // OpSelect wants a condition as wide as the values: a scalar one is splat.
                let vals = self.operands(args)?;
                let scalar_cond = self.shape(arg_ty(self, 0)).is_some_and(|c| c.count() == 1);
                self.per_row(ty, &vals, |l, rt, p| {
                    let n = l.width_of(rt);
                    let cond = if n > 1 && scalar_cond {
                        let bt = l.vector_ty(ScalarKind::Bool, n, Layout::Logical);
                        l.b.composite_construct(bt, &vec![p[0]; n as usize])?
                    } else {
                        p[0]
                    };
                    Ok(l.b.select(rt, cond, p[1], p[2])?)
                })?
            }
            I::Lit => {
                // (1, max(0, n.l), n.l < 0 || n.h < 0 ? 0 : n.h * m, 1).
                let (nl, nh, m) = (
                    self.rvalue(args[0])?,
                    self.rvalue(args[1])?,
                    self.rvalue(args[2])?,
                );
                let ft = self.scalar_ty(kind, Layout::Logical);
                let zero = self.scalar_const(kind, ConstValue::Float(0.0))?;
                let one = self.scalar_const(kind, ConstValue::Float(1.0))?;
                let diffuse = self.b.glsl(ft, G::FMax, &[zero, nl])?;
                let min = self.b.glsl(ft, G::FMin, &[nl, nh])?;
                let bt = self.scalar_ty(ScalarKind::Bool, Layout::Logical);
                let neg = self.b.binary(Op::FOrdLessThan, bt, min, zero)?;
                let mul = self.b.binary(Op::FMul, ft, nh, m)?;
                let spec = self.b.select(ft, neg, zero, mul)?;
                let rty = self.ty(ty, Layout::Logical)?;
                self.b.composite_construct(rty, &[one, diffuse, spec, one])?
            }
            I::Dst => {
                // (1, a.y * b.y, a.z, b.w).
                let (a, b) = (self.rvalue(args[0])?, self.rvalue(args[1])?);
                let ft = self.scalar_ty(kind, Layout::Logical);
                let ay = self.b.composite_extract(ft, a, &[1])?;
                let by = self.b.composite_extract(ft, b, &[1])?;
                let az = self.b.composite_extract(ft, a, &[2])?;
                let bw = self.b.composite_extract(ft, b, &[3])?;
                let y = self.b.binary(Op::FMul, ft, ay, by)?;
                let one = self.scalar_const(kind, ConstValue::Float(1.0))?;
                let rty = self.ty(ty, Layout::Logical)?;
                self.b.composite_construct(rty, &[one, y, az, bw])?
            }
            I::Transpose => {
                let x = self.rvalue(args[0])?;
                let rty = self.ty(ty, Layout::Logical)?;
                match self.shape(arg_ty(self, 0)) {
                    // 1xN, Nx1 and 1x1 are vectors or scalars either way round.
                    Some(s) if !s.is_matrix() => x,
                    Some(s) if s.kind.is_float() => self.b.unary(Op::Transpose, rty, x)?,
                    // Other matrices are arrays of vectors: OpTranspose takes only float ones.
                    Some(s) => {
                        let c = self.scalar_ty(s.kind, Layout::Logical);
                        let row_ty = self.vector_ty(s.kind, s.rows, Layout::Logical);
                        let mut rows = Vec::new();
                        for j in 0..s.cols {
                            let mut comps = Vec::new();
                            for i in 0..s.rows {
                                comps.push(self.b.composite_extract(c, x, &[i, j])?);
                            }
                            rows.push(self.b.composite_construct(row_ty, &comps)?);
                        }
                        self.b.composite_construct(rty, &rows)?
                    }
                    None => return super::super::unsupported("transpose of this type", self.expr_span(_e)),
                }
            }
            I::Mul => self.mul(args[0], args[1], ty)?,
            _ => return Ok(None),
        };
        Ok(Some(v))
    }

    /// The values of `args` with their types.
    pub(super) fn operands(&mut self, args: &[ExprId]) -> R<Vec<(SpvId, TypeId)>> {
        let mut vals = Vec::new();
        for &a in args {
            vals.push((self.rvalue(a)?, self.m.expr(a).ty));
        }
        Ok(vals)
    }

    /// Applies `f` (given the SPIR-V type of its result and the operands) to `vals`, or, when
    /// the result type `ty` is a matrix, to row `r` of every matrix operand for each row, and
    /// rebuilds the matrix. Non-matrix operands are passed as they are.
    pub(super) fn per_row(
        &mut self,
        ty: TypeId,
        vals: &[(SpvId, TypeId)],
        mut f: impl FnMut(&mut Self, SpvId, &[SpvId]) -> R<SpvId>,
    ) -> R<SpvId> {
        let rty = self.ty(ty, Layout::Logical)?;
        let shape = match self.shape(ty) {
            Some(s) if s.is_matrix() => s,
            _ => {
                let plain: Vec<SpvId> = vals.iter().map(|v| v.0).collect();
                return f(self, rty, &plain);
            }
        };
        let row_ty = self.vector_ty(shape.kind, shape.cols, Layout::Logical);
        let mut rows = Vec::new();
        for r in 0..shape.rows {
            let mut parts = Vec::new();
            for &(v, t) in vals {
                match self.shape(t) {
                    Some(ts) if ts.is_matrix() => {
                        let et = self.vector_ty(ts.kind, ts.cols, Layout::Logical);
                        parts.push(self.b.composite_extract(et, v, &[r])?);
                    }
                    _ => parts.push(v),
                }
            }
            rows.push(f(self, row_ty, &parts)?);
        }
        Ok(self.b.composite_construct(rty, &rows)?)
    }

    /// The component count of a scalar or vector SPIR-V type.
    pub(super) fn width_of(&self, ty: SpvId) -> u32 {
        match self.b.ctx.type_of(ty) {
            Some(crate::types::Type::Vector { count, .. }) => *count,
            _ => 1,
        }
    }

    /// A constant of `n` components of `kind` (a scalar when `n` is 1).
    pub(super) fn splat(&mut self, kind: ScalarKind, n: u32, c: ConstValue) -> R<SpvId> {
        let s = self.scalar_const(kind, c)?;
        if n == 1 {
            return Ok(s);
        }
        let vt = self.vector_ty(kind, n, Layout::Logical);
        Ok(self.b.ctx.const_composite(vt, &vec![s; n as usize]))
    }

    pub(super) fn no_contraction(&mut self, v: SpvId) {
        self.b
            .ctx
            .decorate(v, &Decoration::new(spirv::Decoration::NoContraction));
    }

    /// Integer dot product of two `n`-vectors as DXC writes it: the products component by
    /// component, then their sum from the left.
    pub(super) fn int_dot(&mut self, rty: SpvId, a: SpvId, b: SpvId, n: u32) -> R<SpvId> {
        let mut products = Vec::new();
        for i in 0..n {
            let x = self.b.composite_extract(rty, a, &[i])?;
            let y = self.b.composite_extract(rty, b, &[i])?;
            products.push(self.b.binary(Op::IMul, rty, x, y)?);
        }
        let mut sum = products[0];
        for &p in &products[1..] {
            sum = self.b.binary(Op::IAdd, rty, sum, p)?;
        }
        Ok(sum)
    }
}
