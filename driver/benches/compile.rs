//! Whole-compile benchmarks (a bench binary, not a timed test):
//!
//! ```sh
//! cargo bench -p hlslc --bench compile                 # in process: shaders/s/core, phases
//! cargo bench -p hlslc --bench compile -- --process    # whole hlslc process: CPU time, peak RSS
//! cargo bench -p hlslc --bench compile -- --memory     # peak memory per source byte, 1/10 MB
//! cargo bench -p hlslc --bench compile -- --memory-100 # the same with a 100 MB source too
//! cargo bench -p hlslc --bench compile -- --threads    # library compiles/s on 1 and 2 threads
//! cargo bench -p hlslc --bench compile -- --reload     # hot reload: recompile after an include edit
//! ```
//!
//! Shaders: `examples/*.hlsl` and DXC's `HLSLFileCheck/samples` (MiniEngine, d3d11) when the corpus
//! is beside the checkout, each with the profile and entry of its first RUN line. `HLSLC_BENCH_ITERS`
//! sets the repetitions (default 15).

use hlslc::timing::{Phase, PhaseTimes};
use hlslc::{compile, Compiler, Options, OutputKind, Profile};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

struct Shader {
    path: PathBuf,
    source: String,
    profile: String,
    entry: String,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// `-T` and `-E` of the first `%dxc` RUN line (defaults: none, `main`).
fn run_line_target(source: &str) -> Option<(String, String)> {
    let line = source.lines().find(|l| l.contains("RUN:") && l.contains("dxc"))?;
    let words: Vec<&str> = line.split_whitespace().collect();
    let value = |flag: &str| {
        words.iter().enumerate().find_map(|(i, w)| {
            if *w == flag {
                words.get(i + 1).map(|s| s.to_string())
            } else {
                w.strip_prefix(flag).filter(|r| !r.is_empty() && flag.len() == 2).map(|s| s.to_string())
            }
        })
    };
    Some((value("-T")?, value("-E").unwrap_or_else(|| "main".into())))
}

/// DXC's corpus: `$HLSLC_CORPUS`, or `shared/corpus/dxc` beside the checkout or beside one of its parents (a git
/// worktree may sit deeper than the main checkout).
fn corpus() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("HLSLC_CORPUS").map(PathBuf::from).filter(|p| p.is_dir()) {
        return Some(dir);
    }
    root().ancestors().map(|a| a.join("shared/corpus/dxc")).find(|p| p.is_dir())
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e == "hlsl") {
            out.push(p);
        }
    }
}

fn shaders() -> Vec<Shader> {
    let mut list = Vec::new();
    for (file, profile, entry) in [("examples/triangle.hlsl", "ps_6_0", "main"), ("examples/compute.hlsl", "cs_6_0", "main")] {
        let path = root().join(file);
        if let Ok(source) = std::fs::read_to_string(&path) {
            list.push(Shader { path, source, profile: profile.into(), entry: entry.into() });
        }
    }
    let mut files = Vec::new();
    if let Some(corpus) = corpus() {
        collect(&corpus.join("HLSLFileCheck/samples"), &mut files);
    }
    for path in files {
        let Ok(source) = std::fs::read_to_string(&path) else { continue };
        if let Some((profile, entry)) = run_line_target(&source) {
            if !profile.starts_with("lib") {
                list.push(Shader { path, source, profile, entry });
            }
        }
    }
    list
}

fn options(s: &Shader, spirv: bool) -> Option<Options> {
    let mut o = Options::for_profile(Profile::parse(&s.profile)?);
    o.entry = s.entry.clone();
    o.spirv = spirv;
    // DXIL: the printed module, until the container is written.
    o.output_kind = if spirv { OutputKind::Binary } else { OutputKind::Text };
    // What `hlslc ... -Fo` does: no reflection unless asked for (`-Fre`).
    o.reflect = false;
    if let Some(dir) = s.path.parent() {
        o.include_dirs.push(dir.to_path_buf());
    }
    Some(o)
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn in_process(iters: usize) {
    let list = shaders();
    println!("in-process compile, {} shaders found, {iters} iterations each", list.len());
    for (label, spirv) in [("SPIR-V", true), ("DXIL text", false)] {
        let mut medians = Vec::new();
        let mut phases = PhaseTimes::default();
        let mut failed = 0;
        for s in &list {
            let Some(o) = options(s, spirv) else { continue };
            let name = s.path.to_string_lossy();
            let first = compile(&s.source, &name, &o, None);
            if !first.succeeded() {
                failed += 1;
                continue;
            }
            let mut times = Vec::with_capacity(iters);
            for _ in 0..iters {
                let start = Instant::now();
                let r = compile(&s.source, &name, &o, None);
                times.push(start.elapsed());
                phases.accumulate(&r.times);
                std::hint::black_box(r.output);
            }
            medians.push(median(&mut times));
        }
        if medians.is_empty() {
            println!("{label}: nothing compiled");
            continue;
        }
        let total: Duration = medians.iter().sum();
        let med = median(&mut medians.clone());
        println!(
            "{label}: {} shaders compiled ({failed} refused); median shader {:.3} ms = {:.0} shaders/s/core; \
             all shaders once {:.1} ms",
            medians.len(),
            med.as_secs_f64() * 1e3,
            1.0 / med.as_secs_f64(),
            total.as_secs_f64() * 1e3
        );
        let sum = phases.total().as_secs_f64();
        let shares: Vec<String> = Phase::ALL
            .iter()
            .map(|p| format!("{} {:.1}%", p.name(), 100.0 * phases.get(*p).as_secs_f64() / sum.max(1e-12)))
            .collect();
        println!("  phases: {}", shares.join(", "));
    }
}

/// CPU time (user + system) and peak RSS (KiB) of a child process.
#[cfg(unix)]
fn run_measured(cmd: &mut Command) -> (Duration, u64, bool) {
    use std::os::unix::process::ExitStatusExt;
    let child = cmd.stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null()).spawn().expect("spawn hlslc");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waiting for our own child, with valid pointers.
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut ru) };
    assert_eq!(r, pid, "wait4");
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    let ok = std::process::ExitStatus::from_raw(status).success();
    (tv(ru.ru_utime) + tv(ru.ru_stime), ru.ru_maxrss as u64, ok)
}

fn whole_process(iters: usize) {
    let exe = env!("CARGO_BIN_EXE_hlslc");
    // A typical ~200-line pixel shader: the largest MiniEngine pixel shader under 250 lines.
    let list = shaders();
    let pick = list
        .iter()
        .filter(|s| s.profile.starts_with("ps") && s.source.lines().count() <= 250)
        .max_by_key(|s| s.source.lines().count())
        .or_else(|| list.first());
    let Some(s) = pick else {
        println!("no shader to run");
        return;
    };
    let out = std::env::temp_dir().join(format!("hlslc-bench-{}.spv", std::process::id()));
    let args = |spirv: bool| {
        let mut a: Vec<String> = vec!["-T".into(), s.profile.clone(), "-E".into(), s.entry.clone()];
        if spirv {
            a.push("-spirv".into());
            a.push("-Fo".into());
            a.push(out.to_string_lossy().into_owned());
        }
        if let Some(dir) = s.path.parent() {
            a.push("-I".into());
            a.push(dir.to_string_lossy().into_owned());
        }
        a.push(s.path.to_string_lossy().into_owned());
        a
    };
    println!("whole process: {} ({} lines), {iters} runs", s.path.display(), s.source.lines().count());
    for (label, a) in [("--version", vec!["--version".to_string()]), ("-spirv -Fo", args(true)), ("DXIL text", args(false))] {
        let mut cpu = Vec::new();
        let mut rss = 0;
        let mut ok = true;
        for _ in 0..iters {
            let (t, kb, success) = run_measured(Command::new(exe).args(&a));
            cpu.push(t);
            rss = rss.max(kb);
            ok &= success;
        }
        println!(
            "  {label}: median CPU {:.2} ms, peak RSS {:.1} MiB{}",
            median(&mut cpu).as_secs_f64() * 1e3,
            rss as f64 / 1024.0,
            if ok { "" } else { " (exit status non-zero)" }
        );
    }
    let _ = std::fs::remove_file(out);
}

/// A generated compute shader of about `bytes` bytes: many small functions, all called.
fn generated_source(bytes: usize) -> String {
    let mut s = String::from("RWStructuredBuffer<float> Out : register(u0);\n");
    let mut n = 0;
    while s.len() < bytes {
        s.push_str(&format!(
            "float f{n}(float x) {{ float y = x * {n}.5 + 1.0; if (y > 3.0) {{ y = sqrt(y) - x; }} return y * 0.5; }}\n"
        ));
        n += 1;
    }
    s.push_str("[numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) {\n  float a = id.x;\n");
    for i in (0..n).step_by((n / 64).max(1)) {
        s.push_str(&format!("  a = f{i}(a);\n"));
    }
    s.push_str("  Out[id.x] = a;\n}\n");
    s
}

fn memory(sizes: &[usize]) {
    let exe = env!("CARGO_BIN_EXE_hlslc");
    println!("peak memory per source byte (generated compute shaders, -spirv -Fo)");
    for &mb in sizes {
        let dir = std::env::temp_dir();
        let src = dir.join(format!("hlslc-bench-mem-{mb}.hlsl"));
        let out = dir.join(format!("hlslc-bench-mem-{mb}.spv"));
        let text = generated_source(mb << 20);
        std::fs::write(&src, &text).unwrap();
        let start = Instant::now();
        let (cpu, kb, ok) = run_measured(
            Command::new(exe).args(["-T", "cs_6_0", "-E", "main", "-spirv", "-Fo"]).arg(&out).arg(&src),
        );
        println!(
            "  {mb} MB: peak RSS {:.0} MiB = {:.1} bytes/source byte, CPU {:.2} s, wall {:.2} s, {}",
            kb as f64 / 1024.0,
            (kb * 1024) as f64 / text.len() as f64,
            cpu.as_secs_f64(),
            start.elapsed().as_secs_f64(),
            if ok { "compiled" } else { "refused" }
        );
        let _ = std::fs::remove_file(src);
        let _ = std::fs::remove_file(out);
    }
}

/// The shaders that compile to SPIR-V, with their options.
fn spirv_jobs(list: &[Shader]) -> Vec<(String, &str, Options)> {
    list.iter()
        .filter_map(|s| {
            let o = options(s, true)?;
            let name = s.path.to_string_lossy().into_owned();
            compile(&s.source, &name, &o, None).succeeded().then_some((name, s.source.as_str(), o))
        })
        .collect()
}

/// Compiles/s of the library with 1 and 2 threads: the same list of (shader, rounds) jobs taken
/// from a shared counter; best of 3 runs each (the machine is shared).
fn threads(iters: usize) {
    let list = shaders();
    let jobs = spirv_jobs(&list);
    if jobs.is_empty() {
        println!("no shader compiles");
        return;
    }
    let rounds = iters.max(2);
    let total = jobs.len() * rounds;
    println!("library throughput: {} SPIR-V shaders x {rounds} rounds = {total} compiles, {} CPUs available", jobs.len(), std::thread::available_parallelism().map_or(0, |n| n.get()));
    let mut rates = Vec::new();
    for n in [1usize, 2] {
        let mut best = f64::MAX;
        let mut best_cpu = 0.0;
        for _ in 0..3 {
            let next = std::sync::atomic::AtomicUsize::new(0);
            let cpu0 = process_cpu();
            let start = Instant::now();
            std::thread::scope(|sc| {
                for _ in 0..n {
                    sc.spawn(|| loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if i >= total {
                            break;
                        }
                        let (name, source, o) = &jobs[i % jobs.len()];
                        std::hint::black_box(compile(source, name, o, None).output);
                    });
                }
            });
            let wall = start.elapsed().as_secs_f64();
            if wall < best {
                best = wall;
                best_cpu = process_cpu() - cpu0;
            }
        }
        let rate = total as f64 / best;
        println!(
            "  {n} thread(s): {best:.2} s, {rate:.0} compiles/s; CPU {best_cpu:.2} s ({:.2} cores busy, {:.0} compiles per CPU-second)",
            best_cpu / best,
            total as f64 / best_cpu.max(1e-9)
        );
        rates.push(rate);
    }
    println!("  scaling 2 threads / 1 thread: {:.2}x", rates[1] / rates[0]);
}

/// CPU time (user + system) of this process so far, in seconds.
fn process_cpu() -> f64 {
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: a valid pointer to a rusage.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    tv(ru.ru_utime) + tv(ru.ru_stime)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

/// Hot reload: the samples copied to a temporary folder, all compiled; then one include file
/// widely used is edited and every shader is compiled again, as an engine without dependency
/// tracking does: plain `compile` (everything again) against one `Compiler` (only the shaders that
/// include the file again). Also a save that does not change the text.
fn reload(iters: usize) {
    let Some(corpus) = corpus() else {
        println!("no corpus: the reload bench needs HLSLFileCheck/samples");
        return;
    };
    let tmp = std::env::temp_dir().join(format!("hlslc-bench-reload-{}", std::process::id()));
    copy_dir(&corpus.join("HLSLFileCheck/samples"), &tmp);
    let mut files = Vec::new();
    collect(&tmp, &mut files);
    let list: Vec<Shader> = files
        .into_iter()
        .filter_map(|path| {
            let source = std::fs::read_to_string(&path).ok()?;
            let (profile, entry) = run_line_target(&source)?;
            (!profile.starts_with("lib")).then_some(Shader { path, source, profile, entry })
        })
        .collect();
    let jobs = spirv_jobs(&list);
    // The include file most of the compiling shaders include directly.
    let mut counts: std::collections::BTreeMap<String, usize> = Default::default();
    for (_, src, _) in &jobs {
        let mut seen = std::collections::BTreeSet::new();
        for line in src.lines() {
            if let Some(name) = line.trim().strip_prefix("#include").and_then(|r| r.trim().strip_prefix('"')).and_then(|r| r.split('"').next()) {
                if seen.insert(name.to_string()) {
                    *counts.entry(name.to_string()).or_default() += 1;
                }
            }
        }
    }
    let Some((file_name, users)) = counts.into_iter().max_by_key(|(n, c)| (*c, std::cmp::Reverse(n.clone()))) else {
        println!("no shader includes a file");
        return;
    };
    let mut all_files = Vec::new();
    collect_all(&tmp, &mut all_files);
    let Some(include) = all_files.into_iter().filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy() == file_name)).min() else {
        println!("{file_name} not found");
        return;
    };
    println!("hot reload: {} SPIR-V shaders, edit {} (included directly by {users}); best of {} runs", jobs.len(), include.display(), iters.clamp(1, 5));
    let original = std::fs::read_to_string(&include).unwrap();
    let all = |c: Option<&Compiler>| {
        for (name, source, o) in &jobs {
            match c {
                Some(c) => std::hint::black_box(c.compile(source, name, o, None).output.is_some()),
                None => std::hint::black_box(compile(source, name, o, None).output.is_some()),
            };
        }
    };
    let mut best = [f64::MAX; 4];
    let mut recompiled = 0;
    for round in 0..iters.clamp(1, 5) {
        std::fs::write(&include, &original).unwrap();
        let compiler = Compiler::new();
        all(Some(&compiler));
        // An edit: the text changes.
        std::fs::write(&include, format!("{original}\n// edit {round}\n")).unwrap();
        let t = Instant::now();
        all(None);
        best[0] = best[0].min(t.elapsed().as_secs_f64());
        let before = compiler.stats().compiles;
        let t = Instant::now();
        all(Some(&compiler));
        best[1] = best[1].min(t.elapsed().as_secs_f64());
        recompiled = compiler.stats().compiles - before;
        // A save without a change.
        let text = std::fs::read(&include).unwrap();
        std::fs::write(&include, text).unwrap();
        let t = Instant::now();
        all(Some(&compiler));
        best[2] = best[2].min(t.elapsed().as_secs_f64());
        // One shader that includes the file, after another edit: compiled either way.
        if let Some((name, source, o)) = jobs.iter().find(|(_, src, _)| src.contains(file_name.as_str())) {
            std::fs::write(&include, format!("{original}\n// edit {round}b\n")).unwrap();
            let t = Instant::now();
            std::hint::black_box(compiler.compile(source, name, o, None).output.is_some());
            best[3] = best[3].min(t.elapsed().as_secs_f64());
        }
    }
    println!("  after an edit, every shader again with compile():  {:.1} ms", best[0] * 1e3);
    println!("  after an edit, every shader again with a Compiler: {:.1} ms ({recompiled} compiled, the rest reused)", best[1] * 1e3);
    println!("  after a save without change, with a Compiler:      {:.1} ms (0 compiled)", best[2] * 1e3);
    println!("  one shader that includes the edited file, Compiler: {:.2} ms", best[3] * 1e3);
    let _ = std::fs::remove_dir_all(&tmp);
}

/// Every file under `dir`.
fn collect_all(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for p in rd.flatten().map(|e| e.path()) {
        if p.is_dir() {
            collect_all(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let iters = std::env::var("HLSLC_BENCH_ITERS").ok().and_then(|v| v.parse().ok()).unwrap_or(15);
    let has = |f: &str| args.iter().any(|a| a == f);
    if has("--process") {
        whole_process(iters.max(5));
    } else if has("--memory") {
        memory(&[1, 10]);
    } else if has("--memory-100") {
        memory(&[1, 10, 100]);
    } else if has("--threads") {
        threads(iters.min(5));
    } else if has("--reload") {
        reload(iters);
    } else {
        in_process(iters);
    }
}
