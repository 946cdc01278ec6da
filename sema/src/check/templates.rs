//! User templates (HLSL 2021): function and struct templates, instantiated and checked once per
//! distinct argument list, as C++ does.
//!
//! An instantiation is checked in a namespace of its own, named after it (`Pair<float, 2>`),
//! nested in the namespace that declared the template: the template parameters are declared
//! there (a type parameter as a type, a value parameter as a named constant), so the ordinary
//! name lookup finds them, and a struct template that names itself finds its instance. Explicit
//! specializations (`template<> struct Trait<half> {...}`) replace the primary template for their
//! argument list. Partial specializations (`template<typename T> struct Traits<vector<T, 4> >`)
//! are tried next, in declaration order: the first whose pattern matches the arguments (its
//! parameters deduced as for a call, then the pattern rebuilt and compared) is instantiated with
//! its own parameters bound; C++'s "most specialized" ordering is not implemented. Alias
//! templates (`template<typename T> using V = vector<T, 4>;`) instantiate to the aliased type.
//! Function template arguments are deduced from the call's argument types
//! (`T`, `vector<T, N>`, `matrix<T, R, C>`, `T[N]`, `Obj<T>`, `Instance<T>`).

use super::{Checker, Symbol};
use crate::tast::{ConstValue, FuncId};
use crate::types::{ObjectKind, Type, TypeId};
use hlslc_frontend::ast::{self, Decl, TemplateArg, TemplateParam, TypeKind, TypeSpec};
use hlslc_frontend::Span;
use hlslc_frontend::fxhash::FxMap as HashMap;

/// A template argument, after checking.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum TArg {
    Type(TypeId),
    Value(TypeId, i64),
}

/// A declared template.
#[derive(Clone, Debug)]
pub(crate) struct TemplateInfo {
    pub decl: ast::TemplateDecl,
    /// The namespace (and struct) path it was declared in.
    pub ns: Vec<String>,
    /// Instances by argument list.
    pub cache: HashMap<Vec<TArg>, Instance>,
    /// Explicit specializations by argument list.
    pub specs: Vec<(Vec<TArg>, Decl)>,
    /// Partial specializations (their struct's `template_args` is the pattern).
    pub partials: Vec<ast::TemplateDecl>,
}

#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) enum Instance {
    Type(TypeId),
    Func(FuncId),
    /// Instantiation failed (its errors were reported once).
    Failed,
}

/// Nested instantiations deeper than this are reported (recursive templates).
const MAX_INSTANTIATION_DEPTH: u32 = 64;

fn decl_name(d: &Decl) -> Option<&ast::Ident> {
    match d {
        Decl::Func(f) => Some(&f.name),
        Decl::Struct(s) => s.name.as_ref(),
        Decl::Typedef(t) if t.is_using => t.names.first().map(|n| &n.0),
        _ => None,
    }
}

fn param_name(p: &TemplateParam) -> &ast::Ident {
    match p {
        TemplateParam::Type { name, .. } | TemplateParam::Value { name, .. } => name,
    }
}

impl Checker<'_> {
    /// `template<...> decl` at namespace or struct scope.
    pub(crate) fn declare_template(&mut self, t: &ast::TemplateDecl) {
        let Some(name) = decl_name(&t.decl).cloned() else {
            self.error(t.span, "templates of this kind are not supported (only function and struct templates)");
            return;
        };
        if t.params.is_empty() {
            self.declare_specialization(t, &name);
            return;
        }
        if matches!(&*t.decl, Decl::Struct(s) if s.template_args.is_some()) {
            match self.lookup(&[name.name.as_str()], false) {
                Some(Symbol::Template(i)) => self.templates[i].partials.push(t.clone()),
                _ => self.error(name.span, format!("partial specialization of undeclared template '{}'", name.name)),
            }
            return;
        }
        let idx = self.templates.len();
        self.templates.push(TemplateInfo {
            decl: t.clone(),
            ns: self.ns.clone(),
            cache: HashMap::default(),
            specs: Vec::new(),
            partials: Vec::new(),
        });
        let key = self.qualify(&name.name);
        if let Decl::Func(f) = &*t.decl {
            self.warn_groupshared_params(f);
            self.func_templates.entry(key).or_default().push(idx);
            return;
        }
        match self.globals.get(&key) {
            Some(Symbol::Template(_)) | None => {
                self.globals.insert(key, Symbol::Template(idx));
            }
            Some(_) => self.error(name.span, format!("redefinition of '{}'", name.name)),
        }
    }

    /// `template<> struct S<half> {...}` / `template<> T f<half>(...)`.
    fn declare_specialization(&mut self, t: &ast::TemplateDecl, name: &ast::Ident) {
        let (targs, primary) = match &*t.decl {
            Decl::Struct(s) => {
                let p = match self.lookup(&[name.name.as_str()], false) {
                    Some(Symbol::Template(i)) => Some(i),
                    _ => None,
                };
                (s.template_args.as_deref(), p)
            }
            Decl::Func(f) => (f.template_args.as_deref(), self.lookup_func_templates(&[name.name.as_str()], false).first().copied()),
            _ => (None, None),
        };
        let Some(primary) = primary else {
            self.error(name.span, format!("explicit specialization of undeclared template '{}'", name.name));
            return;
        };
        let Some(targs) = targs else {
            // `template<> float f(float)`: arguments deduced from the signature; not supported.
            self.error(t.span, "explicit specialization without template arguments is not supported");
            return;
        };
        let Some(args) = self.check_template_args(primary, targs, t.span) else { return };
        self.templates[primary].specs.push((args, (*t.decl).clone()));
    }

    /// Function templates named by `parts`, found as [`Checker::lookup`] finds names.
    pub(crate) fn lookup_func_templates(&self, parts: &[&str], global_only: bool) -> Vec<usize> {
        let joined = parts.join("::");
        if !global_only {
            for i in (1..=self.ns.len()).rev() {
                let key = format!("{}::{}", self.ns[..i].join("::"), joined);
                if let Some(v) = self.func_templates.get(&key) {
                    return v.clone();
                }
            }
        }
        self.func_templates.get(&joined).cloned().unwrap_or_default()
    }

    /// A struct template named by `parts`, skipping names that hide it (inside an instance,
    /// the template's own name names the instance).
    pub(crate) fn lookup_struct_template(&self, parts: &[&str], global_only: bool) -> Option<usize> {
        let joined = parts.join("::");
        let scopes = if global_only { 0 } else { self.ns.len() };
        for i in (0..=scopes).rev() {
            let key = if i == 0 { joined.clone() } else { format!("{}::{}", self.ns[..i].join("::"), joined) };
            if let Some(Symbol::Template(idx)) = self.globals.get(&key) {
                return Some(*idx);
            }
        }
        None
    }

    /// Checks written template arguments against the parameters of template `idx`, filling in
    /// defaults. Reports and returns `None` when they do not fit.
    pub(crate) fn check_template_args(&mut self, idx: usize, targs: &[TemplateArg], span: Span) -> Option<Vec<TArg>> {
        let params = self.templates[idx].decl.params.clone();
        if targs.len() > params.len() {
            self.error(span, format!("too many template arguments for template '{}'", self.template_name(idx)));
            return None;
        }
        let mut out = Vec::with_capacity(params.len());
        for (i, p) in params.iter().enumerate() {
            match (p, targs.get(i)) {
                (TemplateParam::Type { .. }, Some(a)) => out.push(TArg::Type(self.template_type_arg(a)?)),
                (TemplateParam::Value { ty, .. }, Some(a)) => {
                    // The type may name an earlier parameter: `template<class T, T v>`.
                    let env = self.enter_template_env(idx, &out, "<args>");
                    let t = self.resolve_type(ty);
                    self.leave_template_env(env);
                    let v = match a {
                        TemplateArg::Expr(e) => self.const_int_expr(e)?,
                        TemplateArg::Type(ts) | TemplateArg::ModifiedType { ty: ts, .. } => {
                            self.error(ts.span, "template argument for non-type template parameter must be an expression");
                            return None;
                        }
                    };
                    out.push(TArg::Value(t, v));
                }
                (_, None) => break,
            }
        }
        if out.len() < params.len() {
            out = self.with_defaults(idx, out, span)?;
        }
        Some(out)
    }

    fn template_type_arg(&mut self, a: &TemplateArg) -> Option<TypeId> {
        let t = match a {
            TemplateArg::Type(t) | TemplateArg::ModifiedType { ty: t, .. } => self.resolve_type(t),
            TemplateArg::Expr(e) => match &e.kind {
                ast::ExprKind::Name(p) => {
                    let ts = TypeSpec { kind: TypeKind::Named { path: p.clone(), args: None }, span: e.span };
                    self.resolve_type(&ts)
                }
                _ => {
                    self.error(e.span, "template argument for template type parameter must be a type");
                    return None;
                }
            },
        };
        (!self.m.types.is_error(t)).then_some(t)
    }

    /// Completes `args` with the defaults of the remaining parameters, each checked where the
    /// template was declared with the earlier parameters bound.
    fn with_defaults(&mut self, idx: usize, mut args: Vec<TArg>, span: Span) -> Option<Vec<TArg>> {
        let params = self.templates[idx].decl.params.clone();
        let env = self.enter_template_env(idx, &args, "<defaults>");
        let mut ok = true;
        for p in &params[args.len()..] {
            let a = match p {
                TemplateParam::Type { default: Some(d), .. } => {
                    let t = self.resolve_type(d);
                    (!self.m.types.is_error(t)).then_some(TArg::Type(t))
                }
                TemplateParam::Value { ty, default: Some(d), .. } => {
                    let t = self.resolve_type(ty);
                    self.const_int_expr(d).map(|v| TArg::Value(t, v))
                }
                _ => None,
            };
            let Some(a) = a else {
                ok = false;
                break;
            };
            self.bind_template_param(p, &a);
            args.push(a);
        }
        self.leave_template_env(env);
        if !ok {
            self.error(span, format!("too few template arguments for template '{}'", self.template_name(idx)));
            return None;
        }
        Some(args)
    }

    pub(crate) fn template_name(&self, idx: usize) -> String {
        decl_name(&self.templates[idx].decl.decl).map(|n| n.name.clone()).unwrap_or_default()
    }

    fn display_args(&self, args: &[TArg]) -> String {
        let parts: Vec<String> = args
            .iter()
            .map(|a| match a {
                TArg::Type(t) => self.type_name(*t),
                TArg::Value(_, v) => v.to_string(),
            })
            .collect();
        parts.join(", ")
    }

    fn bind_template_param(&mut self, p: &TemplateParam, a: &TArg) {
        let key = self.qualify(&param_name(p).name);
        let sym = match a {
            TArg::Type(t) => Symbol::Type(*t),
            TArg::Value(t, v) => Symbol::Const(*t, ConstValue::Int(*v)),
        };
        self.globals.insert(key, sym);
    }

    /// Switches to the namespace of an instantiation of template `idx` with its parameters bound
    /// to `args` (as far as given); returns what [`Checker::leave_template_env`] restores.
    fn enter_template_env(&mut self, idx: usize, args: &[TArg], tag: &str) -> (Vec<String>, Vec<HashMap<String, Symbol>>, Option<super::FnCtx>) {
        let mut ns = self.templates[idx].ns.clone();
        ns.push(format!("{}<{}>{tag}", self.template_name(idx), self.display_args(args)));
        let saved = (std::mem::replace(&mut self.ns, ns), std::mem::take(&mut self.locals), self.func.take());
        let params = self.templates[idx].decl.params.clone();
        for (p, a) in params.iter().zip(args) {
            self.bind_template_param(p, a);
        }
        saved
    }

    fn leave_template_env(&mut self, saved: (Vec<String>, Vec<HashMap<String, Symbol>>, Option<super::FnCtx>)) {
        self.ns = saved.0;
        self.locals = saved.1;
        self.func = saved.2;
    }

    /// The instance of template `idx` for `args` (complete), instantiating it on first use.
    pub(crate) fn instantiate(&mut self, idx: usize, args: Vec<TArg>, span: Span) -> Instance {
        if let Some(i) = self.templates[idx].cache.get(&args) {
            return *i;
        }
        if self.instantiation_depth >= MAX_INSTANTIATION_DEPTH {
            self.error(span, format!("recursive template instantiation exceeded maximum depth of {MAX_INSTANTIATION_DEPTH}"));
            return Instance::Failed;
        }
        let explicit = self.templates[idx].specs.iter().find(|(a, _)| *a == args).map(|(_, d)| d.clone());
        let partial = if explicit.is_none() { self.match_partial(idx, &args) } else { None };
        let decl = match (explicit, &partial) {
            (Some(d), _) => d,
            (None, Some((p, _))) => (*self.templates[idx].partials[*p].decl).clone(),
            (None, None) => (*self.templates[idx].decl.decl).clone(),
        };
        let display = format!("{}<{}>", self.template_name(idx), self.display_args(&args));
        self.instantiation_depth += 1;
        let errors_before = self.diags.error_count();
        let env = self.enter_template_env(idx, &args, "");
        if let Some((p, bound)) = &partial {
            let params = self.templates[idx].partials[*p].params.clone();
            for (param, a) in params.iter().zip(bound) {
                self.bind_template_param(param, a);
            }
        }
        let inst = match &decl {
            Decl::Struct(s) => {
                let t = self.declare_struct(s);
                if let Type::Struct(sid) = self.m.types.get(t).clone() {
                    let outer = self.templates[idx].ns.clone();
                    self.m.types.structs[sid.0 as usize].name =
                        if outer.is_empty() { display.clone() } else { format!("{}::{display}", outer.join("::")) };
                    self.struct_instances.insert(t, (idx, args.clone()));
                }
                Instance::Type(t)
            }
            Decl::Func(f) => {
                let before = self.m.funcs.len();
                self.check_func(f, None);
                match (before..self.m.funcs.len()).find(|&i| self.m.funcs[i].name == f.name.name && self.m.funcs[i].this_type.is_none()) {
                    Some(i) => Instance::Func(FuncId(i as u32)),
                    None => Instance::Failed,
                }
            }
            Decl::Typedef(t) => {
                self.check_top_decl(&decl);
                match self.lookup(&[t.names[0].0.name.as_str()], false) {
                    Some(Symbol::Type(ty)) => Instance::Type(ty),
                    _ => Instance::Failed,
                }
            }
            _ => Instance::Failed,
        };
        self.leave_template_env(env);
        self.instantiation_depth -= 1;
        let inst = if self.diags.error_count() > errors_before { Instance::Failed } else { inst };
        if inst == Instance::Failed {
            // clang's words, and its spelling of nested template arguments (`A<B<float> >`).
            let what = if matches!(decl, Decl::Func(_)) { "function template specialization" } else { "template class" };
            let mut name = display.clone();
            while name.contains(">>") {
                name = name.replace(">>", "> >");
            }
            self.diags.push(
                hlslc_frontend::Diagnostic::new(
                    hlslc_frontend::diag::Severity::Note,
                    format!("in instantiation of {what} '{name}' requested here"),
                )
                .at(span),
            );
        }
        self.templates[idx].cache.insert(args, inst);
        inst
    }

    /// The first partial specialization of template `idx` whose pattern matches `args`, with
    /// the arguments of its own parameters.
    fn match_partial(&mut self, idx: usize, args: &[TArg]) -> Option<(usize, Vec<TArg>)> {
        for p in 0..self.templates[idx].partials.len() {
            let t = self.templates[idx].partials[p].clone();
            let Decl::Struct(s) = &*t.decl else { continue };
            let pattern = s.template_args.clone().unwrap_or_default();
            if pattern.len() != args.len() {
                continue;
            }
            let names: Vec<String> = t.params.iter().map(|p| param_name(p).name.clone()).collect();
            let mut bound: Vec<Option<TArg>> = vec![None; t.params.len()];
            // Deduce: a pattern that is a parameter binds it; a type pattern binds what it names.
            for (pat, a) in pattern.iter().zip(args) {
                match (pat, a) {
                    (TemplateArg::Type(ts) | TemplateArg::ModifiedType { ty: ts, .. }, TArg::Type(at)) => {
                        self.deduce(ts, *at, &names, &t.params, &mut bound)
                    }
                    (TemplateArg::Expr(e), TArg::Value(_, v)) => {
                        if let ast::ExprKind::Name(n) = &e.kind {
                            self.bind_value(&n.joined(), *v, &names, &t.params, &mut bound);
                        }
                    }
                    (TemplateArg::Expr(e), TArg::Type(at)) => {
                        if let ast::ExprKind::Name(n) = &e.kind {
                            self.bind_type(&n.joined(), *at, &names, &mut bound);
                        }
                    }
                    _ => {}
                }
            }
            let Some(bound) = bound.into_iter().collect::<Option<Vec<TArg>>>() else { continue };
            // Check: the pattern with the deduced arguments must give `args` back.
            let env = self.enter_template_env(idx, args, "<partial>");
            for (param, a) in t.params.iter().zip(&bound) {
                self.bind_template_param(param, a);
            }
            let saved = self.diags.list.len();
            let rebuilt: Option<Vec<TArg>> = pattern
                .iter()
                .zip(args)
                .map(|(pat, a)| match a {
                    TArg::Type(_) => self.template_type_arg(pat).map(TArg::Type),
                    TArg::Value(ty, _) => match pat {
                        TemplateArg::Expr(e) => self.const_int_expr(e).map(|v| TArg::Value(*ty, v)),
                        _ => None,
                    },
                })
                .collect();
            self.diags.list.truncate(saved);
            self.leave_template_env(env);
            if rebuilt.as_deref() == Some(args) {
                return Some((p, bound));
            }
        }
        None
    }

    /// `Name<args>` as a type.
    pub(crate) fn instantiate_type(&mut self, idx: usize, targs: Option<&[TemplateArg]>, span: Span) -> TypeId {
        // DXC takes an alias template named without arguments as `A<>` (all defaults).
        let is_alias = matches!(&*self.templates[idx].decl.decl, Decl::Typedef(_));
        let Some(targs) = targs.or(if is_alias { Some(&[]) } else { None }) else {
            self.error(span, format!("use of class template '{}' requires template arguments", self.template_name(idx)));
            return crate::types::TypeTable::ERROR;
        };
        let Some(args) = self.check_template_args(idx, targs, span) else { return crate::types::TypeTable::ERROR };
        match self.instantiate(idx, args, span) {
            Instance::Type(t) => t,
            _ => crate::types::TypeTable::ERROR,
        }
    }

    /// The instances of function templates `idxs` that a call with `arg_tys` (and explicit
    /// `targs`) can use: arguments deduced, then instantiated. Templates whose arguments cannot
    /// be deduced are skipped (as C++ does).
    /// Also says whether an instantiation failed (its errors are already reported).
    pub(crate) fn template_candidates(
        &mut self,
        idxs: &[usize],
        targs: Option<&[TemplateArg]>,
        arg_tys: &[TypeId],
        span: Span,
    ) -> (Vec<FuncId>, bool) {
        let mut out = Vec::new();
        let mut failed = false;
        for &idx in idxs {
            let Decl::Func(f) = &*self.templates[idx].decl.decl else { continue };
            let f = f.clone();
            let params = self.templates[idx].decl.params.clone();
            let mut explicit = match targs {
                Some(t) => match self.check_explicit_prefix(idx, t, span) {
                    Some(a) => a,
                    None => continue,
                },
                None => Vec::new(),
            };
            let names: Vec<String> = params.iter().map(|p| param_name(p).name.clone()).collect();
            let mut bound: Vec<Option<TArg>> = vec![None; params.len()];
            for (i, a) in explicit.drain(..).enumerate() {
                bound[i] = Some(a);
            }
            for (p, &at) in f.params.iter().zip(arg_tys) {
                let at = match self.m.types.get(at).clone() {
                    Type::Scalar(k) => self.m.types.scalar(k.concrete()),
                    _ => at,
                };
                if p.array_dims.is_empty() {
                    self.deduce(&p.ty, at, &names, &params, &mut bound);
                } else if let Type::Array { elem, len } = self.m.types.get(at).clone() {
                    if let (Some(Some(ast::Expr { kind: ast::ExprKind::Name(n), .. })), Some(len)) = (p.array_dims.first(), len) {
                        self.bind_value(&n.joined(), len as i64, &names, &params, &mut bound);
                    }
                    self.deduce(&p.ty, elem, &names, &params, &mut bound);
                }
            }
            let given: Vec<TArg> = bound.iter().take_while(|b| b.is_some()).map(|b| b.clone().unwrap()).collect();
            if given.len() < bound.len() && bound[given.len()..].iter().any(|b| b.is_some()) {
                continue;
            }
            let args = if given.len() < params.len() {
                let saved = self.diags.list.len();
                match self.with_defaults(idx, given, span) {
                    Some(a) => a,
                    None => {
                        // Not deducible: not a candidate (no error unless nothing matches).
                        self.diags.list.truncate(saved);
                        continue;
                    }
                }
            } else {
                given
            };
            match self.instantiate(idx, args, span) {
                Instance::Func(id) => out.push(id),
                _ => failed = true,
            }
        }
        (out, failed)
    }

    fn check_explicit_prefix(&mut self, idx: usize, targs: &[TemplateArg], span: Span) -> Option<Vec<TArg>> {
        let params = self.templates[idx].decl.params.clone();
        if targs.len() > params.len() {
            return None;
        }
        let mut out = Vec::new();
        for (p, a) in params.iter().zip(targs) {
            match p {
                TemplateParam::Type { .. } => out.push(TArg::Type(self.template_type_arg(a)?)),
                TemplateParam::Value { ty, .. } => {
                    let t = self.resolve_type(ty);
                    let TemplateArg::Expr(e) = a else {
                        self.error(span, "template argument for non-type template parameter must be an expression");
                        return None;
                    };
                    out.push(TArg::Value(t, self.const_int_expr(e)?));
                }
            }
        }
        Some(out)
    }

    fn bind_type(&self, name: &str, t: TypeId, names: &[String], bound: &mut [Option<TArg>]) {
        if let Some(i) = names.iter().position(|n| n == name) {
            if bound[i].is_none() {
                bound[i] = Some(TArg::Type(t));
            }
        }
    }

    fn bind_value(&mut self, name: &str, v: i64, names: &[String], params: &[TemplateParam], bound: &mut [Option<TArg>]) {
        if let Some(i) = names.iter().position(|n| n == name) {
            if bound[i].is_none() {
                if let TemplateParam::Value { ty, .. } = &params[i] {
                    let t = self.resolve_type(ty);
                    bound[i] = Some(TArg::Value(t, v));
                }
            }
        }
    }

    /// Matches a parameter's written type against an argument type, binding what it names.
    fn deduce(&mut self, ts: &TypeSpec, at: TypeId, names: &[String], params: &[TemplateParam], bound: &mut [Option<TArg>]) {
        match &ts.kind {
            TypeKind::Named { path, args } => {
                let joined = path.joined();
                let Some(args) = args else {
                    if path.parts.len() == 1 {
                        self.bind_type(&joined, at, names, bound);
                    }
                    return;
                };
                let arg_name = |a: &TemplateArg| -> Option<String> {
                    match a {
                        TemplateArg::Type(t) | TemplateArg::ModifiedType { ty: t, .. } => match &t.kind {
                            TypeKind::Named { path, args: None } => Some(path.joined()),
                            _ => None,
                        },
                        TemplateArg::Expr(e) => match &e.kind {
                            ast::ExprKind::Name(p) => Some(p.joined()),
                            _ => None,
                        },
                    }
                };
                let ty = self.m.types.get(at).clone();
                match (joined.as_str(), ty) {
                    ("vector", Type::Vector(k, n)) => {
                        let s = self.m.types.scalar(k);
                        if let Some(a) = args.first().and_then(arg_name) {
                            self.bind_type(&a, s, names, bound);
                        }
                        if let Some(a) = args.get(1).and_then(arg_name) {
                            self.bind_value(&a, n as i64, names, params, bound);
                        }
                    }
                    ("vector", Type::Scalar(k)) => {
                        let s = self.m.types.scalar(k);
                        if let Some(a) = args.first().and_then(arg_name) {
                            self.bind_type(&a, s, names, bound);
                        }
                    }
                    ("matrix", Type::Matrix { elem, rows, cols, .. }) => {
                        let s = self.m.types.scalar(elem);
                        if let Some(a) = args.first().and_then(arg_name) {
                            self.bind_type(&a, s, names, bound);
                        }
                        if let Some(a) = args.get(1).and_then(arg_name) {
                            self.bind_value(&a, rows as i64, names, params, bound);
                        }
                        if let Some(a) = args.get(2).and_then(arg_name) {
                            self.bind_value(&a, cols as i64, names, params, bound);
                        }
                    }
                    (_, Type::Object { kind, elem: Some(e), .. }) if ObjectKind::from_name(&joined) == Some(kind) => {
                        if let Some(TemplateArg::Type(t) | TemplateArg::ModifiedType { ty: t, .. }) = args.first() {
                            self.deduce(t, e, names, params, bound);
                        } else if let Some(a) = args.first().and_then(arg_name) {
                            self.bind_type(&a, e, names, bound);
                        }
                    }
                    (_, Type::Struct(_)) => {
                        let Some((tidx, targs)) = self.struct_instances.get(&at).cloned() else { return };
                        if self.template_name(tidx) != path.parts.last().map(|p| p.name.clone()).unwrap_or_default() {
                            return;
                        }
                        for (a, ta) in args.iter().zip(targs) {
                            match (a, ta) {
                                (TemplateArg::Type(t) | TemplateArg::ModifiedType { ty: t, .. }, TArg::Type(x)) => {
                                    self.deduce(t, x, names, params, bound)
                                }
                                (a, TArg::Value(_, v)) => {
                                    if let Some(n) = arg_name(a) {
                                        self.bind_value(&n, v, names, params, bound);
                                    }
                                }
                                (a, TArg::Type(x)) => {
                                    if let Some(n) = arg_name(a) {
                                        self.bind_type(&n, x, names, bound);
                                    }
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
            TypeKind::Array { elem, dims } => {
                if let Type::Array { elem: e, len } = self.m.types.get(at).clone() {
                    if let (Some(Some(ast::Expr { kind: ast::ExprKind::Name(n), .. })), Some(len)) = (dims.first(), len) {
                        self.bind_value(&n.joined(), len as i64, names, params, bound);
                    }
                    self.deduce(elem, e, names, params, bound);
                }
            }
            _ => {}
        }
    }
}
