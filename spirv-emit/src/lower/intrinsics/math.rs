//! Math intrinsics: GLSL.std.450 where DXC uses it, core arithmetic otherwise, and `mul` with
//! HLSL's matrices transposed in SPIR-V.

use super::super::layout::Layout;
use super::super::{unsupported, Lowerer, R};
use crate::id::SpvId;
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
        let rty = self.ty(ty, Layout::Logical)?;
        let arg_ty = |l: &Self, i: usize| args.get(i).map(|&a| l.m.expr(a).ty).unwrap_or(ty);
        let kind = self
            .m
            .types
            .component(arg_ty(self, 0))
            .unwrap_or(ScalarKind::Float);
        let (f, s) = (kind.is_float(), kind.is_signed_int());
        // GLSL.std.450 instructions taking the arguments as they are.
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
            I::Normalize => Some(G::Normalize),
            I::Length => Some(G::Length),
            I::Distance => Some(G::Distance),
            I::Cross => Some(G::Cross),
            I::Reflect => Some(G::Reflect),
            I::Refract => Some(G::Refract),
            I::Fma => Some(G::Fma),
            I::Degrees => Some(G::Degrees),
            I::Radians => Some(G::Radians),
            I::Ldexp => Some(G::Ldexp),
            I::Determinant => Some(G::Determinant),
            I::Abs if f => Some(G::FAbs),
            I::Abs if s => Some(G::SAbs),
            I::Min if f => Some(G::FMin),
            I::Min if s => Some(G::SMin),
            I::Min | I::Umin => Some(G::UMin),
            I::Max if f => Some(G::FMax),
            I::Max if s => Some(G::SMax),
            I::Max | I::Umax => Some(G::UMax),
            I::Clamp if f => Some(G::FClamp),
            I::Clamp if s => Some(G::SClamp),
            I::Clamp | I::Uclamp => Some(G::UClamp),
            I::Firstbitlow => Some(G::FindILsb),
            I::Firstbithigh if s => Some(G::FindSMsb),
            I::Firstbithigh | I::Ufirstbithigh => Some(G::FindUMsb),
            _ => None,
        };
        if let Some(g) = glsl {
            let mut vals = Vec::new();
            for &a in args {
                vals.push(self.rvalue(a)?);
            }
            return Ok(Some(self.b.glsl(rty, g, &vals)?));
        }
        let v = match op {
            I::Abs | I::Uabs => self.rvalue(args[0]),
            I::Saturate => {
                let x = self.rvalue(args[0])?;
                let zero = self.constant(ty, ConstValue::Float(0.0))?;
                let one = self.constant(ty, ConstValue::Float(1.0))?;
                Ok(self.b.glsl(rty, G::FClamp, &[x, zero, one])?)
            }
            I::Sign => {
                let x = self.rvalue(args[0])?;
                let aty = self.ty(arg_ty(self, 0), Layout::Logical)?;
                let g = if f { G::FSign } else { G::SSign };
                let v = self.b.glsl(aty, g, &[x])?;
                let n = self.shape(ty).map_or(1, |s| s.count());
                if f {
                    self.convert_kind(v, kind, ScalarKind::Int, n)
                } else {
                    Ok(v)
                }
            }
            I::Rcp => {
                let x = self.rvalue(args[0])?;
                let one = self.constant(ty, ConstValue::Float(1.0))?;
                Ok(self.b.binary(Op::FDiv, rty, one, x)?)
            }
            I::Mad | I::Umad => {
                let (a, b, c) = (
                    self.rvalue(args[0])?,
                    self.rvalue(args[1])?,
                    self.rvalue(args[2])?,
                );
                let (mul, add) = if f {
                    (Op::FMul, Op::FAdd)
                } else {
                    (Op::IMul, Op::IAdd)
                };
                let m = self.b.binary(mul, rty, a, b)?;
                Ok(self.b.binary(add, rty, m, c)?)
            }
            I::Fmod => {
                let (a, b) = (self.rvalue(args[0])?, self.rvalue(args[1])?);
                Ok(self.b.binary(Op::FRem, rty, a, b)?)
            }
            I::Dot | I::Udot => {
                let (a, b) = (self.rvalue(args[0])?, self.rvalue(args[1])?);
                let n = self.shape(arg_ty(self, 0)).map_or(1, |s| s.count());
                if n == 1 {
                    let op = if f { Op::FMul } else { Op::IMul };
                    return Ok(Some(self.b.binary(op, rty, a, b)?));
                }
                if f {
                    return Ok(Some(self.b.binary(Op::Dot, rty, a, b)?));
                }
                // Integer dot product: multiply, then add the components.
                let vty = self.ty(arg_ty(self, 0), Layout::Logical)?;
                let prod = self.b.binary(Op::IMul, vty, a, b)?;
                let mut sum = self.b.composite_extract(rty, prod, &[0])?;
                for i in 1..n {
                    let c = self.b.composite_extract(rty, prod, &[i])?;
                    sum = self.b.binary(Op::IAdd, rty, sum, c)?;
                }
                Ok(sum)
            }
            I::Countbits => {
                let x = self.rvalue(args[0])?;
                Ok(self.b.unary(Op::BitCount, rty, x)?)
            }
            I::Reversebits => {
                let x = self.rvalue(args[0])?;
                Ok(self.b.unary(Op::BitReverse, rty, x)?)
            }
            I::Isnan | I::Isinf => {
                let x = self.rvalue(args[0])?;
                Ok(self
                    .b
                    .unary(if op == I::Isnan { Op::IsNan } else { Op::IsInf }, rty, x)?)
            }
            I::Asfloat | I::Asint | I::Asuint if args.len() == 1 => {
                let x = self.rvalue(args[0])?;
                if self.ty(arg_ty(self, 0), Layout::Logical)? == rty {
                    return Ok(Some(x));
                }
                Ok(self.b.unary(Op::Bitcast, rty, x)?)
            }
            I::All | I::Any => {
                let x = self.rvalue(args[0])?;
                let at = arg_ty(self, 0);
                let n = self.shape(at).map_or(1, |s| s.count());
                let b = self.convert_kind(x, kind, ScalarKind::Bool, n)?;
                if n == 1 {
                    return Ok(Some(b));
                }
                Ok(self
                    .b
                    .unary(if op == I::All { Op::All } else { Op::Any }, rty, b)?)
            }
            I::Transpose => {
                let x = self.rvalue(args[0])?;
                Ok(self.b.unary(Op::Transpose, rty, x)?)
            }
            I::Mul => self.mul(args[0], args[1], ty),
            _ => return Ok(None),
        };
        v.map(Some)
    }

    /// `mul(a, b)` with HLSL's matrices transposed in SPIR-V: the operands swap.
    fn mul(&mut self, a: ExprId, b: ExprId, ty: TypeId) -> R<SpvId> {
        let (at, bt) = (self.m.expr(a).ty, self.m.expr(b).ty);
        let (Some(sa), Some(sb)) = (self.shape(at), self.shape(bt)) else {
            return unsupported("mul() on these types", self.expr_span(a));
        };
        let rty = self.ty(ty, Layout::Logical)?;
        let (x, y) = (self.rvalue(a)?, self.rvalue(b)?);
        if !sa.kind.is_float() {
            return unsupported("mul() on integer matrices", self.expr_span(a));
        }
        let scalar_a = sa.count() == 1;
        let scalar_b = sb.count() == 1;
        let r = match (scalar_a, scalar_b, sa.is_matrix(), sb.is_matrix()) {
            (true, true, _, _) => self.b.binary(Op::FMul, rty, x, y)?,
            (true, false, _, false) => self.b.binary(Op::VectorTimesScalar, rty, y, x)?,
            (false, true, false, _) => self.b.binary(Op::VectorTimesScalar, rty, x, y)?,
            (true, false, _, true) => self.b.binary(Op::MatrixTimesScalar, rty, y, x)?,
            (false, true, true, _) => self.b.binary(Op::MatrixTimesScalar, rty, x, y)?,
            (false, false, false, false) => self.b.binary(Op::Dot, rty, x, y)?,
            // mul(v, M) = M^T v in SPIR-V terms: OpMatrixTimesVector M v.
            (false, false, false, true) => self.b.binary(Op::MatrixTimesVector, rty, y, x)?,
            // mul(M, v): OpVectorTimesMatrix v M.
            (false, false, true, false) => self.b.binary(Op::VectorTimesMatrix, rty, y, x)?,
            // mul(A, B) = (B^T A^T)^T: OpMatrixTimesMatrix B A.
            (false, false, true, true) => self.b.binary(Op::MatrixTimesMatrix, rty, y, x)?,
        };
        Ok(r)
    }
}
