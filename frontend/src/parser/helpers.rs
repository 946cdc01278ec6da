//! Small constructors used by the grammar's actions, to keep `grammar.lalrpop` readable.

use crate::ast::*;
use super::token::{sp, Pos};
use crate::source::Span;

pub fn expr(kind: ExprKind, span: Span) -> Expr {
    Expr { kind, span }
}

pub fn bin(op: BinaryOp, lhs: Expr, rhs: Expr, span: Span) -> Expr {
    expr(ExprKind::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) }, span)
}

/// Binding strength of a binary operator (higher binds tighter); all are left-associative.
fn precedence(op: BinaryOp) -> u8 {
    use BinaryOp::*;
    match op {
        Mul | Div | Rem => 10,
        Add | Sub => 9,
        Shl | Shr => 8,
        Lt | Gt | Le | Ge => 7,
        Eq | Ne => 6,
        BitAnd => 5,
        BitXor => 4,
        BitOr => 3,
        LogAnd => 2,
        LogOr => 1,
        Comma => 0,
    }
}

/// `a op b op c ...` as the grammar reads it (operands with the positions of their first and
/// last tokens), folded into a tree by precedence: every node spans its operands' tokens, as if
/// each precedence level were its own left-recursive grammar rule.
pub fn binary_chain(first: (Pos, Expr, Pos), rest: Vec<(BinaryOp, Pos, Expr, Pos)>) -> Expr {
    fn reduce(operands: &mut Vec<(Pos, Expr, Pos)>, op: BinaryOp) {
        let (_, b, br) = operands.pop().expect("an operand per operator");
        let (al, a, _) = operands.pop().expect("an operand per operator");
        operands.push((al, bin(op, a, b, sp(al, br)), br));
    }
    let mut operands = Vec::with_capacity(rest.len() + 1);
    let mut ops: Vec<BinaryOp> = Vec::with_capacity(rest.len());
    operands.push(first);
    for (op, l, e, r) in rest {
        while let Some(&top) = ops.last().filter(|&&top| precedence(top) >= precedence(op)) {
            ops.pop();
            reduce(&mut operands, top);
        }
        ops.push(op);
        operands.push((l, e, r));
    }
    while let Some(top) = ops.pop() {
        reduce(&mut operands, top);
    }
    operands.pop().expect("one operand left").1
}

pub fn un(op: UnaryOp, operand: Expr, span: Span) -> Expr {
    expr(ExprKind::Unary { op, operand: Box::new(operand) }, span)
}

pub fn assign(op: Option<BinaryOp>, lhs: Expr, rhs: Expr, span: Span) -> Expr {
    expr(ExprKind::Assign { op, lhs: Box::new(lhs), rhs: Box::new(rhs) }, span)
}

/// The qualifier of a path as the grammar collects it: `::`, `ns::`, `S<int>::`.
pub struct Scope {
    pub global: bool,
    pub parts: Vec<Ident>,
    /// Template arguments written after a part (`S<int>::`), by part; may be shorter than
    /// `parts` (the missing entries are `None`).
    pub args: Vec<Option<Vec<TemplateArg>>>,
}

impl Scope {
    /// `p<args>::`.
    pub fn instance(p: Path, args: Vec<TemplateArg>) -> Scope {
        let mut a = p.scope_args;
        a.resize(p.parts.len() - 1, None);
        a.push(Some(args));
        Scope { global: p.global, parts: p.parts, args: a }
    }
}

/// A path from `Scopes` (global flag and leading parts) and its last part.
pub fn path(scopes: Option<Scope>, last: Ident, span: Span) -> Path {
    // A plain name (most of them) gets a vector of exactly one part: growing an empty one would
    // reserve four (160 bytes for every name in the program).
    let Some(Scope { global, mut parts, mut args }) = scopes else {
        return Path { global: false, parts: vec![last], scope_args: Vec::new(), span };
    };
    parts.push(last);
    if !args.is_empty() {
        args.resize(parts.len(), None);
    }
    Path { global, parts, scope_args: args, span }
}

/// The name of an unnamed template parameter (`template<class, class>`): unique per position,
/// and no identifier can spell it.
pub fn unnamed_param(span: Span) -> Ident {
    Ident { name: format!("(unnamed parameter at {})", span.start), span }
}

pub fn named(path: Path, args: Option<Vec<TemplateArg>>, span: Span) -> TypeSpec {
    TypeSpec { kind: TypeKind::Named { path, args }, span }
}

/// `struct S` used as a type (`typedef struct S T;`, `struct S s;`): a plain name is a forward
/// declaration of `S` (which names `S` when it is already declared, and declares it otherwise,
/// as in C); a qualified or template name stays a name.
pub fn elaborated(kind: StructKind, t: TypeSpec) -> TypeSpec {
    match t.kind {
        TypeKind::Named { path, args: None } if path.parts.len() == 1 && !path.global => {
            let name = path.parts.into_iter().next();
            let decl = StructDecl { kind, attrs: Vec::new(), name, template_args: None, bases: Vec::new(), members: None, span: t.span };
            TypeSpec { kind: TypeKind::Struct(Box::new(decl)), span: t.span }
        }
        kind => TypeSpec { kind, span: t.span },
    }
}

// Large nonterminals are boxed in the grammar: the generated parser moves every symbol by value
// (once per shift, reduce and pop), and the size of its symbol type is that of the largest one.

pub fn stmt(kind: StmtKind, span: Span) -> Box<Stmt> {
    Box::new(Stmt { kind, attrs: Vec::new(), span })
}

/// The contents of a list of boxed nonterminals.
pub fn unbox<T>(v: Vec<Box<T>>) -> Vec<T> {
    v.into_iter().map(|b| *b).collect()
}

pub fn for_stmt(head: Box<(Option<Box<Stmt>>, Option<Expr>, Option<Expr>)>, body: Box<Stmt>, span: Span) -> Box<Stmt> {
    let (init, cond, step) = *head;
    stmt(StmtKind::For { init, cond: cond.map(Box::new), step: step.map(Box::new), body }, span)
}

/// Prepends statement attributes (`[unroll] [loop] for ...`).
pub fn with_attrs(mut attrs: Vec<Attribute>, mut s: Box<Stmt>, span: Span) -> Box<Stmt> {
    attrs.append(&mut s.attrs);
    s.attrs = attrs;
    s.span = span;
    s
}

/// `f(void)` declares no parameters.
pub fn params(list: Option<Vec<Box<Param>>>) -> Vec<Param> {
    let list = unbox(list.unwrap_or_default());
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

/// A shader-stage name as `register(ps, ...)` takes it: `ps`, `vs_6_0`, `lib_6_x`...
fn is_shader_profile(name: &str) -> bool {
    let (stage, version) = name.split_once('_').unwrap_or((name, ""));
    matches!(stage, "ps" | "vs" | "gs" | "hs" | "ds" | "cs" | "lib" | "ms" | "as")
        && (version.is_empty() || version.split('_').all(|p| !p.is_empty() && (p == "x" || p.bytes().all(|b| b.is_ascii_digit()))))
}

/// A register name with an offset, `s2[8]`, as the name it stands for (`s10`); a name that does
/// not end in a number counts from 0 (`s[8]` is `s8`). The offset is a constant expression of
/// literals (`s[1+1]`; `s[1.5]` truncates to 1, as dxc does); anything else makes a name sema
/// reports as an invalid register. `span` covers the whole argument.
pub fn indexed_register(n: Ident, index: &Expr, span: Span) -> Ident {
    let digits = n.name.len() - n.name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (prefix, number) = n.name.split_at(n.name.len() - digits);
    let offset = literal_value(index).filter(|v| v.is_finite() && *v >= 0.0 && *v < u32::MAX as f64);
    let name = match offset.and_then(|v| number.parse::<u64>().unwrap_or(0).checked_add(v as u64)) {
        Some(sum) if !prefix.is_empty() => format!("{prefix}{sum}"),
        _ => format!("{}[]", n.name),
    };
    Ident { name, span }
}

/// The value of an expression made of number literals, unary `+`/`-` and `+ - * /`.
fn literal_value(e: &Expr) -> Option<f64> {
    Some(match &e.kind {
        ExprKind::IntLit { value, .. } => *value as f64,
        ExprKind::FloatLit { value, .. } => *value,
        ExprKind::Unary { op: UnaryOp::Plus, operand } => literal_value(operand)?,
        ExprKind::Unary { op: UnaryOp::Neg, operand } => -literal_value(operand)?,
        ExprKind::Binary { op, lhs, rhs } => {
            let (a, b) = (literal_value(lhs)?, literal_value(rhs)?);
            match op {
                BinaryOp::Add => a + b,
                BinaryOp::Sub => a - b,
                BinaryOp::Mul => a * b,
                BinaryOp::Div => a / b,
                _ => return None,
            }
        }
        _ => return None,
    })
}

/// `register(...)` arguments: `(slot)`, `(space)`, `(slot, space)`, `(profile, slot)`,
/// `(profile, slot, space)`.
pub fn register(args: Vec<Ident>, span: Span) -> Annotation {
    let is_space = |i: &Ident| i.name.starts_with("space");
    let mut it = args.into_iter();
    let (profile, slot, space) = match (it.next(), it.next(), it.next()) {
        (Some(a), None, _) if is_space(&a) => (None, None, Some(a)),
        (Some(a), None, _) => (None, Some(a), None),
        (Some(a), Some(b), None) if is_space(&b) && is_shader_profile(&a.name) => (Some(a), None, Some(b)),
        (Some(a), Some(b), None) if is_space(&b) => (None, Some(a), Some(b)),
        // `register(s1, spice)`: a slot and a (malformed) space, not a profile.
        (Some(a), Some(b), None) if !is_shader_profile(&a.name) => (None, Some(a), Some(b)),
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
pub fn with_decl_attrs(attrs: Vec<Attribute>, mut d: Box<Decl>, span: Span) -> Box<Decl> {
    if let Decl::Typedef(t) = &mut *d {
        t.attrs = attrs;
        t.span = span;
    }
    d
}

/// `T name = init` in a condition: the declaration, and a use of `name` as the condition.
pub fn cond_decl(specs: (Vec<ModifierAt>, TypeSpec), name: Ident, init: Expr, span: Span) -> Box<(Option<VarDecl>, Expr)> {
    let use_ = expr(ExprKind::Name(Path { global: false, parts: vec![name.clone()], scope_args: Vec::new(), span: name.span }), name.span);
    let declarator = Declarator { name, qualifier: Vec::new(), array_dims: Vec::new(), annotations: Vec::new(), init: Some(init), span };
    let decl = VarDecl { attrs: Vec::new(), modifiers: specs.0, ty: specs.1, declarators: vec![declarator], span };
    Box::new((Some(decl), use_))
}

fn decl_stmt(d: VarDecl) -> Stmt {
    let span = d.span;
    *stmt(StmtKind::Decl(Box::new(Decl::Var(d))), span)
}

/// A condition that declares a variable is desugared, so the AST needs no special form:
/// `if (T d = e) s` is `{ T d = e; if (d) s }` (same for `switch`).
fn wrap(decl: Option<VarDecl>, s: Box<Stmt>, span: Span) -> Box<Stmt> {
    match decl {
        None => s,
        Some(d) => stmt(StmtKind::Block(Block { stmts: vec![decl_stmt(d), *s], span }), span),
    }
}

pub fn if_stmt(cond: Box<(Option<VarDecl>, Expr)>, then: Box<Stmt>, otherwise: Option<Box<Stmt>>, span: Span) -> Box<Stmt> {
    let (decl, cond) = *cond;
    let s = stmt(StmtKind::If { cond, then, otherwise }, span);
    wrap(decl, s, span)
}

pub fn switch_stmt(cond: Box<(Option<VarDecl>, Expr)>, body: Box<Stmt>, span: Span) -> Box<Stmt> {
    let (decl, cond) = *cond;
    let s = stmt(StmtKind::Switch { cond, body }, span);
    wrap(decl, s, span)
}

/// `while (T d = e) s` is `for (;;) { T d = e; if (!d) break; s }`, which evaluates the
/// declaration before every iteration as the original does.
pub fn while_stmt(cond: Box<(Option<VarDecl>, Expr)>, body: Box<Stmt>, span: Span) -> Box<Stmt> {
    match *cond {
        (None, c) => stmt(StmtKind::While { cond: c, body }, span),
        (Some(d), c) => {
            let cspan = c.span;
            let not = un(UnaryOp::Not, c, cspan);
            let brk = stmt(StmtKind::If { cond: not, then: stmt(StmtKind::Break, cspan), otherwise: None }, cspan);
            let block = Block { stmts: vec![decl_stmt(d), *brk, *body], span };
            let body = stmt(StmtKind::Block(block), span);
            stmt(StmtKind::For { init: None, cond: None, step: None, body }, span)
        }
    }
}
