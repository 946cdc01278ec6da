//! Dev tool: how much of a corpus of DXC lit tests parses.
//!
//! `cargo run -p hlslc-frontend --release --example corpus_parse -- <folder> [--show N] [--match TEXT]`
//!
//! For every `.hlsl` file under the folder it reads the first `// RUN:` line, takes its `-D` and
//! `-HV` flags, preprocesses and parses the file, and counts the files with and without errors
//! among the positive tests (RUN line without a leading `not` and without `-verify`). Prints the
//! rate, the most common first error messages, and (with `--show N`) N failing files with their
//! first diagnostic (only those whose message contains `--match TEXT`, if given).

use hlslc_frontend::diag::Diagnostics;
use hlslc_frontend::parser::{parse, ParseOptions};
use hlslc_frontend::pp::{preprocess, CmdDefine, PpOptions};
use hlslc_frontend::SourceMap;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

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

/// The first RUN line's arguments, or `None` for a negative test.
fn run_line(text: &str) -> Option<Vec<String>> {
    let line = text.lines().find_map(|l| l.trim_start().strip_prefix("// RUN:"))?;
    let words: Vec<String> = line.split_whitespace().map(|w| w.to_string()).collect();
    if words.first().is_some_and(|w| w == "not") || words.iter().any(|w| w == "-verify") {
        return None;
    }
    Some(words)
}

fn options(words: &[String]) -> (PpOptions, ParseOptions) {
    let mut pp = PpOptions { use_filesystem: true, ..PpOptions::default() };
    let mut po = ParseOptions::default();
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        let (flag, value) = if (w == "-D" || w == "-HV") && i + 1 < words.len() {
            i += 1;
            (w.as_str(), words[i].clone())
        } else if let Some(v) = w.strip_prefix("-D") {
            ("-D", v.to_string())
        } else if let Some(v) = w.strip_prefix("-HV") {
            ("-HV", v.to_string())
        } else {
            i += 1;
            continue;
        };
        match flag {
            "-D" => {
                let (name, value) = match value.split_once('=') {
                    Some((n, v)) => (n.to_string(), Some(v.to_string())),
                    None => (value, None),
                };
                pp.defines.push(CmdDefine::Define { name, value });
            }
            _ => po.hlsl_version = if value == "202x" { 2030 } else { value.parse().unwrap_or(2021) },
        }
        i += 1;
    }
    (pp, po)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut show = 0usize;
    let mut filter: Option<String> = None;
    let mut dirs = Vec::new();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--show" => {
                show = args.get(i + 1).and_then(|v| v.parse().ok()).unwrap_or(20);
                i += 1;
            }
            "--match" => {
                filter = args.get(i + 1).cloned();
                i += 1;
            }
            d => dirs.push(PathBuf::from(d)),
        }
        i += 1;
    }
    let mut files = Vec::new();
    for d in &dirs {
        collect(d, &mut files);
    }
    let (mut ok, mut bad, mut skipped, mut bytes) = (0usize, 0usize, 0usize, 0usize);
    let mut messages: BTreeMap<String, usize> = BTreeMap::new();
    let mut shown = 0;
    let start = Instant::now();
    for f in &files {
        let Ok(raw) = std::fs::read(f) else { continue };
        let text = String::from_utf8_lossy(&raw).into_owned();
        let Some(words) = run_line(&text) else {
            skipped += 1;
            continue;
        };
        bytes += text.len();
        let (ppo, po) = options(&words);
        let mut sm = SourceMap::new();
        let id = sm.add(f.display().to_string(), text);
        let mut diags = Diagnostics::new();
        let toks = preprocess(&mut sm, id, &ppo, None, &mut diags);
        let _tu = parse(&toks, &po, &mut diags);
        match diags.list.iter().find(|d| d.is_error()) {
            None => ok += 1,
            Some(d) => {
                bad += 1;
                *messages.entry(d.message.clone()).or_default() += 1;
                if shown < show && filter.as_ref().is_none_or(|m| d.message.contains(m.as_str())) {
                    shown += 1;
                    print!("{}", d.render(&sm));
                }
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let total = ok + bad;
    println!(
        "{ok}/{total} positive files parse ({:.1}%), {bad} fail, {skipped} negative tests skipped; {:.1} MB in {:.2}s ({:.1} MB/s)",
        100.0 * ok as f64 / total.max(1) as f64,
        bytes as f64 / 1e6,
        secs,
        bytes as f64 / 1e6 / secs.max(1e-9)
    );
    let mut top: Vec<_> = messages.into_iter().collect();
    top.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    for (m, n) in top.iter().take(25) {
        println!("{n:6}  {m}");
    }
}
