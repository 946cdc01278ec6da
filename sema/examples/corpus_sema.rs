//! Dev measurement: runs pp + parse + sema over DXC's CodeGenSPIRV lit tests (positive ones:
//! files without `expected-error` / `CHECK: error`), with the first RUN line's `-T -E -D -HV
//! -enable-16bit-types` flags, and prints the pass rate and the most common error messages.
//!
//! `cargo run -p hlslc-sema --example corpus_sema [-- <dir>]`

use hlslc_frontend::{parser, pp, Diagnostics, SourceMap};
use hlslc_sema::{analyze, SemaOptions};
use std::collections::BTreeMap;

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "../shared/corpus/dxc/CodeGenSPIRV".into());
    let mut files: Vec<_> = walk(std::path::Path::new(&dir));
    files.sort();
    let (mut total, mut passed, mut front_fail) = (0, 0, 0);
    let mut msgs: BTreeMap<String, usize> = BTreeMap::new();
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        if text.contains("expected-error") || text.contains("CHECK: error") {
            continue;
        }
        let Some(run) = text.lines().find(|l| l.contains("RUN:") && l.contains("%dxc")) else { continue };
        let words: Vec<&str> = run.split_whitespace().collect();
        let mut opts = SemaOptions::default();
        let mut ppo = pp::PpOptions::default();
        let mut i = 0;
        while i < words.len() {
            let w = words[i];
            let next = words.get(i + 1).copied().unwrap_or("");
            match w {
                "-T" => opts.profile = next.into(),
                "-E" => opts.entry = next.into(),
                "-HV" => opts.hlsl_version = next.parse().unwrap_or(2021),
                "-enable-16bit-types" => opts.enable_16bit = true,
                "-Zpr" => opts.default_row_major = true,
                "-D" => {
                    let (n, v) = next.split_once('=').map_or((next, None), |(a, b)| (a, Some(b.to_string())));
                    ppo.defines.push(pp::CmdDefine::Define { name: n.into(), value: v });
                }
                _ if w.starts_with("-T") && w.len() > 2 => opts.profile = w[2..].into(),
                _ if w.starts_with("-E") && w.len() > 2 => opts.entry = w[2..].into(),
                _ if w.starts_with("-D") && w.len() > 2 => {
                    let d = &w[2..];
                    let (n, v) = d.split_once('=').map_or((d, None), |(a, b)| (a, Some(b.to_string())));
                    ppo.defines.push(pp::CmdDefine::Define { name: n.into(), value: v });
                }
                _ => {}
            }
            i += 1;
        }
        total += 1;
        let mut sm = SourceMap::new();
        let f = sm.add(path.display().to_string(), text.clone());
        let mut diags = Diagnostics::new();
        ppo.use_filesystem = true;
        let toks = pp::preprocess(&mut sm, f, &ppo, None, &mut diags);
        let tu = parser::parse(&toks, &parser::ParseOptions { hlsl_version: opts.hlsl_version, enable_16bit: opts.enable_16bit }, &mut diags);
        if diags.has_errors() {
            front_fail += 1;
            continue;
        }
        let r = analyze(&tu, &opts, &mut diags);
        if r.is_some() {
            passed += 1;
        } else if let Some(d) = diags.list.iter().find(|d| d.is_error()) {
            // Group messages by their text with quoted names removed.
            let mut key = String::new();
            let mut quoted = false;
            for c in d.message.chars() {
                if c == '\'' {
                    quoted = !quoted;
                    key.push_str(if quoted { "'…" } else { "'" });
                } else if !quoted {
                    key.push(c);
                }
            }
            *msgs.entry(key).or_default() += 1;
            if std::env::var("VERBOSE").is_ok() {
                eprintln!("{}: {}", path.display(), d.message);
            }
        }
    }
    let checked = total - front_fail;
    println!("files: {total}, front-end failures: {front_fail}, sema checked: {checked}, sema passed: {passed} ({:.1}%)", 100.0 * passed as f64 / checked.max(1) as f64);
    let mut v: Vec<_> = msgs.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1));
    for (m, n) in v.iter().take(25) {
        println!("{n:5}  {m}");
    }
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(walk(&p));
            } else if p.extension().is_some_and(|x| x == "hlsl") {
                out.push(p);
            }
        }
    }
    out
}
