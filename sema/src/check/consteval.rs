//! Constant folding over the typed AST: literals, enum values, `static const` scalars and the
//! operators applied to them. Folding happens as expressions are built, so an expression is
//! constant exactly when its node is an [`ExprKind::Const`].

use super::conversions::wrap_int;
use super::Checker;
use crate::tast::{ConstValue, ExprId, ExprKind};
use crate::types::ScalarKind;
use hlslc_frontend::ast::{BinaryOp, UnaryOp};

impl Checker<'_> {
    /// The value of a constant expression.
    pub(crate) fn const_value(&self, e: ExprId) -> Option<ConstValue> {
        match &self.m.expr(e).kind {
            ExprKind::Const(v) => Some(*v),
            ExprKind::Var(v) => self.m.var(*v).const_value,
            _ => None,
        }
    }

    /// The value of a scalar expression tree that must be constant (an array size, a template
    /// argument, an enumerator): as [`Checker::const_value`], and also through what is left
    /// unfolded for the emitters' sake, enumerators converted to integers (`N * E::value`), and
    /// the scalar conversions around them.
    pub(crate) fn const_tree_value(&self, e: ExprId, depth: u32) -> Option<ConstValue> {
        if let Some(v) = self.const_value(e) {
            return Some(v);
        }
        if depth > 64 {
            return None;
        }
        let ex = self.m.expr(e);
        let k = match self.m.types.get(ex.ty) {
            crate::types::Type::Scalar(k) => *k,
            _ => return None,
        };
        match ex.kind {
            ExprKind::Cast { kind, expr, .. } => {
                use crate::tast::CastKind::*;
                match kind {
                    EnumConvert | NoOp | IntToInt | IntToFloat | FloatToInt | FloatToFloat | IntToBool | FloatToBool | BoolToInt
                    | BoolToFloat => Some(super::conversions::convert_const(self.const_tree_value(expr, depth + 1)?, k)),
                    _ => None,
                }
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let operand_k = match self.m.types.get(self.m.expr(lhs).ty) {
                    crate::types::Type::Scalar(k) => *k,
                    _ => k,
                };
                let (a, b) = (self.const_tree_value(lhs, depth + 1)?, self.const_tree_value(rhs, depth + 1)?);
                fold_binary(op, a, b, operand_k).ok().flatten()
            }
            ExprKind::Unary { op, operand } => fold_unary(op, self.const_tree_value(operand, depth + 1)?, k),
            // `min(2, 3)` / `max(2, 3)` on constant scalars (dxc folds them in array sizes).
            ExprKind::Intrinsic { op, object: None, ref args } if args.len() == 2 => {
                use crate::intrinsics::IntrinsicOp as I;
                let is_max = match op {
                    I::Max | I::Umax => true,
                    I::Min | I::Umin => false,
                    _ => return None,
                };
                let (a, b) = (self.const_tree_value(args[0], depth + 1)?, self.const_tree_value(args[1], depth + 1)?);
                let (a, b) = (super::conversions::convert_const(a, k), super::conversions::convert_const(b, k));
                let a_ge_b = as_b(fold_binary(BinaryOp::Ge, a, b, k).ok()??);
                Some(if a_ge_b == is_max { a } else { b })
            }
            _ => None,
        }
    }
}

fn as_f(v: ConstValue) -> f64 {
    match v {
        ConstValue::Bool(b) => b as i64 as f64,
        ConstValue::Int(i) => i as f64,
        ConstValue::Float(f) => f,
    }
}

fn as_i(v: ConstValue) -> i64 {
    match v {
        ConstValue::Bool(b) => b as i64,
        ConstValue::Int(i) => i,
        ConstValue::Float(f) => f as i64,
    }
}

fn as_b(v: ConstValue) -> bool {
    match v {
        ConstValue::Bool(b) => b,
        ConstValue::Int(i) => i != 0,
        ConstValue::Float(f) => f != 0.0,
    }
}

/// Folds a unary operator on a scalar constant of kind `k`; `None` when not foldable
/// (increments).
pub fn fold_unary(op: UnaryOp, v: ConstValue, k: ScalarKind) -> Option<ConstValue> {
    Some(match op {
        UnaryOp::Plus => v,
        UnaryOp::Neg => match v {
            ConstValue::Float(f) => ConstValue::Float(-f),
            _ => ConstValue::Int(wrap_int(as_i(v).wrapping_neg(), k)),
        },
        UnaryOp::Not => ConstValue::Bool(!as_b(v)),
        UnaryOp::BitNot => ConstValue::Int(wrap_int(!as_i(v), k)),
        _ => return None,
    })
}

/// Folds a binary operator on two scalar constants already converted to kind `k` (comparisons
/// and logical operators produce `Bool`). `Err` carries a message for division by zero.
pub fn fold_binary(op: BinaryOp, a: ConstValue, b: ConstValue, k: ScalarKind) -> Result<Option<ConstValue>, &'static str> {
    use BinaryOp::*;
    let float = k.is_float();
    let unsigned = k.is_unsigned();
    let cmp = |o: std::cmp::Ordering| -> ConstValue {
        use std::cmp::Ordering::*;
        ConstValue::Bool(match op {
            Lt => o == Less,
            Gt => o == Greater,
            Le => o != Greater,
            Ge => o != Less,
            Eq => o == Equal,
            _ => o != Equal,
        })
    };
    Ok(Some(match op {
        LogAnd => ConstValue::Bool(as_b(a) && as_b(b)),
        LogOr => ConstValue::Bool(as_b(a) || as_b(b)),
        Lt | Gt | Le | Ge | Eq | Ne => {
            if float {
                match as_f(a).partial_cmp(&as_f(b)) {
                    Some(o) => cmp(o),
                    None => ConstValue::Bool(op == Ne),
                }
            } else if unsigned {
                cmp((as_i(a) as u64).cmp(&(as_i(b) as u64)))
            } else {
                cmp(as_i(a).cmp(&as_i(b)))
            }
        }
        Add | Sub | Mul | Div | Rem if float => {
            let (x, y) = (as_f(a), as_f(b));
            let r = match op {
                Add => x + y,
                Sub => x - y,
                Mul => x * y,
                Div => x / y,
                _ => x % y,
            };
            ConstValue::Float(if k == ScalarKind::Float { r as f32 as f64 } else { r })
        }
        Comma => b,
        _ if float => return Ok(None),
        _ => {
            let (x, y) = (as_i(a), as_i(b));
            // HLSL shifts by the count modulo the width of the shifted type (`x << 42u` on a
            // 32-bit `x` shifts by 10), as the emitted OpShiftLeftLogical/`shl` of a masked count
            // does at run time; literal ints fold at 64 bits.
            let count = (y & i64::from(if k.is_literal() { 63 } else { k.bits() - 1 })) as u32;
            let r = match op {
                Add => x.wrapping_add(y),
                Sub => x.wrapping_sub(y),
                Mul => x.wrapping_mul(y),
                Div | Rem if y == 0 => return Err(if op == Div { "division by zero" } else { "remainder by zero" }),
                Div if unsigned => ((x as u64) / (y as u64)) as i64,
                Rem if unsigned => ((x as u64) % (y as u64)) as i64,
                Div => x.wrapping_div(y),
                Rem => x.wrapping_rem(y),
                Shl => x.wrapping_shl(count),
                Shr if unsigned => ((x as u64) >> count) as i64,
                Shr => x >> count,
                BitAnd => x & y,
                BitOr => x | y,
                BitXor => x ^ y,
                _ => return Ok(None),
            };
            ConstValue::Int(wrap_int(r, k))
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_integer_ops_with_wrapping() {
        let r = fold_binary(BinaryOp::Add, ConstValue::Int(i32::MAX as i64), ConstValue::Int(1), ScalarKind::Int);
        assert_eq!(r, Ok(Some(ConstValue::Int(i32::MIN as i64))));
        let r = fold_binary(BinaryOp::Div, ConstValue::Int(-7), ConstValue::Int(2), ScalarKind::Int);
        assert_eq!(r, Ok(Some(ConstValue::Int(-3))));
        let r = fold_binary(BinaryOp::Shr, ConstValue::Int(0xFFFF_FFFF), ConstValue::Int(4), ScalarKind::UInt);
        assert_eq!(r, Ok(Some(ConstValue::Int(0x0FFF_FFFF))));
        assert!(fold_binary(BinaryOp::Rem, ConstValue::Int(1), ConstValue::Int(0), ScalarKind::Int).is_err());
    }

    #[test]
    fn shift_counts_wrap_at_the_width_of_the_shifted_type() {
        let int = |v: i64| Ok(Some(ConstValue::Int(v)));
        let shl = |x: i64, y: i64, k| fold_binary(BinaryOp::Shl, ConstValue::Int(x), ConstValue::Int(y), k);
        let shr = |x: i64, y: i64, k| fold_binary(BinaryOp::Shr, ConstValue::Int(x), ConstValue::Int(y), k);
        assert_eq!(shl(0x750, 42, ScalarKind::UInt), int(0x1D_4000), "42 & 31 = 10");
        assert_eq!(shr(0x8000_0000, 33, ScalarKind::UInt), int(0x4000_0000));
        assert_eq!(shr(-0x8000_0000, 33, ScalarKind::Int), int(-0x4000_0000));
        assert_eq!(shl(1, 70, ScalarKind::UInt64), int(64), "70 & 63 = 6");
        assert_eq!(shr(-1, 65, ScalarKind::UInt64), int(i64::MAX));
        assert_eq!(shl(1, 17, ScalarKind::UInt16), int(2), "17 & 15 = 1");
        assert_eq!(shr(-0x8000, 16, ScalarKind::Int16), int(-0x8000));
        assert_eq!(shl(1, 40, ScalarKind::LitInt), int(1 << 40), "literals fold at 64 bits");
    }

    #[test]
    fn folds_comparisons_and_floats() {
        let r = fold_binary(BinaryOp::Lt, ConstValue::Int(-1), ConstValue::Int(1), ScalarKind::UInt);
        assert_eq!(r, Ok(Some(ConstValue::Bool(false))), "-1 as uint is large");
        let r = fold_binary(BinaryOp::Mul, ConstValue::Float(1.5), ConstValue::Float(2.0), ScalarKind::Float);
        assert_eq!(r, Ok(Some(ConstValue::Float(3.0))));
        assert_eq!(fold_unary(UnaryOp::Neg, ConstValue::Int(5), ScalarKind::Int), Some(ConstValue::Int(-5)));
        assert_eq!(fold_unary(UnaryOp::BitNot, ConstValue::Int(0), ScalarKind::UInt), Some(ConstValue::Int(0xFFFF_FFFF)));
    }
}
