//! Execution tests: compute shaders run on a Vulkan device (lavapipe in CI) and their buffers are
//! compared with independently computed values. Cases whose `.hlsl` hlslc cannot compile yet are
//! reported as pending; once hlslc compiles one, it must run correctly.

use hlslc_testsuite::exec::{device::open_gpu, discover, execute, is_hlsl, mutate, prepare, run_case, Outcome, OPT_LEVELS};
use hlslc_testsuite::{package_dir, Hlslc};
use std::path::{Path, PathBuf};

fn hlslc() -> Hlslc {
    Hlslc::via_conformance(PathBuf::from(env!("CARGO_BIN_EXE_conformance")))
}

#[test]
fn exec_cases() {
    let hlslc = hlslc();
    let cases = discover(&package_dir().join("exec"));
    assert!(cases.len() >= 3, "exec cases missing");
    let gpu = open_gpu();
    let (mut passed, mut pending, mut skipped, mut failures) = (0, 0, 0, Vec::new());
    for case in &cases {
        let stem = case.file_stem().unwrap().to_string_lossy().into_owned();
        // HLSL cases run unoptimized and optimized, and both must give the expected buffers;
        // hand-written SPIR-V cases run once.
        let levels: &[&str] = if is_hlsl(case) { &OPT_LEVELS } else { &OPT_LEVELS[..1] };
        for &opt in levels {
            let name = if is_hlsl(case) { format!("{stem} {opt}") } else { stem.clone() };
            match run_case(case, &hlslc, gpu.as_ref(), opt) {
                Outcome::Pass => {
                    println!("PASS     {name}");
                    passed += 1;
                }
                Outcome::Pending(why) => {
                    println!("PENDING  {name}: {why}");
                    pending += 1;
                }
                Outcome::Skipped(why) | Outcome::NotApplicable(why) => {
                    println!("SKIPPED  {name}: {why}");
                    skipped += 1;
                }
                Outcome::Fail(why) => {
                    println!("FAIL     {name}");
                    failures.push(format!("=== {name}\n{why}"));
                }
            }
        }
    }
    println!("exec: {passed} passed, {pending} pending (hlslc cannot compile them yet), {skipped} skipped, {} failed", failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    if gpu.is_some() && hlslc_testsuite::tools::spirv_tool("spirv-as").is_some() {
        assert!(passed >= 2, "the hand-written harness cases must pass on a device");
    }
}

/// The mutation check mutates the unoptimized code (the emitter's output, which it measures).
const MUTANTS_OPT: &str = "-O0";

/// Set in a child run of this test binary: the case whose mutants `mutants_child` runs.
const CHILD_CASE: &str = "HLSLC_EXEC_MUTANTS_CASE";
/// ... and the first site to try.
const CHILD_FROM: &str = "HLSLC_EXEC_MUTANTS_FROM";

/// Runs in a child process (see `exec_mutants`): every mutant of one case from a given site on,
/// printing `SITE <i> killed|survived` after each, so that a mutant that crashes the driver (an
/// out-of-bounds groupshared access can) ends only the child.
#[test]
fn mutants_child() {
    let Some(case) = std::env::var_os(CHILD_CASE) else { return };
    let from: usize = std::env::var(CHILD_FROM).ok().and_then(|v| v.parse().ok()).unwrap_or(0);
    let gpu = open_gpu().expect("a device");
    let tmp = hlslc_testsuite::TempDir::new("mutants");
    let Ok((spec, code)) = prepare(Path::new(&case), &hlslc(), tmp.path(), MUTANTS_OPT) else { panic!("case does not compile") };
    let sites = mutate::sites(&code);
    println!("SITES {}", sites.len());
    for (i, &site) in sites.iter().enumerate().skip(from) {
        let killed = mutate::apply(&code, site).is_none_or(|m| execute(&spec, &m, &gpu) != Outcome::Pass);
        println!("SITE {i} {}", if killed { "killed" } else { "survived" });
        let _ = std::io::Write::flush(&mut std::io::stdout());
    }
}

/// Every mutant of one case, in child processes: (killed, total, surviving site numbers). A
/// child that dies (a crash is a detected change) counts the site it was on as killed.
fn case_mutants(case: &Path) -> (usize, usize, Vec<usize>) {
    let (mut killed, mut total, mut survivors, mut from) = (0, None, Vec::new(), 0);
    loop {
        let out = std::process::Command::new(std::env::current_exe().expect("test binary"))
            .args(["--exact", "mutants_child", "--nocapture", "--test-threads", "1"])
            .env(CHILD_CASE, case)
            .env(CHILD_FROM, from.to_string())
            .output()
            .expect("child runs");
        let text = String::from_utf8_lossy(&out.stdout);
        let mut last = None;
        for line in text.lines() {
            let w: Vec<&str> = line.split_whitespace().collect();
            match w[..] {
                ["SITES", n] => total = n.parse::<usize>().ok(),
                ["SITE", i, verdict] => {
                    let i: usize = i.parse().unwrap_or(0);
                    last = Some(i);
                    if verdict == "killed" {
                        killed += 1;
                    } else {
                        survivors.push(i);
                    }
                }
                _ => {}
            }
        }
        let total = total.expect("the child reports its sites");
        let next = last.map_or(from, |i| i + 1);
        if out.status.success() || next >= total {
            return (killed, total, survivors);
        }
        killed += 1; // the child died on site `next`
        from = next + 1;
        if from >= total {
            return (killed, total, survivors);
        }
    }
}

/// Mutation check (issue #6: each case fails if the compiler's output computes something else):
/// every mutant of every HLSL case (see `exec::mutate`) runs; each case must kill at least one,
/// and at least 80% of all mutants must be killed. Survivors are listed, as they point at what a
/// case does not check.
#[test]
fn exec_mutants() {
    let hlslc = hlslc();
    let Some(gpu) = open_gpu() else { return };
    let (mut killed, mut total, mut weak) = (0, 0, Vec::new());
    for case in discover(&package_dir().join("exec")).iter().filter(|c| is_hlsl(c)) {
        let name = case.file_stem().unwrap().to_string_lossy().into_owned();
        let tmp = hlslc_testsuite::TempDir::new("mutants");
        let Ok((spec, code)) = prepare(case, &hlslc, tmp.path(), MUTANTS_OPT) else { continue };
        if execute(&spec, &code, &gpu) != Outcome::Pass {
            continue; // exec_cases reports it
        }
        let (k, n, survivors) = case_mutants(case);
        println!("{name}: {k} of {n} mutants killed; surviving sites {survivors:?}");
        if k == 0 {
            weak.push(name);
        }
        killed += k;
        total += n;
    }
    println!("mutants: {killed} of {total} killed");
    assert!(weak.is_empty(), "cases that no mutant makes fail: {weak:?}");
    assert!(killed * 10 >= total * 8, "only {killed} of {total} mutants killed");
}

/// The `.hlsl` cases a second time through DXIL: hlslc's container, dxil-spirv, the same buffers
/// and expectations (see `exec::dxil`). Skipped with a message when dxil-spirv is not built.
/// Cases listed in `exec/dxil-passing.txt` (a ratchet: it may only grow) must pass; the others
/// are reported.
#[test]
fn exec_cases_through_dxil() {
    if hlslc_testsuite::tools::dxil_spirv().is_none() {
        println!("exec (DXIL): skipped: dxil-spirv not found (.ci/run builds it into target/dxil-spirv)");
        return;
    }
    let hlslc = hlslc();
    let dir = package_dir().join("exec");
    let ratchet_path = dir.join("dxil-passing.txt");
    let ratchet_text = std::fs::read_to_string(&ratchet_path).unwrap_or_default();
    // The file's leading comment (what is not expected to pass, and why) survives an update.
    let header: String = ratchet_text.lines().take_while(|l| l.starts_with('#')).map(|l| format!("{l}\n")).collect();
    let ratchet: Vec<String> = ratchet_text
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let gpu = open_gpu();
    let (mut passed, mut total, mut problems, mut regressions) = (Vec::new(), 0, Vec::new(), Vec::new());
    let mut not_applicable = Vec::new();
    for case in discover(&dir).iter().filter(|c| is_hlsl(c)) {
        let name = case.file_stem().unwrap().to_string_lossy().into_owned();
        total += 1;
        let outcome = hlslc_testsuite::exec::dxil::run_case(case, &hlslc, gpu.as_ref());
        match &outcome {
            Outcome::Pass => {
                println!("PASS     {name}");
                passed.push(name.clone());
            }
            Outcome::NotApplicable(why) => {
                // Counted apart, never as passing: the spec says why DXIL cannot run it.
                println!("N/A      {name}: {why}");
                not_applicable.push(name.clone());
                if ratchet.contains(&name) {
                    regressions.push(format!("=== {name} (in dxil-passing.txt) is now marked not applicable to DXIL: {why}"));
                }
            }
            other => {
                let (tag, why) = match other {
                    Outcome::Fail(w) => ("FAIL", w.clone()),
                    Outcome::Pending(w) => ("PENDING", w.clone()),
                    Outcome::Skipped(w) => ("SKIPPED", w.clone()),
                    Outcome::Pass | Outcome::NotApplicable(_) => unreachable!(),
                };
                let first = why.lines().next().unwrap_or("").to_string();
                println!("{tag:<8} {name}: {first}");
                problems.push(format!("=== {name}\n{why}"));
                if ratchet.contains(&name) {
                    regressions.push(format!("=== {name} (in dxil-passing.txt)\n{why}"));
                }
            }
        }
    }
    println!(
        "exec (DXIL): {} of {} HLSL cases pass through hlslc's DXIL and dxil-spirv; {} of {total} not applicable to DXIL ({})",
        passed.len(),
        total - not_applicable.len(),
        not_applicable.len(),
        not_applicable.join(", ")
    );
    if std::env::var_os("HLSLC_EXEC_DXIL_DETAILS").is_some() {
        println!("{}", problems.join("\n"));
    }
    if std::env::var_os("HLSLC_UPDATE_RATCHET").is_some() && gpu.is_some() {
        let mut all: Vec<String> = ratchet.iter().cloned().chain(passed.iter().cloned()).collect();
        all.sort();
        all.dedup();
        let header = if header.is_empty() {
            "# HLSL execution cases that pass through DXIL (hlslc -Fo, dxil-spirv, Vulkan).\n# A ratchet: it may only grow (HLSLC_UPDATE_RATCHET=1 adds newly passing cases).\n".to_string()
        } else {
            header
        };
        let text = format!("{header}{}\n", all.join("\n"));
        std::fs::write(&ratchet_path, text).unwrap();
    }
    if gpu.is_some() {
        assert!(regressions.is_empty(), "{}", regressions.join("\n"));
    }
}
