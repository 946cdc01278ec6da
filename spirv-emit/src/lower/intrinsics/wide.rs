//! Bit intrinsics on 16- and 64-bit integers. Vulkan takes GLSL.std.450's `FindILsb`,
//! `FindUMsb`, `FindSMsb` and `OpBitReverse` on 32-bit components only, so, as dxc lowers
//! `reversebits`, 16-bit values widen to 32 bits (the result narrows back) and 64-bit values
//! work on their two 32-bit halves.

use super::super::layout::Layout;
use super::super::{Lowerer, R};
use crate::id::SpvId;
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::tast::ConstValue;
use hlslc_sema::types::ScalarKind;
use spirv::{GlslStd450Op as G, Op};

/// The unsigned kind of the width of `k`.
fn unsigned_of(k: ScalarKind) -> ScalarKind {
    match k.bits() {
        16 => ScalarKind::UInt16,
        64 => ScalarKind::UInt64,
        _ => ScalarKind::UInt,
    }
}

impl<'m> Lowerer<'m> {
    /// `firstbitlow`/`firstbithigh` (`op`) of `x`, `n` components of the 16- or 64-bit kind
    /// `k`, as `uint` components: the bit index, or `0xFFFFFFFF` when there is none.
    pub(super) fn firstbit_wide(&mut self, op: I, x: SpvId, k: ScalarKind, n: u32) -> R<SpvId> {
        let u32t = self.vector_ty(ScalarKind::UInt, n, Layout::Logical);
        let signed_high = op == I::Firstbithigh && k.is_signed_int();
        if k.bits() == 16 {
            // Widening keeps the answer: zero-extended for the low bit and unsigned high bit,
            // sign-extended for the signed high bit (the highest bit that differs from the sign).
            if signed_high {
                let i32t = self.vector_ty(ScalarKind::Int, n, Layout::Logical);
                let w = self.b.unary(Op::SConvert, i32t, x)?;
                return Ok(self.b.glsl(u32t, G::FindSMsb, &[w])?);
            }
            let w = self.b.unary(Op::UConvert, u32t, x)?;
            let g = if op == I::Firstbitlow { G::FindILsb } else { G::FindUMsb };
            return Ok(self.b.glsl(u32t, g, &[w])?);
        }
        let boolt = self.vector_ty(ScalarKind::Bool, n, Layout::Logical);
        let zero = self.splat(ScalarKind::UInt, n, ConstValue::Int(0))?;
        let k32 = self.splat(ScalarKind::UInt, n, ConstValue::Int(32))?;
        if op == I::Firstbitlow {
            let (lo, hi) = self.halves(x, k, n)?;
            let in_lo = self.b.glsl(u32t, G::FindILsb, &[lo])?;
            let in_hi = self.b.glsl(u32t, G::FindILsb, &[hi])?;
            let in_hi = self.b.binary(Op::IAdd, u32t, in_hi, k32)?;
            let none = self.splat(ScalarKind::UInt, n, ConstValue::Int(0xFFFF_FFFF))?;
            let hi_zero = self.b.binary(Op::IEqual, boolt, hi, zero)?;
            let from_hi = self.b.select(u32t, hi_zero, none, in_hi)?;
            let lo_zero = self.b.binary(Op::IEqual, boolt, lo, zero)?;
            return Ok(self.b.select(u32t, lo_zero, from_hi, in_lo)?);
        }
        // For a signed value, the highest bit that differs from the sign bit is the highest set
        // bit of `x ^ (x >> 63)` (arithmetic shift).
        let x = if signed_high {
            let xt = self.vector_ty(k, n, Layout::Logical);
            let k63 = self.splat(k, n, ConstValue::Int(63))?;
            let sign = self.b.binary(Op::ShiftRightArithmetic, xt, x, k63)?;
            self.b.binary(Op::BitwiseXor, xt, x, sign)?
        } else {
            x
        };
        let (lo, hi) = self.halves(x, k, n)?;
        let in_lo = self.b.glsl(u32t, G::FindUMsb, &[lo])?;
        let in_hi = self.b.glsl(u32t, G::FindUMsb, &[hi])?;
        let in_hi = self.b.binary(Op::IAdd, u32t, in_hi, k32)?;
        let hi_zero = self.b.binary(Op::IEqual, boolt, hi, zero)?;
        Ok(self.b.select(u32t, hi_zero, in_lo, in_hi)?)
    }

    /// `reversebits` of `x`, `n` components of the 16- or 64-bit kind `k`, in that kind.
    pub(super) fn reversebits_wide(&mut self, x: SpvId, k: ScalarKind, n: u32) -> R<SpvId> {
        let u32t = self.vector_ty(ScalarKind::UInt, n, Layout::Logical);
        let uk = unsigned_of(k);
        let ut = self.vector_ty(uk, n, Layout::Logical);
        let r = if k.bits() == 16 {
            let w = self.b.unary(Op::UConvert, u32t, x)?;
            let rev = self.b.unary(Op::BitReverse, u32t, w)?;
            let k16 = self.splat(ScalarKind::UInt, n, ConstValue::Int(16))?;
            let sh = self.b.binary(Op::ShiftRightLogical, u32t, rev, k16)?;
            self.b.unary(Op::UConvert, ut, sh)?
        } else {
            let (lo, hi) = self.halves(x, k, n)?;
            let rlo = self.b.unary(Op::BitReverse, u32t, lo)?;
            let rhi = self.b.unary(Op::BitReverse, u32t, hi)?;
            let wlo = self.b.unary(Op::UConvert, ut, rlo)?;
            let whi = self.b.unary(Op::UConvert, ut, rhi)?;
            let k32 = self.splat(uk, n, ConstValue::Int(32))?;
            let top = self.b.binary(Op::ShiftLeftLogical, ut, wlo, k32)?;
            self.b.binary(Op::BitwiseOr, ut, top, whi)?
        };
        if uk == k {
            return Ok(r);
        }
        let t = self.vector_ty(k, n, Layout::Logical);
        Ok(self.b.unary(Op::Bitcast, t, r)?)
    }

    /// The low and high 32-bit halves of the 64-bit `x` (`n` components of kind `k`), as `uint`s.
    fn halves(&mut self, x: SpvId, k: ScalarKind, n: u32) -> R<(SpvId, SpvId)> {
        let u32t = self.vector_ty(ScalarKind::UInt, n, Layout::Logical);
        let xt = self.vector_ty(k, n, Layout::Logical);
        let lo = self.b.unary(Op::UConvert, u32t, x)?;
        let k32 = self.splat(k, n, ConstValue::Int(32))?;
        let sh = self.b.binary(Op::ShiftRightLogical, xt, x, k32)?;
        let hi = self.b.unary(Op::UConvert, u32t, sh)?;
        Ok((lo, hi))
    }
}
