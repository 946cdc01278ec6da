//! Token sources and macro expansion: reading the next token, invocations, argument collection
//! and pre-expansion, substitution with `#` and `##`, built-in macros and `_Pragma`.

use super::macros::{Builtin, Item, MacroDef};
use super::{Pp, MAX_ARG_NESTING, MAX_EXPANSION_WORK};
use crate::diag::Diagnostic;
use crate::lexer::{lex, Tok, Token};
use crate::source::{FileId, Span};
use std::path::PathBuf;
use std::rc::Rc;

/// A token on its way through expansion. `no_expand`: painted blue, never expanded again.
#[derive(Clone, Debug)]
pub(crate) struct XTok {
    pub tok: Token,
    pub no_expand: bool,
}

impl XTok {
    fn plain(tok: Token) -> XTok {
        XTok { tok, no_expand: false }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum FileKind {
    Main,
    /// An `#include`d file; `directive_end` is the end of the `#include` line's last token.
    Included { directive_end: Span },
    /// `<built-in>` and `<command line>` definitions.
    Predefined,
}

pub(crate) struct FileSrc {
    pub file: FileId,
    pub toks: Rc<Vec<Token>>,
    pub pos: usize,
    /// `conds.len()` when the file was entered: its own conditionals are above.
    pub cond_base: usize,
    /// Folder searched first for `#include "..."`.
    pub dir: Option<PathBuf>,
    pub kind: FileKind,
    /// Identity for `#pragma once`.
    pub key: Option<super::include::FileKey>,
}

pub(crate) struct MacroSrc {
    /// The macro to re-enable when the buffer is done (`None` for built-ins and barriers).
    pub name: Option<Rc<str>>,
    /// A barrier (argument pre-expansion, `#if` lines): reading stops at its end.
    pub barrier: bool,
    /// Tokens still to read, last first.
    pub toks: Vec<XTok>,
}

pub(crate) enum Source {
    File(FileSrc),
    Macro(MacroSrc),
}

/// What [`Pp::next`] does at the end of a file.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(crate) enum AtEof {
    /// Leave the file and continue in the includer.
    Pop,
    /// Stop (a macro invocation or directive cannot span files).
    Stop,
}

fn unterminated(name: &str, span: Span) -> Diagnostic {
    Diagnostic::error(format!("unterminated function-like macro invocation of '{name}'")).with_code("E0053").at(span)
}

impl Pp<'_> {
    /// The next token, with directives executed. `None` at the end of input, at a barrier, at
    /// the end of a file with [`AtEof::Stop`], or after a fatal error.
    pub fn next(&mut self, at_eof: AtEof) -> Option<XTok> {
        loop {
            if self.fatal {
                return None;
            }
            let mut t = match self.stack.last_mut()? {
                Source::Macro(m) => match m.toks.pop() {
                    Some(mut t) => {
                        if t.tok.kind == Tok::Ident && !t.no_expand {
                            if let Some(e) = self.macros.get(&t.tok.text) {
                                t.no_expand = e.disabled;
                            }
                        }
                        t
                    }
                    None => {
                        if m.barrier {
                            return None;
                        }
                        let name = m.name.take();
                        self.stack.pop();
                        if let Some(n) = name {
                            self.macros.set_disabled(&n, false);
                        }
                        continue;
                    }
                },
                Source::File(f) => match f.toks.get(f.pos) {
                    Some(t) => {
                        f.pos += 1;
                        if t.kind == Tok::Hash && t.line_start {
                            let hash = t.clone();
                            self.directive(hash);
                            continue;
                        }
                        XTok::plain(t.clone())
                    }
                    None => {
                        if at_eof == AtEof::Stop {
                            return None;
                        }
                        self.end_of_file();
                        continue;
                    }
                },
            };
            if self.pending_space || self.pending_line_start {
                t.tok.leading_space |= self.pending_space;
                t.tok.line_start |= self.pending_line_start;
                self.pending_space = false;
                self.pending_line_start = false;
            }
            return Some(t);
        }
    }

    /// Runs the whole input through expansion into `self.out`.
    pub fn main_loop(&mut self) {
        while let Some(t) = self.next(AtEof::Pop) {
            if t.tok.kind == Tok::Ident && !t.no_expand {
                if self.try_expand(&t) {
                    continue;
                }
                if &*t.tok.text == "_Pragma" {
                    self.pragma_operator(t.tok);
                    continue;
                }
            }
            self.emit(t.tok);
        }
    }

    /// Whether the next token (looking through exhausted macro buffers, not past a barrier or
    /// the end of a file) is `(`.
    fn peek_lparen(&self) -> bool {
        for src in self.stack.iter().rev() {
            match src {
                Source::Macro(m) => match m.toks.last() {
                    Some(t) => return t.tok.kind == Tok::LParen,
                    None if m.barrier => return false,
                    None => continue,
                },
                Source::File(f) => return f.toks.get(f.pos).is_some_and(|t| t.kind == Tok::LParen),
            }
        }
        false
    }

    /// If `t` names an enabled macro that is invoked here, pushes its expansion (or reports a bad
    /// invocation) and returns true.
    pub fn try_expand(&mut self, t: &XTok) -> bool {
        let Some(entry) = self.macros.get(&t.tok.text) else { return false };
        if entry.disabled {
            return false;
        }
        let def = entry.def.clone();
        if def.builtin == Some(Builtin::HasFeature) {
            if !self.peek_lparen() {
                return false;
            }
            let tok = self.has_feature(&t.tok);
            self.push_expansion(None, vec![XTok::plain(tok)], &t.tok);
            return true;
        }
        if let Some(b) = def.builtin {
            let tok = self.builtin(b, &t.tok);
            self.push_expansion(None, vec![XTok::plain(tok)], &t.tok);
            return true;
        }
        let Some(params) = &def.params else {
            let toks = self.substitute(&def, &[], t.tok.span);
            self.push_expansion(Some(def.name.clone()), toks, &t.tok);
            return true;
        };
        if !self.peek_lparen() {
            return false;
        }
        let Some((args, close)) = self.collect_args(&def, params.len(), &t.tok) else { return true };
        let span = t.tok.span.to(close);
        let toks = self.substitute(&def, &args, span);
        self.push_expansion(Some(def.name.clone()), toks, &t.tok);
        true
    }

    /// Pushes an expansion (forward order) as a new source, the first token taking the
    /// invocation's whitespace; the macro stays disabled until the buffer has been read and
    /// popped. Finished buffers below are not popped here (that would re-enable `a` in
    /// `#define a b` / `#define b a`); the stack stays bounded because every macro buffer on it
    /// belongs to a distinct disabled macro.
    fn push_expansion(&mut self, name: Option<Rc<str>>, mut toks: Vec<XTok>, inv: &Token) {
        self.work += toks.len();
        if self.work > MAX_EXPANSION_WORK {
            self.report(
                Diagnostic::fatal(format!("macro expansion produces more than {MAX_EXPANSION_WORK} tokens"))
                    .with_code("E0054")
                    .at(inv.span),
            );
            return;
        }
        match toks.first_mut() {
            None => {
                self.pending_space |= inv.leading_space;
                self.pending_line_start |= inv.line_start;
            }
            Some(first) => {
                first.tok.leading_space = inv.leading_space;
                first.tok.line_start = inv.line_start;
                toks.reverse();
                if let Some(n) = &name {
                    self.macros.set_disabled(n, true);
                }
                self.stack.push(Source::Macro(MacroSrc { name, barrier: false, toks }));
            }
        }
    }

    /// Reads `( args )` after a function-like macro's name. `None` after reporting an error (the
    /// invocation's tokens are dropped).
    fn collect_args(&mut self, def: &MacroDef, nparams: usize, name: &Token) -> Option<(Vec<Vec<XTok>>, Span)> {
        self.collecting += 1;
        let r = self.collect_args_inner(def, nparams, name);
        self.collecting -= 1;
        r
    }

    fn collect_args_inner(&mut self, def: &MacroDef, nparams: usize, name: &Token) -> Option<(Vec<Vec<XTok>>, Span)> {
        self.next(AtEof::Stop); // the `(` peek_lparen saw
        let mut args: Vec<Vec<XTok>> = vec![Vec::new()];
        let mut depth = 0usize;
        let close = loop {
            let Some(mut t) = self.next(AtEof::Stop) else {
                if !self.fatal {
                    self.report(unterminated(&def.name, name.span));
                }
                return None;
            };
            if t.tok.line_start {
                t.tok.line_start = false;
                t.tok.leading_space = true;
            }
            match t.tok.kind {
                Tok::LParen => depth += 1,
                Tok::RParen if depth == 0 => break t.tok.span,
                Tok::RParen => depth -= 1,
                Tok::Comma if depth == 0 && !(def.variadic && args.len() == nparams) => {
                    args.push(Vec::new());
                    continue;
                }
                _ => {}
            }
            args.last_mut().expect("args is never empty").push(t);
        };
        let here = name.span.to(close);
        if nparams == 0 {
            if args.len() == 1 && args[0].is_empty() {
                return Some((Vec::new(), close));
            }
            self.report(too_many(def, here));
            return None;
        }
        if def.variadic && args.len() == nparams - 1 {
            args.push(Vec::new()); // no variable arguments (accepted, as clang does)
        }
        if args.len() < nparams {
            self.report(
                Diagnostic::error(format!("too few arguments provided to function-like macro invocation of '{}'", def.name))
                    .with_code("E0055")
                    .at(here)
                    .with_label(def.span, "macro defined here"),
            );
            return None;
        }
        if args.len() > nparams {
            self.report(too_many(def, here));
            return None;
        }
        Some((args, close))
    }

    /// Fully macro-expands `toks` on their own (argument pre-expansion, `#if`/`#include`/`#line`
    /// lines). `in_if`: `defined X` / `defined(X)` are evaluated to `1` / `0`.
    pub fn expand_list(&mut self, toks: Vec<XTok>, in_if: bool) -> Vec<XTok> {
        if self.arg_depth >= MAX_ARG_NESTING {
            if !self.fatal {
                let span = toks.first().map(|t| t.tok.span).unwrap_or_default();
                self.report(
                    Diagnostic::fatal(format!("macro invocations nested more than {MAX_ARG_NESTING} deep in macro arguments"))
                        .with_code("E0056")
                        .at(span),
                );
            }
            return Vec::new();
        }
        self.arg_depth += 1;
        let mut rev = toks;
        rev.reverse();
        let base = self.stack.len();
        self.stack.push(Source::Macro(MacroSrc { name: None, barrier: true, toks: rev }));
        let saved = (self.pending_space, self.pending_line_start);
        self.pending_space = false;
        self.pending_line_start = false;
        let mut out = Vec::new();
        while let Some(t) = self.next(AtEof::Stop) {
            if t.tok.kind == Tok::Ident && !t.no_expand {
                if in_if && &*t.tok.text == "defined" {
                    out.push(self.defined_operator(t.tok));
                    continue;
                }
                if self.try_expand(&t) {
                    continue;
                }
            }
            out.push(t);
        }
        // Drop what is left above the barrier (only after a fatal error) and the barrier itself.
        while self.stack.len() > base {
            if let Some(Source::Macro(m)) = self.stack.pop() {
                if let Some(n) = m.name {
                    self.macros.set_disabled(&n, false);
                }
            }
        }
        self.pending_space = saved.0;
        self.pending_line_start = saved.1;
        self.arg_depth -= 1;
        out
    }

    /// `defined X` or `defined ( X )` in an `#if` line, read unexpanded, as `1` or `0`.
    fn defined_operator(&mut self, kw: Token) -> XTok {
        let mut value = false;
        let mut end = kw.span;
        let first = self.next(AtEof::Stop);
        let name = match first {
            Some(t) if t.tok.kind == Tok::LParen => {
                let n = self.next(AtEof::Stop);
                match self.next(AtEof::Stop) {
                    Some(c) if c.tok.kind == Tok::RParen => {
                        end = c.tok.span;
                        n
                    }
                    other => {
                        let at = other.map(|t| t.tok.span).or(n.as_ref().map(|t| t.tok.span)).unwrap_or(kw.span);
                        self.report(Diagnostic::error("missing ')' after 'defined'").with_code("E0057").at(at));
                        None
                    }
                }
            }
            Some(t) if t.tok.kind == Tok::Ident => Some(t),
            _ => {
                self.report(Diagnostic::error("macro name missing after 'defined'").with_code("E0057").at(kw.span));
                None
            }
        };
        if let Some(n) = name {
            if n.tok.kind == Tok::Ident {
                value = self.macros.is_defined(&n.tok.text);
                end = if end == kw.span { n.tok.span } else { end };
            } else {
                self.report(Diagnostic::error("macro name must be an identifier").with_code("E0057").at(n.tok.span));
            }
        }
        let span = kw.span.to(end);
        XTok::plain(Token {
            kind: Tok::Number,
            text: Rc::from(if value { "1" } else { "0" }),
            span,
            leading_space: kw.leading_space,
            line_start: false,
        })
    }

    /// The replacement of one invocation, before rescanning: parameters replaced (pre-expanded,
    /// or raw next to `#`/`##`), `#` and `##` applied. Body tokens get the invocation's span.
    fn substitute(&mut self, def: &MacroDef, args: &[Vec<XTok>], span: Span) -> Vec<XTok> {
        let body_tok = |t: &Token| {
            let mut t = t.clone();
            t.span = span;
            XTok::plain(t)
        };
        if !def.needs_subst {
            // Only plain tokens (see `MacroDef::needs_subst`).
            return def.body.iter().filter_map(|i| if let Item::Tok(t) = i { Some(body_tok(t)) } else { None }).collect();
        }
        let mut expanded: Vec<Option<Vec<XTok>>> = vec![None; args.len()];
        let mut out: Vec<XTok> = Vec::with_capacity(def.body.len() + args.iter().map(Vec::len).sum::<usize>());
        let body = &def.body;
        let mut paste = false; // the previous item was followed by `##`
        let mut left_empty = false; // the left operand of that `##` is a placemarker
        let mut i = 0;
        while i < body.len() {
            let next_is_paste = matches!(body.get(i + 1), Some(Item::Paste));
            let mut piece: Vec<XTok> = match &body[i] {
                Item::Tok(t) => vec![body_tok(t)],
                Item::Stringize { index, space, .. } => {
                    let mut t = stringize(&args[*index as usize], span);
                    t.leading_space = *space;
                    vec![XTok::plain(t)]
                }
                Item::Param { index, space } => {
                    let ix = *index as usize;
                    let mut v = if paste || next_is_paste {
                        args[ix].clone()
                    } else {
                        if expanded[ix].is_none() {
                            let e = self.pre_expand(&args[ix]);
                            expanded[ix] = Some(e);
                        }
                        expanded[ix].clone().unwrap_or_default()
                    };
                    if let Some(f) = v.first_mut() {
                        f.tok.leading_space = *space;
                    }
                    v
                }
                Item::Paste => Vec::new(), // unreachable for parsed definitions
            };
            if paste {
                let va = def.variadic && matches!(&body[i], Item::Param { index, .. } if *index as usize + 1 == args.len());
                let comma_left = !left_empty && out.last().is_some_and(|t| t.tok.kind == Tok::Comma);
                if va && comma_left {
                    // GNU `, ## __VA_ARGS__`: the comma goes when there are no variable arguments.
                    if piece.is_empty() {
                        out.pop();
                    }
                    out.append(&mut piece);
                } else if left_empty || piece.is_empty() {
                    out.append(&mut piece);
                } else if let Some(l) = out.pop() {
                    let r = piece.remove(0);
                    match paste_tokens(&l.tok, &r.tok, span) {
                        Some(t) => out.push(XTok::plain(t)),
                        None => {
                            self.report(
                                Diagnostic::error(format!(
                                    "pasting formed '{}{}', an invalid preprocessing token",
                                    l.tok.text, r.tok.text
                                ))
                                .with_code("E0058")
                                .at(span),
                            );
                            out.push(l);
                            out.push(r);
                        }
                    }
                    out.append(&mut piece);
                }
                left_empty = left_empty && out.is_empty();
            } else {
                left_empty = piece.is_empty();
                out.append(&mut piece);
            }
            paste = next_is_paste;
            i += if next_is_paste { 2 } else { 1 };
        }
        out
    }

    /// An argument, fully expanded (skipping the work when it names no macro).
    fn pre_expand(&mut self, arg: &[XTok]) -> Vec<XTok> {
        let any_macro = arg.iter().any(|t| t.tok.kind == Tok::Ident && !t.no_expand && self.macros.get(&t.tok.text).is_some());
        if !any_macro {
            return arg.to_vec();
        }
        self.expand_list(arg.to_vec(), false)
    }

    /// The token a built-in macro expands to at `inv`.
    fn builtin(&mut self, b: Builtin, inv: &Token) -> Token {
        let (kind, text): (Tok, String) = match b {
            Builtin::Line => {
                let f = self.sm.file(inv.span.file);
                let end = inv.span.end.saturating_sub(1).max(inv.span.start);
                let phys = f.line_index(end) as u32;
                (Tok::Number, self.lines.line_of_phys(inv.span.file, phys).to_string())
            }
            Builtin::File => {
                let f = self.sm.file(inv.span.file);
                let phys = f.line_index(inv.span.start) as u32;
                (Tok::Str, quote(self.lines.name_at(&*self.sm, inv.span.file, phys)))
            }
            Builtin::BaseFile => (Tok::Str, quote(&self.sm.file(self.main).name)),
            Builtin::Counter => {
                self.counter += 1;
                (Tok::Number, (self.counter - 1).to_string())
            }
            Builtin::IncludeLevel => (Tok::Number, self.file_depth.saturating_sub(1).to_string()),
            Builtin::HasFeature => (Tok::Number, "0".to_string()),
        };
        Token { kind, text: Rc::from(text), span: inv.span, leading_space: false, line_start: false }
    }

    /// `__has_feature ( name )` (clang's; it expands anywhere, not only in `#if`): `1` for
    /// `hlsl_vk_buffer_pointer` when compiling to SPIR-V (`__spirv__` is defined), `0` for every
    /// other name.
    fn has_feature(&mut self, kw: &Token) -> Token {
        let open = self.next(AtEof::Stop);
        let name = if open.as_ref().is_some_and(|t| t.tok.kind == Tok::LParen) { self.next(AtEof::Stop) } else { None };
        let close = if name.as_ref().is_some_and(|t| t.tok.kind == Tok::Ident) { self.next(AtEof::Stop) } else { None };
        let (value, span) = match (name, close) {
            (Some(n), Some(c)) if c.tok.kind == Tok::RParen => {
                let on = match &*n.tok.text {
                    "hlsl_vk_buffer_pointer" => self.macros.get("__spirv__").is_some(),
                    _ => false,
                };
                (on as u32, kw.span.to(c.tok.span))
            }
            _ => {
                self.report(Diagnostic::error("builtin feature check macro requires a parenthesized identifier").with_code("E0059").at(kw.span));
                (0, kw.span)
            }
        };
        Token { kind: Tok::Number, text: Rc::from(value.to_string()), span, leading_space: kw.leading_space, line_start: false }
    }

    /// `_Pragma ( "text" )`: a pragma token, as if `#pragma text` were written.
    fn pragma_operator(&mut self, kw: Token) {
        let open = self.next(AtEof::Stop);
        let s = if open.as_ref().is_some_and(|t| t.tok.kind == Tok::LParen) { self.next(AtEof::Stop) } else { None };
        let close = if s.as_ref().is_some_and(|t| t.tok.kind == Tok::Str) { self.next(AtEof::Stop) } else { None };
        match (s, close) {
            (Some(s), Some(c)) if c.tok.kind == Tok::RParen => {
                let inner = &s.tok.text[1..s.tok.text.len() - 1];
                let text = inner.replace("\\\"", "\"").replace("\\\\", "\\");
                let span = kw.span.to(c.tok.span);
                self.pragma(text.trim().to_string(), span, &kw);
            }
            _ => self.report(
                Diagnostic::error("_Pragma takes a parenthesized string literal").with_code("E0059").at(kw.span),
            ),
        }
    }
}

fn too_many(def: &MacroDef, here: Span) -> Diagnostic {
    Diagnostic::error(format!("too many arguments provided to function-like macro invocation of '{}'", def.name))
        .with_code("E0055")
        .at(here)
        .with_label(def.span, "macro defined here")
}

/// A string literal spelling of `s` (`"` and `\` escaped).
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// `# arg`: the argument's spelling, one space where whitespace separated tokens, `"` and `\`
/// escaped inside string and character literals.
fn stringize(arg: &[XTok], span: Span) -> Token {
    let mut s = String::from("\"");
    for (i, t) in arg.iter().enumerate() {
        if i > 0 && (t.tok.leading_space || t.tok.line_start) {
            s.push(' ');
        }
        if matches!(t.tok.kind, Tok::Str | Tok::Char) || t.tok.text.starts_with(['"', '\'']) {
            for c in t.tok.text.chars() {
                if c == '"' || c == '\\' {
                    s.push('\\');
                }
                s.push(c);
            }
        } else {
            s.push_str(&t.tok.text);
        }
    }
    s.push('"');
    Token { kind: Tok::Str, text: Rc::from(s), span, leading_space: false, line_start: false }
}

/// `l ## r`: the token their spellings form together, if they form exactly one.
fn paste_tokens(l: &Token, r: &Token, span: Span) -> Option<Token> {
    let mut text = String::with_capacity(l.text.len() + r.text.len());
    text.push_str(&l.text);
    text.push_str(&r.text);
    let toks = lex(FileId(0), &text);
    match toks.as_slice() {
        [t] if t.span.start == 0 && t.span.end as usize == text.len() && !matches!(t.kind, Tok::Error(_)) => {
            Some(Token { kind: t.kind, text: Rc::from(text), span, leading_space: l.leading_space, line_start: false })
        }
        _ => None,
    }
}
