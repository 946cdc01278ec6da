//! The checker: walks the AST once, in source order (HLSL declares before use), and builds the
//! typed AST. Split by topic: declarations ([`decls`]), type specifiers ([`typespec`]),
//! statements ([`stmts`]), expressions ([`exprs`]), member access ([`members`]), calls and
//! overload resolution ([`calls`]), conversions ([`conversions`]), constant folding
//! ([`consteval`]).
//!
//! Error recovery: an expression that fails to check gets the error type, which converts to
//! and from everything silently, so one mistake produces one diagnostic.

mod attr_rules;
pub(crate) mod calls;
mod clang_names;
mod clipplanes;
pub(crate) mod consteval;
pub(crate) mod conversions;
pub(crate) mod decls;
pub(crate) mod exprs;
pub(crate) mod heap;
pub(crate) mod init;
mod inline_spirv;
pub(crate) mod members;
mod node_rules;
mod packoffset;
pub(crate) mod paths;
mod rules;
pub(crate) mod stmts;
pub(crate) mod templates;
pub(crate) mod texel;
pub(crate) mod typespec;

use crate::tast::{ConstValue, Expr, ExprId, ExprKind, FuncId, Module, Stage, VarId};
use crate::types::{MatrixLayout, TypeId, TypeTable};
use hlslc_frontend::ast::TranslationUnit;
use hlslc_frontend::{Diagnostic, Diagnostics, Span};
use hlslc_frontend::fxhash::FxMap as HashMap;

/// Options that change what a program means.
#[derive(Clone, Debug)]
pub struct SemaOptions {
    /// `-T`: `ps_6_0`, `lib_6_3`, ...
    pub profile: String,
    /// `-E`: the entry point's name (ignored for libraries).
    pub entry: String,
    /// `-HV`: 2016, 2018, 2021, 202x (2022+).
    pub hlsl_version: u32,
    /// `-enable-16bit-types`.
    pub enable_16bit: bool,
    /// `-Gec` (backward compatibility): with HLSL 2016, globals outside `cbuffer`s are writable.
    pub backward_compat: bool,
    /// `-Zpr` (true) / `-Zpc` (false, the default): matrix orientation when not written.
    pub default_row_major: bool,
    /// Whether a missing entry point is an error (as when generating code). `-fsyntax-only`
    /// and `-verify` check the program without requiring one, as DXC does.
    pub require_entry: bool,
    /// `-spirv`: the output is SPIR-V, where `vk::` attributes apply (with their placement
    /// rules); otherwise dxc ignores them with a warning.
    pub spirv: bool,
}

impl Default for SemaOptions {
    fn default() -> Self {
        SemaOptions {
            profile: "ps_6_0".into(),
            entry: "main".into(),
            hlsl_version: 2021,
            enable_16bit: false,
            backward_compat: false,
            default_row_major: false,
            require_entry: true,
            spirv: false,
        }
    }
}

impl SemaOptions {
    /// The stage of the profile (`None` for an unknown profile).
    pub fn stage(&self) -> Option<Stage> {
        Stage::from_profile(&self.profile)
    }
    /// The shader model `(major, minor)` of the profile (`ps_6_2` → (6, 2)).
    pub fn shader_model(&self) -> (u32, u32) {
        let mut it = self.profile.split('_').skip(1);
        let major = it.next().and_then(|s| s.parse().ok()).unwrap_or(6);
        let minor = it.next().and_then(|s| s.parse().ok()).unwrap_or(0);
        (major, minor)
    }
}

/// What a name means.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Symbol {
    Var(VarId),
    /// An overload set of user functions.
    Funcs(Vec<FuncId>),
    Type(TypeId),
    /// An enum value (its enum type and value) or other named constant.
    Const(TypeId, ConstValue),
    Namespace,
    /// A struct template (index into [`Checker::templates`]).
    Template(usize),
}

/// State of the function being checked.
#[derive(Clone, Debug)]
pub(crate) struct FnCtx {
    pub id: FuncId,
    pub ret: TypeId,
    pub this_ty: Option<TypeId>,
    pub loops: u32,
    pub switches: u32,
}

/// The checker's state; see the module documentation.
pub struct Checker<'a> {
    pub(crate) m: Module,
    pub(crate) diags: &'a mut Diagnostics,
    pub(crate) opts: &'a SemaOptions,
    pub(crate) default_layout: MatrixLayout,
    /// Global symbols by qualified name (`f`, `ns::f`, `S::g`, `E::A`).
    pub(crate) globals: HashMap<String, Symbol>,
    /// Block scopes of the function being checked, innermost last.
    pub(crate) locals: Vec<HashMap<String, Symbol>>,
    /// Enclosing namespaces and structs (for qualified declarations and lookups).
    pub(crate) ns: Vec<String>,
    pub(crate) func: Option<FnCtx>,
    /// Caller → callee edges for the recursion check.
    pub(crate) calls: Vec<(FuncId, FuncId)>,
    /// Expression nesting depth (deep input guard).
    pub(crate) depth: u32,
    /// User templates, in declaration order.
    pub(crate) templates: Vec<templates::TemplateInfo>,
    /// Function templates by qualified name (kept apart from `globals`: a name may have both
    /// plain overloads and templates).
    pub(crate) func_templates: HashMap<String, Vec<usize>>,
    /// Struct types that are template instances: their template and arguments (deduction).
    pub(crate) struct_instances: HashMap<TypeId, (usize, Vec<templates::TArg>)>,
    pub(crate) instantiation_depth: u32,
    /// The key under which each struct's and enum's members are declared (`ns::S`, or
    /// `S<int>::S` for an instance), for qualified names that reach it through another spelling
    /// (an alias, a template parameter, `S<int>::`).
    pub(crate) type_scopes: HashMap<TypeId, String>,
    /// `using namespace` directives: the namespace they were written in and the namespace they
    /// name (keys of [`Checker::globals`]).
    pub(crate) using_dirs: Vec<(Vec<String>, String)>,
    /// Attributes already checked against the table (a template body is checked per instance).
    pub(crate) vetted: hlslc_frontend::fxhash::FxSet<hlslc_frontend::Span>,
    /// The first `[[vk::push_constant]]` (SPIR-V allows one).
    pub(crate) push_constant_at: Option<hlslc_frontend::Span>,
    /// Checking the members of a `cbuffer`/`tbuffer` (they are not `$Globals` members).
    pub(crate) in_cbuffer: bool,
}

/// Deepest expression/statement nesting checked before giving up with an error.
pub(crate) const MAX_DEPTH: u32 = 400;

impl<'a> Checker<'a> {
    /// `-Gec` with HLSL 2016: globals outside `cbuffer`s are writable, as in fxc.
    pub(crate) fn gec_globals(&self) -> bool {
        self.opts.backward_compat && self.opts.hlsl_version <= 2016
    }

    pub fn new(opts: &'a SemaOptions, diags: &'a mut Diagnostics) -> Checker<'a> {
        let default_layout = if opts.default_row_major { MatrixLayout::RowMajor } else { MatrixLayout::ColumnMajor };
        let mut c = Checker {
            m: Module::new(),
            diags,
            opts,
            default_layout,
            globals: HashMap::default(),
            locals: Vec::new(),
            ns: Vec::new(),
            func: None,
            calls: Vec::new(),
            depth: 0,
            templates: Vec::new(),
            func_templates: HashMap::default(),
            struct_instances: HashMap::default(),
            instantiation_depth: 0,
            type_scopes: HashMap::default(),
            using_dirs: Vec::new(),
            vetted: Default::default(),
            push_constant_at: None,
            in_cbuffer: false,
        };
        c.m.types.strict_udt_casting = opts.hlsl_version >= 2021;
        c.declare_builtin_structs();
        c
    }

    pub(crate) fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(msg).at(span));
    }

    pub(crate) fn warning(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::warning(msg).at(span));
    }

    /// An expression of the error type (after its error was reported).
    pub(crate) fn error_expr(&mut self, span: Span) -> ExprId {
        self.m.add_expr(Expr { kind: ExprKind::Const(ConstValue::Int(0)), ty: TypeTable::ERROR, lvalue: true }, span)
    }

    pub(crate) fn type_name(&self, t: TypeId) -> String {
        self.m.types.name(t)
    }

    /// Adds a symbol to the innermost scope (a block, or the current namespace).
    pub(crate) fn declare(&mut self, name: &str, sym: Symbol, span: Span) {
        if let Some(scope) = self.locals.last_mut() {
            if let Some(old) = scope.get(name) {
                if !matches!((old, &sym), (Symbol::Funcs(_), Symbol::Funcs(_))) {
                    self.error(span, format!("redefinition of '{name}'"));
                    return;
                }
            }
            scope.insert(name.to_string(), sym);
            return;
        }
        let key = self.qualify(name);
        if let Some(old) = self.globals.get(&key) {
            let compatible = matches!((old, &sym), (Symbol::Funcs(_), Symbol::Funcs(_)) | (Symbol::Namespace, Symbol::Namespace))
                || matches!((old, &sym), (Symbol::Type(a), Symbol::Type(b)) if a == b);
            if !compatible {
                self.error(span, format!("redefinition of '{name}'"));
                return;
            }
        }
        self.globals.insert(key, sym);
    }

    /// `name` qualified by the enclosing namespaces/structs.
    pub(crate) fn qualify(&self, name: &str) -> String {
        if self.ns.is_empty() {
            name.to_string()
        } else {
            format!("{}::{}", self.ns.join("::"), name)
        }
    }

    /// Looks a (possibly qualified) name up: block scopes innermost first, then the enclosing
    /// namespaces from the innermost out, then the global scope.
    pub(crate) fn lookup(&self, parts: &[&str], global_only: bool) -> Option<Symbol> {
        let joined = parts.join("::");
        if parts.len() == 1 && !global_only {
            for scope in self.locals.iter().rev() {
                if let Some(s) = scope.get(parts[0]) {
                    return Some(s.clone());
                }
            }
        }
        if !global_only {
            for i in (1..=self.ns.len()).rev() {
                let key = format!("{}::{}", self.ns[..i].join("::"), joined);
                if let Some(s) = self.globals.get(&key) {
                    return Some(s.clone());
                }
            }
        }
        self.globals.get(&joined).cloned().or_else(|| if global_only { None } else { self.lookup_using(&joined) })
    }

    fn finish(mut self) -> Option<Module> {
        self.check_recursion();
        self.pick_entry();
        if self.opts.require_entry && !self.diags.has_errors() {
            crate::stage::check_entry_points(&self.m, self.opts.spirv, self.diags);
        }
        if self.diags.has_errors() {
            None
        } else {
            Some(self.m)
        }
    }

    fn check_recursion(&mut self) {
        let n = self.m.funcs.len();
        let mut adj: Vec<Vec<usize>> = vec![Vec::new(); n];
        for &(a, b) in &self.calls {
            adj[a.0 as usize].push(b.0 as usize);
        }
        // Only what the shader can reach counts (DXC: functions of a non-library shader are
        // internal, so an unreachable recursive function is dropped, not diagnosed). Roots: the
        // entry point, or in a library every function.
        let library = self.opts.stage().is_none_or(|s| s == Stage::Library);
        // In a library the roots are the free functions, then the methods no free function
        // reaches (as with DXC's -default-linkage external).
        let free = |i: &usize| self.m.funcs[*i].this_type.is_none();
        let roots: Vec<usize> = if library {
            (0..n).filter(free).chain((0..n).filter(|i| !free(i))).collect()
        } else {
            (0..n).filter(|i| free(i) && self.m.funcs[*i].qualified_name == self.opts.entry).collect()
        };
        // Iterative DFS with colors; report each function on a cycle once.
        let mut color = vec![0u8; n];
        let mut reported = vec![false; n];
        for start in roots {
            if color[start] != 0 {
                continue;
            }
            let mut stack = vec![(start, 0usize)];
            color[start] = 1;
            while let Some(&mut (v, ref mut i)) = stack.last_mut() {
                if *i < adj[v].len() {
                    let w = adj[v][*i];
                    *i += 1;
                    if color[w] == 1 && !reported[w] {
                        reported[w] = true;
                        // As DXC: the root whose call graph holds the cycle, and the function on it.
                        let f = &self.m.funcs[w];
                        let (span, name) = (f.span, f.qualified_name.clone());
                        let root = self.m.funcs[start].qualified_name.clone();
                        self.diags.push(
                            Diagnostic::error(format!(
                                "recursive functions are not allowed: function '{root}' calls recursive function '{name}'"
                            ))
                            .at(span)
                            .with_label(span, "recursive function located here:"),
                        );
                    } else if color[w] == 0 {
                        color[w] = 1;
                        stack.push((w, 0));
                    }
                } else {
                    color[v] = 2;
                    stack.pop();
                }
            }
        }
    }
}

/// Checks a translation unit and returns its typed AST, or `None` when there were errors (all
/// of them reported to `diags`).
pub fn analyze(tu: &TranslationUnit, opts: &SemaOptions, diags: &mut Diagnostics) -> Option<Module> {
    analyze_decls(tu.decls.iter(), opts, diags)
}

/// [`analyze`], dropping each top-level declaration's syntax tree once it is checked (the checker
/// keeps what it needs, e.g. templates, itself): the syntax tree of a large source and the typed
/// module made from it are then not both whole in memory at once.
pub fn analyze_owned(tu: TranslationUnit, opts: &SemaOptions, diags: &mut Diagnostics) -> Option<Module> {
    analyze_decls(tu.decls.into_iter(), opts, diags)
}

/// Checks the top-level declarations in order; each is dropped after its check when the iterator
/// owns them.
fn analyze_decls<D: std::borrow::Borrow<hlslc_frontend::ast::Decl>>(decls: impl Iterator<Item = D>, opts: &SemaOptions, diags: &mut Diagnostics) -> Option<Module> {
    let mut a = Analyzer::new(opts, diags);
    for d in decls {
        a.check(d.borrow());
    }
    a.finish()
}

/// Sema one top-level declaration at a time, as the parser hands them over
/// (`hlslc_frontend::parser::parse_each`): [`analyze`] is `new`, `check` of each declaration in
/// order, then `finish`. Checking a declaration keeps what later ones need (symbols, types,
/// templates, the typed bodies), so its syntax tree can be dropped right after.
pub struct Analyzer<'a> {
    c: Checker<'a>,
}

impl<'a> Analyzer<'a> {
    pub fn new(opts: &'a SemaOptions, diags: &'a mut Diagnostics) -> Analyzer<'a> {
        let c = Checker::new(opts, diags);
        if opts.stage().is_none() {
            c.diags.push(Diagnostic::error(format!("unknown target profile '{}'", opts.profile)));
        }
        Analyzer { c }
    }

    /// Checks the next top-level declaration.
    pub fn check(&mut self, d: &hlslc_frontend::ast::Decl) {
        self.c.check_top_decl(d);
    }

    /// The whole-module checks (recursion, the entry point) and the typed AST, or `None` when
    /// there were errors.
    pub fn finish(self) -> Option<Module> {
        self.c.finish()
    }
}
