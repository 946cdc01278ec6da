//! Member access: struct fields (through base classes), vector swizzles, matrix swizzles.

use super::{Checker, Symbol};
use crate::tast::{ConstValue, ExprKind};
use crate::tast::ExprId;
use crate::types::{ObjectKind, ScalarKind, Shape, Type, TypeId};
use hlslc_frontend::ast;

/// Parses a vector swizzle (`xyzw` or `rgba`, not mixed) into component indices.
pub fn parse_swizzle(s: &str) -> Option<Vec<u8>> {
    if s.is_empty() || s.len() > 4 {
        return None;
    }
    let xyzw = s.chars().all(|c| "xyzw".contains(c));
    let rgba = s.chars().all(|c| "rgba".contains(c));
    if !xyzw && !rgba {
        return None;
    }
    let set = if xyzw { "xyzw" } else { "rgba" };
    Some(s.chars().map(|c| set.find(c).unwrap_or(0) as u8).collect())
}

/// Parses a matrix swizzle: `_m01_m10` (zero-based) or `_11_22` (one-based), not mixed.
pub fn parse_matrix_swizzle(s: &str) -> Option<Vec<(u8, u8)>> {
    let mut out = Vec::new();
    let mut rest = s;
    let mut zero_based: Option<bool> = None;
    while !rest.is_empty() {
        let r = rest.strip_prefix('_')?;
        let (zb, digits) = match r.strip_prefix('m') {
            Some(d) => (true, d),
            None => (false, r),
        };
        if zero_based.is_some_and(|z| z != zb) {
            return None;
        }
        zero_based = Some(zb);
        let b = digits.as_bytes();
        if b.len() < 2 || !b[0].is_ascii_digit() || !b[1].is_ascii_digit() {
            return None;
        }
        let (mut row, mut col) = (b[0] - b'0', b[1] - b'0');
        if !zb {
            if row == 0 || col == 0 {
                return None;
            }
            row -= 1;
            col -= 1;
        }
        if row > 3 || col > 3 {
            return None;
        }
        out.push((row, col));
        rest = &digits[2..];
    }
    if out.is_empty() || out.len() > 4 {
        return None;
    }
    Some(out)
}

impl Checker<'_> {
    /// Finds field `name` in struct type `t` or its bases: (field index, base path, field type).
    pub(crate) fn find_field(&self, t: TypeId, name: &str) -> Option<(u32, Vec<u32>, TypeId)> {
        self.find_field_depth(t, name, 0)
    }

    fn find_field_depth(&self, t: TypeId, name: &str, depth: u32) -> Option<(u32, Vec<u32>, TypeId)> {
        if depth > 32 {
            return None;
        }
        let Type::Struct(s) = self.m.types.get(t) else { return None };
        let def = &self.m.types.structs[s.0 as usize];
        if let Some(i) = def.fields.iter().position(|f| f.name == name) {
            return Some((i as u32, Vec::new(), def.fields[i].ty));
        }
        for (bi, &b) in def.bases.iter().enumerate() {
            if let Some((i, mut path, ty)) = self.find_field_depth(b, name, depth + 1) {
                path.insert(0, bi as u32);
                return Some((i, path, ty));
            }
        }
        None
    }

    /// `base.name` (not a method call).
    pub(crate) fn member(&mut self, b: ExprId, name: &ast::Ident) -> ExprId {
        let bt = self.ty_of(b);
        let span = name.span;
        let lvalue = self.m.expr(b).lvalue;
        if self.m.types.is_error(bt) {
            return self.error_expr(span);
        }
        // `ConstantBuffer<S>` / `TextureBuffer<S>` members are the fields of `S`.
        let lookup_ty = match self.m.types.get(bt) {
            Type::Object { kind: crate::types::ObjectKind::ConstantBuffer | crate::types::ObjectKind::TextureBuffer, elem: Some(e), .. } => *e,
            _ => bt,
        };
        match self.m.types.get(lookup_ty).clone() {
            Type::Struct(_) => match self.find_field(lookup_ty, &name.name) {
                Some((index, via_base, fty)) => {
                    let lvalue = lvalue && lookup_ty == bt;
                    self.add(ExprKind::Field { base: b, index, via_base }, fty, lvalue, span)
                }
                None => {
                    // A static member named through an object (`t.M`): the object is not read.
                    match self.static_member(lookup_ty, &name.name) {
                        Some(Symbol::Var(v)) => {
                            let ty = self.m.var(v).ty;
                            return self.add(ExprKind::Var(v), ty, true, span);
                        }
                        Some(Symbol::Const(ty, v)) => return self.konst(v, ty, span),
                        _ => {}
                    }
                    let n = self.type_name(bt);
                    self.error(span, format!("no member named '{}' in '{}'", name.name, n));
                    self.error_expr(span)
                }
            },
            Type::Scalar(k) | Type::Vector(k, _) => {
                let n = match self.m.types.shape(bt) {
                    Some(Shape::Vector(n)) => n,
                    _ => 1,
                };
                let Some(comps) = parse_swizzle(&name.name) else {
                    let t = self.type_name(bt);
                    let (xyzw, rgba) = (name.name.contains(['x', 'y', 'z', 'w']), name.name.contains(['r', 'g', 'b', 'a']));
                    if xyzw && rgba && name.name.chars().all(|c| "xyzwrgba".contains(c)) {
                        self.error(span, "vector component names cannot mix 'xyzw' and 'rgba'");
                        return self.error_expr(span);
                    }
                    self.error(span, format!("invalid swizzle '{}' on vector type '{}'", name.name, t));
                    return self.error_expr(span);
                };
                if comps.iter().any(|&c| c >= n) {
                    let t = self.type_name(bt);
                    self.error(span, format!("vector swizzle '{}' is out of bounds for '{}'", name.name, t));
                    return self.error_expr(span);
                }
                let unique = (0..comps.len()).all(|i| !comps[i + 1..].contains(&comps[i]));
                let ty = if comps.len() == 1 { self.m.types.scalar(k) } else { self.m.types.vector(k, comps.len() as u8) };
                self.add(ExprKind::Swizzle { base: b, components: comps }, ty, lvalue && unique, span)
            }
            Type::Matrix { elem, rows, cols, .. } => {
                let Some(els) = parse_matrix_swizzle(&name.name) else {
                    let t = self.type_name(bt);
                    self.error(span, format!("invalid swizzle '{}' on matrix type '{}'", name.name, t));
                    return self.error_expr(span);
                };
                if els.iter().any(|&(r, c)| r >= rows || c >= cols) {
                    self.error(span, format!("matrix swizzle '{}' is out of bounds", name.name));
                    return self.error_expr(span);
                }
                let unique = (0..els.len()).all(|i| !els[i + 1..].contains(&els[i]));
                let ty = if els.len() == 1 { self.m.types.scalar(elem) } else { self.m.types.vector(elem, els.len() as u8) };
                self.add(ExprKind::MatrixSwizzle { base: b, elements: els }, ty, lvalue && unique, span)
            }
            // `patch.Length`: an InputPatch/OutputPatch's control-point count, a constant.
            Type::Object { kind: ObjectKind::InputPatch | ObjectKind::OutputPatch, count: Some(n), .. } if name.name == "Length" => {
                let uint = self.m.types.scalar(ScalarKind::UInt);
                self.konst(ConstValue::Int(n as i64), uint, span)
            }
            _ => {
                let n = self.type_name(bt);
                self.error(span, format!("member reference base type '{n}' is not a structure or union"));
                self.error_expr(span)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swizzles() {
        assert_eq!(parse_swizzle("xzy"), Some(vec![0, 2, 1]));
        assert_eq!(parse_swizzle("rgba"), Some(vec![0, 1, 2, 3]));
        assert_eq!(parse_swizzle("xg"), None);
        assert_eq!(parse_swizzle("xxxxx"), None);
        assert_eq!(parse_matrix_swizzle("_m01_m10"), Some(vec![(0, 1), (1, 0)]));
        assert_eq!(parse_matrix_swizzle("_11_44"), Some(vec![(0, 0), (3, 3)]));
        assert_eq!(parse_matrix_swizzle("_00"), None);
        assert_eq!(parse_matrix_swizzle("_m01_11"), None);
        assert_eq!(parse_matrix_swizzle("_m4"), None);
    }
}
