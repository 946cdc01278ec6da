//! Type and argument spellings as clang prints them in DXC's notes: a candidate's parameter
//! types are canonical (`unsigned int`, `vector<float, 3>`), while an argument keeps the
//! spelling of its type (`uint`, `float3`).

use super::Checker;
use crate::tast::{ExprId, ExprKind};
use crate::types::{ScalarKind, Type, TypeId, TypeTable};

/// The canonical clang spelling of a scalar kind (the typedefs resolved).
fn canonical_scalar(k: ScalarKind) -> &'static str {
    match k {
        ScalarKind::UInt => "unsigned int",
        ScalarKind::Int64 => "long long",
        ScalarKind::UInt64 => "unsigned long long",
        ScalarKind::Int16 => "short",
        ScalarKind::UInt16 => "unsigned short",
        k => k.name(),
    }
}

/// `ty` as clang spells a canonical type: `unsigned int`, `vector<float, 3>`,
/// `matrix<int, 2, 2>`; other types as [`TypeTable::name`] spells them.
pub(crate) fn clang_type_spelling(types: &TypeTable, ty: TypeId) -> String {
    match types.get(ty) {
        Type::Scalar(k) => canonical_scalar(*k).to_string(),
        Type::Vector(k, n) => format!("vector<{}, {n}>", canonical_scalar(*k)),
        Type::Matrix { elem, rows, cols, .. } => format!("matrix<{}, {rows}, {cols}>", canonical_scalar(*elem)),
        _ => types.name(ty),
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, ... as clang's `%ordinal` writes them.
pub(crate) fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

impl Checker<'_> {
    /// An argument's type as clang names it in a note: its spelling, where a literal is the
    /// concrete type it has in HLSL 202x (whose literals are not "literal" types).
    ///
    /// An element read from a resource (`buf[i]`) has the canonical type clang keeps as the
    /// resource's template argument (`unsigned long long`, not `uint64_t`).
    pub(crate) fn arg_type_spelling(&self, arg: ExprId) -> String {
        let ty = self.ty_of(arg);
        if let ExprKind::Index { base, .. } = self.m.expr(arg).kind {
            if matches!(self.m.types.get(self.ty_of(base)), Type::Object { .. }) {
                return clang_type_spelling(&self.m.types, ty);
            }
        }
        match self.m.types.get(ty) {
            Type::Scalar(k) if k.is_literal() && self.opts.hlsl_version > 2021 => k.concrete().name().to_string(),
            _ => self.type_name(ty),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals_follow_english() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111].iter().map(|&n| ordinal(n)).collect();
        assert_eq!(got, ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]);
    }

    #[test]
    fn canonical_spellings_resolve_typedefs() {
        let mut t = TypeTable::new();
        let u = t.uint();
        let v = t.vector(ScalarKind::UInt, 3);
        assert_eq!(clang_type_spelling(&t, u), "unsigned int");
        assert_eq!(clang_type_spelling(&t, v), "vector<unsigned int, 3>");
    }
}
