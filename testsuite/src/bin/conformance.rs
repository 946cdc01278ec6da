//! `conformance`: runs DXC's lit tests against hlslc. See `--help`.

use hlslc_testsuite::conformance::{assemble, ratchet, report, roundtrip, suite, validate, Config, Features, Mode, Outcome};
use hlslc_testsuite::{corpus_root, package_dir, Hlslc, AS_HLSLC_ENV};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

const HELP: &str = "\
conformance: run DXC's lit tests (RUN lines with %dxc, FileCheck, not, pipes) against hlslc

usage: conformance [options] <suite>...

<suite> is a folder of the corpus (CodeGenSPIRV, HLSLFileCheck, HLSLFileCheck/hlsl/intrinsics, ...)
or any folder of lit tests.

options:
  --syntax-only        run only the hlslc commands of positive files, with -fsyntax-only
  --validate           compile the hlslc commands of positive files to binaries (no -fcgl, -spirv
                       added if missing) and run spirv-val with each command's target env; pass =
                       valid, fail = invalid, rejected = hlslc refused; lists the top error kinds
  --assemble           compile the hlslc commands of positive files that target DXIL (no -spirv) to
                       text and assemble each module with llvm-as 14; pass = assembled, fail =
                       rejected by llvm-as, rejected = hlslc refused; lists the top error kinds
  --roundtrip          compile the hlslc commands of positive files that target DXIL with -Fo and
                       -Fc, read the bitcode back with llvm-dis 14 and compare it with the listing
                       (comments, unnamed labels and local value names aside); pass = same module,
                       fail = llvm-dis rejects the bitcode or the texts differ; lists the top kinds
  --rejects            run the hlslc command of every RUN line that starts with `not` (as written,
                       FileCheck left out): rejected = non-zero exit with an error message and no
                       crash; lines are classed as language or SPIR-V-specific errors by the error
                       their CHECK lines expect; prints both rates and how many rejected lines give
                       DXC's message; --verbose lists the language-error lines not rejected;
                       ratchet: testsuite/ratchet/rejects-<suite>.txt (lines that stay rejected)
  --hlslc <path>       compiler to test (default: this binary acting as hlslc, built from the
                       current sources)
  --corpus <dir>       corpus root (default: ../shared/corpus/dxc beside the repo, or $HLSLC_CORPUS)
  --filecheck <path>   LLVM FileCheck (default: FileCheck-<n>, /usr/lib/llvm-<n>/bin/FileCheck)
  --jobs <n>           threads (default: one per core)
  --timeout <secs>     limit per command (default 20)
  --dxil-version 1.<n> DXIL version claimed for REQUIRES: dxil-1-<n> and %dxilver (default 1.10)
  --write-passing <f>  write the passing files, one per line
  --verbose            list every file that did not pass, with the failing command and output
  --update-ratchet     write testsuite/ratchet/[syntax-]<suite>.txt from this run
  --check-ratchet      exit 1 if a file the ratchet lists does not pass
  --ratchet-dir <dir>  where ratchet files are (default: testsuite/ratchet)
";

struct Args {
    suites: Vec<String>,
    mode: Mode,
    rejects: bool,
    hlslc: Option<PathBuf>,
    corpus: PathBuf,
    filecheck: Option<PathBuf>,
    jobs: Option<usize>,
    timeout: u64,
    dxil_minor: u32,
    write_passing: Option<PathBuf>,
    verbose: bool,
    update: bool,
    check: bool,
    ratchet_dir: PathBuf,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        suites: Vec::new(),
        mode: Mode::Full,
        rejects: false,
        hlslc: None,
        corpus: corpus_root(),
        filecheck: None,
        jobs: None,
        timeout: 20,
        dxil_minor: Features::default().dxil_minor,
        write_passing: None,
        verbose: false,
        update: false,
        check: false,
        ratchet_dir: package_dir().join("ratchet"),
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "-h" | "--help" => {
                print!("{HELP}");
                std::process::exit(0);
            }
            "--syntax-only" => a.mode = Mode::SyntaxOnly,
            "--validate" => a.mode = Mode::Validate,
            "--assemble" => a.mode = Mode::Assemble,
            "--roundtrip" => a.mode = Mode::Roundtrip,
            "--rejects" => a.rejects = true,
            "--hlslc" => a.hlslc = Some(value(&arg)?.into()),
            "--corpus" => a.corpus = value(&arg)?.into(),
            "--filecheck" => a.filecheck = Some(value(&arg)?.into()),
            "--jobs" | "-j" => a.jobs = Some(value(&arg)?.parse().map_err(|_| "--jobs needs a number")?),
            "--timeout" => a.timeout = value(&arg)?.parse().map_err(|_| "--timeout needs seconds")?,
            "--dxil-version" => {
                let v = value(&arg)?;
                a.dxil_minor = v.strip_prefix("1.").and_then(|m| m.parse().ok()).ok_or("--dxil-version takes 1.<n>")?;
            }
            "--write-passing" => a.write_passing = Some(value(&arg)?.into()),
            "--verbose" | "-v" => a.verbose = true,
            "--update-ratchet" => a.update = true,
            "--check-ratchet" => a.check = true,
            "--ratchet-dir" => a.ratchet_dir = value(&arg)?.into(),
            s if s.starts_with('-') => return Err(format!("unknown option {s} (see --help)")),
            s => a.suites.push(s.to_string()),
        }
    }
    if a.suites.is_empty() {
        return Err("no suite given (see --help)".into());
    }
    Ok(a)
}

fn main() {
    if std::env::var_os(AS_HLSLC_ENV).is_some() {
        std::process::exit(hlslc::cli::main_hlslc());
    }
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("conformance: error: {e}");
            std::process::exit(2);
        }
    };
    std::process::exit(run(args));
}

fn run(args: Args) -> i32 {
    let hlslc = match &args.hlslc {
        Some(p) => Hlslc::at(p.clone()),
        None => match std::env::current_exe() {
            Ok(me) => Hlslc::via_conformance(me),
            Err(e) => {
                eprintln!("conformance: error: cannot find this program ({e}); use --hlslc");
                return 2;
            }
        },
    };
    let mut cfg = Config::new(hlslc.program, args.corpus.clone(), args.mode);
    cfg.hlslc_env = hlslc.env;
    if args.filecheck.is_some() {
        cfg.filecheck = args.filecheck.clone();
    }
    if let Some(j) = args.jobs {
        cfg.jobs = j;
    }
    cfg.timeout = Duration::from_secs(args.timeout);
    cfg.features.dxil_minor = args.dxil_minor;
    if cfg.filecheck.is_none() && args.mode == Mode::Full && !args.rejects {
        eprintln!("conformance: warning: FileCheck not found; files that need it are unsupported");
    }
    let mut code = 0;
    let mut all_passing = Vec::new();
    for arg in &args.suites {
        let (name, dir) = match suite::resolve(arg, &args.corpus) {
            Ok(x) => x,
            Err(e) => {
                eprintln!("conformance: error: {e}");
                return 2;
            }
        };
        let progress = |done: usize, n: usize| {
            if done.is_multiple_of(200) || done == n {
                eprint!("\r{name}: {done}/{n}");
                let _ = std::io::stderr().flush();
            }
        };
        if args.rejects {
            code = code.max(run_rejects(&args, &name, &dir, &cfg, &progress));
            continue;
        }
        let run = match suite::run(&name, &dir, &cfg, &progress) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("conformance: error: cannot list {}: {e}", dir.display());
                return 2;
            }
        };
        eprintln!();
        if args.verbose {
            print!("{}", report::verbose_log(&run.results));
        }
        println!("suite {name} ({} files, {:.1}s)", run.results.len(), run.elapsed.as_secs_f64());
        print!("{}", report::Summary::of(&run.results).render(args.mode));
        match args.mode {
            Mode::Validate => print!("{}", check_summary(&run.results, "valid", "invalid", validate::error_kind)),
            Mode::Assemble => print!("{}", check_summary(&run.results, "assembled", "rejected by llvm-as", assemble::error_kind)),
            Mode::Roundtrip => print!("{}", check_summary(&run.results, "round-tripped", "differ", roundtrip::error_kind)),
            _ => {}
        }
        println!();
        all_passing.extend(run.results.iter().filter(|r| r.outcome == Outcome::Pass).map(|r| r.name.clone()));
        if args.update {
            let path = ratchet::path(&args.ratchet_dir, &run.name, args.mode);
            match ratchet::write(&path, &run.results) {
                Ok(n) => println!("wrote {} ({n} files)", path.display()),
                Err(e) => {
                    eprintln!("conformance: error: cannot write {}: {e}", path.display());
                    code = 1;
                }
            }
        } else if args.check {
            match suite::check(&run, &args.ratchet_dir, args.mode) {
                Ok(note) => print!("{note}"),
                Err(report) => {
                    print!("{report}");
                    code = 1;
                }
            }
        }
    }
    if let Some(path) = &args.write_passing {
        all_passing.sort();
        let text: String = all_passing.iter().map(|n| format!("{n}\n")).collect();
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("conformance: error: cannot write {}: {e}", path.display());
            code = 1;
        }
    }
    code
}

/// Rejects mode for one suite: the table, and the ratchet written or checked. Returns the exit code.
fn run_rejects(args: &Args, name: &str, dir: &std::path::Path, cfg: &Config, progress: &(dyn Fn(usize, usize) + Sync)) -> i32 {
    use hlslc_testsuite::conformance::rejects;
    let start = std::time::Instant::now();
    let results = match rejects::run_suite(dir, cfg, progress) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("conformance: error: cannot list {}: {e}", dir.display());
            return 2;
        }
    };
    eprintln!();
    println!("suite {name} ({:.1}s)", start.elapsed().as_secs_f64());
    print!("{}", rejects::render(name, &results, args.verbose));
    println!();
    let path = rejects::ratchet_path(&args.ratchet_dir, name);
    if args.update {
        match rejects::write_ratchet(&path, &results) {
            Ok(n) => println!("wrote {} ({n} lines)", path.display()),
            Err(e) => {
                eprintln!("conformance: error: cannot write {}: {e}", path.display());
                return 1;
            }
        }
    } else if args.check {
        match rejects::check_ratchet(&path, name, &results) {
            Ok(note) => print!("{note}"),
            Err(report) => {
                print!("{report}");
                return 1;
            }
        }
    }
    0
}

/// Validate and assemble modes: compiled / passed totals and the most frequent errors of the
/// checking tool (spirv-val, llvm-as).
fn check_summary(results: &[hlslc_testsuite::conformance::FileResult], good: &str, bad: &str, error_kind: fn(&str) -> String) -> String {
    let count = |o: Outcome| results.iter().filter(|r| r.outcome == o).count();
    let (valid, invalid) = (count(Outcome::Pass), count(Outcome::Fail));
    let compiled = valid + invalid;
    let pct = if compiled == 0 { 0.0 } else { 100.0 * valid as f64 / compiled as f64 };
    let mut out = format!(
        "compiled {compiled}: {good} {valid} ({pct:.1}%), {bad} {invalid}; rejected by hlslc {}, crash {}, negative {}\n",
        count(Outcome::NotCompiled),
        count(Outcome::Crash),
        count(Outcome::Negative)
    );
    let mut kinds: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    for r in results.iter().filter(|r| r.outcome == Outcome::Fail) {
        *kinds.entry(error_kind(&r.detail)).or_default() += 1;
    }
    let mut kinds: Vec<(String, usize)> = kinds.into_iter().collect();
    kinds.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    for (k, n) in kinds.iter().take(15) {
        out.push_str(&format!("  {n:5}  {k}\n"));
    }
    out
}
