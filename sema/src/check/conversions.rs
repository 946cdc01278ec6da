//! Implicit conversions: whether one type converts to another, at what cost (for overload
//! ranking), and the cast nodes that perform it.
//!
//! Costs (lower is better): exact 0; a literal taking a concrete type of its class 1; a
//! promotion within a class (wider, or min-precision to full) 2; any other component change 3;
//! a splat adds 4; a truncation adds 8. HLSL ranks overloads by these kinds of conversion
//! (exact, promotion, conversion) with dimension changes ranked worst; the numbers encode that
//! order.

use super::Checker;
use crate::tast::{CastKind, ConstValue, Expr, ExprId, ExprKind};
use crate::types::{ObjectKind, ScalarKind, Shape, Type, TypeId, TypeTable};
use hlslc_frontend::{Diagnostic, Span};

fn component_cost(from: ScalarKind, to: ScalarKind) -> u32 {
    if from == to {
        return 0;
    }
    match from {
        ScalarKind::LitInt if to.is_int() => 1,
        ScalarKind::LitInt if to.is_float() => 2,
        ScalarKind::LitFloat if to.is_float() => 1,
        _ if from.is_bool() || to.is_bool() => 3,
        _ if from.is_float() && to.is_float() && to.rank() > from.rank() => 2,
        _ if from.is_int() && to.is_int() && from.is_unsigned() == to.is_unsigned() && to.rank() > from.rank() => 2,
        _ => 3,
    }
}

/// The cost of converting a value of type `from` to `to` implicitly, or `None` when HLSL does not
/// allow it.
pub fn implicit_cost(types: &TypeTable, from: TypeId, to: TypeId) -> Option<u32> {
    if from == to || types.is_error(from) || types.is_error(to) {
        return Some(0);
    }
    if types.same_value_type(from, to) {
        return Some(0);
    }
    match (types.get(from), types.get(to)) {
        (Type::Enum(_), Type::Enum(_)) => return None,
        (_, Type::Enum(_)) => return None,
        _ => {}
    }
    if let Type::Object { kind: ObjectKind::ConstantBuffer | ObjectKind::TextureBuffer, elem: Some(e), .. } = types.get(from) {
        return if *e == to { Some(0) } else { None };
    }
    if let Some(sampler) = super::heap::heap_element(types, from) {
        return super::heap::heap_converts_to(types, sampler, to).then_some(1);
    }
    if types.aggregate_conversion(from, to) {
        return Some(3);
    }
    let (fs, ts) = (types.shape(from)?, types.shape(to)?);
    let (fk, tk) = (types.component(from)?, types.component(to)?);
    let shape_cost = shape_cost(fs, ts)?;
    let enum_cost = if matches!(types.get(from), Type::Enum(_)) { 1 } else { 0 };
    Some(shape_cost + component_cost(fk, tk) + enum_cost)
}

fn shape_cost(from: Shape, to: Shape) -> Option<u32> {
    use Shape::*;
    Some(match (from, to) {
        _ if from == to => 0,
        (Scalar, _) => 4,
        (Vector(1), Scalar) | (Matrix(1, 1), Scalar) => 0,
        (Vector(1), _) | (Matrix(1, 1), _) => 4,
        (_, Scalar) => 8,
        (Vector(a), Vector(b)) if b < a => 8,
        (Matrix(r1, c1), Matrix(r2, c2)) if r2 <= r1 && c2 <= c1 => 8,
        (Vector(a), Matrix(r, c)) if a as u32 == r as u32 * c as u32 => 4,
        (Matrix(r, c), Vector(a)) if a as u32 == r as u32 * c as u32 => 4,
        (Matrix(1, c), Vector(a)) if a <= c => 8,
        (Matrix(r, 1), Vector(a)) if a <= r => 8,
        _ => return None,
    })
}

/// True when an explicit cast from `from` to `to` keeps an lvalue an lvalue: the result is a
/// leading part of the operand's storage with the same component layout. That is a base of a
/// struct, a shorter vector, the upper-left part of a matrix, or an aggregate or scalar whose
/// flattened components are a prefix of the operand's, where each component keeps its kind
/// (an integer may change signedness at the same width, as `(int)uintBuffer[0]`).
pub fn narrows_in_place(types: &TypeTable, from: TypeId, to: TypeId) -> bool {
    if types.contains_object(from) || types.contains_object(to) {
        return false;
    }
    if matches!(types.get(to), Type::Struct(_)) && types.is_base_of(to, from) {
        return true;
    }
    let same = |a: ScalarKind, b: ScalarKind| a == b || (a.is_int() && b.is_int() && !a.is_literal() && a.bits() == b.bits());
    if let (Type::Matrix { elem: e1, rows: r1, cols: c1, .. }, Type::Matrix { elem: e2, rows: r2, cols: c2, .. }) =
        (types.get(from), types.get(to))
    {
        return same(*e1, *e2) && r2 <= r1 && c2 <= c1;
    }
    let (Some(f), Some(t)) = (types.flat_components(from), types.flat_components(to)) else {
        return false;
    };
    t.len() <= f.len() && t.iter().zip(&f).all(|(a, b)| same(*a, *b))
}

/// The cast kind that changes component `from` into `to` (`None` when they are equal).
pub fn component_cast(from: ScalarKind, to: ScalarKind) -> Option<CastKind> {
    if from == to {
        return None;
    }
    Some(match (from.is_bool(), from.is_float(), to.is_bool(), to.is_float()) {
        (true, _, _, true) => CastKind::BoolToFloat,
        (true, _, _, false) => CastKind::BoolToInt,
        (_, true, true, _) => CastKind::FloatToBool,
        (_, false, true, _) => CastKind::IntToBool,
        (_, true, _, true) => CastKind::FloatToFloat,
        (_, true, _, false) => CastKind::FloatToInt,
        (_, false, _, true) => CastKind::IntToFloat,
        (_, false, _, false) => CastKind::IntToInt,
    })
}

/// Converts a constant to component kind `to`.
pub fn convert_const(v: ConstValue, to: ScalarKind) -> ConstValue {
    let as_f = match v {
        ConstValue::Bool(b) => b as i64 as f64,
        ConstValue::Int(i) => i as f64,
        ConstValue::Float(f) => f,
    };
    if to.is_bool() {
        return ConstValue::Bool(match v {
            ConstValue::Bool(b) => b,
            ConstValue::Int(i) => i != 0,
            ConstValue::Float(f) => f != 0.0,
        });
    }
    if to.is_float() {
        let f = if to == ScalarKind::Float || to == ScalarKind::Min16Float { as_f as f32 as f64 } else { as_f };
        return ConstValue::Float(f);
    }
    let i = match v {
        ConstValue::Bool(b) => b as i64,
        ConstValue::Int(i) => i,
        ConstValue::Float(f) => {
            if f.is_nan() {
                0
            } else {
                f as i64
            }
        }
    };
    ConstValue::Int(wrap_int(i, to))
}

/// Wraps an integer to the width and signedness of `k`.
pub fn wrap_int(i: i64, k: ScalarKind) -> i64 {
    match k.bits() {
        16 if k.is_unsigned() => i as u16 as i64,
        16 => i as i16 as i64,
        32 if k.is_unsigned() => i as u32 as i64,
        32 if k != ScalarKind::LitInt => i as i32 as i64,
        _ => i,
    }
}

impl Checker<'_> {
    fn cast_node(&mut self, kind: CastKind, e: ExprId, ty: TypeId, span: Span, explicit: bool) -> ExprId {
        self.m.add_expr(Expr { kind: ExprKind::Cast { kind, expr: e, explicit }, ty, lvalue: false }, span)
    }

    /// Converts `e` to `to` implicitly, adding cast nodes, folding constants, and reporting an
    /// error (`cannot convert from 'A' to 'B'`) or DXC's truncation warning. `what` is unused
    /// context for messages.
    pub fn coerce(&mut self, e: ExprId, to: TypeId) -> ExprId {
        self.convert(e, to, false)
    }

    /// Converts `e` to `to`; `explicit` for casts written by the user (which also allow
    /// aggregate flattening and narrowing to enums).
    pub fn convert(&mut self, e: ExprId, to: TypeId, explicit: bool) -> ExprId {
        let from = self.m.expr(e).ty;
        let span = self.m.expr_span(e);
        if from == to || self.m.types.is_error(from) || self.m.types.is_error(to) {
            return e;
        }
        if explicit && self.m.types.is_void(to) {
            return self.cast_node(CastKind::NoOp, e, to, span, true);
        }
        if let Type::Object { kind: ObjectKind::ConstantBuffer | ObjectKind::TextureBuffer, elem: Some(el), .. } = self.m.types.get(from) {
            if *el == to {
                return self.cast_node(CastKind::FromBuffer, e, to, span, explicit);
            }
        }
        if super::heap::heap_element(&self.m.types, from).is_some() && self.retype_heap(e, to) {
            return e;
        }
        let types = &self.m.types;
        if types.same_value_type(from, to) {
            return self.cast_node(CastKind::NoOp, e, to, span, explicit);
        }
        if types.aggregate_conversion(from, to) {
            return self.cast_node(CastKind::Flatten, e, to, span, explicit);
        }
        let allowed = implicit_cost(types, from, to).is_some();
        if !allowed {
            if explicit {
                if let Some(r) = self.explicit_only(e, from, to, span) {
                    return r;
                }
            }
            // clang names a swizzle's type without the typedef sugar (`vector<float, 3>`).
            let from_name = match (self.m.types.get(from), &self.m.expr(e).kind) {
                (Type::Vector(k, n), ExprKind::Swizzle { .. }) => format!("vector<{}, {n}>", k.name()),
                _ => self.m.types.name(from),
            };
            let msg = format!("cannot convert from '{from_name}' to '{}'", self.m.types.name(to));
            self.diags.push(Diagnostic::error(msg).at(span));
            return self.error_expr(span);
        }
        let (fs, ts) = (types.shape(from).unwrap_or(Shape::Scalar), types.shape(to).unwrap_or(Shape::Scalar));
        let (fk, tk) = (types.component(from).unwrap_or(ScalarKind::Float), types.component(to).unwrap_or(ScalarKind::Float));
        let from_enum = matches!(types.get(from), Type::Enum(_));
        if !explicit && fs.count() > ts.count() && !matches!((fs, ts), (Shape::Vector(1), _) | (Shape::Matrix(1, 1), _)) {
            let what = if matches!(fs, Shape::Matrix(..)) { "matrix" } else { "vector" };
            self.diags.push(
                Diagnostic::warning(format!("implicit truncation of {what} type"))
                    .with_code("-Wconversion")
                    .at(span),
            );
        }
        let mut cur = e;
        if from_enum {
            let u = self.m.types.scalar(fk);
            cur = self.cast_node(CastKind::EnumConvert, cur, u, span, explicit);
        }
        // Constant scalars fold straight to the target component.
        if let (ExprKind::Const(v), Shape::Scalar) = (&self.m.expr(cur).kind, fs) {
            let v = convert_const(*v, tk);
            let sty = self.m.types.scalar(tk);
            if from_enum {
                cur = self.m.add_expr(Expr { kind: ExprKind::Const(v), ty: sty, lvalue: false }, span);
            } else {
                // Literal nodes are fresh and unshared: retype in place so no literal-typed node
                // stays reachable.
                self.m.exprs[cur.0 as usize] = Expr { kind: ExprKind::Const(v), ty: sty, lvalue: false };
            }
            if ts != Shape::Scalar {
                cur = self.cast_node(CastKind::Splat, cur, to, span, explicit);
            }
            return cur;
        }
        let (fs, cur) = match fs {
            Shape::Vector(1) | Shape::Matrix(1, 1) if ts != fs && ts != Shape::Scalar => {
                let st = self.m.types.scalar(fk);
                (Shape::Scalar, self.cast_node(CastKind::ToScalar, cur, st, span, explicit))
            }
            _ => (fs, cur),
        };
        let mut cur = cur;
        let shrink = ts.count() < fs.count();
        if shrink {
            cur = self.shape_cast(cur, fk, fs, ts, span, explicit);
            if let Some(k) = component_cast(fk, tk) {
                cur = self.cast_node(k, cur, to, span, explicit);
            }
        } else {
            if let Some(k) = component_cast(fk, tk) {
                let mid = self.m.types.of_shape(tk, fs, self.default_layout);
                cur = self.cast_node(k, cur, mid, span, explicit);
            }
            cur = self.shape_cast(cur, tk, fs, ts, span, explicit);
        }
        // Matrix layout of the target.
        if self.m.expr(cur).ty != to {
            cur = self.cast_node(CastKind::NoOp, cur, to, span, explicit);
        }
        cur
    }

    fn shape_cast(&mut self, e: ExprId, k: ScalarKind, from: Shape, to: Shape, span: Span, explicit: bool) -> ExprId {
        if from == to {
            return e;
        }
        let kind = match (from, to) {
            (Shape::Scalar, _) => CastKind::Splat,
            (_, Shape::Scalar) => CastKind::ToScalar,
            (Shape::Vector(_), Shape::Vector(_)) => CastKind::VectorTruncate,
            (Shape::Matrix(..), Shape::Matrix(..)) => CastKind::MatrixTruncate,
            (Shape::Vector(_), Shape::Matrix(..)) => CastKind::VectorToMatrix,
            (Shape::Matrix(..), Shape::Vector(_)) => CastKind::MatrixToVector,
        };
        let ty = self.m.types.of_shape(k, to, self.default_layout);
        self.cast_node(kind, e, ty, span, explicit)
    }

    /// Conversions only a cast may do: aggregates through their flattened components, ints to
    /// enums, vector extension from a scalar in a cast is implicit already.
    fn explicit_only(&mut self, e: ExprId, from: TypeId, to: TypeId, span: Span) -> Option<ExprId> {
        if let Some(r) = self.buffer_pointer_cast(e, from, to, span) {
            return Some(r);
        }
        let types = &self.m.types;
        if matches!(types.get(to), Type::Enum(_)) && types.is_numeric(from) {
            let k = types.component(to)?;
            let u = self.m.types.scalar(k);
            let inner = self.convert(e, u, true);
            return Some(self.cast_node(CastKind::EnumConvert, inner, to, span, true));
        }
        let (fc, tc) = (types.flat_count(from)?, types.flat_count(to)?);
        let aggregate = |t: &Type| matches!(t, Type::Struct(_) | Type::Array { .. });
        if (aggregate(types.get(from)) || aggregate(types.get(to)) || types.is_numeric(from)) && (fc >= tc || fc == 1) {
            if types.contains_object(from) || types.contains_object(to) {
                return None;
            }
            // `(S)0`: the literal gets its concrete type first (no literal type reaches the
            // typed AST).
            let e = self.concretize(e);
            return Some(self.cast_node(CastKind::Flatten, e, to, span, true));
        }
        None
    }

    /// `vk::BufferPointer<T>(address)` and `(uint64_t)pointer`: an integer scalar (converted
    /// to `uint64_t` first) or a `uint2` to a pointer, a pointer to an integer scalar.
    fn buffer_pointer_cast(&mut self, e: ExprId, from: TypeId, to: TypeId, span: Span) -> Option<ExprId> {
        let is_ptr = |t: &Type| matches!(t, Type::Object { kind: ObjectKind::VkBufferPointer, .. });
        let u64 = self.m.types.scalar(ScalarKind::UInt64);
        let types = &self.m.types;
        let int_scalar = |t: TypeId| matches!(types.get(t), Type::Scalar(k) if !k.is_float() && !k.is_bool()) || matches!(types.get(t), Type::Enum(_));
        if is_ptr(types.get(to)) {
            let addr = if int_scalar(from) {
                self.convert(e, u64, true)
            } else if matches!(types.get(from), Type::Vector(ScalarKind::UInt, 2)) {
                e
            } else {
                return None;
            };
            return Some(self.cast_node(CastKind::AddressToPointer, addr, to, span, true));
        }
        if is_ptr(types.get(from)) && int_scalar(to) {
            let addr = self.cast_node(CastKind::PointerToAddress, e, u64, span, true);
            return Some(self.convert(addr, to, true));
        }
        None
    }

    /// Gives a literal-typed expression its default concrete type (`literal int` → `int`).
    pub fn concretize(&mut self, e: ExprId) -> ExprId {
        let ty = self.m.expr(e).ty;
        match self.m.types.component(ty) {
            Some(k) if k.is_literal() => {
                let to = self.m.types.with_component(ty, k.concrete());
                self.coerce(e, to)
            }
            _ => e,
        }
    }
}
