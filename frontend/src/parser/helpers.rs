//! Small constructors used by the grammar's actions, to keep `grammar.lalrpop` readable.

use crate::ast::*;
use crate::source::Span;

pub fn expr(kind: ExprKind, span: Span) -> Expr {
    Expr { kind, span }
}

pub fn bin(op: BinaryOp, lhs: Expr, rhs: Expr, span: Span) -> Expr {
    expr(ExprKind::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) }, span)
}

pub fn un(op: UnaryOp, operand: Expr, span: Span) -> Expr {
    expr(ExprKind::Unary { op, operand: Box::new(operand) }, span)
}

pub fn assign(op: Option<BinaryOp>, lhs: Expr, rhs: Expr, span: Span) -> Expr {
    expr(ExprKind::Assign { op, lhs: Box::new(lhs), rhs: Box::new(rhs) }, span)
}

/// A path from `Scopes` (global flag and leading parts) and its last part.
pub fn path(scopes: Option<(bool, Vec<Ident>)>, last: Ident, span: Span) -> Path {
    let (global, mut parts) = scopes.unwrap_or((false, Vec::new()));
    parts.push(last);
    Path { global, parts, span }
}

pub fn named(path: Path, args: Option<Vec<TemplateArg>>, span: Span) -> TypeSpec {
    TypeSpec { kind: TypeKind::Named { path, args }, span }
}

pub fn stmt(kind: StmtKind, span: Span) -> Stmt {
    Stmt { kind, attrs: Vec::new(), span }
}

/// Prepends statement attributes (`[unroll] [loop] for ...`).
pub fn with_attrs(mut attrs: Vec<Attribute>, mut s: Stmt, span: Span) -> Stmt {
    attrs.append(&mut s.attrs);
    s.attrs = attrs;
    s.span = span;
    s
}

/// `f(void)` declares no parameters.
pub fn params(list: Option<Vec<Param>>) -> Vec<Param> {
    let list = list.unwrap_or_default();
    if let [p] = list.as_slice() {
        if p.name.is_none() && p.modifiers.is_empty() && p.array_dims.is_empty() && is_void(&p.ty) {
            return Vec::new();
        }
    }
    list
}

fn is_void(t: &TypeSpec) -> bool {
    matches!(&t.kind, TypeKind::Named { path, args: None } if !path.global && path.parts.len() == 1 && path.parts[0].name == "void")
}

/// `register(...)` arguments: `(slot)`, `(space)`, `(slot, space)`, `(profile, slot)`,
/// `(profile, slot, space)`.
pub fn register(args: Vec<Ident>, span: Span) -> Annotation {
    let is_space = |i: &Ident| i.name.starts_with("space");
    let mut it = args.into_iter();
    let (profile, slot, space) = match (it.next(), it.next(), it.next()) {
        (Some(a), None, _) if is_space(&a) => (None, None, Some(a)),
        (Some(a), None, _) => (None, Some(a), None),
        (Some(a), Some(b), None) if is_space(&b) => (None, Some(a), Some(b)),
        (Some(a), Some(b), None) => (Some(a), Some(b), None),
        (a, b, c) => (a, b, c),
    };
    Annotation::Register { profile, slot, space, span }
}

/// Builds attributes from `[a, b(1)]` bodies.
pub fn attrs(bodies: Vec<(Option<Ident>, Ident, Vec<Expr>, Span)>, double_bracket: bool) -> Vec<Attribute> {
    bodies
        .into_iter()
        .map(|(namespace, name, args, span)| Attribute { namespace, name, args, double_bracket, span })
        .collect()
}
