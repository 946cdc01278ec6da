//! The DXC conformance ratchets, and tests of the runner itself on small synthetic lit folders.

use hlslc_testsuite::conformance::rejects::{self, expect::ErrorClass, Verdict};
use hlslc_testsuite::conformance::{ratchet, suite, Config, Mode, Outcome};
use hlslc_testsuite::{corpus_root, package_dir, Hlslc, TempDir};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn hlslc() -> Hlslc {
    Hlslc::via_conformance(PathBuf::from(env!("CARGO_BIN_EXE_conformance")))
}

fn config(root: &Path, mode: Mode) -> Config {
    let h = hlslc();
    let mut cfg = Config::new(h.program, root.to_path_buf(), mode);
    cfg.hlslc_env = h.env;
    cfg
}

/// Every `testsuite/ratchet/*.txt`: the files it lists still pass.
#[test]
fn ratchets_hold() {
    let corpus = corpus_root();
    if !corpus.is_dir() {
        println!("conformance: corpus not found at {}, skipped", corpus.display());
        return;
    }
    let dir = package_dir().join("ratchet");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("testsuite/ratchet exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no ratchet files in {}", dir.display());
    let mut failures = String::new();
    for file in files {
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        if stem.starts_with("roundtrip-") {
            continue; // checked by corpus_dxil_bitcode_round_trips
        }
        if let Some(suite_name) = stem.strip_prefix("rejects-") {
            check_rejects_ratchet(&corpus, &file, &suite_name.replace('.', "/"), &mut failures);
            continue;
        }
        let (mode, name) = match (stem.strip_prefix("syntax-"), stem.strip_prefix("validate-")) {
            (Some(s), _) => (Mode::SyntaxOnly, s.replace('.', "/")),
            // The files whose compiled SPIR-V passes spirv-val (`--validate`).
            (_, Some(s)) => (Mode::Validate, s.replace('.', "/")),
            _ => (Mode::Full, stem.replace('.', "/")),
        };
        if mode == Mode::Validate && !hlslc_testsuite::tools::spirv_tool("spirv-val").is_some() {
            println!("conformance: spirv-val not found, {} skipped", file.display());
            continue;
        }
        let (name, folder) = match suite::resolve(&name, &corpus) {
            Ok(x) => x,
            Err(e) => {
                failures.push_str(&format!("{}: {e}\n", file.display()));
                continue;
            }
        };
        let cfg = config(&corpus, mode);
        if mode == Mode::Full && cfg.filecheck.is_none() {
            println!("conformance: FileCheck not found, {} skipped", file.display());
            continue;
        }
        let run = suite::run(&name, &folder, &cfg, &|_, _| {}).expect("suite runs");
        let s = hlslc_testsuite::conformance::report::Summary::of(&run.results);
        println!(
            "{} ({:?}): {} pass / {} ran, {} crash, {} timeout, {} unsupported, {:.1}s",
            name,
            mode,
            s.total.get(Outcome::Pass),
            s.total.ran(),
            s.total.get(Outcome::Crash),
            s.total.get(Outcome::Timeout),
            s.total.get(Outcome::Unsupported),
            run.elapsed.as_secs_f64()
        );
        match suite::check(&run, &dir, mode) {
            Ok(note) => print!("{note}"),
            Err(report) => failures.push_str(&report),
        }
    }
    assert!(failures.is_empty(), "{failures}");
}

/// A `rejects-<suite>.txt` ratchet: the negative lines it lists are still rejected.
fn check_rejects_ratchet(corpus: &Path, file: &Path, name: &str, failures: &mut String) {
    let (name, folder) = match suite::resolve(name, corpus) {
        Ok(x) => x,
        Err(e) => {
            failures.push_str(&format!("{}: {e}\n", file.display()));
            return;
        }
    };
    let results = rejects::run_suite(&folder, &config(corpus, Mode::Full), &|_, _| {}).expect("suite runs");
    print!("{}", rejects::render(&name, &results, false));
    match rejects::check_ratchet(file, &name, &results) {
        Ok(note) => print!("{note}"),
        Err(report) => failures.push_str(&report),
    }
}

/// A lit folder written for the test.
struct Lit {
    dir: TempDir,
}

impl Lit {
    fn new(files: &[(&str, &str)]) -> Lit {
        let dir = TempDir::new("lit");
        for (name, text) in files {
            let p = dir.path().join("suite").join(name);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        Lit { dir }
    }
    fn run(&self, cfg: &Config) -> suite::SuiteRun {
        let (name, folder) = suite::resolve("suite", self.dir.path()).unwrap();
        assert_eq!(name, "suite");
        suite::run(&name, &folder, cfg, &|_, _| {}).unwrap()
    }
    fn outcome(run: &suite::SuiteRun, name: &str) -> Outcome {
        run.results.iter().find(|r| r.name == name).unwrap_or_else(|| panic!("{name} not run")).outcome
    }
}

const VALID: &str = "float4 main() : SV_Target { return 1; }\n";
const INVALID: &str = "float4 main() : SV_Target { return 1 }\n";

fn files() -> Vec<(&'static str, String)> {
    vec![
        ("a.ok.hlsl", format!("// RUN: %dxc -T ps_6_0 -E main -fsyntax-only %s\n{VALID}")),
        ("a.rejects.hlsl", format!("// RUN: not %dxc -T ps_6_0 -E main -fsyntax-only %s\n{INVALID}")),
        ("b.wrongly_negative.hlsl", format!("// RUN: not %dxc -T ps_6_0 -E main -fsyntax-only %s\n{VALID}")),
        ("b.bad.hlsl", format!("// RUN: %dxc -T ps_6_0 -E main -fsyntax-only %s\n{INVALID}")),
        ("c.newer.hlsl", format!("// RUN: %dxilver 1.99 | %dxc -T ps_6_0 %s\n{VALID}")),
        ("c.linker.hlsl", format!("// RUN: %dxc -T lib_6_3 %s -Fo %t\n// RUN: %dxl -T ps_6_0 %t\n{VALID}")),
        ("sub/d.pp.hlsl", format!("// RUN: %dxc -P -Fi %t.i %s\n// RUN: FileCheck --input-file=%t.i %s\n// CHECK: float4 main\n{VALID}")),
        ("sub/d.pipe.hlsl", format!("// RUN: not %dxc -T ps_6_0 -fsyntax-only %s 2>&1 | FileCheck %s\n// CHECK: error\n{INVALID}")),
        ("notes.txt", "// RUN: not a test\n".to_string()),
    ]
}

/// The runner classifies each kind of file as lit would, and a ratchet that lists a file that
/// cannot pass makes the check fail, naming the file.
#[test]
fn runner_classifies_and_ratchet_catches_regressions() {
    let owned = files();
    let lit = Lit::new(&owned.iter().map(|(n, t)| (*n, t.as_str())).collect::<Vec<_>>());
    let cfg = config(lit.dir.path(), Mode::Full);
    let run = lit.run(&cfg);
    assert_eq!(run.results.len(), 8, "{:?}", run.results.iter().map(|r| &r.name).collect::<Vec<_>>());
    let o = |n: &str| Lit::outcome(&run, n);
    assert_eq!(o("suite/a.ok.hlsl"), Outcome::Pass);
    assert_eq!(o("suite/a.rejects.hlsl"), Outcome::Pass);
    assert_eq!(o("suite/b.wrongly_negative.hlsl"), Outcome::Fail);
    assert_eq!(o("suite/b.bad.hlsl"), Outcome::Fail);
    assert_eq!(o("suite/c.newer.hlsl"), Outcome::Unsupported);
    assert_eq!(o("suite/c.linker.hlsl"), Outcome::Unsupported);
    if cfg.filecheck.is_some() {
        assert_eq!(o("suite/sub/d.pp.hlsl"), Outcome::Pass, "{:?}", run.results);
        assert_eq!(o("suite/sub/d.pipe.hlsl"), Outcome::Pass, "{:?}", run.results);
    }

    let rdir = TempDir::new("ratchet");
    let path = ratchet::path(rdir.path(), "suite", Mode::Full);
    std::fs::write(&path, "suite/a.ok.hlsl\n").unwrap();
    let note = suite::check(&run, rdir.path(), Mode::Full).expect("a passing ratchet holds");
    assert!(note.contains("--update-ratchet"), "{note}");
    std::fs::write(&path, "suite/a.ok.hlsl\nsuite/b.bad.hlsl\nsuite/gone.hlsl\n").unwrap();
    let err = suite::check(&run, rdir.path(), Mode::Full).expect_err("a file that cannot pass breaks the ratchet");
    assert!(err.contains("fail: suite/b.bad.hlsl") && err.contains("not found: suite/gone.hlsl"), "{err}");
    assert!(!err.contains("suite/a.ok.hlsl\n"), "{err}");
}

/// Syntax-only mode runs only the positive files, without FileCheck and outputs.
#[test]
fn syntax_only_mode_counts_positive_files() {
    let owned = files();
    let lit = Lit::new(&owned.iter().map(|(n, t)| (*n, t.as_str())).collect::<Vec<_>>());
    let run = lit.run(&config(lit.dir.path(), Mode::SyntaxOnly));
    let o = |n: &str| Lit::outcome(&run, n);
    assert_eq!(o("suite/a.ok.hlsl"), Outcome::Pass);
    assert_eq!(o("suite/a.rejects.hlsl"), Outcome::Negative);
    assert_eq!(o("suite/b.bad.hlsl"), Outcome::Fail);
    assert_eq!(o("suite/c.linker.hlsl"), Outcome::Pass, "the %dxl part is not run");
    assert_eq!(o("suite/sub/d.pp.hlsl"), Outcome::Pass, "-P and -Fi are dropped");
    assert_eq!(o("suite/c.newer.hlsl"), Outcome::Unsupported);
}

/// Syntax-only mode: a file without `not` whose CHECK lines all match hlslc's error messages
/// expects dxc to reject it (DXC's batch runner pipes a failed compile's messages to FileCheck),
/// so it is negative; CHECK lines that expect a compiled module, or only `-NOT` directives, leave
/// a rejected file failing.
#[test]
fn syntax_only_mode_reads_error_expectations() {
    let undeclared = "float4 main() : SV_Target { return foo; }\n";
    let lit = Lit::new(&[
        ("expects_error.hlsl", &format!("// RUN: %dxc -T ps_6_0 -E main %s | FileCheck %s\n// CHECK: use of undeclared identifier 'foo'\n{undeclared}")),
        ("expects_module.hlsl", &format!("// RUN: %dxc -T ps_6_0 -E main %s | FileCheck %s\n// CHECK: define void @main\n{undeclared}")),
        ("only_not.hlsl", &format!("// RUN: %dxc -T ps_6_0 -E main %s | FileCheck %s\n// CHECK-NOT: bitcast\n{undeclared}")),
        ("source_line.hlsl", &format!("// RUN: %dxc -T ps_6_0 -E main %s | FileCheck %s\n// CHECK: return foo\n{undeclared}")),
    ]);
    let cfg = config(lit.dir.path(), Mode::SyntaxOnly);
    if cfg.filecheck.is_none() {
        println!("FileCheck not found, skipped");
        return;
    }
    let run = lit.run(&cfg);
    let o = |n: &str| Lit::outcome(&run, n);
    assert_eq!(o("suite/expects_error.hlsl"), Outcome::Negative, "{:?}", run.results);
    assert_eq!(o("suite/expects_module.hlsl"), Outcome::Fail);
    assert_eq!(o("suite/only_not.hlsl"), Outcome::Fail);
    assert_eq!(o("suite/source_line.hlsl"), Outcome::Fail, "the quoted source line is not read");
}

/// A compiler that crashes, panics or hangs is classified so, through a stand-in script.
#[cfg(unix)]
#[test]
fn crashes_and_hangs_are_classified() {
    use std::os::unix::fs::PermissionsExt;
    let lit = Lit::new(&[
        ("segv.hlsl", "// RUN: %dxc -DMODE=segv %s\n"),
        ("panic.hlsl", "// RUN: not %dxc -DMODE=panic %s\n"),
        ("hang.hlsl", "// RUN: %dxc -DMODE=hang %s\n"),
    ]);
    let fake = lit.dir.path().join("fake-hlslc");
    std::fs::write(&fake, "#!/bin/sh\ncase \"$1\" in\n -DMODE=segv) kill -SEGV $$;;\n -DMODE=panic) exit 101;;\n *) exec sleep 30;;\nesac\n").unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut cfg = Config::new(fake, lit.dir.path().to_path_buf(), Mode::Full);
    cfg.timeout = Duration::from_millis(500);
    let run = lit.run(&cfg);
    assert_eq!(Lit::outcome(&run, "suite/segv.hlsl"), Outcome::Crash);
    assert_eq!(Lit::outcome(&run, "suite/panic.hlsl"), Outcome::Crash, "`not` does not hide a panic");
    assert_eq!(Lit::outcome(&run, "suite/hang.hlsl"), Outcome::Timeout);
}

/// The `conformance` binary as CI runs it: with `--check-ratchet` a deliberately broken ratchet
/// entry (a file that fails) makes the run exit 1 and name the file; the same run with a ratchet
/// that holds exits 0.
#[test]
fn broken_ratchet_entry_fails_the_run() {
    let owned = files();
    let lit = Lit::new(&owned.iter().map(|(n, t)| (*n, t.as_str())).collect::<Vec<_>>());
    let rdir = TempDir::new("ratchet-bin");
    let path = ratchet::path(rdir.path(), "suite", Mode::Full);
    let run = |ratchet: &str| {
        std::fs::write(&path, ratchet).unwrap();
        std::process::Command::new(env!("CARGO_BIN_EXE_conformance"))
            .arg("--corpus")
            .arg(lit.dir.path())
            .arg("--ratchet-dir")
            .arg(rdir.path())
            .args(["--check-ratchet", "--jobs", "2", "suite"])
            .output()
            .expect("conformance runs")
    };
    let good = run("suite/a.ok.hlsl\nsuite/a.rejects.hlsl\n");
    assert_eq!(good.status.code(), Some(0), "{}", String::from_utf8_lossy(&good.stdout));
    let bad = run("suite/a.ok.hlsl\nsuite/b.bad.hlsl\n");
    let out = String::from_utf8_lossy(&bad.stdout);
    assert_eq!(bad.status.code(), Some(1), "{out}");
    assert!(out.contains("suite/b.bad.hlsl"), "{out}");
}

/// Validate mode on a synthetic folder: a compute shader compiles to valid SPIR-V (also when its
/// RUN line has -fcgl and targets DXIL), a file hlslc rejects is counted apart, negative files
/// are not run.
#[test]
fn validate_mode_classifies() {
    if hlslc_testsuite::tools::spirv_tool("spirv-val").is_none() {
        println!("spirv-val not found, skipped");
        return;
    }
    const CS: &str = "RWStructuredBuffer<uint> B;\n[numthreads(1, 1, 1)] void main() { B[0] = 1; }\n";
    let lit = Lit::new(&[
        ("ok.hlsl", &format!("// RUN: %dxc -T cs_6_0 -E main -spirv -fcgl %s | FileCheck %s\n// CHECK: nothing\n{CS}")),
        ("dxil.hlsl", &format!("// RUN: %dxc -T cs_6_0 -E main %s | FileCheck %s\n{CS}")),
        ("bad.hlsl", "// RUN: %dxc -T cs_6_0 -E main -spirv %s\nvoid main( {\n"),
        ("neg.hlsl", &format!("// RUN: not %dxc -T cs_6_0 -E main -spirv %s\n{CS}")),
    ]);
    let run = lit.run(&config(lit.dir.path(), Mode::Validate));
    assert_eq!(Lit::outcome(&run, "suite/ok.hlsl"), Outcome::Pass, "{:?}", run.results);
    assert_eq!(Lit::outcome(&run, "suite/dxil.hlsl"), Outcome::Pass, "{:?}", run.results);
    assert_eq!(Lit::outcome(&run, "suite/bad.hlsl"), Outcome::NotCompiled);
    assert_eq!(Lit::outcome(&run, "suite/neg.hlsl"), Outcome::Negative);
}

/// Every DXIL module hlslc prints for the positive files of HLSLFileCheck and CodeGenDXIL parses
/// with LLVM 14's `llvm-as` (assemble mode), and no command crashes. The number of files that
/// compile is held to a floor so that a compiler that rejects everything cannot pass.
#[test]
fn corpus_dxil_assembles_with_llvm_as() {
    let corpus = corpus_root();
    if !corpus.is_dir() {
        println!("corpus not found at {}, skipped", corpus.display());
        return;
    }
    if hlslc_testsuite::tools::llvm_as().is_none() {
        println!("llvm-as (LLVM 14) not found, skipped");
        return;
    }
    const MIN_ASSEMBLED: usize = 1100;
    let cfg = config(&corpus, Mode::Assemble);
    let mut assembled = 0;
    let mut problems = String::new();
    for name in ["HLSLFileCheck", "CodeGenDXIL"] {
        let (name, folder) = suite::resolve(name, &corpus).expect("suite folder");
        let run = suite::run(&name, &folder, &cfg, &|_, _| {}).expect("suite runs");
        for r in &run.results {
            match r.outcome {
                Outcome::Pass => assembled += 1,
                Outcome::Fail | Outcome::Crash | Outcome::Timeout => {
                    problems.push_str(&format!("{}: {}\n    {}\n", r.outcome.name(), r.name, r.detail.replace('\n', "\n    ")))
                }
                _ => {}
            }
        }
    }
    println!("assemble: {assembled} files' DXIL assembled with llvm-as");
    assert!(problems.is_empty(), "DXIL text that llvm-as rejects, or a crash:\n{problems}");
    assert!(assembled >= MIN_ASSEMBLED, "only {assembled} files compiled to DXIL and assembled (floor {MIN_ASSEMBLED})");
}

/// Every DXIL module hlslc writes for the positive files of HLSLFileCheck and CodeGenDXIL reads
/// back with LLVM 14's `llvm-dis` to the listing hlslc prints (round-trip mode): the files
/// `testsuite/ratchet/roundtrip-<suite>.txt` lists keep round-tripping, and no command crashes.
#[test]
fn corpus_dxil_bitcode_round_trips() {
    let corpus = corpus_root();
    if !corpus.is_dir() {
        println!("corpus not found at {}, skipped", corpus.display());
        return;
    }
    if hlslc_testsuite::tools::llvm_dis().is_none() {
        println!("llvm-dis (LLVM 14) not found, skipped");
        return;
    }
    // The bitcode comes out of `-Fo`'s object file; until the driver writes one (the DXContainer)
    // there is nothing to read back.
    let h = hlslc();
    let tmp = TempDir::new("roundtrip-probe");
    std::fs::write(tmp.path().join("x.hlsl"), "[numthreads(1, 1, 1)] void main() {}\n").unwrap();
    let probe = std::process::Command::new(&h.program)
        .envs(h.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .args(["-T", "cs_6_0", "-E", "main", "x.hlsl", "-Fo", "x.dxil"])
        .current_dir(tmp.path())
        .output()
        .expect("hlslc runs");
    if String::from_utf8_lossy(&probe.stderr).contains("(-Fo) is not implemented") {
        println!("round-trip: hlslc does not write -Fo yet, skipped");
        return;
    }
    let cfg = config(&corpus, Mode::Roundtrip);
    let dir = package_dir().join("ratchet");
    let mut failures = String::new();
    for name in ["HLSLFileCheck", "CodeGenDXIL"] {
        let (name, folder) = suite::resolve(name, &corpus).expect("suite folder");
        let run = suite::run(&name, &folder, &cfg, &|_, _| {}).expect("suite runs");
        let count = |o: Outcome| run.results.iter().filter(|r| r.outcome == o).count();
        println!("round-trip {name}: {} same, {} differ, {} rejected by hlslc", count(Outcome::Pass), count(Outcome::Fail), count(Outcome::NotCompiled));
        for r in run.results.iter().filter(|r| matches!(r.outcome, Outcome::Crash | Outcome::Timeout)) {
            failures.push_str(&format!("{}: {}\n    {}\n", r.outcome.name(), r.name, r.detail.replace('\n', "\n    ")));
        }
        match suite::check(&run, &dir, Mode::Roundtrip) {
            Ok(note) => print!("{note}"),
            Err(report) => failures.push_str(&report),
        }
    }
    assert!(failures.is_empty(), "{failures}");
}

/// Round-trip mode on a synthetic folder, with a stand-in compiler that writes bitcode made by
/// `llvm-as` and a listing: the same module passes, a different listing fails naming the line,
/// an object file that is not bitcode fails, a refused compile is counted apart.
#[cfg(unix)]
#[test]
fn roundtrip_mode_classifies() {
    use std::os::unix::fs::PermissionsExt;
    let (Some(llvm_as), Some(_)) = (hlslc_testsuite::tools::llvm_as(), hlslc_testsuite::tools::llvm_dis()) else {
        println!("llvm-as/llvm-dis (LLVM 14) not found, skipped");
        return;
    };
    let lit = Lit::new(&[
        ("same.hlsl", "// RUN: %dxc -DMODE=same %s | FileCheck %s\n"),
        ("differ.hlsl", "// RUN: %dxc -DMODE=differ %s\n"),
        ("junk.hlsl", "// RUN: %dxc -DMODE=junk %s\n"),
        ("refused.hlsl", "// RUN: %dxc -DMODE=refuse %s\n"),
        ("spirv.hlsl", "// RUN: %dxc -DMODE=same -spirv %s\n"),
    ]);
    let module = "define i32 @main(i32 %a) {\n  %b = add i32 %a, 1\n  ret i32 %b\n}\n";
    std::fs::write(lit.dir.path().join("m.ll"), module).unwrap();
    std::fs::write(lit.dir.path().join("other.ll"), module.replace("add i32 %a, 1", "add i32 %a, 2")).unwrap();
    let fake = lit.dir.path().join("fake-hlslc");
    let d = lit.dir.path().display();
    let script = format!(
        "#!/bin/sh\nmode=$1; shift\nwhile [ $# -gt 0 ]; do case \"$1\" in -Fo) fo=$2; shift;; -Fc) fc=$2; shift;; esac; shift; done\n\
         case \"$mode\" in\n -DMODE=same) {asm} -o \"$fo\" {d}/m.ll && cp {d}/m.ll \"$fc\";;\n -DMODE=differ) {asm} -o \"$fo\" {d}/m.ll && cp {d}/other.ll \"$fc\";;\n -DMODE=junk) echo junk > \"$fo\"; cp {d}/m.ll \"$fc\";;\n *) echo 'error: no' >&2; exit 1;;\nesac\n",
        asm = llvm_as.display()
    );
    std::fs::write(&fake, script).unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let cfg = Config::new(fake, lit.dir.path().to_path_buf(), Mode::Roundtrip);
    let run = lit.run(&cfg);
    let o = |n: &str| Lit::outcome(&run, n);
    let detail = |n: &str| run.results.iter().find(|r| r.name == n).unwrap().detail.clone();
    assert_eq!(o("suite/same.hlsl"), Outcome::Pass, "{:?}", run.results);
    assert_eq!(o("suite/differ.hlsl"), Outcome::Fail);
    assert!(detail("suite/differ.hlsl").contains("add i32 %v0, 2"), "{}", detail("suite/differ.hlsl"));
    assert_eq!(o("suite/junk.hlsl"), Outcome::Fail);
    assert!(detail("suite/junk.hlsl").contains("neither a DXContainer nor bitcode"), "{}", detail("suite/junk.hlsl"));
    assert_eq!(o("suite/refused.hlsl"), Outcome::NotCompiled);
    assert_eq!(o("suite/spirv.hlsl"), Outcome::Unsupported);
}

/// Assemble mode on a synthetic folder, with a stand-in compiler: text that `llvm-as` parses
/// passes, text it rejects fails with its error, a refused compile is counted apart, SPIR-V
/// commands and negative files are not run.
#[cfg(unix)]
#[test]
fn assemble_mode_classifies() {
    use std::os::unix::fs::PermissionsExt;
    if hlslc_testsuite::tools::llvm_as().is_none() {
        println!("llvm-as (LLVM 14) not found, skipped");
        return;
    }
    let lit = Lit::new(&[
        ("good.hlsl", "// RUN: %dxc -DMODE=good -Fo %t.o %s | FileCheck %s\n"),
        ("bad.hlsl", "// RUN: %dxc -DMODE=bad %s\n"),
        ("refused.hlsl", "// RUN: %dxc -DMODE=refuse %s\n"),
        ("spirv.hlsl", "// RUN: %dxc -DMODE=bad -spirv %s\n"),
        ("neg.hlsl", "// RUN: not %dxc -DMODE=bad %s\n"),
    ]);
    let fake = lit.dir.path().join("fake-hlslc");
    let script = "#!/bin/sh\nfor a; do case \"$a\" in -Fo) echo 'output option kept' >&2; exit 3;; esac; done\ncase \"$1\" in\n -DMODE=good) echo 'define void @main() {'; echo '  ret void'; echo '}';;\n -DMODE=bad) echo 'define void @main( {';;\n *) echo 'error: no' >&2; exit 1;;\nesac\n";
    std::fs::write(&fake, script).unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let cfg = Config::new(fake, lit.dir.path().to_path_buf(), Mode::Assemble);
    let run = lit.run(&cfg);
    let o = |n: &str| Lit::outcome(&run, n);
    assert_eq!(o("suite/good.hlsl"), Outcome::Pass, "{:?}", run.results);
    assert_eq!(o("suite/bad.hlsl"), Outcome::Fail);
    let bad = run.results.iter().find(|r| r.name == "suite/bad.hlsl").unwrap();
    assert!(bad.detail.contains("error"), "{}", bad.detail);
    assert_eq!(o("suite/refused.hlsl"), Outcome::NotCompiled);
    assert_eq!(o("suite/spirv.hlsl"), Outcome::Unsupported);
    assert_eq!(o("suite/neg.hlsl"), Outcome::Negative);
}

/// Rejects mode on a synthetic folder: each `not` line is run as written and judged by exit code
/// and message, classed by the error its CHECK lines expect; positive lines are not run.
#[test]
fn rejects_mode_judges_and_classes_negative_lines() {
    let lit = Lit::new(&[
        (
            "a.hlsl",
            &format!(
                "// RUN: not %dxc -T ps_6_0 -E main %s 2>&1 | FileCheck %s\n// RUN: %dxc -T ps_6_0 -E main %s\n// RUN: not %dxc -T ps_6_0 -E nothere %s 2>&1 | FileCheck %s --check-prefix=VK\n// CHECK: error: unexpected '}}'\n// VK: error: no equivalent in Vulkan\n{INVALID}"
            ),
        ),
        ("b.hlsl", &format!("// RUN: not %dxc -T ps_6_0 -E main -spirv -Fo %t.o %s | FileCheck %s\n// CHECK: error: undeclared\n{VALID}")),
        ("c.hlsl", &format!("// REQUIRES: dxil-1-99\n// RUN: not %dxc -T ps_6_0 -E main %s\n{VALID}")),
    ]);
    let (_, folder) = suite::resolve("suite", lit.dir.path()).unwrap();
    let results = rejects::run_suite(&folder, &config(lit.dir.path(), Mode::Full), &|_, _| {}).unwrap();
    let keys: Vec<String> = results.iter().map(|r| r.key()).collect();
    assert_eq!(keys, ["suite/a.hlsl#1", "suite/a.hlsl#3", "suite/b.hlsl#1", "suite/c.hlsl#1"]);
    let by = |k: &str| results.iter().find(|r| r.key() == k).unwrap();
    assert_eq!((by("suite/a.hlsl#1").verdict, by("suite/a.hlsl#1").class), (Verdict::Rejected, ErrorClass::Language));
    assert!(by("suite/a.hlsl#1").same_message, "{:?}", by("suite/a.hlsl#1"));
    assert_eq!((by("suite/a.hlsl#3").verdict, by("suite/a.hlsl#3").class), (Verdict::Rejected, ErrorClass::Spirv));
    assert!(!by("suite/a.hlsl#3").same_message);
    assert_eq!(by("suite/b.hlsl#1").verdict, Verdict::Accepted, "a valid file compiles: {:?}", by("suite/b.hlsl#1"));
    assert_eq!(by("suite/c.hlsl#1").verdict, Verdict::Unsupported);

    let rdir = TempDir::new("rejects-ratchet");
    let path = rejects::ratchet_path(rdir.path(), "suite");
    assert_eq!(rejects::write_ratchet(&path, &results).unwrap(), 2);
    assert!(rejects::check_ratchet(&path, "suite", &results).is_ok());
    std::fs::write(&path, "suite/a.hlsl#1\nsuite/b.hlsl#1\n").unwrap();
    let err = rejects::check_ratchet(&path, "suite", &results).expect_err("an accepted line breaks the ratchet");
    assert!(err.contains("accepted: suite/b.hlsl#1"), "{err}");
}
