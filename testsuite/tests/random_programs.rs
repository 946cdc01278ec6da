//! Random programs with their own oracle: `randprog/randprog.py` writes well-typed HLSL compute
//! shaders and, evaluating HLSL's semantics itself, the buffers they must leave; each is compiled by
//! hlslc and run on the Vulkan device like the execution tests.
//!
//! CI runs a fixed range of seeds (`HLSLC_RANDOM_SEEDS=FROM..TO` picks others, e.g. `0..10000` for
//! a long run). A failing seed is reproduced with
//! `python3 testsuite/randprog/randprog.py --seed N --print` and shrunk with `randprog/reduce.py`.
//!
//! `HLSLC_RANDOM_DXIL=1` runs each program through DXIL instead (hlslc's container, dxil-spirv,
//! the same buffers; see `exec::dxil`), once, as DXIL has no optimization levels of its own here;
//! the generator then expects DXIL's layouts (`randprog.py --dxil`).

use hlslc_testsuite::exec::{device::open_gpu, discover, dxil, run_case, Outcome, OPT_LEVELS};
use hlslc_testsuite::{package_dir, Hlslc, TempDir};
use std::path::PathBuf;
use std::process::Command;

const DEFAULT_SEEDS: (u64, u64) = (0, 60);

/// The runs of one program: each optimization level through SPIR-V, or one run through DXIL.
fn runs(spec: &std::path::Path, hlslc: &Hlslc, gpu: Option<&hlslc_testsuite::exec::vulkan::Gpu>) -> Vec<(&'static str, Outcome)> {
    if std::env::var_os("HLSLC_RANDOM_DXIL").is_some() {
        if hlslc_testsuite::tools::dxil_spirv().is_none() {
            return vec![("dxil", Outcome::Fail("HLSLC_RANDOM_DXIL is set but dxil-spirv is not found".into()))];
        }
        return vec![("dxil", dxil::run_case(spec, hlslc, gpu))];
    }
    OPT_LEVELS.iter().map(|&opt| (opt, run_case(spec, hlslc, gpu, opt))).collect()
}

fn seeds() -> (u64, u64) {
    let Ok(v) = std::env::var("HLSLC_RANDOM_SEEDS") else { return DEFAULT_SEEDS };
    let (a, b) = v.split_once("..").expect("HLSLC_RANDOM_SEEDS=FROM..TO");
    (a.parse().expect("FROM"), b.parse().expect("TO"))
}

/// `HLSLC_RANDOM_CASES=DIR` runs the cases already in DIR (the reducer's candidates).
fn run_folder(dir: &std::path::Path) {
    let hlslc = Hlslc::via_conformance(PathBuf::from(env!("CARGO_BIN_EXE_conformance")));
    let gpu = open_gpu();
    let mut failures = Vec::new();
    for spec in discover(dir) {
        for (opt, outcome) in runs(&spec, &hlslc, gpu.as_ref()) {
            match outcome {
                Outcome::Pass | Outcome::Skipped(_) | Outcome::NotApplicable(_) => {}
                Outcome::Pending(why) | Outcome::Fail(why) => failures.push(format!("{} {opt}: {why}", spec.display())),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The programs reduced from failures (`randprog/regressions/`, each shrunk by `reduce.py` with the
/// evaluator's expectations): run by default, and not again in every process of a long seeded run.
#[test]
fn reduced_failures_compute_what_the_evaluator_computes() {
    if std::env::var_os("HLSLC_RANDOM_CASES").is_some() || std::env::var_os("HLSLC_RANDOM_SEEDS").is_some() {
        return;
    }
    let dir = package_dir().join("randprog/regressions");
    assert!(discover(&dir).len() >= 4, "the reduced programs are missing from {}", dir.display());
    run_folder(&dir);
}

#[test]
fn random_programs_compute_what_the_evaluator_computes() {
    if let Some(dir) = std::env::var_os("HLSLC_RANDOM_CASES") {
        return run_folder(std::path::Path::new(&dir));
    }
    let (from, to) = seeds();
    let dir = TempDir::new("randprog");
    let gen = package_dir().join("randprog/randprog.py");
    let status = Command::new("python3")
        .arg(&gen)
        .args(["--seeds", &from.to_string(), &to.to_string(), "--out"])
        .arg(dir.path())
        .args(std::env::var_os("HLSLC_RANDOM_DXIL").map(|_| "--dxil"))
        .status();
    match status {
        Ok(s) if s.success() => {}
        Ok(s) => panic!("randprog.py failed: {s}"),
        Err(e) => {
            println!("random programs skipped: cannot run python3 ({e})");
            return;
        }
    }
    let hlslc = Hlslc::via_conformance(PathBuf::from(env!("CARGO_BIN_EXE_conformance")));
    let gpu = open_gpu();
    let (mut passed, mut skipped, mut failures) = (0, 0, Vec::new());
    // Each program runs unoptimized and optimized (or once through DXIL).
    let mut total = 0;
    for seed in from..to {
        let spec = dir.path().join(format!("rand.{seed}.spec"));
        for (opt, outcome) in runs(&spec, &hlslc, gpu.as_ref()) {
            total += 1;
            match outcome {
                Outcome::Pass => passed += 1,
                Outcome::Skipped(_) | Outcome::NotApplicable(_) => skipped += 1,
                // The generator uses only what hlslc compiles: "not implemented yet" is a failure too.
                Outcome::Pending(why) | Outcome::Fail(why) => {
                    let first: String = why.lines().take(6).collect::<Vec<_>>().join("\n");
                    // Printed at once too, so that a run stopped by a time limit still tells.
                    println!("FAIL seed {seed} {opt}: {first}");
                    failures.push(format!("seed {seed} {opt}: {first}"));
                }
            }
        }
        if (seed - from + 1) % 50 == 0 {
            println!("progress {from}..{}: {passed} passed, {} failed, {skipped} compiled only", seed + 1, failures.len());
        }
    }
    println!("random programs {from}..{to}: {passed} passed, {} failed, {skipped} compiled only", failures.len());
    assert!(failures.is_empty(), "{} of {} random program runs failed:\n{}", failures.len(), total, failures.join("\n"));
}
