//! `hlslc -ast-dump`: the AST as an indented tree, one node per line, two spaces per level.
//!
//! Deterministic (no addresses, no spans, no hash order). Types and template arguments print
//! inline as written (`vector<float, 4>`, `RWTexture2D<unorm float4>`); expressions and statements
//! print as nodes with their children below them. Recursion depth is bounded by the parser's tree
//! depth limit (see `parser::limits`).

use crate::ast::*;
use std::fmt::Write;

/// Dumps a translation unit.
pub fn dump(tu: &TranslationUnit) -> String {
    let mut d = Dumper { out: String::new(), indent: 0 };
    d.line("TranslationUnit".to_string());
    d.nested(|d| tu.decls.iter().for_each(|x| d.decl(x)));
    d.out
}

struct Dumper {
    out: String,
    indent: usize,
}

/// A type as written.
pub fn type_text(t: &TypeSpec) -> String {
    match &t.kind {
        TypeKind::Named { path, args } => {
            let mut s = path_text(path);
            if let Some(args) = args {
                let a: Vec<String> = args.iter().map(targ_text).collect();
                let _ = write!(s, "<{}>", a.join(", "));
            }
            s
        }
        TypeKind::Array { elem, dims } => format!("{}{}", type_text(elem), dims_text(dims)),
        TypeKind::Struct(st) => {
            format!("{} {}", struct_kind(st.kind), st.name.as_ref().map_or("<anonymous>", |n| n.name.as_str()))
        }
    }
}

fn targ_text(a: &TemplateArg) -> String {
    match a {
        TemplateArg::Type(t) => type_text(t),
        TemplateArg::Expr(e) => expr_text(e),
        TemplateArg::ModifiedType { modifiers, ty } => format!("{} {}", mods_text(modifiers), type_text(ty)),
    }
}

fn targs_text(a: &[TemplateArg]) -> String {
    format!("<{}>", a.iter().map(targ_text).collect::<Vec<_>>().join(", "))
}

fn path_text(p: &Path) -> String {
    let parts: Vec<String> = p
        .parts
        .iter()
        .enumerate()
        .map(|(i, part)| match p.scope_args.get(i) {
            Some(Some(a)) => format!("{}{}", part.name, targs_text(a)),
            _ => part.name.clone(),
        })
        .collect();
    format!("{}{}", if p.global { "::" } else { "" }, parts.join("::"))
}

fn mods_text(m: &[ModifierAt]) -> String {
    m.iter().map(|m| m.modifier.keyword()).collect::<Vec<_>>().join(" ")
}

fn struct_kind(k: StructKind) -> &'static str {
    match k {
        StructKind::Struct => "struct",
        StructKind::Class => "class",
        StructKind::Interface => "interface",
    }
}

fn int_suffix(s: IntSuffix) -> &'static str {
    match s {
        IntSuffix::None => "",
        IntSuffix::U => "u",
        IntSuffix::L => "l",
        IntSuffix::UL => "ul",
        IntSuffix::LL => "ll",
        IntSuffix::ULL => "ull",
    }
}

fn float_suffix(s: FloatSuffix) -> &'static str {
    match s {
        FloatSuffix::None => "",
        FloatSuffix::F => "f",
        FloatSuffix::H => "h",
        FloatSuffix::L => "l",
    }
}

/// How a dump spells a unary operator (prefix and postfix forms told apart).
pub fn unary_text(op: UnaryOp) -> &'static str {
    match op {
        UnaryOp::Plus => "+",
        UnaryOp::Neg => "-",
        UnaryOp::Not => "!",
        UnaryOp::BitNot => "~",
        UnaryOp::PreInc => "++ (prefix)",
        UnaryOp::PreDec => "-- (prefix)",
        UnaryOp::PostInc => "++ (postfix)",
        UnaryOp::PostDec => "-- (postfix)",
    }
}

/// A one-line rendering of an expression (for template arguments and attribute arguments).
pub fn expr_text(e: &Expr) -> String {
    match &e.kind {
        ExprKind::IntLit { value, suffix } => format!("{value}{}", int_suffix(*suffix)),
        ExprKind::FloatLit { value, suffix } => format!("{value:?}{}", float_suffix(*suffix)),
        ExprKind::BoolLit(b) => b.to_string(),
        ExprKind::StringLit(s) => format!("{s:?}"),
        ExprKind::Name(p) => path_text(p),
        ExprKind::Unary { op: UnaryOp::PostInc, operand } => format!("{}++", expr_text(operand)),
        ExprKind::Unary { op: UnaryOp::PostDec, operand } => format!("{}--", expr_text(operand)),
        ExprKind::Unary { op: UnaryOp::PreInc, operand } => format!("++{}", expr_text(operand)),
        ExprKind::Unary { op: UnaryOp::PreDec, operand } => format!("--{}", expr_text(operand)),
        ExprKind::Unary { op, operand } => format!("{}{}", unary_text(*op), expr_text(operand)),
        ExprKind::Binary { op, lhs, rhs } => format!("({} {} {})", expr_text(lhs), op.symbol(), expr_text(rhs)),
        ExprKind::Assign { op, lhs, rhs } => {
            format!("({} {}= {})", expr_text(lhs), op.map_or("", |o| o.symbol()), expr_text(rhs))
        }
        ExprKind::Ternary { cond, then, otherwise } => {
            format!("({} ? {} : {})", expr_text(cond), expr_text(then), expr_text(otherwise))
        }
        ExprKind::Cast { ty, expr } => format!("({}){}", type_text(ty), expr_text(expr)),
        ExprKind::Construct { ty, args } => format!("{}({})", type_text(ty), list(args)),
        ExprKind::Call { callee, template_args, args } => {
            let t = template_args.as_ref().map(|a| format!("<{}>", a.iter().map(targ_text).collect::<Vec<_>>().join(", ")));
            format!("{}{}({})", expr_text(callee), t.unwrap_or_default(), list(args))
        }
        ExprKind::Member { base, name } => format!("{}.{}", expr_text(base), name.name),
        ExprKind::Index { base, index } => format!("{}[{}]", expr_text(base), expr_text(index)),
        ExprKind::SizeOfType(t) => format!("sizeof({})", type_text(t)),
        ExprKind::SizeOfExpr(e) => format!("sizeof({})", expr_text(e)),
        ExprKind::InitList(v) => format!("{{{}}}", list(v)),
        ExprKind::Error => "<error>".into(),
    }
}

fn list(v: &[Expr]) -> String {
    v.iter().map(expr_text).collect::<Vec<_>>().join(", ")
}

fn attr_text(a: &Attribute) -> String {
    let ns = a.namespace.as_ref().map(|n| format!("{}::", n.name)).unwrap_or_default();
    let args = if a.args.is_empty() { String::new() } else { format!("({})", list(&a.args)) };
    if a.double_bracket {
        format!("[[{ns}{}{args}]]", a.name.name)
    } else {
        format!("[{ns}{}{args}]", a.name.name)
    }
}

fn annotation_text(a: &Annotation) -> String {
    let name = |i: &Option<Ident>| i.as_ref().map(|i| i.name.clone());
    match a {
        Annotation::Semantic(s) => format!(": {}", s.name),
        Annotation::Register { profile, slot, space, .. } => {
            let parts: Vec<String> = [name(profile), name(slot), name(space)].into_iter().flatten().collect();
            format!(": register({})", parts.join(", "))
        }
        Annotation::PackOffset { register, component, .. } => match component {
            Some(c) => format!(": packoffset({}.{})", register.name, c.name),
            None => format!(": packoffset({})", register.name),
        },
        Annotation::BitField { width, .. } => format!(": {width} (bit-field)"),
        Annotation::PayloadAccess { kind, stages, .. } => {
            format!(": {}({})", kind.name, stages.iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join(", "))
        }
    }
}

fn dims_text(d: &[Option<Expr>]) -> String {
    d.iter().map(|d| format!("[{}]", d.as_ref().map(expr_text).unwrap_or_default())).collect()
}

impl Dumper {
    fn line(&mut self, s: String) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(&s);
        self.out.push('\n');
    }

    fn nested(&mut self, f: impl FnOnce(&mut Dumper)) {
        self.indent += 1;
        f(self);
        self.indent -= 1;
    }

    fn head(attrs: &[Attribute], modifiers: &[ModifierAt]) -> String {
        let mut s = String::new();
        for a in attrs {
            s.push_str(&attr_text(a));
            s.push(' ');
        }
        for m in modifiers {
            s.push_str(m.modifier.keyword());
            s.push(' ');
        }
        s
    }

    fn decl(&mut self, d: &Decl) {
        match d {
            Decl::Var(v) => {
                self.line(format!("VarDecl {}{}", Self::head(&v.attrs, &v.modifiers), type_text(&v.ty)));
                self.nested(|d| {
                    if let TypeKind::Struct(st) = &v.ty.kind {
                        d.struct_decl(st);
                    }
                    for dc in &v.declarators {
                        let ann: String = dc.annotations.iter().map(|a| format!(" {}", annotation_text(a))).collect();
                        let q: String = dc.qualifier.iter().map(|q| format!("{}::", q.name)).collect();
                        d.line(format!("Declarator {q}{}{}{}", dc.name.name, dims_text(&dc.array_dims), ann));
                        if let Some(i) = &dc.init {
                            d.nested(|d| d.expr(i));
                        }
                    }
                });
            }
            Decl::Func(f) => {
                let q: String = f.qualifier.iter().map(|q| format!("{}::", q.name)).collect();
                let ann: String = f.annotations.iter().map(|a| format!(" {}", annotation_text(a))).collect();
                let c = if f.is_const { " const" } else { "" };
                let proto = if f.body.is_none() { " (prototype)" } else { "" };
                let ta = f.template_args.as_ref().map(|a| targs_text(a)).unwrap_or_default();
                self.line(format!(
                    "FuncDecl {}{} {q}{}{ta}{ann}{c}{proto}",
                    Self::head(&f.attrs, &f.modifiers),
                    type_text(&f.ret),
                    f.name.name
                ));
                self.nested(|d| {
                    for p in &f.params {
                        let ann: String = p.annotations.iter().map(|a| format!(" {}", annotation_text(a))).collect();
                        let name = p.name.as_ref().map_or(String::new(), |n| format!(" {}", n.name));
                        d.line(format!(
                            "Param {}{}{name}{}{ann}",
                            Self::head(&p.attrs, &p.modifiers),
                            type_text(&p.ty),
                            dims_text(&p.array_dims)
                        ));
                        if let Some(e) = &p.default {
                            d.nested(|d| d.expr(e));
                        }
                    }
                    if let Some(b) = &f.body {
                        d.block(b);
                    }
                });
            }
            Decl::Struct(s) => self.struct_decl(s),
            Decl::Buffer(b) => {
                let kind = match b.kind {
                    BufferKind::CBuffer => "cbuffer",
                    BufferKind::TBuffer => "tbuffer",
                };
                let ann: String = b.annotations.iter().map(|a| format!(" {}", annotation_text(a))).collect();
                self.line(format!("BufferDecl {}{kind} {}{ann}", Self::head(&b.attrs, &[]), b.name.name));
                self.nested(|d| b.members.iter().for_each(|m| d.decl(m)));
            }
            Decl::Typedef(t) => {
                let names: Vec<String> = t.names.iter().map(|(n, dims)| format!("{}{}", n.name, dims_text(dims))).collect();
                let kw = if t.is_using { "Using" } else { "Typedef" };
                self.line(format!("{kw} {}{} {}", Self::head(&t.attrs, &t.modifiers), type_text(&t.ty), names.join(", ")));
                if let TypeKind::Struct(st) = &t.ty.kind {
                    self.nested(|d| d.struct_decl(st));
                }
            }
            Decl::Enum(e) => {
                let name = e.name.as_ref().map_or("<anonymous>", |n| n.name.as_str());
                let scoped = if e.scoped { "class " } else { "" };
                let u = e.underlying.as_ref().map(|t| format!(" : {}", type_text(t))).unwrap_or_default();
                self.line(format!("EnumDecl {scoped}{name}{u}"));
                self.nested(|d| {
                    for (n, v) in &e.variants {
                        let v = v.as_ref().map(|v| format!(" = {}", expr_text(v))).unwrap_or_default();
                        d.line(format!("Enumerator {}{v}", n.name));
                    }
                });
            }
            Decl::Namespace(n) => {
                self.line(format!("Namespace {}", n.name.name));
                self.nested(|d| n.decls.iter().for_each(|x| d.decl(x)));
            }
            Decl::Template(t) => {
                let ps: Vec<String> = t
                    .params
                    .iter()
                    .map(|p| match p {
                        TemplateParam::Type { name, default } => {
                            let d = default.as_ref().map(|t| format!(" = {}", type_text(t))).unwrap_or_default();
                            format!("typename {}{d}", name.name)
                        }
                        TemplateParam::Value { ty, name, default } => {
                            let d = default.as_ref().map(|e| format!(" = {}", expr_text(e))).unwrap_or_default();
                            format!("{} {}{d}", type_text(ty), name.name)
                        }
                    })
                    .collect();
                self.line(format!("Template <{}>", ps.join(", ")));
                self.nested(|d| d.decl(&t.decl));
            }
            Decl::Pragma { text, .. } => self.line(format!("Pragma {text}")),
            Decl::Using { path, namespace, .. } => {
                self.line(format!("Using {}{}", if *namespace { "namespace " } else { "" }, path_text(path)))
            }
            Decl::Empty(_) => self.line("Empty".into()),
        }
    }

    fn struct_decl(&mut self, s: &StructDecl) {
        let name = s.name.as_ref().map_or("<anonymous>", |n| n.name.as_str());
        let bases = if s.bases.is_empty() {
            String::new()
        } else {
            format!(" : {}", s.bases.iter().map(type_text).collect::<Vec<_>>().join(", "))
        };
        let fwd = if s.members.is_none() { " (forward)" } else { "" };
        let ta = s.template_args.as_ref().map(|a| targs_text(a)).unwrap_or_default();
        self.line(format!("StructDecl {}{} {name}{ta}{bases}{fwd}", Self::head(&s.attrs, &[]), struct_kind(s.kind)));
        if let Some(m) = &s.members {
            self.nested(|d| m.iter().for_each(|x| d.decl(x)));
        }
    }

    fn block(&mut self, b: &Block) {
        self.line("Block".into());
        self.nested(|d| b.stmts.iter().for_each(|s| d.stmt(s)));
    }

    fn stmt(&mut self, s: &Stmt) {
        let attrs: String = s.attrs.iter().map(|a| format!(" {}", attr_text(a))).collect();
        let opt = |d: &mut Dumper, label: &str, e: Option<&Expr>| match e {
            Some(e) => {
                d.line(label.to_string());
                d.nested(|d| d.expr(e));
            }
            None => d.line(format!("{label} <none>")),
        };
        match &s.kind {
            StmtKind::Expr(e) => {
                self.line(format!("ExprStmt{attrs}"));
                self.nested(|d| d.expr(e));
            }
            StmtKind::Decl(d) => {
                self.line(format!("DeclStmt{attrs}"));
                self.nested(|x| x.decl(d));
            }
            StmtKind::Block(b) => {
                if !attrs.is_empty() {
                    self.line(format!("Attributed{attrs}"));
                    self.nested(|d| d.block(b));
                } else {
                    self.block(b);
                }
            }
            StmtKind::If { cond, then, otherwise } => {
                self.line(format!("If{attrs}"));
                self.nested(|d| {
                    d.expr(cond);
                    d.stmt(then);
                    if let Some(e) = otherwise {
                        d.line("Else".into());
                        d.nested(|d| d.stmt(e));
                    }
                });
            }
            StmtKind::For { init, cond, step, body } => {
                self.line(format!("For{attrs}"));
                self.nested(|d| {
                    match init {
                        Some(i) => {
                            d.line("Init".into());
                            d.nested(|d| d.stmt(i));
                        }
                        None => d.line("Init <none>".into()),
                    }
                    opt(d, "Cond", cond.as_deref());
                    opt(d, "Step", step.as_deref());
                    d.stmt(body);
                });
            }
            StmtKind::While { cond, body } => {
                self.line(format!("While{attrs}"));
                self.nested(|d| {
                    d.expr(cond);
                    d.stmt(body);
                });
            }
            StmtKind::DoWhile { body, cond } => {
                self.line(format!("DoWhile{attrs}"));
                self.nested(|d| {
                    d.stmt(body);
                    d.expr(cond);
                });
            }
            StmtKind::Switch { cond, body } => {
                self.line(format!("Switch{attrs}"));
                self.nested(|d| {
                    d.expr(cond);
                    d.stmt(body);
                });
            }
            StmtKind::Case(e) => self.line(format!("Case {}", expr_text(e))),
            StmtKind::Default => self.line("Default".into()),
            StmtKind::Break => self.line(format!("Break{attrs}")),
            StmtKind::Continue => self.line(format!("Continue{attrs}")),
            StmtKind::Return(e) => {
                self.line(format!("Return{attrs}"));
                if let Some(e) = e {
                    self.nested(|d| d.expr(e));
                }
            }
            StmtKind::Discard => self.line(format!("Discard{attrs}")),
            StmtKind::Empty => self.line(format!("Empty{attrs}")),
        }
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::IntLit { .. }
            | ExprKind::FloatLit { .. }
            | ExprKind::BoolLit(_)
            | ExprKind::StringLit(_)
            | ExprKind::Error => self.line(format!("Literal {}", expr_text(e))),
            ExprKind::Name(p) => self.line(format!("Name {}", path_text(p))),
            ExprKind::Unary { op, operand } => {
                self.line(format!("Unary {}", unary_text(*op)));
                self.nested(|d| d.expr(operand));
            }
            ExprKind::Binary { op, lhs, rhs } => {
                self.line(format!("Binary {}", op.symbol()));
                self.nested(|d| {
                    d.expr(lhs);
                    d.expr(rhs);
                });
            }
            ExprKind::Assign { op, lhs, rhs } => {
                self.line(format!("Assign {}=", op.map_or("", |o| o.symbol())));
                self.nested(|d| {
                    d.expr(lhs);
                    d.expr(rhs);
                });
            }
            ExprKind::Ternary { cond, then, otherwise } => {
                self.line("Ternary".into());
                self.nested(|d| {
                    d.expr(cond);
                    d.expr(then);
                    d.expr(otherwise);
                });
            }
            ExprKind::Cast { ty, expr } => {
                self.line(format!("Cast {}", type_text(ty)));
                self.nested(|d| d.expr(expr));
            }
            ExprKind::Construct { ty, args } => {
                self.line(format!("Construct {}", type_text(ty)));
                self.nested(|d| args.iter().for_each(|a| d.expr(a)));
            }
            ExprKind::Call { callee, template_args, args } => {
                let t = template_args
                    .as_ref()
                    .map(|a| format!(" <{}>", a.iter().map(targ_text).collect::<Vec<_>>().join(", ")))
                    .unwrap_or_default();
                match &callee.kind {
                    ExprKind::Name(p) => {
                        self.line(format!("Call {}{t}", path_text(p)));
                        self.nested(|d| args.iter().for_each(|a| d.expr(a)));
                    }
                    ExprKind::Member { base, name } => {
                        self.line(format!("MethodCall .{}{t}", name.name));
                        self.nested(|d| {
                            d.expr(base);
                            args.iter().for_each(|a| d.expr(a));
                        });
                    }
                    _ => {
                        self.line(format!("Call{t}"));
                        self.nested(|d| {
                            d.expr(callee);
                            args.iter().for_each(|a| d.expr(a));
                        });
                    }
                }
            }
            ExprKind::Member { base, name } => {
                self.line(format!("Member .{}", name.name));
                self.nested(|d| d.expr(base));
            }
            ExprKind::Index { base, index } => {
                self.line("Index".into());
                self.nested(|d| {
                    d.expr(base);
                    d.expr(index);
                });
            }
            ExprKind::SizeOfType(t) => self.line(format!("SizeOf {}", type_text(t))),
            ExprKind::SizeOfExpr(x) => {
                self.line("SizeOf".into());
                self.nested(|d| d.expr(x));
            }
            ExprKind::InitList(v) => {
                self.line("InitList".into());
                self.nested(|d| v.iter().for_each(|a| d.expr(a)));
            }
        }
    }
}
