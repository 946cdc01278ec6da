//! Diagnostics: one user-facing [`Diagnostic`] type for every stage, and its rendering.
//!
//! Rendering follows clang/dxc, because users' tooling and DXC's own tests match on it:
//!
//! ```text
//! shader.hlsl:3:9: error: use of undeclared identifier 'x' [E0201]
//!     return x;
//!            ^
//! ```
//!
//! The code (ours, or a warning flag such as `-Wconversion`) goes in brackets at the end of the
//! first line, as clang places warning flags, so that `error: <message>` stays contiguous and tools
//! matching dxc's output keep working. Line/column lookup goes through codespan-reporting's `Files`
//! trait, which [`SourceMap`] implements.

use crate::pp::LineMap;
use crate::source::{SourceMap, Span};
use codespan_reporting::files::Files;
use std::fmt::Write;

#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Note,
    Warning,
    Error,
    /// An error that ends compilation at once (include cycle, resource limit).
    Fatal,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
            Severity::Fatal => "fatal error",
        }
    }
}

/// A span with a message. The primary label is the one the diagnostic's location comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
    pub primary: bool,
}

/// A message for the user. Invariant: at most one primary label; if there is none, the diagnostic
/// has no source location (command-line errors).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Stable code (`E0101`) or warning flag (`-Wconversion`); printed in brackets.
    pub code: Option<String>,
    pub message: String,
    pub labels: Vec<Label>,
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn new(severity: Severity, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity, code: None, message: message.into(), labels: Vec::new(), notes: Vec::new() }
    }
    pub fn error(message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Error, message)
    }
    pub fn warning(message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Warning, message)
    }
    pub fn fatal(message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Fatal, message)
    }
    pub fn with_code(mut self, code: impl Into<String>) -> Diagnostic {
        self.code = Some(code.into());
        self
    }
    /// Sets the primary location.
    pub fn at(mut self, span: Span) -> Diagnostic {
        self.labels.retain(|l| !l.primary);
        self.labels.insert(0, Label { span, message: String::new(), primary: true });
        self
    }
    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label { span, message: message.into(), primary: false });
        self
    }
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }
    pub fn primary_span(&self) -> Option<Span> {
        self.labels.iter().find(|l| l.primary).map(|l| l.span)
    }
    pub fn is_error(&self) -> bool {
        self.severity >= Severity::Error
    }

    /// Renders as clang/dxc do: `file:line:col: severity: message [code]`, the source line, a caret
    /// line, then secondary labels as `note:` lines with their own source lines, then notes.
    pub fn render(&self, sm: &SourceMap) -> String {
        self.render_with(sm, None)
    }

    /// [`Diagnostic::render`] with locations as the `#line` directives in `lines` make them (the
    /// source lines shown stay the physical ones), as clang prints them.
    pub fn render_with(&self, sm: &SourceMap, lines: Option<&LineMap>) -> String {
        let location = |span| location(sm, lines, span);
        let mut out = String::new();
        let code = self.code.as_ref().map(|c| format!(" [{c}]")).unwrap_or_default();
        match self.primary_span() {
            Some(span) => {
                let _ = writeln!(out, "{}: {}: {}{}", location(span), self.severity.as_str(), self.message, code);
                snippet(&mut out, sm, span);
            }
            None => {
                let _ = writeln!(out, "{}: {}{}", self.severity.as_str(), self.message, code);
            }
        }
        for l in self.labels.iter().filter(|l| !l.primary) {
            let _ = writeln!(out, "{}: note: {}", location(l.span), l.message);
            snippet(&mut out, sm, l.span);
        }
        for n in &self.notes {
            let _ = writeln!(out, "note: {n}");
        }
        out
    }
}

fn location(sm: &SourceMap, lines: Option<&LineMap>, span: Span) -> String {
    if let Some(lines) = lines.filter(|l| !l.is_empty()) {
        let (name, line, col) = lines.presumed(sm, span);
        return format!("{name}:{line}:{col}");
    }
    let name = sm.name(span.file).unwrap_or("<unknown>");
    let f = sm.file(span.file);
    let (line, col) = f.line_col(span.start);
    format!("{name}:{line}:{col}")
}

/// Columns of a source line shown around the caret; longer lines are cut to a window with `...`
/// where something was left out, so a 1 MB line does not become 1 MB of diagnostics.
pub const SNIPPET_COLUMNS: usize = 200;

/// The source line of `span.start`, then a caret under it with `~` under the rest of the span on
/// that line. Tabs are kept so that the caret lines up in a terminal. A line longer than
/// [`SNIPPET_COLUMNS`] characters is shown as a window of that many around the caret.
fn snippet(out: &mut String, sm: &SourceMap, span: Span) {
    let f = sm.file(span.file);
    if f.text.is_empty() {
        return;
    }
    let line = f.line_index(span.start.min(f.text.len() as u32));
    let range = f.line_range(line);
    let start = floor_char(&f.text, (span.start as usize).clamp(range.start, range.end));
    let end = floor_char(&f.text, (span.end as usize).clamp(start, range.end));
    // The window: at most SNIPPET_COLUMNS characters, the caret a little left of its middle.
    let mut from = range.start;
    let mut to = range.end;
    if f.text[range.clone()].len() > SNIPPET_COLUMNS {
        let before: Vec<(usize, char)> = f.text[range.start..start].char_indices().collect();
        let keep_before = SNIPPET_COLUMNS / 3;
        if before.len() > keep_before {
            from = range.start + before[before.len() - keep_before].0;
        }
        let shown_before = f.text[from..start].chars().count();
        to = f.text[start..range.end]
            .char_indices()
            .nth(SNIPPET_COLUMNS - shown_before)
            .map_or(range.end, |(i, _)| start + i);
    }
    let (cut_left, cut_right) = (from > range.start, to < range.end);
    let _ = writeln!(
        out,
        "{}{}{}",
        if cut_left { "..." } else { "" },
        &f.text[from..to],
        if cut_right { "..." } else { "" }
    );
    let mut marker = String::from(if cut_left { "   " } else { "" });
    for c in f.text[from..start].chars() {
        marker.push(if c == '\t' { '\t' } else { ' ' });
    }
    marker.push('^');
    let width = f.text[start..end.min(to).max(start)].chars().count();
    for _ in 1..width {
        marker.push('~');
    }
    let _ = writeln!(out, "{marker}");
}

/// The largest char boundary of `s` at or before `i`.
fn floor_char(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Collected diagnostics of one compilation, in the order reported.
#[derive(Clone, Debug, Default)]
pub struct Diagnostics {
    pub list: Vec<Diagnostic>,
}

impl Diagnostics {
    pub fn new() -> Diagnostics {
        Diagnostics::default()
    }
    pub fn push(&mut self, d: Diagnostic) {
        self.list.push(d);
    }
    pub fn has_errors(&self) -> bool {
        self.list.iter().any(|d| d.is_error())
    }
    pub fn error_count(&self) -> usize {
        self.list.iter().filter(|d| d.is_error()).count()
    }
    pub fn render(&self, sm: &SourceMap) -> String {
        self.list.iter().map(|d| d.render(sm)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_location_line_and_caret() {
        let mut sm = SourceMap::new();
        let f = sm.add("t.hlsl", "float4 main() {\n  return xyz;\n}\n");
        let d = Diagnostic::error("use of undeclared identifier 'xyz'").with_code("E0201").at(Span::new(f, 25, 28));
        assert_eq!(
            d.render(&sm),
            "t.hlsl:2:10: error: use of undeclared identifier 'xyz' [E0201]\n  return xyz;\n         ^~~\n"
        );
    }

    #[test]
    fn long_lines_show_a_window_around_the_caret() {
        let mut sm = SourceMap::new();
        let line = format!("float a = {}bad{};\n", "1 + ".repeat(100_000), " + 2".repeat(100_000));
        let at = line.find("bad").unwrap() as u32;
        let f = sm.add("t.hlsl", line);
        let d = Diagnostic::error("oops").at(Span::new(f, at, at + 3));
        let r = d.render(&sm);
        let lines: Vec<&str> = r.lines().collect();
        assert_eq!(lines.len(), 3, "{r}");
        assert!(lines[1].starts_with("...") && lines[1].ends_with("..."), "{}", lines[1]);
        assert!(lines[1].chars().count() <= SNIPPET_COLUMNS + 6, "{}", lines[1].len());
        // The caret is under the 'b' of "bad", the tildes under "ad".
        let caret = lines[2].find('^').unwrap();
        assert_eq!(&lines[1][caret..caret + 3], "bad");
        assert!(lines[2].ends_with("^~~"), "{}", lines[2]);
        // A short line is shown whole.
        let g = sm.add("u.hlsl", "int x = ;\n");
        let r = Diagnostic::error("e").at(Span::new(g, 8, 9)).render(&sm);
        assert!(r.ends_with("int x = ;\n        ^\n"), "{r}");
        // Multi-byte characters near the window's edges never split.
        let h = sm.add("v.hlsl", format!("{}x{}\n", "é".repeat(500), "ü".repeat(500)));
        let r = Diagnostic::error("e").at(Span::new(h, 1000, 1001)).render(&sm);
        assert!(r.lines().nth(2).unwrap().ends_with('^'), "{r}");
    }
}
