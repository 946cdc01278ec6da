//! Intrinsics on the bits of numbers: classification (`isnan`, `isinf`, `isfinite`,
//! `isnormal`), reinterpretation (`asfloat`, `asuint`, `asdouble`, ...), half-float packing
//! (`f16tof32`, `f32tof16`), bit counts and `sign` of unsigned values.

use super::super::layout::Layout;
use super::super::{Lowerer, R};
use crate::id::SpvId;
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::tast::{ConstValue, ExprId};
use hlslc_sema::types::{ScalarKind, TypeId};
use spirv::{GlslStd450Op as G, Op};

impl<'m> Lowerer<'m> {
    /// A bit-level intrinsic, or `None` when `op` is not one.
    pub(super) fn bits_intrinsic(
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
        let v = match op {
            I::Isnan | I::Isinf => {
                let o = if op == I::Isnan { Op::IsNan } else { Op::IsInf };
                let vals = self.operands(args)?;
                self.per_row(ty, &vals, |l, rt, p| Ok(l.b.unary(o, rt, p[0])?))?
            }
            I::Isfinite => {
                // !(isnan(x) || isinf(x)).
                let vals = self.operands(args)?;
                self.per_row(ty, &vals, |l, rt, p| {
                    let nan = l.b.unary(Op::IsNan, rt, p[0])?;
                    let inf = l.b.unary(Op::IsInf, rt, p[0])?;
                    let either = l.b.binary(Op::LogicalOr, rt, nan, inf)?;
                    Ok(l.b.unary(Op::LogicalNot, rt, either)?)
                })?
            }
            I::Isnormal => {
                // The exponent bits are neither all zero nor all one.
                let vals = self.operands(args)?;
                let (ukind, mask) = match kind.bits() {
                    16 => (ScalarKind::UInt16, 0x7c00),
                    64 => (ScalarKind::UInt64, 0x7ff0_0000_0000_0000_i64),
                    _ => (ScalarKind::UInt, 0x7f80_0000),
                };
                self.per_row(ty, &vals, |l, rt, p| {
                    let n = l.width_of(rt);
                    let ut = l.vector_ty(ukind, n, Layout::Logical);
                    let m = l.splat(ukind, n, ConstValue::Int(mask))?;
                    let zero = l.splat(ukind, n, ConstValue::Int(0))?;
                    let bits = l.b.unary(Op::Bitcast, ut, p[0])?;
                    let exp = l.b.binary(Op::BitwiseAnd, ut, bits, m)?;
                    let not_zero = l.b.binary(Op::INotEqual, rt, exp, zero)?;
                    let not_ones = l.b.binary(Op::INotEqual, rt, exp, m)?;
                    Ok(l.b.binary(Op::LogicalAnd, rt, not_zero, not_ones)?)
                })?
            }
            I::Asfloat | I::Asint | I::Asuint | I::Asfloat16 | I::Asint16 | I::Asuint16
                if args.len() == 1 =>
            {
                let vals = self.operands(args)?;
                let same = self.ty(arg_ty(self, 0), Layout::Logical)? == self.ty(ty, Layout::Logical)?;
                if same {
                    vals[0].0
                } else {
                    self.per_row(ty, &vals, |l, rt, p| Ok(l.b.unary(Op::Bitcast, rt, p[0])?))?
                }
            }
            I::Asuint if args.len() == 3 => {
                // asuint(double d, out uint lo, out uint hi): each double as a uint2.
                let d = self.rvalue(args[0])?;
                let n = self.shape(arg_ty(self, 0)).map_or(1, |s| s.count());
                let u = self.scalar_ty(ScalarKind::UInt, Layout::Logical);
                let u2 = self.vector_ty(ScalarKind::UInt, 2, Layout::Logical);
                let dt = self.scalar_ty(kind, Layout::Logical);
                let (mut lo, mut hi) = (Vec::new(), Vec::new());
                for i in 0..n {
                    let x = if n == 1 { d } else { self.b.composite_extract(dt, d, &[i])? };
                    let pair = self.b.unary(Op::Bitcast, u2, x)?;
                    lo.push(self.b.composite_extract(u, pair, &[0])?);
                    hi.push(self.b.composite_extract(u, pair, &[1])?);
                }
                let (lo, hi) = if n == 1 {
                    (lo[0], hi[0])
                } else {
                    let ut = self.vector_ty(ScalarKind::UInt, n, Layout::Logical);
                    (self.b.composite_construct(ut, &lo)?, self.b.composite_construct(ut, &hi)?)
                };
                for (arg, v) in [(args[1], lo), (args[2], hi)] {
                    let place = self.lvalue(arg)?;
                    self.store(&place, v)?;
                }
                let rty = self.ty(ty, Layout::Logical)?;
                self.no_value(rty)
            }
            I::Asdouble => {
                // Each (low, high) pair as a uint2, bitcast to a double.
                let (lo, hi) = (self.rvalue(args[0])?, self.rvalue(args[1])?);
                let n = self.shape(arg_ty(self, 0)).map_or(1, |s| s.count());
                let u2 = self.vector_ty(ScalarKind::UInt, 2, Layout::Logical);
                let d = self.scalar_ty(ScalarKind::Double, Layout::Logical);
                if n == 1 {
                    let pair = self.b.composite_construct(u2, &[lo, hi])?;
                    return Ok(Some(self.b.unary(Op::Bitcast, d, pair)?));
                }
                let mut parts = Vec::new();
                for i in 0..n {
                    let pair = self.b.vector_shuffle(u2, lo, hi, &[i, n + i])?;
                    parts.push(self.b.unary(Op::Bitcast, d, pair)?);
                }
                let rty = self.ty(ty, Layout::Logical)?;
                self.b.composite_construct(rty, &parts)?
            }
            I::F16tof32 => {
                // UnpackHalf2x16 of each uint, first component.
                let x = self.rvalue(args[0])?;
                let n = self.shape(arg_ty(self, 0)).map_or(1, |s| s.count());
                let (u, f) = (
                    self.scalar_ty(ScalarKind::UInt, Layout::Logical),
                    self.scalar_ty(ScalarKind::Float, Layout::Logical),
                );
                let f2 = self.vector_ty(ScalarKind::Float, 2, Layout::Logical);
                let mut parts = Vec::new();
                for i in 0..n {
                    let c = if n == 1 { x } else { self.b.composite_extract(u, x, &[i])? };
                    let pair = self.b.glsl(f2, G::UnpackHalf2x16, &[c])?;
                    parts.push(self.b.composite_extract(f, pair, &[0])?);
                }
                self.gather(ty, parts)?
            }
            I::F32tof16 => {
                // PackHalf2x16 of (x, 0) for each float.
                let x = self.rvalue(args[0])?;
                let n = self.shape(arg_ty(self, 0)).map_or(1, |s| s.count());
                let (u, f) = (
                    self.scalar_ty(ScalarKind::UInt, Layout::Logical),
                    self.scalar_ty(ScalarKind::Float, Layout::Logical),
                );
                let f2 = self.vector_ty(ScalarKind::Float, 2, Layout::Logical);
                let zero = self.scalar_const(ScalarKind::Float, ConstValue::Float(0.0))?;
                let mut parts = Vec::new();
                for i in 0..n {
                    let c = if n == 1 { x } else { self.b.composite_extract(f, x, &[i])? };
                    let pair = self.b.composite_construct(f2, &[c, zero])?;
                    parts.push(self.b.glsl(u, G::PackHalf2x16, &[pair])?);
                }
                self.gather(ty, parts)?
            }
            I::Usign => {
                // x > 0 ? 1 : 0, as int.
                let vals = self.operands(args)?;
                self.per_row(ty, &vals, |l, rt, p| {
                    let n = l.width_of(rt);
                    let bt = l.vector_ty(ScalarKind::Bool, n, Layout::Logical);
                    let zero = l.splat(kind, n, ConstValue::Int(0))?;
                    let gt = l.b.binary(Op::UGreaterThan, bt, p[0], zero)?;
                    let rk = ScalarKind::Int;
                    let one = l.splat(rk, n, ConstValue::Int(1))?;
                    let izero = l.splat(rk, n, ConstValue::Int(0))?;
                    Ok(l.b.select(rt, gt, one, izero)?)
                })?
            }
            I::Countbits => self.countbits(args[0], ty)?,
            I::Reversebits => {
                let vals = self.operands(args)?;
                self.per_row(ty, &vals, |l, rt, p| {
                    if kind.bits() == 32 {
                        return Ok(l.b.unary(Op::BitReverse, rt, p[0])?);
                    }
                    let n = l.width_of(rt);
                    l.reversebits_wide(p[0], kind, n)
                })?
            }
            I::Firstbitlow | I::Firstbithigh | I::Ufirstbithigh => {
                let g = match op {
                    I::Firstbitlow => G::FindILsb,
                    I::Firstbithigh if kind.is_signed_int() => G::FindSMsb,
                    _ => G::FindUMsb,
                };
                let op = if op == I::Ufirstbithigh { I::Firstbithigh } else { op };
                let vals = self.operands(args)?;
                self.per_row(ty, &vals, |l, rt, p| {
                    if kind.bits() == 32 {
                        return Ok(l.b.glsl(rt, g, p)?);
                    }
                    let n = l.width_of(rt);
                    l.firstbit_wide(op, p[0], kind, n)
                })?
            }
            _ => return Ok(None),
        };
        Ok(Some(v))
    }

    /// Scalars into a value of `ty` (the scalar itself when `ty` is one).
    fn gather(&mut self, ty: TypeId, parts: Vec<SpvId>) -> R<SpvId> {
        if parts.len() == 1 {
            return Ok(parts[0]);
        }
        let rty = self.ty(ty, Layout::Logical)?;
        Ok(self.b.composite_construct(rty, &parts)?)
    }

    /// `countbits`: OpBitCount works on 32 bits here, so 16-bit values widen first and 64-bit
    /// ones add the counts of both halves; the count then converts to the result's width.
    fn countbits(&mut self, arg: ExprId, ty: TypeId) -> R<SpvId> {
        let at = self.m.expr(arg).ty;
        let x = self.rvalue(arg)?;
        let Some(sa) = self.shape(at) else {
            return super::super::unsupported("countbits on this type", self.expr_span(arg));
        };
        let n = sa.count();
        let u32t = self.vector_ty(ScalarKind::UInt, n, Layout::Logical);
        let count = match sa.kind.bits() {
            32 => {
                let rty = self.ty(ty, Layout::Logical)?;
                let at_spv = self.ty(at, Layout::Logical)?;
                if at_spv == rty {
                    return Ok(self.b.unary(Op::BitCount, rty, x)?);
                }
                self.b.unary(Op::BitCount, u32t, x)?
            }
            64 => {
                let lo = self.b.unary(Op::UConvert, u32t, x)?;
                let wide = self.ty(at, Layout::Logical)?;
                let k32 = self.splat(ScalarKind::UInt, n, ConstValue::Int(32))?;
                let sh = self.b.binary(Op::ShiftRightLogical, wide, x, k32)?;
                let hi = self.b.unary(Op::UConvert, u32t, sh)?;
                let ca = self.b.unary(Op::BitCount, u32t, lo)?;
                let cb = self.b.unary(Op::BitCount, u32t, hi)?;
                self.b.binary(Op::IAdd, u32t, cb, ca)?
            }
            _ => {
                let ext = self.b.unary(Op::UConvert, u32t, x)?;
                self.b.unary(Op::BitCount, u32t, ext)?
            }
        };
        let rty = self.ty(ty, Layout::Logical)?;
        if rty == u32t {
            return Ok(count);
        }
        let rk = self.m.types.component(ty).unwrap_or(ScalarKind::UInt);
        if rk.bits() == 32 {
            return Ok(self.b.unary(Op::Bitcast, rty, count)?);
        }
        Ok(self.b.unary(Op::UConvert, rty, count)?)
    }
}
