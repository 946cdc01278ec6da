//! Folding of constant vector expressions into `OpConstantComposite`, where DXC folds them.
//!
//! Sema folds scalar operators. DXC additionally evaluates, with clang's constant
//! evaluator, a *conversion* (numeric casts, splats, vector truncation) or a *vector
//! constructor* whose operands are all constant, and emits the result as a constant instead of
//! `OpCompositeConstruct`/`OpConvert*` instructions (`float4 v = 1;` stores a constant vector
//! directly, `float f = E_ONE;` stores `%float_1`).
//! Matrix constructors, arrays and structs are not folded (DXC builds them with
//! `OpCompositeConstruct` even from constants); a matrix *splat* is.

use super::layout::Layout;
use super::{Lowerer, R};
use crate::id::SpvId;
use hlslc_frontend::ast::{BinaryOp, UnaryOp};
use hlslc_sema::tast::{CastKind, ConstValue, ExprId, ExprKind};
use hlslc_sema::types::{ScalarKind, Type};

/// Converts one constant component to the scalar kind `to`, as the matching cast would.
fn convert(c: ConstValue, to: ScalarKind) -> ConstValue {
    if to.is_bool() {
        return ConstValue::Bool(match c {
            ConstValue::Bool(b) => b,
            ConstValue::Int(i) => i != 0,
            ConstValue::Float(f) => f != 0.0,
        });
    }
    if to.is_float() {
        let f = match c {
            ConstValue::Bool(b) => b as i64 as f64,
            ConstValue::Int(i) => i as f64,
            ConstValue::Float(f) => f,
        };
        return ConstValue::Float(if to.bits() == 64 || to.is_literal() { f } else { f as f32 as f64 });
    }
    let i = match c {
        ConstValue::Bool(b) => b as i64,
        ConstValue::Int(i) => i,
        ConstValue::Float(f) => f as i64,
    };
    let w = to.bits();
    if w >= 64 || to.is_literal() {
        return ConstValue::Int(i);
    }
    let masked = (i as u64) & ((1u64 << w) - 1);
    // Signed kinds keep their sign in 64 bits; unsigned ones stay non-negative.
    let v = if to.is_signed_int() && masked >> (w - 1) == 1 { (masked | !((1u64 << w) - 1)) as i64 } else { masked as i64 };
    ConstValue::Int(v)
}

impl<'m> Lowerer<'m> {
    /// The constant DXC would emit for `e`, a cast or a vector constructor, when all its
    /// operands are constant; `None` when `e` is not folded.
    pub(crate) fn fold_constant(&mut self, e: ExprId) -> R<Option<SpvId>> {
        let expr = self.m.expr(e);
        let foldable = match &expr.kind {
            ExprKind::Cast { kind, .. } => matches!(
                kind,
                CastKind::Splat
                    | CastKind::EnumConvert
                    | CastKind::VectorTruncate
                    | CastKind::IntToInt
                    | CastKind::FloatToFloat
                    | CastKind::IntToFloat
                    | CastKind::FloatToInt
                    | CastKind::IntToBool
                    | CastKind::FloatToBool
                    | CastKind::BoolToInt
                    | CastKind::BoolToFloat
            ),
            ExprKind::Construct { .. } => matches!(self.m.types.get(expr.ty), Type::Vector(..)),
            _ => false,
        };
        if !foldable {
            return Ok(None);
        }
        let Some(shape) = self.shape(expr.ty) else { return Ok(None) };
        // To one component, a constructor, splat or truncation is an extract or nothing, not a
        // folded constant (`float1 f = float3(5, 6, 7);` extracts from the constant vector).
        if shape.count() == 1
            && matches!(
                expr.kind,
                ExprKind::Construct { .. } | ExprKind::Cast { kind: CastKind::Splat | CastKind::VectorTruncate, .. }
            )
        {
            return Ok(None);
        }
        let Some(flat) = self.flat_constant(e) else { return Ok(None) };
        if flat.len() != shape.count() as usize {
            return Ok(None);
        }
        let mut comps = Vec::with_capacity(flat.len());
        for c in flat {
            comps.push(self.scalar_const(shape.kind, c)?);
        }
        if shape.count() == 1 {
            return Ok(Some(comps[0]));
        }
        let tyid = self.ty(expr.ty, Layout::Logical)?;
        if shape.is_matrix() {
            let row = self.vector_ty(shape.kind, shape.cols, Layout::Logical);
            let rows: Vec<SpvId> =
                comps.chunks(shape.cols as usize).map(|r| self.b.ctx.const_composite(row, r)).collect();
            return Ok(Some(self.b.ctx.const_composite(tyid, &rows)));
        }
        Ok(Some(self.b.ctx.const_composite(tyid, &comps)))
    }

    /// `e` as one SPIR-V constant (scalar or vector) when it folds to one, whatever its form
    /// (`int2(2, 3)` truncated to `int` is `%int_2`): for operands that must be constants.
    pub(crate) fn constant_value(&mut self, e: ExprId) -> R<Option<SpvId>> {
        let ty = self.m.expr(e).ty;
        let Some(shape) = self.shape(ty) else { return Ok(None) };
        if shape.is_matrix() {
            return Ok(None);
        }
        let Some(flat) = self.flat_constant(e) else { return Ok(None) };
        let mut comps = Vec::with_capacity(flat.len());
        for c in flat {
            comps.push(self.scalar_const(shape.kind, c)?);
        }
        if comps.len() == 1 {
            return Ok(Some(comps[0]));
        }
        let tyid = self.ty(ty, Layout::Logical)?;
        Ok(Some(self.b.ctx.const_composite(tyid, &comps)))
    }

    /// The value of a constant condition (`if (3 + 5)`), as a bool.
    pub(crate) fn const_condition(&self, e: ExprId) -> Option<bool> {
        match self.flat_constant(e)?.as_slice() {
            [c] => Some(match convert(*c, ScalarKind::Bool) {
                ConstValue::Bool(b) => b,
                _ => return None,
            }),
            _ => None,
        }
    }

    /// The components of a constant scalar, vector or matrix expression, in row-major order,
    /// each already of the expression's component kind.
    pub(crate) fn flat_constant(&self, e: ExprId) -> Option<Vec<ConstValue>> {
        let expr = self.m.expr(e);
        let shape = self.shape(expr.ty)?;
        let n = shape.count() as usize;
        match &expr.kind {
            ExprKind::Const(c) => Some(vec![convert(*c, shape.kind); n]),
            ExprKind::Var(v) => {
                let var = self.m.var(*v);
                let c = match self.const_params.get(v) {
                    Some(&c) => c,
                    None => var.const_value?,
                };
                (n == 1).then(|| vec![convert(c, shape.kind)])
            }
            ExprKind::Unary { op: op @ (UnaryOp::Neg | UnaryOp::Plus), operand } => {
                let inner = self.flat_constant(*operand)?;
                if *op == UnaryOp::Plus {
                    return Some(inner);
                }
                Some(
                    inner
                        .into_iter()
                        .map(|c| match c {
                            ConstValue::Float(f) => ConstValue::Float(-f),
                            ConstValue::Int(i) => convert(ConstValue::Int(i.wrapping_neg()), shape.kind),
                            b => b,
                        })
                        .collect(),
                )
            }
            ExprKind::Cast { kind, expr: inner, .. } => {
                let src = self.flat_constant(*inner)?;
                match kind {
                    CastKind::NoOp
                    | CastKind::EnumConvert
                    | CastKind::IntToInt
                    | CastKind::FloatToFloat
                    | CastKind::IntToFloat
                    | CastKind::FloatToInt
                    | CastKind::IntToBool
                    | CastKind::FloatToBool
                    | CastKind::BoolToInt
                    | CastKind::BoolToFloat
                    | CastKind::VectorToMatrix
                    | CastKind::MatrixToVector => {
                        (src.len() == n).then(|| src.into_iter().map(|c| convert(c, shape.kind)).collect())
                    }
                    CastKind::Splat => (src.len() == 1).then(|| vec![convert(src[0], shape.kind); n]),
                    CastKind::VectorTruncate | CastKind::ToScalar => {
                        (src.len() >= n).then(|| src.into_iter().take(n).map(|c| convert(c, shape.kind)).collect())
                    }
                    _ => None,
                }
            }
            // `(a, b)` is `b` when `a` is a constant (it has no side effect).
            ExprKind::Comma { lhs, rhs } | ExprKind::Binary { op: BinaryOp::Comma, lhs, rhs } => {
                self.flat_constant(*lhs)?;
                self.flat_constant(*rhs)
            }
            // A scalar operator on a parameter bound to a constant (`i == 0` while finding what
            // `getTexture(0)` returns, `resvalue.rs`); sema folded every other constant one.
            ExprKind::Binary { op, lhs, rhs } if !self.const_params.is_empty() && n == 1 => {
                let (a, b) = (self.flat_constant(*lhs)?, self.flat_constant(*rhs)?);
                let ([a], [b]) = (a.as_slice(), b.as_slice()) else { return None };
                let k = self.shape(self.m.expr(*lhs).ty)?.kind;
                let r = hlslc_sema::fold_binary(*op, *a, *b, k).ok()??;
                Some(vec![convert(r, shape.kind)])
            }
            ExprKind::Construct { args } if !shape.is_matrix() => {
                let mut out = Vec::with_capacity(n);
                for &a in args {
                    out.extend(self.flat_constant(a)?.into_iter().map(|c| convert(c, shape.kind)));
                }
                (out.len() == n).then_some(out)
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_components_like_the_casts() {
        assert_eq!(convert(ConstValue::Float(2.9), ScalarKind::Int), ConstValue::Int(2));
        assert_eq!(convert(ConstValue::Int(-1), ScalarKind::UInt), ConstValue::Int(0xffff_ffff));
        assert_eq!(convert(ConstValue::Int(0xffff_ffff), ScalarKind::Int), ConstValue::Int(-1));
        assert_eq!(convert(ConstValue::Int(3), ScalarKind::Bool), ConstValue::Bool(true));
        assert_eq!(convert(ConstValue::Bool(true), ScalarKind::Float), ConstValue::Float(1.0));
        // 0.1 as a 32-bit float is not 0.1 as a double.
        assert_eq!(convert(ConstValue::Float(0.1), ScalarKind::Float), ConstValue::Float(0.1f32 as f64));
    }
}
