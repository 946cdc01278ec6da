//! `-verify`: check the diagnostics against `expected-*` comments in the source, as clang's
//! `VerifyDiagnosticConsumer` does, which DXC's Sema tests rely on.
//!
//! Directives, in `//` or `/* */` comments of any file of the compilation:
//!
//! ```text
//! expected-error {{message text}}           on this line
//! expected-warning@+1 {{...}}               on the next line (@-2: two lines up, @7: line 7)
//! expected-note@? {{...}}                   without a location
//! expected-note@other.hlsli:12 {{...}}      in another file (line `*`: any line)
//! expected-error 2 {{...}}                  exactly twice (also `1+`, `+`, `0+`, `1-3`)
//! expected-no-diagnostics                   nothing at all may be reported
//! ```
//!
//! A diagnostic matches when its kind and line agree and the text is a substring of its message.
//! Secondary labels count as notes at their own location. The result replaces the diagnostics:
//! nothing when everything matched, otherwise one error per kind listing what was expected but
//! not seen and what was seen but not expected.

use hlslc_frontend::diag::{Diagnostic, Severity};
use hlslc_frontend::source::{FileId, SourceMap};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum DKind {
    Error,
    Warning,
    Remark,
    Note,
}

impl DKind {
    fn name(self) -> &'static str {
        match self {
            DKind::Error => "error",
            DKind::Warning => "warning",
            DKind::Remark => "remark",
            DKind::Note => "note",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Where {
    /// File and one-based line.
    Line(FileId, usize),
    /// A file whose name ends with this, any line or this line.
    Named(String, Option<usize>),
    Nowhere,
}

#[derive(Clone, Debug)]
struct Directive {
    kind: DKind,
    at: Where,
    text: String,
    min: usize,
    max: usize,
    /// Where the directive itself is, for messages.
    file: FileId,
    line: usize,
}

/// A reported diagnostic, as `-verify` sees it.
struct Seen {
    kind: DKind,
    at: Option<(FileId, usize)>,
    message: String,
    matched: bool,
}

/// Checks `diagnostics` against the directives in the files of `sm`; returns the diagnostics
/// that replace them (empty when all is as expected).
pub fn verify(sm: &SourceMap, diagnostics: &[Diagnostic]) -> Vec<Diagnostic> {
    let mut problems = Vec::new();
    let mut directives = Vec::new();
    let mut no_diagnostics = false;
    for i in 0..sm.len() {
        let id = FileId(i as u32);
        parse_file(sm, id, &mut directives, &mut no_diagnostics, &mut problems);
    }
    let mut seen = flatten(sm, diagnostics);
    if directives.is_empty() && !no_diagnostics {
        problems.push(Diagnostic::error("no expected directives found: consider use of 'expected-no-diagnostics'"));
    }
    if no_diagnostics && !directives.is_empty() {
        problems.push(Diagnostic::error("'expected-no-diagnostics' directive cannot follow other expected directives"));
    }
    let mut missing: Vec<(DKind, String)> = Vec::new();
    for d in &directives {
        let mut count = 0;
        for s in seen.iter_mut().filter(|s| !s.matched && s.kind == d.kind) {
            if count == d.max {
                break;
            }
            if location_matches(sm, &d.at, s.at) && s.message.contains(&d.text) {
                s.matched = true;
                count += 1;
            }
        }
        for _ in count..d.min {
            missing.push((d.kind, format!("  {}: {}", describe_at(sm, &d.at, d.file, d.line), d.text)));
        }
    }
    for kind in [DKind::Error, DKind::Warning, DKind::Remark, DKind::Note] {
        let expected: Vec<&str> = missing.iter().filter(|(k, _)| *k == kind).map(|(_, m)| m.as_str()).collect();
        if !expected.is_empty() {
            problems.push(Diagnostic::error(format!(
                "'{}' diagnostics expected but not seen: \n{}",
                kind.name(),
                expected.join("\n")
            )));
        }
        let unexpected: Vec<String> = seen
            .iter()
            .filter(|s| !s.matched && s.kind == kind)
            .map(|s| match s.at {
                Some((f, line)) => format!("  File {} Line {line}: {}", sm.file(f).name, s.message),
                None => format!("  (frontend): {}", s.message),
            })
            .collect();
        if !unexpected.is_empty() {
            problems.push(Diagnostic::error(format!(
                "'{}' diagnostics seen but not expected: \n{}",
                kind.name(),
                unexpected.join("\n")
            )));
        }
    }
    problems
}

fn describe_at(sm: &SourceMap, at: &Where, file: FileId, line: usize) -> String {
    match at {
        Where::Line(f, l) => format!("File {} Line {l}", sm.file(*f).name),
        Where::Named(name, Some(l)) => format!("File {name} Line {l}"),
        Where::Named(name, None) => format!("File {name} Line *"),
        Where::Nowhere => format!("File {} Line {line} (directive at ?)", sm.file(file).name),
    }
}

fn location_matches(sm: &SourceMap, want: &Where, got: Option<(FileId, usize)>) -> bool {
    match (want, got) {
        (Where::Nowhere, _) => true,
        (Where::Line(f, l), Some((gf, gl))) => *f == gf && *l == gl,
        (Where::Named(name, line), Some((gf, gl))) => {
            sm.file(gf).name.replace('\\', "/").ends_with(name.as_str()) && line.is_none_or(|l| l == gl)
        }
        _ => false,
    }
}

fn flatten(sm: &SourceMap, diagnostics: &[Diagnostic]) -> Vec<Seen> {
    let line_of = |span: hlslc_frontend::Span| {
        let f = sm.file(span.file);
        (span.file, f.line_index(span.start.min(f.text.len() as u32)) + 1)
    };
    let mut out = Vec::new();
    for d in diagnostics {
        let kind = match d.severity {
            Severity::Error | Severity::Fatal => DKind::Error,
            Severity::Warning => DKind::Warning,
            Severity::Note => DKind::Note,
        };
        out.push(Seen { kind, at: d.primary_span().map(line_of), message: d.message.clone(), matched: false });
        for l in d.labels.iter().filter(|l| !l.primary && !l.message.is_empty()) {
            out.push(Seen { kind: DKind::Note, at: Some(line_of(l.span)), message: l.message.clone(), matched: false });
        }
    }
    out
}

/// Byte ranges of the comments of `text` (strings and character literals skipped).
fn comments(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = text[i..].find('\n').map_or(b.len(), |e| i + e);
                out.push((i + 2, end));
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let end = text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e);
                out.push((i + 2, end));
                i = end + 2;
            }
            q @ (b'"' | b'\'') => {
                i += 1;
                while i < b.len() && b[i] != q && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

fn parse_file(sm: &SourceMap, file: FileId, out: &mut Vec<Directive>, no_diags: &mut bool, problems: &mut Vec<Diagnostic>) {
    let f = sm.file(file);
    let text = f.text.as_str();
    if !text.contains("expected-") {
        return;
    }
    for (start, end) in comments(text) {
        let comment = &text[start..end.min(text.len())];
        let mut from = 0;
        while let Some(p) = comment[from..].find("expected-") {
            let at = from + p;
            from = at + "expected-".len();
            // `not-expected-warning` is not a directive: the prefix must start a word.
            if comment[..at].ends_with(|c: char| c.is_alphanumeric() || c == '-' || c == '_') {
                continue;
            }
            let line = f.line_index((start + at) as u32) + 1;
            match parse_directive(&comment[from..], file, line) {
                Parsed::Directive(d, used) => {
                    out.push(d);
                    from += used;
                }
                Parsed::NoDiagnostics => *no_diags = true,
                Parsed::NotADirective => {}
                Parsed::Bad(msg) => {
                    let span = hlslc_frontend::Span::new(file, (start + at) as u32, (start + from) as u32);
                    problems.push(Diagnostic::error(msg).at(span));
                }
            }
        }
    }
}

enum Parsed {
    Directive(Directive, usize),
    NoDiagnostics,
    NotADirective,
    Bad(String),
}

/// Parses what follows `expected-`.
fn parse_directive(s: &str, file: FileId, line: usize) -> Parsed {
    let word_end = s.find(|c: char| !(c.is_ascii_alphabetic() || c == '-')).unwrap_or(s.len());
    let word = &s[..word_end];
    let word = word.strip_suffix("-re").unwrap_or(word);
    let kind = match word {
        "error" => DKind::Error,
        "warning" => DKind::Warning,
        "remark" => DKind::Remark,
        "note" => DKind::Note,
        "no-diagnostics" => return Parsed::NoDiagnostics,
        _ => return Parsed::NotADirective,
    };
    let mut rest = &s[word_end..];
    let mut at = Where::Line(file, line);
    if let Some(loc) = rest.strip_prefix('@') {
        let end = loc.find(|c: char| c.is_whitespace() || c == '{').unwrap_or(loc.len());
        let spec = loc[..end].trim_end_matches(':');
        at = match parse_location(spec, file, line) {
            Some(w) => w,
            None => return Parsed::Bad(format!("invalid location '@{spec}' in expected-{} directive", kind.name())),
        };
        rest = &loc[end..];
    }
    let trimmed = rest.trim_start();
    let count_end = trimmed.find(|c: char| !(c.is_ascii_digit() || c == '+' || c == '-')).unwrap_or(trimmed.len());
    let (min, max) = match parse_count(&trimmed[..count_end]) {
        Some(c) => c,
        None => return Parsed::Bad(format!("invalid count '{}' in expected-{} directive", &trimmed[..count_end], kind.name())),
    };
    let body = trimmed[count_end..].trim_start();
    let Some(open) = body.strip_prefix("{{") else {
        return Parsed::Bad(format!("cannot find start ('{{{{') of expected-{} string", kind.name()));
    };
    let Some(close) = open.find("}}") else {
        return Parsed::Bad(format!("cannot find end ('}}}}') of expected-{} string", kind.name()));
    };
    let used = s.len() - open.len() + close + 2;
    let text = open[..close].trim().to_string();
    Parsed::Directive(Directive { kind, at, text, min, max, file, line }, used)
}

fn parse_location(spec: &str, file: FileId, line: usize) -> Option<Where> {
    if spec == "?" {
        return Some(Where::Nowhere);
    }
    if let Some(n) = spec.strip_prefix('+') {
        return Some(Where::Line(file, line + n.parse::<usize>().ok()?));
    }
    if let Some(n) = spec.strip_prefix('-') {
        return line.checked_sub(n.parse::<usize>().ok()?).filter(|&l| l >= 1).map(|l| Where::Line(file, l));
    }
    if let Ok(n) = spec.parse::<usize>() {
        return Some(Where::Line(file, n));
    }
    let (name, l) = spec.rsplit_once(':')?;
    let l = if l == "*" { None } else { Some(l.parse().ok()?) };
    Some(Where::Named(name.to_string(), l))
}

/// `""` → exactly 1; `N`; `N+` / `+` → at least N / 1; `N-M`.
fn parse_count(c: &str) -> Option<(usize, usize)> {
    if c.is_empty() {
        return Some((1, 1));
    }
    if c == "+" {
        return Some((1, usize::MAX));
    }
    if let Some(n) = c.strip_suffix('+') {
        return Some((n.parse().ok()?, usize::MAX));
    }
    if let Some((a, b)) = c.split_once('-') {
        let (a, b) = (a.parse().ok()?, b.parse().ok()?);
        return (a <= b).then_some((a, b));
    }
    let n = c.parse().ok()?;
    Some((n, n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use hlslc_frontend::Span;

    fn setup(src: &str) -> (SourceMap, FileId) {
        let mut sm = SourceMap::new();
        let f = sm.add("t.hlsl", src);
        (sm, f)
    }
    fn at_line(sm: &SourceMap, f: FileId, line: usize) -> Span {
        let off = sm.file(f).text.split_inclusive('\n').take(line - 1).map(str::len).sum::<usize>() as u32;
        Span::new(f, off, off + 1)
    }

    #[test]
    fn matching_diagnostics_leave_nothing() {
        let src = "int a; // expected-error {{undeclared}}\n// expected-warning@+1 2 {{implicit}}\nint b;\n/* expected-note@? {{here}} */\n";
        let (sm, f) = setup(src);
        let diags = vec![
            Diagnostic::error("use of undeclared identifier 'x'").at(at_line(&sm, f, 1)),
            Diagnostic::warning("implicit truncation").at(at_line(&sm, f, 3)),
            Diagnostic::warning("implicit truncation again").at(at_line(&sm, f, 3)),
            Diagnostic::new(Severity::Note, "declared here"),
        ];
        assert_eq!(verify(&sm, &diags), vec![]);
    }

    #[test]
    fn mismatches_are_listed() {
        let (sm, f) = setup("int a; // expected-error {{one}} expected-error {{two}}\nint b;\n");
        let diags = vec![Diagnostic::error("one thing").at(at_line(&sm, f, 1)), Diagnostic::error("two").at(at_line(&sm, f, 2))];
        let out = verify(&sm, &diags);
        let text: Vec<String> = out.iter().map(|d| d.render(&sm)).collect();
        assert_eq!(
            text,
            vec![
                "error: 'error' diagnostics expected but not seen: \n  File t.hlsl Line 1: two\n",
                "error: 'error' diagnostics seen but not expected: \n  File t.hlsl Line 2: two\n",
            ]
        );
    }

    #[test]
    fn no_diagnostics_and_missing_directives() {
        let (sm, _) = setup("// expected-no-diagnostics\nint a;\n");
        assert!(verify(&sm, &[]).is_empty());
        let (sm, _) = setup("int a;\n");
        assert_eq!(verify(&sm, &[]).len(), 1);
        let (sm, _) = setup("int a; // expected-error {{oops\n");
        assert!(verify(&sm, &[]).iter().any(|d| d.message.contains("cannot find end")));
    }

    #[test]
    fn counts_and_locations() {
        assert_eq!(parse_count("2+"), Some((2, usize::MAX)));
        assert_eq!(parse_count("1-3"), Some((1, 3)));
        assert_eq!(parse_count("3-1"), None);
        assert_eq!(parse_location("-1", FileId(0), 1), None);
        assert_eq!(parse_location("dx/linalg.h:*", FileId(0), 1), Some(Where::Named("dx/linalg.h".into(), None)));
        // A string holding `//` is not a comment.
        assert_eq!(comments("a \"//x\" // c\n"), vec![(10, 12)]);
        // A prefix glued to a word is not a directive.
        let (sm, _) = setup("// expected-no-diagnostics\n// not-expected-warning@+1:{{x}}\nint a;\n");
        assert!(verify(&sm, &[]).is_empty());
    }
}
