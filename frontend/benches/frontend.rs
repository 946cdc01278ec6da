//! Preprocess + parse throughput over the DXC corpus (`../shared/corpus/dxc`), in bytes/s.
//! Falls back to the repo's `examples/` when the corpus is absent. Run with
//! `cargo bench -p hlslc-frontend --bench frontend`; the target is ≥ 20 MB/s.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hlslc_frontend::diag::Diagnostics;
use hlslc_frontend::parser::{parse, ParseOptions};
use hlslc_frontend::pp::{preprocess, PpOptions};
use hlslc_frontend::SourceMap;
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

fn inputs() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf();
    let corpus = root.join("../shared/corpus/dxc");
    let mut files = Vec::new();
    let dir = if corpus.is_dir() { corpus } else { root.join("examples") };
    collect(&dir, &mut files);
    files
        .into_iter()
        .filter_map(|p| {
            let bytes = std::fs::read(&p).ok()?;
            Some((p.display().to_string(), String::from_utf8_lossy(&bytes).into_owned()))
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let files = inputs();
    let total: usize = files.iter().map(|(_, t)| t.len()).sum();
    eprintln!("frontend bench: {} files, {:.1} MB", files.len(), total as f64 / 1e6);
    let mut group = c.benchmark_group("frontend");
    group.throughput(Throughput::Bytes(total as u64));
    group.sample_size(10);
    group.bench_function("preprocess+parse corpus", |b| {
        b.iter(|| {
            for (name, text) in &files {
                let mut sm = SourceMap::new();
                let id = sm.add(name.clone(), text.clone());
                let mut diags = Diagnostics::new();
                let opts = PpOptions { use_filesystem: true, ..PpOptions::default() };
                let toks = preprocess(&mut sm, id, &opts, None, &mut diags);
                std::hint::black_box(parse(&toks, &ParseOptions::default(), &mut diags));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
