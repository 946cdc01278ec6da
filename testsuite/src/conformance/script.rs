//! Reading a lit test: its `RUN:` lines (joined, `%if` resolved, tokenized, substituted) and its
//! `REQUIRES:` / `UNSUPPORTED:` / `XFAIL:` lines, as LLVM's lit reads them, for the subset of lit's
//! shell that DXC's tests use.
//!
//! Differences from lit, on purpose:
//! - a keyword counts only at the start of a comment line (after `//`, `;` or `#`); lit also finds
//!   `RUN:` in the middle of a line, which in DXC's tests only happens inside `CHECK:` lines that
//!   quote the file's own first line;
//! - DXC's `%dxilver X.Y |` (run only when the DXIL validator is at least X.Y) is decided here: the
//!   runner's [`Features::dxil_minor`] plays the validator's version (default 1.10, the newest
//!   shader model 6.10 that hlslc accepts); a file asking for more is unsupported.

use super::Features;

/// One command of a pipeline, with its redirections.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stage {
    /// How many `not`s stand before the command (an odd number inverts its exit status).
    pub nots: u32,
    pub tool: Tool,
    /// Arguments, substituted.
    pub args: Vec<String>,
    /// `2>&1`.
    pub merge_stderr: bool,
    /// `< file`.
    pub stdin_file: Option<String>,
    /// `> file`.
    pub stdout_file: Option<String>,
}

/// The tools the runner can run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tool {
    /// `%dxc` or `dxc`: the compiler under test.
    Hlslc,
    /// `FileCheck` / `%FileCheck`.
    FileCheck,
    /// `tee` without arguments: copies its input to its output.
    Tee,
}

/// `a | b | c`; lit runs pipelines with pipefail.
pub type Pipeline = Vec<Stage>;

/// A test file ready to run, or why it cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Script {
    Run(Vec<Pipeline>),
    Unsupported(String),
}

/// Paths the substitutions stand for.
#[derive(Clone, Debug)]
pub struct Paths {
    /// `%s`
    pub file: String,
    /// `%S`
    pub dir: String,
    /// `%t` (a file name inside a per-test temporary folder)
    pub tmp: String,
    /// `%T` (that folder)
    pub tmp_dir: String,
}

/// The RUN lines of `text` after joining `\` continuations, in order, without the keyword.
pub fn run_lines(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut pending: Option<String> = None;
    for line in text.lines() {
        let Some(rest) = keyword_value(line, "RUN:") else {
            if let Some(p) = pending.take() {
                out.push(p);
            }
            continue;
        };
        let rest = rest.trim();
        let (part, continues) = match rest.strip_suffix('\\') {
            Some(p) => (p.trim_end(), true),
            None => (rest, false),
        };
        let mut acc = pending.take().unwrap_or_default();
        if !acc.is_empty() && !part.is_empty() {
            acc.push(' ');
        }
        acc.push_str(part);
        if continues {
            pending = Some(acc);
        } else {
            out.push(acc);
        }
    }
    out.extend(pending);
    out.retain(|l| !l.trim().is_empty());
    out
}

/// The text after `keyword` when `line` is a comment line starting with it. Comment markers may
/// repeat (`// // RUN:`, which lit accepts) and a file may start with a byte-order mark.
fn keyword_value<'a>(line: &'a str, keyword: &str) -> Option<&'a str> {
    let t = line.trim_start_matches(|c: char| c == '/' || c == ';' || c == '#' || c == '\u{feff}' || c.is_whitespace());
    t.strip_prefix(keyword)
}

/// Values of every `keyword` line (`REQUIRES:`...), split at commas.
fn list_values(text: &str, keyword: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| keyword_value(l, keyword))
        .flat_map(|v| v.split(',').map(|s| s.trim().to_string()).collect::<Vec<_>>())
        .filter(|s| !s.is_empty())
        .collect()
}

/// Reads the whole test. `Unsupported` names the first reason it cannot run here.
pub fn parse(text: &str, paths: &Paths, features: &Features) -> Script {
    parse_with(text, paths, features, false)
}

/// Like [`parse`]; with `lenient`, a pipeline stage that needs a tool or substitution this runner
/// lacks is dropped instead of making the file unsupported (syntax-only mode runs only hlslc).
pub fn parse_with(text: &str, paths: &Paths, features: &Features, lenient: bool) -> Script {
    if let Some(why) = unsupported_by_directives(text, features) {
        return Script::Unsupported(why);
    }
    let lines = run_lines(text);
    if lines.is_empty() {
        return Script::Unsupported("no RUN lines".into());
    }
    let mut pipelines = Vec::new();
    for line in lines {
        match parse_line(&line, paths, features, lenient) {
            Ok(Some(p)) => pipelines.push(p),
            Ok(None) => {}
            Err(e) => return Script::Unsupported(e),
        }
    }
    if pipelines.is_empty() {
        return Script::Unsupported("no command to run".into());
    }
    Script::Run(pipelines)
}

/// Why the file's `XFAIL:` / `REQUIRES:` / `UNSUPPORTED:` lines keep it from running here, if they do.
pub fn unsupported_by_directives(text: &str, features: &Features) -> Option<String> {
    if !list_values(text, "XFAIL:").is_empty() {
        return Some("XFAIL".into());
    }
    for req in list_values(text, "REQUIRES:") {
        if !features.has(&req) {
            return Some(format!("REQUIRES: {req}"));
        }
    }
    list_values(text, "UNSUPPORTED:").into_iter().find(|f| f == "*" || features.has(f)).map(|f| format!("UNSUPPORTED: {f}"))
}

/// One RUN line (as [`run_lines`] returns it) as a pipeline; `Ok(None)`: nothing to run.
pub fn parse_line(line: &str, paths: &Paths, features: &Features, lenient: bool) -> Result<Option<Pipeline>, String> {
    let line = resolve_if(line, features)?;
    if line.trim().is_empty() {
        return Ok(None);
    }
    parse_pipeline(&line, paths, features, lenient)
}

/// lit's `%if feature %{ then %} [%else %{ else %}]`.
fn resolve_if(line: &str, features: &Features) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find("%if") {
        out.push_str(&rest[..at]);
        let after = rest[at + 3..].trim_start();
        let open = after.find("%{").ok_or("%if without %{")?;
        let cond = after[..open].trim();
        let body_start = &after[open + 2..];
        let close = body_start.find("%}").ok_or("%if without %}")?;
        let then = &body_start[..close];
        let mut tail = body_start[close + 2..].trim_start();
        let mut otherwise = "";
        if let Some(e) = tail.strip_prefix("%else") {
            let e = e.trim_start().strip_prefix("%{").ok_or("%else without %{")?;
            let c = e.find("%}").ok_or("%else without %}")?;
            otherwise = &e[..c];
            tail = &e[c + 2..];
        }
        if cond.contains(['(', '&', '|', '!']) {
            return Err(format!("%if expression '{cond}'"));
        }
        out.push_str(if features.has(cond) { then } else { otherwise });
        out.push(' ');
        rest = tail;
    }
    out.push_str(rest);
    Ok(out)
}

/// A token of the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Word(String),
    /// `|`, `2>&1`, `>`, `<`, `2>`, `&&`, `||`, `;`, `>>`, `&`
    Op(&'static str),
}

fn tokenize(line: &str) -> Result<Vec<Tok>, String> {
    let mut toks = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    let flush = |word: &mut String, in_word: &mut bool, toks: &mut Vec<Tok>| {
        if *in_word {
            toks.push(Tok::Word(std::mem::take(word)));
            *in_word = false;
        }
    };
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => flush(&mut word, &mut in_word, &mut toks),
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        None => return Err("unterminated \" in RUN line".into()),
                        Some('"') => break,
                        Some('\\') if matches!(chars.peek(), Some('"' | '\\')) => word.push(chars.next().unwrap_or('\\')),
                        Some(ch) => word.push(ch),
                    }
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        None => return Err("unterminated ' in RUN line".into()),
                        Some('\'') => break,
                        Some(ch) => word.push(ch),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(n) = chars.next() {
                    word.push(n);
                }
            }
            '|' | '&' | ';' | '<' | '>' => {
                // `2>` and `2>&1` (the 2 must stand alone).
                let fd2 = in_word && word == "2" && c == '>';
                if fd2 {
                    word.clear();
                    in_word = false;
                } else {
                    flush(&mut word, &mut in_word, &mut toks);
                }
                let op: &'static str = match (c, chars.peek().copied()) {
                    ('>', Some('&')) if fd2 => {
                        chars.next();
                        match chars.next() {
                            Some('1') => "2>&1",
                            _ => return Err("unsupported redirection 2>&".into()),
                        }
                    }
                    ('>', _) if fd2 => "2>",
                    ('|', Some('|')) => {
                        chars.next();
                        "||"
                    }
                    ('&', Some('&')) => {
                        chars.next();
                        "&&"
                    }
                    ('>', Some('>')) => {
                        chars.next();
                        ">>"
                    }
                    ('|', _) => "|",
                    ('&', _) => "&",
                    (';', _) => ";",
                    ('<', _) => "<",
                    _ => ">",
                };
                toks.push(Tok::Op(op));
            }
            _ => {
                in_word = true;
                word.push(c);
            }
        }
    }
    flush(&mut word, &mut in_word, &mut toks);
    Ok(toks)
}

/// Replaces lit's substitutions in an argument; `Err` for one the runner does not provide.
fn substitute(word: &str, paths: &Paths) -> Result<String, String> {
    let mut out = String::with_capacity(word.len());
    let mut rest = word;
    while let Some(at) = rest.find('%') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let (rep, len): (&str, usize) = match after.chars().next() {
            Some('%') => ("%", 1),
            Some('s') if !starts_ident(&after[1..]) => (&paths.file, 1),
            Some('S') if !starts_ident(&after[1..]) => (&paths.dir, 1),
            Some('t') if !starts_ident(&after[1..]) => (&paths.tmp, 1),
            Some('T') if !starts_ident(&after[1..]) => (&paths.tmp_dir, 1),
            Some(c) if c.is_ascii_alphabetic() || c == '_' => {
                let name: String = after.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                return Err(format!("substitution %{name}"));
            }
            _ => ("%", 0),
        };
        out.push_str(rep);
        rest = &after[len..];
    }
    out.push_str(rest);
    Ok(out)
}

fn starts_ident(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// One RUN line as a pipeline. `Ok(None)`: nothing to run (a `%dxilver` check alone).
fn parse_pipeline(line: &str, paths: &Paths, features: &Features, lenient: bool) -> Result<Option<Pipeline>, String> {
    let toks = tokenize(line)?;
    let mut stages = Vec::new();
    for part in toks.split(|t| *t == Tok::Op("|")) {
        match parse_stage(part, paths, features) {
            Ok(Some(stage)) => stages.push(stage),
            Ok(None) => {}
            Err(e) if lenient && (e.starts_with("tool ") || e.starts_with("substitution ")) => {}
            Err(e) => return Err(e),
        }
    }
    Ok((!stages.is_empty()).then_some(stages))
}

fn parse_stage(toks: &[Tok], paths: &Paths, features: &Features) -> Result<Option<Stage>, String> {
    let mut words = Vec::new();
    let mut stage = Stage { nots: 0, tool: Tool::Tee, args: Vec::new(), merge_stderr: false, stdin_file: None, stdout_file: None };
    let mut it = toks.iter();
    while let Some(t) = it.next() {
        match t {
            Tok::Word(w) => words.push(w.as_str()),
            Tok::Op("2>&1") => stage.merge_stderr = true,
            Tok::Op(op @ ("<" | ">")) => {
                let Some(Tok::Word(target)) = it.next() else { return Err(format!("'{op}' without a file")) };
                let target = substitute(target, paths)?;
                if *op == "<" {
                    stage.stdin_file = Some(target);
                } else {
                    stage.stdout_file = Some(target);
                }
            }
            Tok::Op(op) => return Err(format!("shell operator '{op}'")),
        }
    }
    while words.first() == Some(&"not") {
        stage.nots += 1;
        words.remove(0);
    }
    let Some((&tool, args)) = words.split_first() else {
        return if stage.nots > 0 { Err("'not' without a command".into()) } else { Err("empty pipeline stage".into()) };
    };
    stage.tool = match tool {
        "%dxc" | "dxc" => Tool::Hlslc,
        "FileCheck" | "%FileCheck" => Tool::FileCheck,
        "tee" if args.is_empty() => Tool::Tee,
        "%dxilver" => {
            let [version] = args else { return Err("%dxilver without one version".into()) };
            let need = parse_dxil_version(version).ok_or_else(|| format!("%dxilver {version}"))?;
            if need > (1, features.dxil_minor) {
                return Err(format!("%dxilver {version} (have 1.{})", features.dxil_minor));
            }
            return Ok(None);
        }
        other => return Err(format!("tool {other}")),
    };
    for a in args {
        stage.args.push(substitute(a, paths)?);
    }
    Ok(Some(stage))
}

fn parse_dxil_version(v: &str) -> Option<(u32, u32)> {
    let (a, b) = v.split_once('.')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths() -> Paths {
        Paths { file: "/c/x.hlsl".into(), dir: "/c".into(), tmp: "/tmp/7/t".into(), tmp_dir: "/tmp/7".into() }
    }

    fn feats() -> Features {
        Features { dxil_minor: 8 }
    }

    #[test]
    fn run_lines_behind_repeated_comment_markers_or_a_byte_order_mark() {
        assert_eq!(run_lines("// // RUN: %dxc -T cs_6_2 %s\n"), vec!["%dxc -T cs_6_2 %s"]);
        assert_eq!(run_lines("\u{feff}// RUN: %dxc -T ps_6_0 %s\nfloat x;\n"), vec!["%dxc -T ps_6_0 %s"]);
        assert!(run_lines("float RUN_x; // no keyword here\n").is_empty());
    }

    #[test]
    fn joins_continuations_and_ignores_other_lines() {
        let text = "// RUN: %dxc -T ps_6_0 \\\n// RUN:    -E main %s | FileCheck %s\nfloat x; // CHECK: RUN: nothing\n; RUN: %dxc %s\n";
        assert_eq!(run_lines(text), vec!["%dxc -T ps_6_0 -E main %s | FileCheck %s", "%dxc %s"]);
    }

    #[test]
    fn parses_pipelines_with_redirections_and_not() {
        let text = "// RUN: not %dxc -T ps_6_0 /Dmain=\"SRV(t0)\" %s -Fo %t.1 2>&1| FileCheck %s --check-prefix=A\n";
        let Script::Run(p) = parse(text, &paths(), &feats()) else { panic!("unsupported") };
        assert_eq!(p.len(), 1);
        assert_eq!(p[0][0].nots, 1);
        assert_eq!(p[0][0].tool, Tool::Hlslc);
        assert!(p[0][0].merge_stderr);
        assert_eq!(p[0][0].args, ["-T", "ps_6_0", "/Dmain=SRV(t0)", "/c/x.hlsl", "-Fo", "/tmp/7/t.1"]);
        assert_eq!(p[0][1].tool, Tool::FileCheck);
        assert_eq!(p[0][1].args, ["/c/x.hlsl", "--check-prefix=A"]);
    }

    #[test]
    fn dxilver_and_if_follow_the_feature_set() {
        let ok = parse("// RUN: %dxilver 1.6 | %dxc -T ms_6_5 %s\n", &paths(), &feats());
        assert!(matches!(&ok, Script::Run(p) if p[0].len() == 1 && p[0][0].tool == Tool::Hlslc), "{ok:?}");
        let too_new = parse("// RUN: %dxilver 1.9 | %dxc -T ms_6_5 %s\n", &paths(), &feats());
        assert!(matches!(too_new, Script::Unsupported(_)));
        let text = "// RUN: %if dxil-1-8 \\\n// RUN: %{ %dxc -T lib_6_8 %s \\\n// RUN: %}\n// RUN: %if dxil-1-9 %{ %dxl x %}\n";
        let Script::Run(p) = parse(text, &paths(), &feats()) else { panic!() };
        assert_eq!(p.len(), 1);
        assert_eq!(p[0][0].args, ["-T", "lib_6_8", "/c/x.hlsl"]);
    }

    #[test]
    fn unsupported_tools_substitutions_and_directives() {
        for (text, why) in [
            ("// RUN: %dxc %s | %D3DReflect %s\n", "tool %D3DReflect"),
            ("// RUN: %dxc -I %hlsl_headers %s\n", "substitution %hlsl_headers"),
            ("// RUN: %dxc %s | FileCheck %s | XFail GitHub #1\n", "tool XFail"),
            ("// REQUIRES: dxil-1-9\n// RUN: %dxc %s\n", "REQUIRES: dxil-1-9"),
            ("// XFAIL: *\n// RUN: %dxc %s\n", "XFAIL"),
            ("// RUN: %dxc %s && %dxc %s\n", "shell operator '&&'"),
        ] {
            assert_eq!(parse(text, &paths(), &feats()), Script::Unsupported(why.into()), "{text}");
        }
        assert!(matches!(parse("// REQUIRES: spirv\n// RUN: %dxc %s\n", &paths(), &feats()), Script::Run(_)));
        assert!(matches!(parse("float4 main();\n", &paths(), &feats()), Script::Unsupported(_)));
    }

    #[test]
    fn substitution_leaves_filecheck_patterns_alone() {
        assert_eq!(substitute("{{%[0-9]+}}", &paths()).unwrap(), "{{%[0-9]+}}");
        assert_eq!(substitute("--input-file=%t.vk.pp", &paths()).unwrap(), "--input-file=/tmp/7/t.vk.pp");
        assert_eq!(substitute("%S/inc.hlsl", &paths()).unwrap(), "/c/inc.hlsl");
        assert_eq!(substitute("100%%", &paths()).unwrap(), "100%");
    }
}
