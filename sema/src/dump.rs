//! `hlslc -ast-dump`: the typed AST ([`Module`]) as an indented tree, one node per line, two
//! spaces per level.
//!
//! What each line shows:
//! - declarations with their resolved types: `Var name 'float4' local`, `Param uv 'float2' in :
//!   TEXCOORD0`, `Function main 'float4 (float2)' : SV_Target entry(pixel)`, struct fields,
//!   enum values, cbuffers with their members, resolved registers (`register(t0, space1)`);
//! - every expression with its type and value category (`'float4' lvalue` / `rvalue`);
//! - every conversion as a cast node with its named kind (`ImplicitCast Splat 'float4' rvalue`,
//!   `ExplicitCast FloatToInt 'int' rvalue`), so implicit conversions are visible;
//! - intrinsic calls with their [`IntrinsicOp`](crate::IntrinsicOp) (`Intrinsic Sample`), the
//!   object of a method call first.
//!
//! Deterministic: declaration order, no ids, no spans. Recursion depth is bounded by the
//! parser's expression depth limit.

use crate::tast::*;
use crate::types::{StructId, Type, TypeId};
use hlslc_frontend::ast_dump::unary_text;
use std::fmt::Write;

/// Dumps a checked module.
pub fn dump(m: &Module) -> String {
    let mut d = Dumper { m, out: String::new(), indent: 0 };
    d.line("Module".into());
    d.indent += 1;
    for i in 0..m.types.structs.len() {
        d.struct_def(StructId(i as u32));
    }
    for e in &m.types.enums {
        let values: Vec<String> = e.values.iter().map(|(n, v)| format!("{n} = {v}")).collect();
        let scoped = if e.scoped { " class" } else { "" };
        d.line(format!("Enum{scoped} {} '{}' {{{}}}", e.name, m.types.name(e.underlying), values.join(", ")));
    }
    for (i, cb) in m.cbuffers.iter().enumerate() {
        let kind = if cb.is_tbuffer { "TBuffer" } else { "CBuffer" };
        d.line(format!("{kind} {}{}", cb.name, binding_text(&cb.binding)));
        d.indent += 1;
        for &v in &cb.members {
            // Members are listed here, under their buffer, and not again as globals.
            debug_assert!(matches!(m.var(v).storage, Storage::CBufferMember { cbuffer, .. } if cbuffer.0 as usize == i));
            d.var("Var", v);
        }
        d.indent -= 1;
    }
    for &v in &m.globals {
        if !matches!(m.var(v).storage, Storage::CBufferMember { .. }) {
            d.var("Var", v);
        }
    }
    for i in 0..m.funcs.len() {
        d.function(FuncId(i as u32));
    }
    d.out
}

struct Dumper<'m> {
    m: &'m Module,
    out: String,
    indent: usize,
}

impl Dumper<'_> {
    fn line(&mut self, text: String) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(&text);
        self.out.push('\n');
    }

    fn ty(&self, t: TypeId) -> String {
        format!("'{}'", self.m.types.name(t))
    }

    fn struct_def(&mut self, id: StructId) {
        let s = &self.m.types.structs[id.0 as usize];
        let mut head = format!("{:?} {}", s.kind, s.name);
        if !s.bases.is_empty() {
            let bases: Vec<String> = s.bases.iter().map(|&b| self.m.types.name(b)).collect();
            let _ = write!(head, " : {}", bases.join(", "));
        }
        if !s.complete {
            head.push_str(" (incomplete)");
        }
        self.line(head);
        self.indent += 1;
        for f in &s.fields {
            let mut l = format!("Field {} {}", f.name, self.ty(f.ty));
            if f.precise {
                l.push_str(" precise");
            }
            l.push_str(&interpolation_text(&f.interpolation));
            if let Some(sem) = &f.semantic {
                let _ = write!(l, " : {sem}");
            }
            self.line(l);
        }
        for &method in &s.methods {
            let f = self.m.func(method);
            self.line(format!("Method {}", f.qualified_name));
        }
        self.indent -= 1;
    }

    fn var(&mut self, what: &str, id: VarId) {
        let v = self.m.var(id);
        let mut l = format!("{what} {} {}", v.name, self.ty(v.ty));
        l.push_str(match v.storage {
            Storage::Local => " local",
            Storage::Static => " static",
            Storage::Param(ParamDir::In) => " in",
            Storage::Param(ParamDir::Out) => " out",
            Storage::Param(ParamDir::InOut) => " inout",
            Storage::GroupShared => " groupshared",
            Storage::Uniform => " uniform",
            Storage::CBufferMember { .. } => " cbuffer-member",
        });
        for (flag, word) in [(v.is_const, " const"), (v.precise, " precise"), (v.globally_coherent, " globallycoherent")] {
            if flag {
                l.push_str(word);
            }
        }
        l.push_str(&interpolation_text(&v.interpolation));
        if let Some(p) = v.primitive {
            let _ = write!(l, " {}", p.keyword());
        }
        if let Some(sem) = &v.semantic {
            let _ = write!(l, " : {sem}");
        }
        l.push_str(&binding_text(&v.binding));
        for a in &v.attrs {
            l.push(' ');
            l.push_str(&attr_text(a));
        }
        if let Some(c) = v.const_value {
            let _ = write!(l, " = {}", const_text(c));
        }
        self.line(l);
        if let Some(init) = v.init {
            self.indent += 1;
            self.expr(init);
            self.indent -= 1;
        }
    }

    fn function(&mut self, id: FuncId) {
        let f = self.m.func(id);
        let params: Vec<String> = f.params.iter().map(|&p| self.m.types.name(self.m.var(p).ty)).collect();
        let mut l = format!("Function {} '{} ({})'", f.qualified_name, self.m.types.name(f.ret), params.join(", "));
        if let Some(t) = f.this_type {
            let _ = write!(l, " this {}", self.ty(t));
        }
        if f.precise {
            l.push_str(" precise");
        }
        if let Some(sem) = &f.ret_semantic {
            let _ = write!(l, " : {sem}");
        }
        for a in &f.attrs {
            l.push(' ');
            l.push_str(&attr_text(a));
        }
        for e in self.m.entries.iter().filter(|e| e.func == id) {
            let _ = write!(l, " entry({:?})", e.stage);
            if let Some([x, y, z]) = e.numthreads {
                let _ = write!(l, " numthreads({x}, {y}, {z})");
            }
        }
        if f.body.is_none() {
            l.push_str(" (declaration)");
        }
        self.line(l);
        self.indent += 1;
        for &p in &f.params {
            self.var("Param", p);
        }
        if let Some(body) = f.body {
            self.stmt(body);
        }
        self.indent -= 1;
    }

    fn stmt(&mut self, id: StmtId) {
        let s = self.m.stmt(id);
        let attrs: String = s.attrs.iter().map(|a| format!(" {}", attr_text(a))).collect();
        let (head, exprs, stmts): (String, Vec<ExprId>, Vec<StmtId>) = match &s.kind {
            StmtKind::Expr(e) => ("ExprStmt".into(), vec![*e], vec![]),
            StmtKind::Decl(vars) => {
                self.line(format!("Decl{attrs}"));
                self.indent += 1;
                for &v in vars {
                    self.var("Var", v);
                }
                self.indent -= 1;
                return;
            }
            StmtKind::Block(list) => ("Block".into(), vec![], list.clone()),
            StmtKind::If { cond, then, otherwise } => {
                ("If".into(), vec![*cond], std::iter::once(*then).chain(*otherwise).collect())
            }
            StmtKind::For { init, cond, step, body } => {
                let mut head = String::from("For");
                for (name, present) in [("init", init.is_some()), ("cond", cond.is_some()), ("step", step.is_some())] {
                    if !present {
                        let _ = write!(head, " no-{name}");
                    }
                }
                self.line(format!("{head}{attrs}"));
                self.indent += 1;
                if let Some(i) = init {
                    self.stmt(*i);
                }
                for e in cond.iter().chain(step.iter()) {
                    self.expr(*e);
                }
                self.stmt(*body);
                self.indent -= 1;
                return;
            }
            StmtKind::While { cond, body } => ("While".into(), vec![*cond], vec![*body]),
            StmtKind::DoWhile { body, cond } => {
                self.line(format!("DoWhile{attrs}"));
                self.indent += 1;
                self.stmt(*body);
                self.expr(*cond);
                self.indent -= 1;
                return;
            }
            StmtKind::Switch { cond, body } => ("Switch".into(), vec![*cond], vec![*body]),
            StmtKind::Case(v) => (format!("Case {v}"), vec![], vec![]),
            StmtKind::Default => ("Default".into(), vec![], vec![]),
            StmtKind::Break => ("Break".into(), vec![], vec![]),
            StmtKind::Continue => ("Continue".into(), vec![], vec![]),
            StmtKind::Return(e) => ("Return".into(), e.iter().copied().collect(), vec![]),
            StmtKind::Discard => ("Discard".into(), vec![], vec![]),
            StmtKind::Empty => ("Empty".into(), vec![], vec![]),
        };
        self.line(format!("{head}{attrs}"));
        self.indent += 1;
        for e in exprs {
            self.expr(e);
        }
        for s in stmts {
            self.stmt(s);
        }
        self.indent -= 1;
    }

    fn expr(&mut self, id: ExprId) {
        let e = self.m.expr(id);
        let m = self.m;
        let (head, children): (String, Vec<ExprId>) = match &e.kind {
            ExprKind::Const(c) => (format!("Const {}", const_text(*c)), vec![]),
            ExprKind::Var(v) => (format!("Var {}", m.var(*v).name), vec![]),
            ExprKind::This => ("This".into(), vec![]),
            ExprKind::Unary { op, operand } => (format!("Unary {}", unary_text(*op)), vec![*operand]),
            ExprKind::Binary { op, lhs, rhs } => (format!("Binary {}", op.symbol()), vec![*lhs, *rhs]),
            ExprKind::Assign { op, lhs, rhs } => {
                let sym = op.map_or(String::from("="), |o| format!("{}=", o.symbol()));
                (format!("Assign {sym}"), vec![*lhs, *rhs])
            }
            ExprKind::CompoundAssign { op, lhs, rhs, to_op, from_op } => {
                (format!("CompoundAssign {}= via {to_op:?}/{from_op:?}", op.symbol()), vec![*lhs, *rhs])
            }
            ExprKind::Ternary { cond, then, otherwise } => ("Ternary".into(), vec![*cond, *then, *otherwise]),
            ExprKind::Cast { kind, expr, explicit } => {
                let which = if *explicit { "ExplicitCast" } else { "ImplicitCast" };
                (format!("{which} {kind:?}"), vec![*expr])
            }
            ExprKind::Construct { args } => ("Construct".into(), args.clone()),
            ExprKind::Call { func, this_arg, args } => {
                (format!("Call {}", m.func(*func).qualified_name), this_arg.iter().chain(args.iter()).copied().collect())
            }
            ExprKind::Intrinsic { op, object, args } => {
                let method = if object.is_some() { " (method)" } else { "" };
                (format!("Intrinsic {op:?}{method}"), object.iter().chain(args.iter()).copied().collect())
            }
            ExprKind::Field { base, index, via_base } => {
                (format!("Field .{}", self.field_name(*base, *index, via_base)), vec![*base])
            }
            ExprKind::Swizzle { base, components } => {
                let s: String = components.iter().map(|&c| b"xyzw".get(c as usize).map_or('?', |&b| b as char)).collect();
                (format!("Swizzle .{s}"), vec![*base])
            }
            ExprKind::MatrixSwizzle { base, elements } => {
                let s: String = elements.iter().map(|(r, c)| format!("_m{r}{c}")).collect();
                (format!("MatrixSwizzle .{s}"), vec![*base])
            }
            ExprKind::Index { base, index } => ("Index".into(), vec![*base, *index]),
            ExprKind::OutArg { lvalue, to_param, from_param } => {
                let to = to_param.map_or(String::from("none"), |k| format!("{k:?}"));
                (format!("OutArg to-param {to} from-param {from_param:?}"), vec![*lvalue])
            }
            ExprKind::Comma { lhs, rhs } => ("Comma".into(), vec![*lhs, *rhs]),
            ExprKind::Str(s) => (format!("Str {s:?}"), vec![]),
            ExprKind::HeapIndex { sampler, index } => {
                let heap = if *sampler { "SamplerDescriptorHeap" } else { "ResourceDescriptorHeap" };
                (format!("HeapIndex {heap}"), vec![*index])
            }
            ExprKind::TexelAt { texture, sample, level, coord } => {
                (format!("TexelAt {}", if *sample { "sample" } else { "mips" }), vec![*texture, *level, *coord])
            }
        };
        let category = if e.lvalue { "lvalue" } else { "rvalue" };
        self.line(format!("{head} {} {category}", self.ty(e.ty)));
        self.indent += 1;
        for c in children {
            self.expr(c);
        }
        self.indent -= 1;
    }

    /// The name of field `index` reached from `base`'s struct through `via_base`.
    fn field_name(&self, base: ExprId, index: u32, via_base: &[u32]) -> String {
        let types = &self.m.types;
        let mut ty = self.m.expr(base).ty;
        if let Type::Object { elem: Some(e), .. } = types.get(ty) {
            ty = *e;
        }
        let mut sid = match types.get(ty) {
            Type::Struct(s) => *s,
            _ => return format!("#{index}"),
        };
        for &step in via_base {
            match types.structs[sid.0 as usize].bases.get(step as usize).map(|&b| types.get(b)) {
                Some(Type::Struct(s)) => sid = *s,
                _ => return format!("#{index}"),
            }
        }
        types.structs[sid.0 as usize].fields.get(index as usize).map_or(format!("#{index}"), |f| f.name.clone())
    }
}

fn const_text(c: ConstValue) -> String {
    match c {
        ConstValue::Bool(b) => b.to_string(),
        ConstValue::Int(i) => i.to_string(),
        ConstValue::Float(f) => format!("{f:?}"),
    }
}

fn interpolation_text(i: &Interpolation) -> String {
    let mut s = String::new();
    for (flag, word) in [
        (i.nointerpolation, " nointerpolation"),
        (i.linear, " linear"),
        (i.noperspective, " noperspective"),
        (i.centroid, " centroid"),
        (i.sample, " sample"),
    ] {
        if flag {
            s.push_str(word);
        }
    }
    s
}

fn binding_text(b: &Binding) -> String {
    let mut s = String::new();
    if let Some((letter, n)) = b.register {
        let _ = write!(s, " register({letter}{n}, space{})", b.space);
    }
    if let Some((binding, set)) = b.vk_binding {
        match set {
            Some(set) => {
                let _ = write!(s, " vk::binding({binding}, {set})");
            }
            None => {
                let _ = write!(s, " vk::binding({binding})");
            }
        }
    }
    if let Some(n) = b.vk_counter_binding {
        let _ = write!(s, " vk::counter_binding({n})");
    }
    if let Some(n) = b.vk_location {
        let _ = write!(s, " vk::location({n})");
    }
    if b.vk_push_constant {
        s.push_str(" vk::push_constant");
    }
    if let Some(n) = b.vk_constant_id {
        let _ = write!(s, " vk::constant_id({n})");
    }
    if let Some((reg, comp)) = b.packoffset {
        let c = b"xyzw".get(comp as usize).map_or('?', |&b| b as char);
        let _ = write!(s, " packoffset(c{reg}.{c})");
    }
    s
}

fn attr_text(a: &RawAttr) -> String {
    let name = match &a.namespace {
        Some(ns) => format!("{ns}::{}", a.name),
        None => a.name.clone(),
    };
    if a.args.is_empty() {
        return format!("[{name}]");
    }
    let args: Vec<String> = a
        .args
        .iter()
        .map(|x| match x {
            AttrArg::Int(i) => i.to_string(),
            AttrArg::Float(f) => format!("{f:?}"),
            AttrArg::Str(s) => format!("{s:?}"),
            AttrArg::Word(w) => w.clone(),
            AttrArg::Expr(e) => format!("expr#{}", e.0),
        })
        .collect();
    format!("[{name}({})]", args.join(", "))
}
