//! Folding one lane: an opcode applied to constant scalars given as bits.

use crate::consts::Ty;
use spirv::Op;

fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

fn sext(v: u64, width: u32) -> i64 {
    let s = 64 - width;
    ((v << s) as i64) >> s
}

fn float(v: u64, width: u32) -> Option<f64> {
    match width {
        32 => Some(f64::from(f32::from_bits(v as u32))),
        64 => Some(f64::from_bits(v)),
        _ => None,
    }
}

/// The bits of `x` as a float of `width`, rounded once (32-bit arithmetic is done in f32).
fn to_float(x: f64, width: u32) -> Option<u64> {
    match width {
        32 => Some(u64::from((x as f32).to_bits())),
        64 => Some(x.to_bits()),
        _ => None,
    }
}

/// `op` on `a` (and `b`), the result of type `r`; `None` when it is not folded.
pub fn fold(op: Op, r: Ty, a: (Ty, u64), b: Option<(Ty, u64)>) -> Option<u64> {
    use Op::*;
    let bool_ = |c: bool| Some(u64::from(c));
    match (a.0, b) {
        // Integers of one width.
        (Ty::Int { width: w, .. }, Some((Ty::Int { width: wb, .. }, y))) if w == wb && (w == 32 || w == 64) => {
            let (x, y) = (a.1 & mask(w), y & mask(w));
            let (sx, sy) = (sext(x, w), sext(y, w));
            let m = mask(w);
            match op {
                IAdd => Some(x.wrapping_add(y) & m),
                ISub => Some(x.wrapping_sub(y) & m),
                IMul => Some(x.wrapping_mul(y) & m),
                UDiv if y != 0 => Some(x / y),
                UMod if y != 0 => Some(x % y),
                SDiv if sy != 0 && !(sy == -1 && sx == sext(1 << (w - 1), w)) => Some((sx / sy) as u64 & m),
                SRem if sy != 0 && !(sy == -1 && sx == sext(1 << (w - 1), w)) => Some((sx % sy) as u64 & m),
                SMod if sy != 0 && !(sy == -1 && sx == sext(1 << (w - 1), w)) => {
                    // The sign of the divisor.
                    let r = sx % sy;
                    Some((if r != 0 && (r < 0) != (sy < 0) { r + sy } else { r }) as u64 & m)
                }
                BitwiseAnd => Some(x & y),
                BitwiseOr => Some(x | y),
                BitwiseXor => Some(x ^ y),
                ShiftLeftLogical if y < u64::from(w) => Some((x << y) & m),
                ShiftRightLogical if y < u64::from(w) => Some(x >> y),
                ShiftRightArithmetic if y < u64::from(w) => Some((sx >> y) as u64 & m),
                IEqual => bool_(x == y),
                INotEqual => bool_(x != y),
                ULessThan => bool_(x < y),
                ULessThanEqual => bool_(x <= y),
                UGreaterThan => bool_(x > y),
                UGreaterThanEqual => bool_(x >= y),
                SLessThan => bool_(sx < sy),
                SLessThanEqual => bool_(sx <= sy),
                SGreaterThan => bool_(sx > sy),
                SGreaterThanEqual => bool_(sx >= sy),
                _ => None,
            }
        }
        (Ty::Int { width: w, .. }, None) if w == 32 || w == 64 => {
            let x = a.1 & mask(w);
            match (op, r) {
                (SNegate, _) => Some(x.wrapping_neg() & mask(w)),
                (Not, _) => Some(!x & mask(w)),
                (ConvertSToF, Ty::Float { width }) => to_float(sext(x, w) as f64, width).filter(|_| w == 32 || width == 64),
                (ConvertUToF, Ty::Float { width }) => to_float(x as f64, width).filter(|_| w == 32 || width == 64),
                (Bitcast, Ty::Int { width, .. } | Ty::Float { width }) if width == w => Some(x),
                (UConvert, Ty::Int { width, .. }) => Some(x & mask(width)),
                (SConvert, Ty::Int { width, .. }) => Some(sext(x, w) as u64 & mask(width)),
                _ => None,
            }
        }
        (Ty::Float { width: w }, Some((Ty::Float { width: wb }, y))) if w == wb => {
            let (x, y) = (float(a.1, w)?, float(y, w)?);
            let ord = !x.is_nan() && !y.is_nan();
            match op {
                FAdd => to_float(x + y, w),
                FSub => to_float(x - y, w),
                FMul => to_float(x * y, w),
                FDiv => to_float(x / y, w),
                FOrdEqual => bool_(ord && x == y),
                FOrdNotEqual => bool_(ord && x != y),
                FOrdLessThan => bool_(ord && x < y),
                FOrdLessThanEqual => bool_(ord && x <= y),
                FOrdGreaterThan => bool_(ord && x > y),
                FOrdGreaterThanEqual => bool_(ord && x >= y),
                FUnordEqual => bool_(!ord || x == y),
                FUnordNotEqual => bool_(!ord || x != y),
                FUnordLessThan => bool_(!ord || x < y),
                FUnordLessThanEqual => bool_(!ord || x <= y),
                FUnordGreaterThan => bool_(!ord || x > y),
                FUnordGreaterThanEqual => bool_(!ord || x >= y),
                _ => None,
            }
        }
        (Ty::Float { width: w }, None) => {
            let x = float(a.1, w)?;
            match (op, r) {
                (FNegate, _) => to_float(-x, w),
                (FConvert, Ty::Float { width }) => to_float(x, width),
                (Bitcast, Ty::Int { width, .. } | Ty::Float { width }) if width == w => Some(a.1),
                (ConvertFToS, Ty::Int { width, .. }) if x.is_finite() => {
                    let t = x.trunc();
                    let lim = 2f64.powi(width as i32 - 1);
                    (t >= -lim && t < lim).then(|| (t as i64) as u64 & mask(width))
                }
                (ConvertFToU, Ty::Int { width, .. }) if x.is_finite() => {
                    let t = x.trunc();
                    (t >= 0.0 && t < 2f64.powi(width as i32)).then(|| t as u64)
                }
                _ => None,
            }
        }
        (Ty::Bool, Some((Ty::Bool, y))) => {
            let (x, y) = (a.1 != 0, y != 0);
            match op {
                LogicalAnd => bool_(x && y),
                LogicalOr => bool_(x || y),
                LogicalEqual => bool_(x == y),
                LogicalNotEqual => bool_(x != y),
                _ => None,
            }
        }
        (Ty::Bool, None) => match op {
            LogicalNot => bool_(a.1 == 0),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    const I32: Ty = Ty::Int { width: 32, signed: true };
    const U32: Ty = Ty::Int { width: 32, signed: false };
    const F32: Ty = Ty::Float { width: 32 };

    #[test]
    fn integers_wrap_and_divide_as_spirv_says() {
        assert_eq!(fold(Op::IAdd, U32, (U32, 0xFFFF_FFFF), Some((U32, 2))), Some(1));
        assert_eq!(fold(Op::SDiv, I32, (I32, (-7i32) as u32 as u64), Some((I32, 2))), Some((-3i32) as u32 as u64));
        assert_eq!(fold(Op::SRem, I32, (I32, (-7i32) as u32 as u64), Some((I32, 2))), Some((-1i32) as u32 as u64));
        // SMod takes the sign of the divisor.
        assert_eq!(fold(Op::SMod, I32, (I32, (-7i32) as u32 as u64), Some((I32, 2))), Some(1));
        assert_eq!(fold(Op::SMod, I32, (I32, 7), Some((I32, (-2i32) as u32 as u64))), Some((-1i32) as u32 as u64));
        assert_eq!(fold(Op::UDiv, U32, (U32, 1), Some((U32, 0))), None);
        assert_eq!(fold(Op::SDiv, I32, (I32, 0x8000_0000), Some((I32, 0xFFFF_FFFF))), None);
        assert_eq!(fold(Op::ShiftRightArithmetic, I32, (I32, 0x8000_0000), Some((I32, 31))), Some(0xFFFF_FFFF));
        assert_eq!(fold(Op::ShiftLeftLogical, I32, (I32, 1), Some((I32, 32))), None);
    }

    #[test]
    fn floats_round_to_their_width() {
        let f = |x: f32| u64::from(x.to_bits());
        assert_eq!(fold(Op::FAdd, F32, (F32, f(0.1)), Some((F32, f(0.2)))), Some(f(0.1f32 + 0.2f32)));
        assert_eq!(fold(Op::FOrdLessThan, Ty::Bool, (F32, f(f32::NAN)), Some((F32, f(1.0)))), Some(0));
        assert_eq!(fold(Op::FUnordLessThan, Ty::Bool, (F32, f(f32::NAN)), Some((F32, f(1.0)))), Some(1));
        assert_eq!(fold(Op::ConvertFToS, I32, (F32, f(-2.7)), None), Some((-2i32) as u32 as u64));
        assert_eq!(fold(Op::ConvertFToU, U32, (F32, f(-1.0)), None), None);
        assert_eq!(fold(Op::ConvertSToF, F32, (I32, (-3i32) as u32 as u64), None), Some(f(-3.0)));
    }
}
