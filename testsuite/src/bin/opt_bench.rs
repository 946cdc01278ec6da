//! `opt_bench`: what the SPIR-V optimizer buys and costs over the corpus samples
//! (`HLSLFileCheck/samples`, or the folders given): for every `%dxc` RUN line with a profile,
//! the SPIR-V size at `-O0` and `-O3`, and the `-O3` compile's phase times (the driver's
//! `PhaseTimes`, as `-ftime-report` prints them). Prints the median size ratio, the optimizer's
//! share of the `-O3` compile time, and each pass's time (the pipeline run pass by pass on the
//! `-O0` module). Run it in release mode:
//!
//! ```sh
//! cargo run --release -p hlslc-testsuite --bin opt_bench
//! ```
//!
//! Each time is from the fastest of `--repeat N` runs (default 3). It also checks that optimizing
//! the `-O0` module gives exactly the `-O3` output.

use hlslc::cli::{parse_args, Tool};
use hlslc::timing::Phase;
use hlslc::Output;
use rspirv::binary::Assemble;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn hlsl_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            hlsl_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "hlsl") {
            out.push(p);
        }
    }
}

/// The first `%dxc` RUN line with `-T`, as hlslc arguments for `path` (without output options).
fn run_args(path: &Path, text: &str) -> Option<Vec<String>> {
    let line = text.lines().filter_map(|l| l.trim_start().strip_prefix("// RUN:")).find(|l| l.contains("%dxc") && l.contains("-T"))?;
    let cmd = line.split("%dxc").nth(1)?.split('|').next()?;
    let mut args = Vec::new();
    let mut words = cmd.split_whitespace();
    while let Some(w) = words.next() {
        match w {
            "%s" => args.push(path.to_string_lossy().into_owned()),
            "-Fo" | "-Fc" | "-Fe" | "-Fd" | "-Fh" | "-Fre" | "-Frs" => {
                words.next();
            }
            w if w.starts_with("-Fo") || w.starts_with("-Fc") || w == "-Zi" || w.starts_with("-O") || w == "-Od" => {}
            w if w.starts_with('%') => return None,
            w => args.push(w.to_string()),
        }
    }
    args.push("-spirv".into());
    Some(args)
}

fn words(out: &Output) -> Vec<u32> {
    out.as_bytes().chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

struct Row {
    name: String,
    size0: usize,
    size3: usize,
    /// The whole `-O3` compile, and its optimizer phase.
    compile: Duration,
    opt: Duration,
}

fn main() {
    let mut repeat = 3;
    let mut dirs = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--repeat" => repeat = args.next().and_then(|n| n.parse().ok()).unwrap_or(3).max(1),
            "--help" | "-h" => {
                println!("usage: opt_bench [--repeat N] [folder...]  (default: the corpus samples)");
                return;
            }
            _ => dirs.push(PathBuf::from(a)),
        }
    }
    if dirs.is_empty() {
        dirs.push(hlslc_testsuite::corpus_root().join("HLSLFileCheck/samples"));
    }
    let mut files = Vec::new();
    for d in &dirs {
        hlsl_files(d, &mut files);
    }
    let (mut rows, mut failed, mut mismatched) = (Vec::new(), 0, Vec::new());
    let mut pass_time = vec![Duration::ZERO; hlslc_spirv_opt::PIPELINE.len()];
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        let Some(args) = run_args(path, &text) else { continue };
        let Ok(inv) = parse_args(Tool::Hlslc, &args) else { continue };
        let mut o0 = inv.options.clone();
        o0.opt_level = 0;
        let mut o3 = inv.options.clone();
        o3.opt_level = 3;
        let name = path.to_string_lossy().into_owned();
        let mut result = None;
        let mut per_pass = Vec::new();
        let mut best = Duration::MAX;
        for _ in 0..repeat {
            let r0 = hlslc::compile(&text, &name, &o0, None);
            let Some(out0) = r0.output.as_ref().filter(|_| r0.succeeded()) else { break };
            let w0 = words(out0);
            let mut m = rspirv::dr::load_words(&w0).expect("hlslc's output loads");
            let t = Instant::now();
            let mut this = Vec::new();
            for &pass in hlslc_spirv_opt::PIPELINE {
                let tp = Instant::now();
                hlslc_spirv_opt::run_pass(&mut m, pass, &hlslc_spirv_opt::Options::default());
                this.push(tp.elapsed());
            }
            // As the driver ends the -O recipe (debug info finished, capabilities trimmed).
            hlslc_spirv_opt::debuginfo::finish(&mut m);
            hlslc_spirv::passes::capabilities::trim(&mut m, o3.spirv_options.target_env);
            let took = t.elapsed();
            if took < best {
                best = took;
                per_pass = this;
            }
            result = Some((w0.len(), m.assemble()));
        }
        let Some((size0, optimized)) = result else {
            failed += 1;
            continue;
        };
        let mut r3 = hlslc::compile(&text, &name, &o3, None);
        for _ in 1..repeat {
            let again = hlslc::compile(&text, &name, &o3, None);
            if again.times.total() < r3.times.total() {
                r3 = again;
            }
        }
        let (compile, opt) = (r3.times.total(), r3.times.get(Phase::Optimize));
        match r3.output.as_ref().filter(|_| r3.succeeded()) {
            // The header's generator and bound may differ; the module after it may not.
            Some(out3) if words(out3).get(5..) == optimized.get(5..) => {}
            Some(out3) => {
                let w3 = words(out3);
                let at = w3.iter().zip(&optimized).position(|(a, b)| a != b).unwrap_or(w3.len().min(optimized.len()));
                if mismatched.is_empty() {
                    eprintln!("{name}: first difference at word {at} of {} / {}", w3.len(), optimized.len());
                }
                mismatched.push(name.clone())
            }
            None => mismatched.push(name.clone()),
        }
        for (k, t) in per_pass.into_iter().enumerate() {
            pass_time[k] += t;
        }
        rows.push(Row { name, size0, size3: optimized.len(), compile, opt });
    }
    if rows.is_empty() {
        println!("opt_bench: no sample compiled (corpus at {}?)", dirs[0].display());
        return;
    }
    let mut ratios: Vec<f64> = rows.iter().map(|r| r.size3 as f64 / r.size0 as f64).collect();
    ratios.sort_by(f64::total_cmp);
    let median = ratios[ratios.len() / 2];
    let (s0, s3): (usize, usize) = (rows.iter().map(|r| r.size0).sum(), rows.iter().map(|r| r.size3).sum());
    let compile: Duration = rows.iter().map(|r| r.compile).sum();
    let opt: Duration = rows.iter().map(|r| r.opt).sum();
    let mut shares: Vec<f64> = rows.iter().map(|r| r.opt.as_secs_f64() / r.compile.as_secs_f64()).collect();
    shares.sort_by(f64::total_cmp);
    for r in &rows {
        let short = r.name.rsplit('/').next().unwrap_or(&r.name);
        println!(
            "{short:50} {:>7} -> {:>7} words ({:.2}x)  -O3 compile {:>8.2?}  of which opt {:>8.2?}",
            r.size0,
            r.size3,
            r.size3 as f64 / r.size0 as f64,
            r.compile,
            r.opt
        );
    }
    println!("files: {} compiled, {failed} did not compile at -O0", rows.len());
    println!("size -O3/-O0: median {median:.3}, total {s3}/{s0} words = {:.3}", s3 as f64 / s0 as f64);
    println!(
        "optimizer share of -O3 compile time: total {:.1}% ({opt:.2?} of {:.2?}), median per file {:.1}%",
        100.0 * opt.as_secs_f64() / compile.as_secs_f64(),
        compile,
        100.0 * shares[shares.len() / 2]
    );
    let passes: Vec<String> =
        hlslc_spirv_opt::PIPELINE.iter().zip(&pass_time).map(|(p, t)| format!("{p:?} {:.1}ms", t.as_secs_f64() * 1e3)).collect();
    println!("time per pass (all files): {}", passes.join(", "));
    if !mismatched.is_empty() {
        println!("-O3 output differs from optimizing the -O0 output for {} files: {:?}", mismatched.len(), mismatched);
        std::process::exit(1);
    }
}
