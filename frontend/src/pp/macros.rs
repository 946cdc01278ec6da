//! Macro definitions, the macro table and `#define` parsing.
//!
//! A definition is parsed once into [`MacroDef`]: its body is a list of [`Item`]s in which
//! parameter uses, `#param` and `##` are already resolved, so expansion never looks at parameter
//! names again. The table maps a name to an `Rc<MacroDef>` (expansion clones the `Rc`, never the
//! table) and to a `disabled` flag that is set while the macro's own expansion is being rescanned
//! (the "blue paint" rule).

use crate::diag::Diagnostic;
use crate::lexer::{Tok, Token};
use crate::source::Span;
use std::rc::Rc;

pub(crate) use crate::fxhash::FxMap;

/// Macros whose expansion is computed when they are used.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Builtin {
    Line,
    File,
    Counter,
    IncludeLevel,
    BaseFile,
    /// `__has_feature(name)`: 1 for a language feature this compilation has, else 0.
    HasFeature,
}

/// One element of a macro body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Item {
    /// A token copied as is (its `leading_space` is kept; `line_start` is always false).
    Tok(Token),
    /// A use of parameter `index`; `space` is whether whitespace came before it.
    Param { index: u16, space: bool },
    /// `# param`: the argument's spelling as a string literal.
    Stringize { index: u16, space: bool, span: Span },
    /// `##`. Never first or last in a body.
    Paste,
}

/// A macro definition. Invariants: `params` is `None` for object-like macros; when `variadic`,
/// the last parameter receives the variable arguments; every `Item::Param` / `Item::Stringize`
/// index is `< params.len()`; `Item::Paste` is never first or last.
#[derive(Clone, Debug)]
pub(crate) struct MacroDef {
    pub name: Rc<str>,
    pub params: Option<Vec<Rc<str>>>,
    pub variadic: bool,
    pub body: Vec<Item>,
    /// The name in the definition (for "previous definition is here").
    pub span: Span,
    pub builtin: Option<Builtin>,
    /// Some body item is a parameter, `#` or `##` (otherwise substitution is a copy).
    pub needs_subst: bool,
}

impl MacroDef {
    pub fn builtin(name: &str, kind: Builtin) -> MacroDef {
        MacroDef {
            name: Rc::from(name),
            params: None,
            variadic: false,
            body: Vec::new(),
            span: Span::default(),
            builtin: Some(kind),
            needs_subst: false,
        }
    }

    /// C's rule for a benign redefinition: same kind, same parameters, same body spelling and the
    /// same whitespace separation.
    pub fn same_as(&self, other: &MacroDef) -> bool {
        if self.params != other.params || self.variadic != other.variadic || self.body.len() != other.body.len() {
            return false;
        }
        self.body.iter().zip(&other.body).enumerate().all(|(i, (a, b))| match (a, b) {
            (Item::Tok(x), Item::Tok(y)) => {
                x.kind == y.kind && x.text == y.text && (i == 0 || x.leading_space == y.leading_space)
            }
            (Item::Param { index: x, space: s }, Item::Param { index: y, space: t }) => x == y && (i == 0 || s == t),
            (Item::Stringize { index: x, space: s, .. }, Item::Stringize { index: y, space: t, .. }) => {
                x == y && (i == 0 || s == t)
            }
            (Item::Paste, Item::Paste) => true,
            _ => false,
        })
    }
}

/// A table entry: the definition and whether it is disabled (being rescanned).
pub(crate) struct Entry {
    pub def: Rc<MacroDef>,
    pub disabled: bool,
}

/// Defined macros by name.
#[derive(Default)]
pub(crate) struct MacroTable {
    map: FxMap<Rc<str>, Entry>,
}

impl MacroTable {
    #[inline]
    pub fn get(&self, name: &str) -> Option<&Entry> {
        self.map.get(name)
    }
    pub fn is_defined(&self, name: &str) -> bool {
        self.map.contains_key(name)
    }
    /// Inserts or replaces; returns the previous definition.
    pub fn define(&mut self, def: MacroDef) -> Option<Rc<MacroDef>> {
        let name = def.name.clone();
        self.map.insert(name, Entry { def: Rc::new(def), disabled: false }).map(|e| e.def)
    }
    pub fn undef(&mut self, name: &str) -> Option<Rc<MacroDef>> {
        self.map.remove(name).map(|e| e.def)
    }
    pub fn set_disabled(&mut self, name: &str, disabled: bool) {
        if let Some(e) = self.map.get_mut(name) {
            e.disabled = disabled;
        }
    }
}

fn err(message: impl Into<String>, span: Span) -> Diagnostic {
    Diagnostic::error(message).with_code("E0052").at(span)
}

/// Parses the tokens after `#define` (`line` is non-empty is not required; `at` is the
/// directive's span for "macro name missing").
pub(crate) fn parse_define(line: &[Token], at: Span) -> Result<MacroDef, Diagnostic> {
    let Some(name) = line.first() else {
        return Err(err("macro name missing", at));
    };
    check_macro_name(name)?;
    let mut i = 1;
    let mut params: Option<Vec<Rc<str>>> = None;
    let mut variadic = false;
    if line.get(1).is_some_and(|t| t.kind == Tok::LParen && !t.leading_space) {
        let mut list: Vec<Rc<str>> = Vec::new();
        i = 2;
        let open = line[1].span;
        loop {
            let Some(t) = line.get(i) else {
                return Err(err("missing ')' in macro parameter list", open));
            };
            i += 1;
            match t.kind {
                Tok::RParen if list.is_empty() => break,
                Tok::Ellipsis => {
                    variadic = true;
                    list.push(Rc::from("__VA_ARGS__"));
                    if !line.get(i).is_some_and(|t| t.kind == Tok::RParen) {
                        return Err(err("missing ')' in macro parameter list", t.span));
                    }
                    i += 1;
                    break;
                }
                Tok::Ident => {
                    if &*t.text == "__VA_ARGS__" {
                        return Err(err("__VA_ARGS__ can only appear in the expansion of a C99 variadic macro", t.span));
                    }
                    if list.iter().any(|p| *p == t.text) {
                        return Err(err(format!("duplicate macro parameter name '{}'", t.text), t.span));
                    }
                    list.push(t.text.clone());
                    match line.get(i).map(|t| t.kind) {
                        Some(Tok::Comma) => i += 1,
                        Some(Tok::RParen) => {
                            i += 1;
                            break;
                        }
                        Some(Tok::Ellipsis) => {
                            // GNU named variable arguments: `args...`
                            variadic = true;
                            if !line.get(i + 1).is_some_and(|t| t.kind == Tok::RParen) {
                                return Err(err("missing ')' in macro parameter list", line[i].span));
                            }
                            i += 2;
                            break;
                        }
                        Some(_) => return Err(err("expected comma in macro parameter list", line[i].span)),
                        None => return Err(err("missing ')' in macro parameter list", t.span)),
                    }
                }
                _ => return Err(err("invalid token in macro parameter list", t.span)),
            }
        }
        params = Some(list);
    }
    let body_toks = &line[i..];
    let mut body: Vec<Item> = Vec::with_capacity(body_toks.len());
    let mut needs_subst = false;
    let param_index = |t: &Token| -> Option<u16> {
        let ps = params.as_ref()?;
        if t.kind != Tok::Ident {
            return None;
        }
        ps.iter().position(|p| *p == t.text).map(|p| p as u16)
    };
    let mut j = 0;
    while j < body_toks.len() {
        let t = &body_toks[j];
        let space = t.leading_space && j > 0;
        if t.kind == Tok::HashHash {
            if j == 0 || j + 1 == body_toks.len() {
                return Err(err("'##' cannot appear at either end of a macro expansion", t.span));
            }
            needs_subst = true;
            body.push(Item::Paste);
        } else if t.kind == Tok::Hash && params.is_some() {
            match body_toks.get(j + 1).and_then(param_index) {
                Some(index) => {
                    needs_subst = true;
                    body.push(Item::Stringize { index, space, span: t.span });
                    j += 1;
                }
                None => return Err(err("'#' is not followed by a macro parameter", t.span)),
            }
        } else if let Some(index) = param_index(t) {
            needs_subst = true;
            body.push(Item::Param { index, space });
        } else {
            let mut t = t.clone();
            t.line_start = false;
            t.leading_space = space;
            body.push(Item::Tok(t));
        }
        j += 1;
    }
    Ok(MacroDef { name: name.text.clone(), params, variadic, body, span: name.span, builtin: None, needs_subst })
}

/// The name after `#define`, `#undef`, `#ifdef`, `#ifndef`, `defined`.
pub(crate) fn check_macro_name(name: &Token) -> Result<(), Diagnostic> {
    if name.kind != Tok::Ident {
        return Err(err("macro name must be an identifier", name.span));
    }
    if &*name.text == "defined" {
        return Err(err("'defined' cannot be used as a macro name", name.span));
    }
    Ok(())
}
