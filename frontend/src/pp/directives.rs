//! Directives: `#define`, `#undef`, conditionals and skipped groups, `#line`, `#error`,
//! `#warning`, `#pragma`, and leaving a file. `#include` is in `include.rs`.

use super::expand::{FileKind, Source, XTok};
use super::lines::{FileChange, FileChangeKind, LineDirective};
use super::macros::{check_macro_name, parse_define};
use super::{expr, Cond, Pp};
use crate::diag::Diagnostic;
use crate::lexer::{Tok, Token};
use crate::source::Span;
use std::rc::Rc;

fn extra_tokens(directive: &str, at: &Token) -> Diagnostic {
    Diagnostic::warning(format!("extra tokens at end of #{directive} directive")).with_code("-Wextra-tokens").at(at.span)
}

impl Pp<'_> {
    /// The rest of the current directive line of the top file.
    pub fn take_line(&mut self) -> Vec<Token> {
        let Some(Source::File(f)) = self.stack.last_mut() else { return Vec::new() };
        let start = f.pos;
        while f.pos < f.toks.len() && !f.toks[f.pos].line_start {
            f.pos += 1;
        }
        f.toks[start..f.pos].to_vec()
    }

    fn skip_line(&mut self) {
        if let Some(Source::File(f)) = self.stack.last_mut() {
            while f.pos < f.toks.len() && !f.toks[f.pos].line_start {
                f.pos += 1;
            }
        }
    }

    fn cond_base(&self) -> usize {
        match self.stack.last() {
            Some(Source::File(f)) => f.cond_base,
            _ => self.conds.len(),
        }
    }

    /// Runs the directive that starts with `hash` (a `#` at the start of a line of the top file).
    pub fn directive(&mut self, hash: Token) {
        let line = self.take_line();
        let Some(name) = line.first() else { return }; // the null directive
        let rest = &line[1..];
        let span = hash.span.to(name.span);
        if name.kind == Tok::Number {
            // GNU line marker `# 33 "file" flags`.
            self.line_directive(&line, span);
            return;
        }
        if name.kind != Tok::Ident {
            self.report(Diagnostic::error("invalid preprocessing directive").with_code("E0063").at(span));
            return;
        }
        match &*name.text {
            "define" => match parse_define(rest, span) {
                Ok(def) => {
                    if let Some(old) = self.macros.get(&def.name) {
                        let old = old.def.clone();
                        if old.builtin.is_some() {
                            self.report(
                                Diagnostic::warning("redefining builtin macro")
                                    .with_code("-Wbuiltin-macro-redefined")
                                    .at(def.span),
                            );
                        } else if !old.same_as(&def) {
                            self.report(
                                Diagnostic::warning(format!("'{}' macro redefined", def.name))
                                    .with_code("-Wmacro-redefined")
                                    .at(def.span)
                                    .with_label(old.span, "previous definition is here"),
                            );
                        }
                    }
                    self.macros.define(def);
                }
                Err(d) => self.report(d),
            },
            "undef" => match rest.first() {
                None => self.report(Diagnostic::error("macro name missing").with_code("E0052").at(span)),
                Some(n) => match check_macro_name(n) {
                    Err(d) => self.report(d),
                    Ok(()) => {
                        if let Some(extra) = rest.get(1) {
                            self.report(extra_tokens("undef", extra));
                        }
                        if self.macros.get(&n.text).is_some_and(|e| e.def.builtin.is_some()) {
                            self.report(
                                Diagnostic::warning("undefining builtin macro")
                                    .with_code("-Wbuiltin-macro-redefined")
                                    .at(n.span),
                            );
                        }
                        self.macros.undef(&n.text);
                    }
                },
            },
            "include" => self.include(rest, span),
            "if" => {
                let v = self.eval_if(rest, span);
                self.open_cond(v, span);
            }
            "ifdef" | "ifndef" => {
                let v = match rest.first() {
                    None => {
                        self.report(Diagnostic::error("macro name missing").with_code("E0052").at(span));
                        None
                    }
                    Some(n) => match check_macro_name(n) {
                        Err(d) => {
                            self.report(d);
                            None
                        }
                        Ok(()) => {
                            if let Some(extra) = rest.get(1) {
                                self.report(extra_tokens(&name.text, extra));
                            }
                            Some(self.macros.is_defined(&n.text) == (&*name.text == "ifdef"))
                        }
                    },
                };
                self.open_cond(v.unwrap_or(false), span);
            }
            "elif" | "else" => {
                let is_elif = &*name.text == "elif";
                if !is_elif {
                    if let Some(extra) = rest.first() {
                        self.report(extra_tokens("else", extra));
                    }
                }
                if self.conds.len() <= self.cond_base() {
                    let m = if is_elif { "#elif without #if" } else { "#else without #if" };
                    self.report(Diagnostic::error(m).with_code("E0064").at(span));
                    return;
                }
                if let Some(c) = self.conds.last_mut() {
                    let seen_else = c.seen_else;
                    c.taken = true;
                    c.seen_else |= !is_elif;
                    if seen_else {
                        let m = if is_elif { "#elif after #else" } else { "#else after #else" };
                        self.report(Diagnostic::error(m).with_code("E0064").at(span));
                    }
                }
                // The group before was included: everything up to `#endif` is skipped.
                self.skip_group();
            }
            "endif" => {
                if let Some(extra) = rest.first() {
                    self.report(extra_tokens("endif", extra));
                }
                if self.conds.len() <= self.cond_base() {
                    self.report(Diagnostic::error("#endif without #if").with_code("E0064").at(span));
                } else {
                    self.conds.pop();
                }
            }
            "line" => self.line_directive(rest, span),
            "error" | "warning" => {
                let text = match (rest.first(), rest.last()) {
                    (Some(a), Some(b)) => self.sm.snippet(a.span.to(b.span)).to_string(),
                    _ => String::new(),
                };
                let whole = span.to(rest.last().map_or(span, |t| t.span));
                let d = if &*name.text == "error" {
                    Diagnostic::error(text).with_code("E0065")
                } else {
                    Diagnostic::warning(text).with_code("-W#warnings")
                };
                self.report(d.at(whole));
            }
            "pragma" => {
                let mut text = String::new();
                for (i, t) in rest.iter().enumerate() {
                    if i > 0 && t.leading_space {
                        text.push(' ');
                    }
                    text.push_str(&t.text);
                }
                let whole = span.to(rest.last().map_or(span, |t| t.span));
                self.pragma(text, whole, &hash);
            }
            "ident" | "sccs" => {}
            _ => self.report(Diagnostic::error("invalid preprocessing directive").with_code("E0063").at(span)),
        }
    }

    /// A `#pragma` (or `_Pragma`) with `text` after `pragma`: `once` is handled here, the others
    /// go to the output as one [`Tok::Pragma`] token.
    pub fn pragma(&mut self, text: String, span: Span, first: &Token) {
        if text == "once" {
            let key = self.stack.iter().rev().find_map(|s| match s {
                Source::File(f) => Some(f.key.clone()),
                _ => None,
            });
            if let Some(Some(k)) = key {
                self.once.insert(k);
            }
            return;
        }
        self.emit(Token { kind: Tok::Pragma, text: Rc::from(text), span, leading_space: first.leading_space, line_start: true });
    }

    fn open_cond(&mut self, value: bool, span: Span) {
        self.conds.push(Cond { taken: value, seen_else: false, span });
        if !value {
            self.skip_group();
        }
    }

    /// Evaluates an `#if` / `#elif` line (false after reporting an error).
    pub fn eval_if(&mut self, line: &[Token], span: Span) -> bool {
        let toks: Vec<XTok> = line.iter().map(|t| XTok { tok: t.clone(), no_expand: false }).collect();
        let expanded: Vec<Token> = self.expand_list(toks, true).into_iter().map(|t| t.tok).collect();
        if self.fatal {
            return false;
        }
        if expanded.is_empty() {
            self.report(Diagnostic::error("expected value in expression").with_code("E0066").at(span));
            return false;
        }
        match expr::evaluate(&expanded, span) {
            Ok(v) => v,
            Err(d) => {
                self.report(d);
                false
            }
        }
    }

    /// Skips the tokens of a group whose condition is false, up to the `#elif` or `#else` that
    /// starts an included group, or past the `#endif` of the innermost conditional. Skipped text
    /// is only looked at for directives; nothing in it is reported.
    pub fn skip_group(&mut self) {
        let mut depth = 0usize;
        loop {
            let (hash, name) = {
                let Some(Source::File(f)) = self.stack.last_mut() else { return };
                let hash = loop {
                    let Some(t) = f.toks.get(f.pos) else { return };
                    f.pos += 1;
                    if t.kind == Tok::Hash && t.line_start {
                        break t.clone();
                    }
                };
                match f.toks.get(f.pos) {
                    Some(t) if !t.line_start && t.kind == Tok::Ident => {
                        f.pos += 1;
                        (hash, t.clone())
                    }
                    _ => continue,
                }
            };
            let span = hash.span.to(name.span);
            match &*name.text {
                "if" | "ifdef" | "ifndef" => {
                    depth += 1;
                    self.skip_line();
                }
                "endif" => {
                    self.skip_line();
                    if depth == 0 {
                        self.conds.pop();
                        return;
                    }
                    depth -= 1;
                }
                "else" if depth == 0 => {
                    self.skip_line();
                    let Some(c) = self.conds.last_mut() else { return };
                    let seen = c.seen_else;
                    c.seen_else = true;
                    let enter = !c.taken;
                    c.taken = true;
                    if seen {
                        self.report(Diagnostic::error("#else after #else").with_code("E0064").at(span));
                    }
                    if enter {
                        return;
                    }
                }
                "elif" if depth == 0 => {
                    let line = self.take_line();
                    let Some(c) = self.conds.last() else { return };
                    if c.seen_else {
                        self.report(Diagnostic::error("#elif after #else").with_code("E0064").at(span));
                    }
                    let taken = self.conds.last().is_some_and(|c| c.taken);
                    if !taken && self.eval_if(&line, span) {
                        if let Some(c) = self.conds.last_mut() {
                            c.taken = true;
                        }
                        return;
                    }
                    if self.fatal {
                        return;
                    }
                }
                _ => self.skip_line(),
            }
        }
    }

    /// `#line N "file"` (or a GNU `# N "file"` marker): renumbers the following lines.
    fn line_directive(&mut self, rest: &[Token], span: Span) {
        let toks: Vec<XTok> = rest.iter().map(|t| XTok { tok: t.clone(), no_expand: false }).collect();
        let toks: Vec<Token> = self.expand_list(toks, false).into_iter().map(|t| t.tok).collect();
        let number = toks.first().filter(|t| t.kind == Tok::Number && t.text.bytes().all(|b| b.is_ascii_digit()));
        let Some(n) = number.and_then(|t| t.text.parse::<u32>().ok()).filter(|&n| n <= i32::MAX as u32) else {
            self.report(
                Diagnostic::error("#line directive requires a positive integer argument")
                    .with_code("E0060")
                    .at(toks.first().map_or(span, |t| t.span)),
            );
            return;
        };
        let name: Option<std::sync::Arc<str>> = match toks.get(1) {
            None => None,
            Some(t) if t.kind == Tok::Str => Some(std::sync::Arc::from(unquote(&t.text))),
            Some(t) => {
                self.report(
                    Diagnostic::error("invalid filename for #line directive").with_code("E0060").at(t.span),
                );
                return;
            }
        };
        let Some(Source::File(f)) = self.stack.last() else { return };
        let file = f.file;
        let sf = self.sm.file(file);
        let end = rest.last().map_or(span.end, |t| t.span.end);
        let from_line = sf.line_index(end) as u32 + 1;
        let name = name.or_else(|| self.lines.name_override(file, from_line));
        let shown: Rc<str> = Rc::from(name.as_deref().unwrap_or(sf.name.as_str()));
        self.lines.add(file, LineDirective { from_line, line: n, name });
        if f.kind != FileKind::Predefined {
            self.changes.push(FileChange {
                before_token: self.out.len(),
                kind: FileChangeKind::Rename,
                line: n,
                name: shown,
            });
        }
    }

    /// Leaves the top file: reports its unterminated conditionals, records the return to the
    /// includer.
    pub fn end_of_file(&mut self) {
        let Some(Source::File(f)) = self.stack.pop() else { return };
        self.file_depth -= 1;
        while self.conds.len() > f.cond_base {
            if let Some(c) = self.conds.pop() {
                self.report(Diagnostic::error("unterminated conditional directive").with_code("E0064").at(c.span));
            }
        }
        if let FileKind::Included { directive_end } = f.kind {
            if let Some(Source::File(p)) = self.stack.last() {
                let phys = self.sm.file(p.file).line_index(directive_end.end) as u32 + 1;
                let line = self.lines.line_of_phys(p.file, phys);
                let name = Rc::from(self.lines.name_at(&*self.sm, p.file, phys));
                self.changes.push(FileChange { before_token: self.out.len(), kind: FileChangeKind::Exit, line, name });
            }
        }
    }
}

/// The text of a string literal without its quotes, `\\` and `\"` unescaped.
pub(crate) fn unquote(lit: &str) -> String {
    let inner = lit.strip_prefix('"').and_then(|s| s.strip_suffix('"')).unwrap_or(lit);
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                out.push(n);
            }
        } else {
            out.push(c);
        }
    }
    out
}
