//! `-P` output: preprocessed tokens printed back as text, the way `dxc -P` prints them (clang's
//! `-E` printer with `#line` markers instead of GNU `# N` markers):
//!
//! - `#line 1 "main.hlsl"` first; `#line 1 "inc.h"` on entering an include and
//!   `#line N "main.hlsl"` on return (each preceded by a newline when the current output line has
//!   tokens), `#line N "name"` after a `#line` directive;
//! - a line that starts with a token moves the output to the token's line with up to 8 newlines,
//!   or a `#line` marker for a longer jump or a jump back, then indents to the token's column;
//! - within a line a token gets one space if it had whitespace before it, or if printing it right
//!   after the previous token would lex differently (`+` `+`);
//! - `#pragma` lines are printed back in place; the output ends with a newline.

use super::lines::{FileChange, FileChangeKind, LineMap};
use super::Preprocessed;
use crate::lexer::{lex, Tok, Token};
use crate::source::{FileId, SourceMap, Span};
use std::fmt::Write;
use std::rc::Rc;

/// The `-P` text of a [`Preprocessed`] result: exact line markers for includes and `#line`.
pub fn render_output(sm: &SourceMap, pp: &Preprocessed) -> String {
    Printer::new(sm, &pp.lines).print(&pp.tokens, &pp.file_changes, Some(pp.main))
}

/// The `-P` text of bare tokens. File changes are inferred from the tokens' spans (an included
/// file that produced no tokens, and `#line` directives, leave no marker); prefer
/// [`render_output`] when the [`Preprocessed`] result is at hand.
pub fn render_preprocessed(sm: &SourceMap, tokens: &[Token]) -> String {
    let main = tokens.first().map(|t| t.span.file);
    let mut changes = Vec::new();
    let mut stack: Vec<FileId> = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        let f = t.span.file;
        if stack.last() == Some(&f) {
            continue;
        }
        let line = sm.file(f).line_index(t.span.start) as u32 + 1;
        let name: Rc<str> = Rc::from(sm.file(f).name.as_str());
        let kind = if let Some(p) = stack.iter().position(|&x| x == f) {
            stack.truncate(p + 1);
            FileChangeKind::Exit
        } else {
            stack.push(f);
            FileChangeKind::Enter { include_line: None }
        };
        let line = if matches!(kind, FileChangeKind::Exit) { line } else { 1 };
        changes.push(FileChange { before_token: i, kind, line, name });
    }
    let lines = LineMap::default();
    Printer::new(sm, &lines).print(tokens, &changes, main)
}

struct Printer<'a> {
    sm: &'a SourceMap,
    lines: &'a LineMap,
    out: String,
    cur_line: u32,
    cur_name: String,
    tokens_on_line: bool,
    directive_on_line: bool,
    initialized: bool,
    first_entered: bool,
}

impl<'a> Printer<'a> {
    fn new(sm: &'a SourceMap, lines: &'a LineMap) -> Printer<'a> {
        Printer {
            sm,
            lines,
            out: String::new(),
            cur_line: 0,
            cur_name: String::from("<uninit>"),
            tokens_on_line: false,
            directive_on_line: false,
            initialized: false,
            first_entered: false,
        }
    }

    fn print(mut self, tokens: &[Token], changes: &[FileChange], main: Option<FileId>) -> String {
        self.out.reserve(tokens.iter().map(|t| t.text.len() + 1).sum::<usize>() + 64);
        let mut prev: Option<&Token> = None;
        let mut ci = 0;
        for (i, t) in tokens.iter().enumerate() {
            while ci < changes.len() && changes[ci].before_token <= i {
                self.file_changed(&changes[ci]);
                ci += 1;
            }
            if t.kind == Tok::Pragma {
                self.start_new_line_if_needed(true);
                self.move_to_line(self.line_of(t.span));
                self.out.push_str("#pragma");
                if !t.text.is_empty() {
                    self.out.push(' ');
                    self.out.push_str(&t.text);
                }
                self.directive_on_line = true;
                prev = None;
                continue;
            }
            if self.directive_on_line {
                self.start_new_line_if_needed(true);
                self.move_to_line(self.line_of(t.span));
            }
            if t.line_start && self.first_token_on_line(t.span, t.leading_space, t.kind == Tok::Hash) {
                // moved and indented
            } else if t.leading_space || (self.tokens_on_line && prev.is_some_and(|p| self.avoid_concat(p, t))) {
                self.out.push(' ');
            }
            if t.kind == Tok::Str && t.text.contains(['\n', '\r']) {
                self.out.push_str(&t.text.replace("\\\r\n", "").replace("\\\n", "").replace("\\\r", ""));
            } else {
                self.out.push_str(&t.text);
            }
            self.tokens_on_line = true;
            prev = Some(t);
        }
        for c in &changes[ci..] {
            self.file_changed(c);
        }
        // clang prints the end-of-file token too: at the start of a line when the main file ends
        // with a newline.
        if let Some(main) = main {
            let f = self.sm.file(main);
            let end = Span::new(main, f.text.len() as u32, f.text.len() as u32);
            if self.directive_on_line {
                self.start_new_line_if_needed(true);
                self.move_to_line(self.line_of(end));
            }
            if f.text.is_empty() || f.text.ends_with(['\n', '\r']) {
                self.first_token_on_line(end, false, false);
            }
        }
        self.out.push('\n');
        self.out
    }

    fn line_of(&self, span: Span) -> u32 {
        let f = self.sm.file(span.file);
        self.lines.line_of_phys(span.file, f.line_index(span.start) as u32)
    }

    fn write_line_info(&mut self, line: u32) {
        self.start_new_line_if_needed(false);
        let _ = write!(self.out, "#line {line} \"");
        write_escaped(&mut self.out, &self.cur_name);
        self.out.push_str("\"\n");
    }

    /// Moves the output to `line`: newlines for a short jump forward, a marker otherwise.
    /// False when already there.
    fn move_to_line(&mut self, line: u32) -> bool {
        let d = line.wrapping_sub(self.cur_line);
        if d <= 8 {
            if d == 0 {
                return false;
            }
            for _ in 0..d {
                self.out.push('\n');
            }
        } else {
            self.write_line_info(line);
        }
        self.cur_line = line;
        true
    }

    fn start_new_line_if_needed(&mut self, update_line: bool) -> bool {
        if self.tokens_on_line || self.directive_on_line {
            self.out.push('\n');
            self.tokens_on_line = false;
            self.directive_on_line = false;
            if update_line {
                self.cur_line += 1;
            }
            return true;
        }
        false
    }

    fn file_changed(&mut self, c: &FileChange) {
        if let FileChangeKind::Enter { include_line: Some(l) } = c.kind {
            self.move_to_line(l);
        }
        if self.cur_line == c.line && self.cur_name == *c.name {
            return;
        }
        self.cur_line = c.line;
        self.cur_name.clear();
        self.cur_name.push_str(&c.name);
        if !self.initialized {
            self.write_line_info(self.cur_line);
            self.initialized = true;
        }
        if matches!(c.kind, FileChangeKind::Enter { .. }) && !self.first_entered {
            self.first_entered = true;
            return;
        }
        self.write_line_info(self.cur_line);
    }

    /// A token that starts a source line: move there and indent to its column (clang's
    /// `HandleFirstTokOnLine`). False when the output is already on that line.
    fn first_token_on_line(&mut self, span: Span, leading_space: bool, is_hash: bool) -> bool {
        let line = self.line_of(span);
        if !(self.move_to_line(line) || line == 1) {
            return false;
        }
        let f = self.sm.file(span.file);
        let start = f.line_range(f.line_index(span.start)).start as u32;
        let mut col = span.start.saturating_sub(start) + 1;
        if col == 1 && leading_space {
            col = 2;
        }
        if col <= 1 && is_hash {
            self.out.push(' ');
        }
        for _ in 1..col {
            self.out.push(' ');
        }
        true
    }

    /// Whether `cur` printed right after `prev` would lex as something else.
    fn avoid_concat(&self, prev: &Token, cur: &Token) -> bool {
        // Adjacent in the source, each spelled as written: they lexed apart there.
        if prev.span.file == cur.span.file
            && prev.span.end == cur.span.start
            && self.sm.snippet(prev.span) == &*prev.text
            && self.sm.snippet(cur.span) == &*cur.text
        {
            return false;
        }
        let joined = format!("{}{}", prev.text, cur.text);
        let toks = lex(FileId(0), &joined);
        !(toks.len() == 2 && toks[0].text == prev.text && toks[1].text == cur.text && !toks[1].leading_space)
    }
}

/// LLVM's `write_escaped`: `\`, `"`, tab and newline escaped, other unprintable bytes in octal.
fn write_escaped(out: &mut String, s: &str) {
    for &b in s.as_bytes() {
        match b {
            b'\\' => out.push_str("\\\\"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            b'"' => out.push_str("\\\""),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{}{}{}", (b >> 6) & 7, (b >> 3) & 7, b & 7);
            }
        }
    }
}
