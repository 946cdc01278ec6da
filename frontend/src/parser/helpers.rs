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

/// Sets the attributes of a typedef or using declaration.
pub fn with_decl_attrs(attrs: Vec<Attribute>, mut d: Decl, span: Span) -> Decl {
    if let Decl::Typedef(t) = &mut d {
        t.attrs = attrs;
        t.span = span;
    }
    d
}

/// `T name = init` in a condition: the declaration, and a use of `name` as the condition.
pub fn cond_decl(specs: (Vec<ModifierAt>, TypeSpec), name: Ident, init: Expr, span: Span) -> (Option<VarDecl>, Expr) {
    let use_ = expr(ExprKind::Name(Path { global: false, parts: vec![name.clone()], span: name.span }), name.span);
    let declarator = Declarator { name, qualifier: Vec::new(), array_dims: Vec::new(), annotations: Vec::new(), init: Some(init), span };
    let decl = VarDecl { attrs: Vec::new(), modifiers: specs.0, ty: specs.1, declarators: vec![declarator], span };
    (Some(decl), use_)
}

fn decl_stmt(d: VarDecl) -> Stmt {
    let span = d.span;
    stmt(StmtKind::Decl(Box::new(Decl::Var(d))), span)
}

/// A condition that declares a variable is desugared, so the AST needs no special form:
/// `if (T d = e) s` is `{ T d = e; if (d) s }` (same for `switch`).
fn wrap(decl: Option<VarDecl>, s: Stmt, span: Span) -> Stmt {
    match decl {
        None => s,
        Some(d) => stmt(StmtKind::Block(Block { stmts: vec![decl_stmt(d), s], span }), span),
    }
}

pub fn if_stmt(cond: (Option<VarDecl>, Expr), then: Stmt, otherwise: Option<Stmt>, span: Span) -> Stmt {
    let s = stmt(StmtKind::If { cond: cond.1, then: Box::new(then), otherwise: otherwise.map(Box::new) }, span);
    wrap(cond.0, s, span)
}

pub fn switch_stmt(cond: (Option<VarDecl>, Expr), body: Stmt, span: Span) -> Stmt {
    let s = stmt(StmtKind::Switch { cond: cond.1, body: Box::new(body) }, span);
    wrap(cond.0, s, span)
}

/// `while (T d = e) s` is `for (;;) { T d = e; if (!d) break; s }`, which evaluates the
/// declaration before every iteration as the original does.
pub fn while_stmt(cond: (Option<VarDecl>, Expr), body: Stmt, span: Span) -> Stmt {
    match cond {
        (None, c) => stmt(StmtKind::While { cond: c, body: Box::new(body) }, span),
        (Some(d), c) => {
            let cspan = c.span;
            let not = un(UnaryOp::Not, c, cspan);
            let brk = stmt(StmtKind::If { cond: not, then: Box::new(stmt(StmtKind::Break, cspan)), otherwise: None }, cspan);
            let block = Block { stmts: vec![decl_stmt(d), brk, body], span };
            let body = stmt(StmtKind::Block(block), span);
            stmt(StmtKind::For { init: None, cond: None, step: None, body: Box::new(body) }, span)
        }
    }
}
