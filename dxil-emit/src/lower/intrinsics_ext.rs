//! Intrinsics beyond the per-component math of [`super::intrinsics`]: wave and quad operations,
//! half-precision conversions and double packing, matrix `transpose` and `determinant`,
//! `fwidth`, the unsigned variants of `abs` and `sign`, `IsHelperLane`, and the packed-value
//! intrinsics (`D3DCOLORtoUBYTE4`, `AddUint64`, `dot2add`, `dot4add_*8packed`, `modf`).

use super::{Flat, Lowerer, R};
use crate::ir::{BinOp, CastOp, IntPred, Value};
use crate::ops::{DxilOp, Overload, ScalarKind as OK};
use hlslc_frontend::ast::BinaryOp;
use hlslc_frontend::Span;
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::tast::{ConstValue, ExprId};
use hlslc_sema::types::ScalarKind;

/// `DXIL::WaveOpKind` / `WaveBitOpKind` / `QuadOpKind` codes and whether the op takes a sign.
fn wave_code(op: I) -> Option<(DxilOp, i8, bool)> {
    Some(match op {
        I::WaveActiveSum | I::WaveActiveUSum => (DxilOp::WaveActiveOp, 0, true),
        I::WaveActiveProduct | I::WaveActiveUProduct => (DxilOp::WaveActiveOp, 1, true),
        I::WaveActiveMin | I::WaveActiveUMin => (DxilOp::WaveActiveOp, 2, true),
        I::WaveActiveMax | I::WaveActiveUMax => (DxilOp::WaveActiveOp, 3, true),
        I::WaveActiveBitAnd => (DxilOp::WaveActiveBit, 0, false),
        I::WaveActiveBitOr => (DxilOp::WaveActiveBit, 1, false),
        I::WaveActiveBitXor => (DxilOp::WaveActiveBit, 2, false),
        I::WavePrefixSum | I::WavePrefixUSum => (DxilOp::WavePrefixOp, 0, true),
        I::WavePrefixProduct | I::WavePrefixUProduct => (DxilOp::WavePrefixOp, 1, true),
        I::QuadReadAcrossX => (DxilOp::QuadOp, 0, false),
        I::QuadReadAcrossY => (DxilOp::QuadOp, 1, false),
        I::QuadReadAcrossDiagonal => (DxilOp::QuadOp, 2, false),
        _ => return None,
    })
}

impl Lowerer<'_> {
    /// Lowers the intrinsics [`Lowerer::intrinsic`] leaves to this file.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn intrinsic_ext(&mut self, op: I, args: &[ExprId], vals: &[Flat], k: ScalarKind, rk: ScalarKind, span: Option<Span>) -> R<Flat> {
        if let Some((dop, code, signed)) = wave_code(op) {
            let c = self.ci8(code);
            let mut a = vec![c];
            if signed {
                let s = self.ci8(i8::from(k.is_unsigned()));
                a.push(s);
            }
            return self.per_comp(&vals[..1], |l, x| {
                let mut args = vec![x[0]];
                args.extend_from_slice(&a);
                l.op(dop, Self::overload(k), &args, span)
            });
        }
        match op {
            I::F32tof16 => self.per_comp(vals, |l, x| l.op(DxilOp::LegacyF32ToF16, Overload::None, &[x[0]], span)),
            I::F16tof32 => self.per_comp(vals, |l, x| l.op(DxilOp::LegacyF16ToF32, Overload::None, &[x[0]], span)),
            I::Fwidth => self.per_comp(vals, |l, x| {
                let dx = l.unary_op(DxilOp::DerivCoarseX, k, x[0], span)?;
                let ax = l.unary_op(DxilOp::FAbs, k, dx, span)?;
                let dy = l.unary_op(DxilOp::DerivCoarseY, k, x[0], span)?;
                let ay = l.unary_op(DxilOp::FAbs, k, dy, span)?;
                l.binop(BinaryOp::Add, k, ax, ay, span)
            }),
            I::Uabs => Ok(vals[0].clone()),
            I::Usign => self.per_comp(vals, |l, x| {
                let z = l.const_scalar(k, ConstValue::Int(0));
                let ne = l.b.icmp(IntPred::Ne, x[0], z);
                Ok(l.convert_scalar(ne, ScalarKind::Bool, ScalarKind::Int))
            }),
            I::Asdouble => self.per_comp(vals, |l, x| l.op(DxilOp::MakeDouble, Overload::Scalar(OK::Double), &[x[0], x[1]], span)),
            I::Asfloat16 | I::Asint16 | I::Asuint16 => self.per_comp(vals, |l, x| {
                let to = l.scalar_ir(rk);
                if l.b.type_of(x[0]) == to {
                    return Ok(x[0]);
                }
                Ok(l.b.cast(CastOp::BitCast, x[0], to))
            }),
            I::Transpose => {
                let (r, c) = self.shape(self.t.expr(args[0]).ty);
                let m = &vals[0];
                Ok((0..c).flat_map(|j| (0..r).map(move |i| m[i * c + j])).collect())
            }
            I::Determinant => {
                let (n, _) = self.shape(self.t.expr(args[0]).ty);
                let m = vals[0].clone();
                Ok(vec![self.determinant(k, &m, n)?])
            }
            I::IsHelperLane => Ok(vec![self.op(DxilOp::IsHelperLane, Overload::Scalar(OK::I1), &[], span)?]),
            I::WaveActiveCountBits | I::WavePrefixCountBits => {
                let dop = if op == I::WaveActiveCountBits { DxilOp::WaveAllBitCount } else { DxilOp::WavePrefixBitCount };
                let b = self.convert_scalar(vals[0][0], k, ScalarKind::Bool);
                Ok(vec![self.op(dop, Overload::None, &[b], span)?])
            }
            I::WaveActiveBallot => {
                let b = self.convert_scalar(vals[0][0], k, ScalarKind::Bool);
                let r = self.op(DxilOp::WaveActiveBallot, Overload::None, &[b], span)?;
                Ok((0..4).map(|i| self.b.extract_value(r, vec![i])).collect())
            }
            I::WaveActiveAllEqual => self.per_comp(&vals[..1], |l, x| l.op(DxilOp::WaveActiveAllEqual, Self::overload(k), &[x[0]], span)),
            I::WaveMatch => {
                let mut acc: Option<Vec<Value>> = None;
                for x in vals[0].clone() {
                    let r = self.op(DxilOp::WaveMatch, Self::overload(k), &[x], span)?;
                    let parts: Vec<Value> = (0..4).map(|i| self.b.extract_value(r, vec![i])).collect();
                    acc = Some(match acc {
                        None => parts,
                        Some(a) => a.into_iter().zip(parts).map(|(p, q)| self.raw_bin(BinOp::And, p, q)).collect(),
                    });
                }
                Ok(acc.unwrap_or_default())
            }
            I::QuadReadLaneAt => {
                let lane = vals[1][0];
                self.per_comp(&vals[..1], |l, x| l.op(DxilOp::QuadReadLaneAt, Self::overload(k), &[x[0], lane], span))
            }
            I::QuadAny | I::QuadAll => {
                let b = self.convert_scalar(vals[0][0], k, ScalarKind::Bool);
                let c = self.ci8(i8::from(op == I::QuadAll));
                Ok(vec![self.op(DxilOp::QuadVote, Overload::Scalar(OK::I1), &[b, c], span)?])
            }
            I::D3DCOLORtoUBYTE4 => {
                // (int4)(x.zyxw * 255.002), unrounded, the constant dxc uses.
                let x = &vals[0];
                let mut out = Vec::new();
                for i in [2, 1, 0, 3] {
                    let c = self.const_scalar(ScalarKind::Float, ConstValue::Float(f64::from(255.002f32)));
                    let m = self.binop(BinaryOp::Mul, ScalarKind::Float, x[i], c, span)?;
                    out.push(self.convert_scalar(m, ScalarKind::Float, ScalarKind::Int));
                }
                Ok(out)
            }
            I::AddUint64 => {
                // Each (low, high) word pair: UAddc on the low words, its carry into the high sum.
                let (a, b) = (&vals[0], &vals[1]);
                if a.len() != 2 && a.len() != 4 {
                    return Err(super::LowerError { message: "AddUint64 can only be applied to uint2 and uint4 operands.".into(), span });
                }
                let mut out = Vec::new();
                for pair in 0..a.len() / 2 {
                    let (lo, hi) = (pair * 2, pair * 2 + 1);
                    let r = self.op(DxilOp::UAddc, Overload::Scalar(OK::I32), &[a[lo], b[lo]], span)?;
                    let low = self.b.extract_value(r, vec![0]);
                    let carry = self.b.extract_value(r, vec![1]);
                    let i32t = self.scalar_ir(ScalarKind::UInt);
                    let carry = self.b.cast(CastOp::ZExt, carry, i32t);
                    let high = self.binop(BinaryOp::Add, ScalarKind::UInt, a[hi], b[hi], span)?;
                    let high = self.binop(BinaryOp::Add, ScalarKind::UInt, high, carry, span)?;
                    out.extend([low, high]);
                }
                Ok(out)
            }
            I::Dot2add => {
                let (a, b, acc) = (&vals[0], &vals[1], vals[2][0]);
                let o = Overload::Scalar(OK::Float);
                Ok(vec![self.op(DxilOp::Dot2AddHalf, o, &[acc, a[0], a[1], b[0], b[1]], span)?])
            }
            I::Dot4addI8packed | I::Dot4addU8packed => {
                let dop = if op == I::Dot4addI8packed { DxilOp::Dot4AddI8Packed } else { DxilOp::Dot4AddU8Packed };
                let (a, b, acc) = (vals[0][0], vals[1][0], vals[2][0]);
                Ok(vec![self.op(dop, Overload::Scalar(OK::I32), &[acc, a, b], span)?])
            }
            I::Modf => {
                // The whole part rounds toward zero; the fraction is what is left.
                let whole = self.per_comp(&vals[..1], |l, x| l.unary_op(DxilOp::Round_z, k, x[0], span))?;
                let mut frac = Vec::new();
                for (x, w) in vals[0].iter().zip(&whole) {
                    frac.push(self.binop(BinaryOp::Sub, k, *x, *w, span)?);
                }
                self.store_out_arg(args[1], whole, span)?;
                Ok(frac)
            }
            _ => self.intrinsic_compound(op, args, vals, k, rk, span),
        }
    }

    /// The determinant of the `n`×`n` matrix `m` (row by row), by cofactor expansion along the
    /// first row.
    fn determinant(&mut self, k: ScalarKind, m: &[Value], n: usize) -> R<Value> {
        match n {
            0 => Ok(self.const_scalar(k, ConstValue::Float(1.0))),
            1 => Ok(m[0]),
            2 => {
                let ad = self.binop(BinaryOp::Mul, k, m[0], m[3], None)?;
                let bc = self.binop(BinaryOp::Mul, k, m[1], m[2], None)?;
                self.binop(BinaryOp::Sub, k, ad, bc, None)
            }
            _ => {
                let mut acc: Option<Value> = None;
                for j in 0..n {
                    let minor: Vec<Value> = (1..n).flat_map(|i| (0..n).filter(move |&c| c != j).map(move |c| (i, c))).map(|(i, c)| m[i * n + c]).collect();
                    let d = self.determinant(k, &minor, n - 1)?;
                    let t = self.binop(BinaryOp::Mul, k, m[j], d, None)?;
                    acc = Some(match acc {
                        None => t,
                        Some(a) if j % 2 == 1 => self.binop(BinaryOp::Sub, k, a, t, None)?,
                        Some(a) => self.binop(BinaryOp::Add, k, a, t, None)?,
                    });
                }
                Ok(acc.expect("n > 2"))
            }
        }
    }
}
