//! Every `%dxc` command line in DXC's lit tests (`../shared/corpus/dxc`, or `$HLSLC_DXC_CORPUS`)
//! must be accepted by hlslc's argument parser: no unknown argument, no missing value. A bad or
//! missing value is allowed only on a line that expects dxc to fail (`not %dxc ...`).
//!
//! Skipped, with a message, when the corpus is absent.

use hlslc::cli::{parse_args, CliErrorKind, Tool};
use std::path::{Path, PathBuf};

fn corpus_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("HLSLC_DXC_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/dxc"));
    dir.is_dir().then_some(dir)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// The RUN commands of a file, with `\` continuations joined.
fn run_lines(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut pending = String::new();
    for line in text.lines() {
        let Some(at) = line.find("RUN:") else { continue };
        let body = line[at + 4..].trim();
        match body.strip_suffix('\\') {
            Some(head) => {
                pending.push_str(head);
                pending.push(' ');
            }
            None => {
                pending.push_str(body);
                out.push(std::mem::take(&mut pending));
            }
        }
    }
    if !pending.is_empty() {
        out.push(pending);
    }
    out
}

/// Shell-like words: whitespace-separated, with '...' and "..." quoting.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => cur.push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                in_word = true;
            }
            None if c == '|' => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
                out.push("|".to_string());
            }
            None if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            None => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        out.push(cur);
    }
    out
}

fn is_redirection(w: &str) -> bool {
    let w = w.trim_start_matches(|c: char| c.is_ascii_digit());
    w.starts_with('>') || w.starts_with('<')
}

/// The argument lists of every `%dxc` in `line`, and whether that command is expected to fail.
fn dxc_commands(line: &str) -> Vec<(Vec<String>, bool)> {
    let w = words(line);
    let mut out = Vec::new();
    for (i, word) in w.iter().enumerate() {
        if word != "%dxc" {
            continue;
        }
        let expect_fail = i > 0 && w[i - 1] == "not";
        let mut args = Vec::new();
        let mut j = i + 1;
        while j < w.len() {
            let a = &w[j];
            if matches!(a.as_str(), "|" | "||" | "&&" | ";" | "%}") {
                break;
            }
            if is_redirection(a) {
                // `2>&1`, `>%t`, `> file`
                let bare = a.trim_start_matches(|c: char| c.is_ascii_digit());
                if matches!(bare, ">" | ">>" | "<") {
                    j += 1;
                }
                j += 1;
                continue;
            }
            args.push(a.clone());
            j += 1;
        }
        out.push((args, expect_fail));
    }
    out
}

#[test]
fn every_corpus_run_line_is_accepted() {
    let Some(dir) = corpus_dir() else {
        eprintln!("skipped: DXC corpus not found (set HLSLC_DXC_CORPUS)");
        return;
    };
    let mut files = Vec::new();
    walk(&dir, &mut files);
    let (mut commands, mut refused_values, mut refused_usage) = (0, 0, 0);
    let mut failures = Vec::new();
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else { continue };
        for line in run_lines(&text) {
            for (args, expect_fail) in dxc_commands(&line) {
                commands += 1;
                match parse_args(Tool::Hlslc, &args) {
                    Ok(_) => {}
                    Err(e) if matches!(e.kind, CliErrorKind::InvalidValue | CliErrorKind::MissingValue) && expect_fail => {
                        refused_values += 1
                    }
                    // A combination dxc itself refuses (`-Gec` with `-spirv`): the
                    // file's CHECK lines must expect the very message we print.
                    Err(e) if e.kind == CliErrorKind::Usage && expect_fail && text.contains(&e.message) => {
                        refused_usage += 1
                    }
                    Err(e) => failures.push(format!("{}: %dxc {}\n    -> {:?}: {}", f.display(), args.join(" "), e.kind, e.message)),
                }
            }
        }
    }
    eprintln!(
        "{commands} %dxc command lines in {} files; {refused_values} refused or missing values and {refused_usage} refused combinations (with dxc's message) on `not` lines",
        files.len()
    );
    assert!(commands > 1000, "expected thousands of RUN lines, found {commands}");
    assert!(failures.is_empty(), "{} command lines refused:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn run_line_extraction() {
    let text = "// RUN: not %dxc -T ps_6_0 -DX=\"a b\" %s 2>&1| FileCheck %s\n// RUN: %if x %{ %dxc -E main \\\n// RUN:   -T cs_6_0 %s > %t %}\n";
    let lines = run_lines(text);
    assert_eq!(lines.len(), 2);
    let c = dxc_commands(&lines[0]);
    assert_eq!(c, vec![(vec!["-T".to_string(), "ps_6_0".into(), "-DX=a b".into(), "%s".into()], true)]);
    let c = dxc_commands(&lines[1]);
    assert_eq!(c, vec![(vec!["-E".to_string(), "main".into(), "-T".into(), "cs_6_0".into(), "%s".into()], false)]);
}
