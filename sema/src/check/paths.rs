//! Qualified names whose qualifiers are types: `S<int>::value` (a member of a template
//! instance), `T::Inner` and `typename T::Inner` (through a template parameter or an alias),
//! `Alias::A` (an enumerator through an alias of its enum), `Base::field` inside a method; and
//! the `using` declarations and directives.
//!
//! Symbols are keyed by qualified name (see [`Checker::globals`]); a struct's or enum's members
//! live under the name the type was declared with, which [`Checker::type_scopes`] records. A
//! qualifier that names a type is replaced by that key, so every spelling of the type finds the
//! same members.

use super::{Checker, Symbol};
use crate::types::TypeId;
use hlslc_frontend::ast::Path;

impl Checker<'_> {
    /// What a written path names: as [`Checker::lookup`], with qualifiers that name types
    /// resolved first (instantiating `S<int>` as needed).
    pub(crate) fn lookup_path(&mut self, path: &Path) -> Option<Symbol> {
        let plain = path.scope_args.iter().all(Option::is_none);
        if plain {
            let parts: Vec<&str> = path.parts.iter().map(|p| p.name.as_str()).collect();
            if let Some(s) = self.lookup(&parts, path.global) {
                return Some(s);
            }
        }
        if path.parts.len() < 2 {
            return None;
        }
        let (scope, _) = self.resolve_qualifier(path)?;
        self.globals.get(&format!("{scope}::{}", path.last().name)).cloned()
    }

    /// The key of the scope a path's qualifier (all parts but the last) names, when some part of
    /// it names a type, and the type the whole qualifier names (if it does). `None` when no part
    /// names a type (the path is an ordinary namespace path) or a part does not resolve.
    pub(crate) fn resolve_qualifier(&mut self, path: &Path) -> Option<(String, Option<TypeId>)> {
        // The scope reached so far: an absolute key once a type was met, else the parts so far
        // (looked up as written).
        let mut abs: Option<String> = None;
        let mut rel: Vec<String> = Vec::new();
        let mut last_ty = None;
        for (i, part) in path.parts[..path.parts.len() - 1].iter().enumerate() {
            let name = part.name.as_str();
            let args = path.scope_args.get(i).and_then(|a| a.as_deref());
            let ty = match args {
                Some(a) => {
                    let idx = match &abs {
                        Some(s) => match self.globals.get(&format!("{s}::{name}")) {
                            Some(Symbol::Template(idx)) => Some(*idx),
                            _ => None,
                        },
                        None => {
                            let mut p: Vec<&str> = rel.iter().map(String::as_str).collect();
                            p.push(name);
                            self.lookup_struct_template(&p, path.global)
                        }
                    };
                    let Some(idx) = idx else {
                        self.error(part.span, format!("'{name}' is not a template"));
                        return None;
                    };
                    let t = self.instantiate_type(idx, Some(a), path.span);
                    if self.m.types.is_error(t) {
                        return None;
                    }
                    Some(t)
                }
                None => {
                    let sym = match &abs {
                        Some(s) => self.globals.get(&format!("{s}::{name}")).cloned(),
                        None => {
                            let mut p: Vec<&str> = rel.iter().map(String::as_str).collect();
                            p.push(name);
                            self.lookup(&p, path.global)
                        }
                    };
                    match sym {
                        Some(Symbol::Type(t)) => Some(t),
                        _ => None,
                    }
                }
            };
            last_ty = ty;
            match ty.and_then(|t| self.type_scopes.get(&t).cloned()) {
                Some(scope) => {
                    abs = Some(scope);
                    rel.clear();
                }
                None => match &mut abs {
                    Some(s) => {
                        s.push_str("::");
                        s.push_str(name);
                    }
                    None => rel.push(name.to_string()),
                },
            }
        }
        abs.map(|s| (s, last_ty))
    }

    /// A qualified name of a field inside a method: `Base::x`, `array<T, N>::x` (a member of
    /// `this` named through its class or a base class).
    pub(crate) fn qualified_this_member(&mut self, path: &Path, span: hlslc_frontend::Span) -> Option<crate::tast::ExprId> {
        let this_ty = self.func.as_ref().and_then(|f| f.this_ty)?;
        if path.parts.len() < 2 {
            return None;
        }
        let (_, Some(q)) = self.resolve_qualifier(path)? else { return None };
        if q != this_ty && !self.m.types.is_base_of(q, this_ty) {
            return None;
        }
        self.this_member(this_ty, path.last(), span)
    }

    /// A static data member (or enumerator) `name` of struct `t` or of a base of it.
    pub(crate) fn static_member(&self, t: TypeId, name: &str) -> Option<Symbol> {
        let mut level = vec![t];
        for _ in 0..64 {
            let mut next = Vec::new();
            for &t in &level {
                if let Some(scope) = self.type_scopes.get(&t) {
                    if let Some(s @ (Symbol::Var(_) | Symbol::Const(..))) = self.globals.get(&format!("{scope}::{name}")) {
                        return Some(s.clone());
                    }
                }
                if let crate::types::Type::Struct(s) = self.m.types.get(t) {
                    next.extend(self.m.types.structs[s.0 as usize].bases.iter().copied());
                }
            }
            if next.is_empty() {
                break;
            }
            level = next;
        }
        None
    }

    /// `using namespace ns;` / `using ns::name;` at namespace scope or in a function.
    pub(crate) fn check_using(&mut self, path: &Path, namespace: bool, span: hlslc_frontend::Span) {
        if namespace {
            let parts: Vec<&str> = path.parts.iter().map(|p| p.name.as_str()).collect();
            let joined = parts.join("::");
            let scopes = if path.global { 0 } else { self.ns.len() };
            let key = (0..=scopes).rev().map(|i| if i == 0 { joined.clone() } else { format!("{}::{joined}", self.ns[..i].join("::")) }).find(
                |k| matches!(self.globals.get(k), Some(Symbol::Namespace)),
            );
            match key {
                Some(k) => self.using_dirs.push((self.ns.clone(), k)),
                None => self.error(span, format!("expected namespace name ('{joined}' is not a namespace)")),
            }
            return;
        }
        match self.lookup_path(path) {
            Some(Symbol::Namespace) => self.error(span, "using declaration cannot refer to a namespace"),
            Some(sym) => {
                let name = path.last();
                self.declare(&name.name, sym, name.span);
            }
            None => self.error(path.span, format!("no member named '{}' in '{}'", path.last().name, qualifier_text(path))),
        }
    }

    /// Lookup through the `using namespace` directives in force in the current namespace.
    pub(crate) fn lookup_using(&self, joined: &str) -> Option<Symbol> {
        self.using_dirs
            .iter()
            .filter(|(at, _)| self.ns.starts_with(at))
            .find_map(|(_, target)| self.globals.get(&format!("{target}::{joined}")).cloned())
    }
}

fn qualifier_text(path: &Path) -> String {
    let parts: Vec<&str> = path.parts[..path.parts.len() - 1].iter().map(|p| p.name.as_str()).collect();
    parts.join("::")
}
