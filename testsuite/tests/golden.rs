//! Golden tests: every `golden/*.hlsl` case compared with its expected outputs. `BLESS=1` rewrites
//! the expectations from the current compiler (check the diff before committing).

use hlslc_testsuite::golden::{discover, run_case, CaseResult};
use hlslc_testsuite::{package_dir, Hlslc};
use std::path::PathBuf;

#[test]
fn golden_cases() {
    let hlslc = Hlslc::via_conformance(PathBuf::from(env!("CARGO_BIN_EXE_conformance")));
    let bless = std::env::var_os("BLESS").is_some_and(|v| v != "0" && !v.is_empty());
    let cases = discover(&package_dir().join("golden"));
    assert!(!cases.is_empty(), "no golden cases");
    let mut failures = Vec::new();
    let (mut passed, mut skipped) = (0, 0);
    for case in &cases {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        match run_case(case, &hlslc, bless) {
            CaseResult::Pass => passed += 1,
            CaseResult::Blessed => println!("blessed {name}"),
            CaseResult::Skipped(why) => {
                println!("golden: {name} skipped: {why}");
                skipped += 1;
            }
            CaseResult::Fail(report) => failures.push(format!("=== {name}\n{report}")),
        }
    }
    println!("golden: {passed} passed, {skipped} skipped, {} failed of {}", failures.len(), cases.len());
    assert!(
        failures.is_empty(),
        "{}\n{} golden case(s) failed; if the new output is right, run: BLESS=1 cargo test -p hlslc-testsuite --test golden",
        failures.join("\n"),
        failures.len()
    );
}
