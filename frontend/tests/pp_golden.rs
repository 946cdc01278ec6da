//! Golden tests of `-P` output: every `tests/pp/*.hlsl` is preprocessed (with the `-D` flags of
//! its `// RUN:` line, include files from the file system) and printed with `render_output`;
//! the result must equal the `.i` file beside it. `BLESS=1` rewrites the expectations.
//! Also: an ignored-by-default sweep over DXC's corpus (`cargo test -- --ignored corpus`).

use hlslc_frontend::diag::Diagnostics;
use hlslc_frontend::pp::{preprocess_full, render_output, CmdDefine, PpOptions};
use hlslc_frontend::SourceMap;
use std::path::{Path, PathBuf};

/// `-D NAME[=V]` / `-DNAME[=V]` / `-U NAME` flags of the first `RUN:` line.
fn run_defines(text: &str) -> Vec<CmdDefine> {
    let Some(line) = text.lines().find(|l| l.contains("RUN:")) else { return Vec::new() };
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        let (flag, arg) = if w == "-D" || w == "/D" || w == "-U" {
            i += 1;
            (&w[1..], words.get(i).copied().unwrap_or(""))
        } else if let Some(rest) = w.strip_prefix("-D").or_else(|| w.strip_prefix("/D")) {
            ("D", rest)
        } else if let Some(rest) = w.strip_prefix("-U") {
            ("U", rest)
        } else {
            i += 1;
            continue;
        };
        i += 1;
        if arg.is_empty() {
            continue;
        }
        if flag == "U" {
            out.push(CmdDefine::Undef(arg.to_string()));
        } else {
            match arg.split_once('=') {
                Some((n, v)) => out.push(CmdDefine::Define { name: n.to_string(), value: Some(v.to_string()) }),
                None => out.push(CmdDefine::Define { name: arg.to_string(), value: None }),
            }
        }
    }
    out
}

fn preprocess_path(path: &Path) -> (String, Diagnostics, SourceMap) {
    let bytes = std::fs::read(path).expect("readable test file");
    let text = String::from_utf8_lossy(&bytes).trim_start_matches('\u{feff}').to_string();
    let opts = PpOptions { defines: run_defines(&text), use_filesystem: true, ..PpOptions::default() };
    let mut sm = SourceMap::new();
    let id = sm.add(path.display().to_string(), text);
    let mut diags = Diagnostics::new();
    let out = preprocess_full(&mut sm, id, &opts, None, &mut diags);
    (render_output(&sm, &out), diags, sm)
}

#[test]
fn golden_preprocessed_output() {
    let dir = PathBuf::from("tests/pp");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/pp exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "hlsl"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    for f in &files {
        let (mut got, diags, sm) = preprocess_path(f);
        if !diags.list.is_empty() {
            got.push_str("//--- diagnostics\n");
            got.push_str(&diags.render(&sm));
        }
        let expected_path = f.with_extension("i");
        if bless {
            std::fs::write(&expected_path, &got).expect("writable");
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != got {
            failures.push(format!("{}:\n--- expected\n{expected}\n--- got\n{got}", f.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e == "hlsl") {
            out.push(p);
        }
    }
}

/// Preprocesses every corpus file; prints the files with errors and the most common messages.
#[test]
#[ignore]
fn corpus_preprocesses_without_panic() {
    let root = std::env::var_os("HLSLC_CORPUS").map(PathBuf::from).unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/dxc"));
    if !root.is_dir() {
        eprintln!("corpus not found at {}: skipped", root.display());
        return;
    }
    let mut files = Vec::new();
    collect(&root, &mut files);
    let mut failed = 0;
    let mut causes: std::collections::BTreeMap<String, usize> = Default::default();
    let mut bytes = 0usize;
    let start = std::time::Instant::now();
    for f in &files {
        let (_, diags, sm) = preprocess_path(f);
        bytes += sm.file(hlslc_frontend::FileId(0)).text.len();
        if diags.has_errors() {
            failed += 1;
            let d = diags.list.iter().find(|d| d.is_error()).expect("has an error");
            *causes.entry(d.message.clone()).or_default() += 1;
            eprintln!("{}: {}", f.display(), d.message);
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let mut top: Vec<_> = causes.into_iter().collect();
    top.sort_by(|a, b| b.1.cmp(&a.1));
    eprintln!("{} files, {} with errors, {:.1} MB/s (preprocess + render)", files.len(), failed, bytes as f64 / 1e6 / secs);
    for (m, n) in top.iter().take(15) {
        eprintln!("{n:5}  {m}");
    }
}
