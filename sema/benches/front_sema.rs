//! Preprocess + parse + sema throughput over the DXC corpus (`../shared/corpus/dxc`), in bytes/s:
//! the front end's benchmark (`frontend/benches/frontend.rs`) with semantic analysis added. Each
//! file is checked with the `-T`, `-E`, `-HV` and `-enable-16bit-types` of its first `// RUN:`
//! line (`ps_6_0`/`main` when it has none). Falls back to the repo's `examples/` when the corpus
//! is absent. Run with `cargo bench -p hlslc-sema --bench front_sema`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hlslc_frontend::diag::Diagnostics;
use hlslc_frontend::parser::{parse, ParseOptions};
use hlslc_frontend::pp::{preprocess, PpOptions};
use hlslc_frontend::SourceMap;
use hlslc_sema::{analyze, SemaOptions};
use std::path::{Path, PathBuf};

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

/// Sema options from the first RUN line's flags.
fn options(text: &str) -> SemaOptions {
    let mut o = SemaOptions::default();
    let Some(line) = text.lines().find_map(|l| l.trim_start().strip_prefix("// RUN:")) else { return o };
    let words: Vec<&str> = line.split_whitespace().collect();
    for (i, w) in words.iter().enumerate() {
        let next = words.get(i + 1).copied();
        match *w {
            "-T" => o.profile = next.unwrap_or("ps_6_0").to_string(),
            "-E" => o.entry = next.unwrap_or("main").to_string(),
            "-HV" => o.hlsl_version = next.and_then(|v| v.parse().ok()).unwrap_or(2021),
            "-enable-16bit-types" => o.enable_16bit = true,
            _ if w.starts_with("-T") && w.len() > 2 => o.profile = w[2..].to_string(),
            _ if w.starts_with("-E") && w.len() > 2 => o.entry = w[2..].to_string(),
            _ => {}
        }
    }
    o
}

struct Input {
    name: String,
    text: String,
    sema: SemaOptions,
}

fn inputs() -> Vec<Input> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf();
    let corpus = root.join("../shared/corpus/dxc");
    let mut files = Vec::new();
    let dir = if corpus.is_dir() { corpus } else { root.join("examples") };
    collect(&dir, &mut files);
    files
        .into_iter()
        .filter_map(|p| {
            let bytes = std::fs::read(&p).ok()?;
            let text = String::from_utf8_lossy(&bytes).into_owned();
            Some(Input { name: p.display().to_string(), sema: options(&text), text })
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let files = inputs();
    let total: usize = files.iter().map(|f| f.text.len()).sum();
    eprintln!("front+sema bench: {} files, {:.1} MB", files.len(), total as f64 / 1e6);
    let mut group = c.benchmark_group("frontend");
    group.throughput(Throughput::Bytes(total as u64));
    group.sample_size(10);
    group.bench_function("pp+parse+sema corpus", |b| {
        b.iter(|| {
            for f in &files {
                let mut sm = SourceMap::new();
                let id = sm.add(f.name.clone(), f.text.clone());
                let mut diags = Diagnostics::new();
                let opts = PpOptions { use_filesystem: true, ..PpOptions::default() };
                let toks = preprocess(&mut sm, id, &opts, None, &mut diags);
                let tu = parse(&toks, &ParseOptions { hlsl_version: f.sema.hlsl_version, enable_16bit: f.sema.enable_16bit }, &mut diags);
                if !diags.has_errors() {
                    std::hint::black_box(analyze(&tu, &f.sema, &mut diags));
                }
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
