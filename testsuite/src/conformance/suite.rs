//! A suite: a folder of the corpus (`CodeGenSPIRV`) run as a whole and checked against its ratchet.

use super::{discover, ratchet, run_files, Config, FileResult, Mode};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A finished suite.
#[derive(Clone, Debug)]
pub struct SuiteRun {
    /// Corpus-relative name (`CodeGenSPIRV`), or the folder's path when outside the corpus.
    pub name: String,
    pub results: Vec<FileResult>,
    pub elapsed: Duration,
}

/// `arg` as a folder: an existing path, or a name under the corpus root. Returns the suite's name
/// (relative to the corpus root when inside it) and its folder.
pub fn resolve(arg: &str, corpus_root: &Path) -> Result<(String, PathBuf), String> {
    let direct = PathBuf::from(arg);
    let dir = if direct.is_dir() && (direct.is_absolute() || !corpus_root.join(arg).is_dir()) {
        direct
    } else {
        corpus_root.join(arg)
    };
    if !dir.is_dir() {
        return Err(format!("no folder '{arg}' (nor '{}')", corpus_root.join(arg).display()));
    }
    let canon = dir.canonicalize().unwrap_or(dir.clone());
    let root = corpus_root.canonicalize().unwrap_or(corpus_root.to_path_buf());
    let name = match canon.strip_prefix(&root) {
        Ok(rel) if !rel.as_os_str().is_empty() => super::relative_name(rel, Path::new("")),
        _ => canon.to_string_lossy().into_owned(),
    };
    Ok((name, canon))
}

/// Runs every test file of `dir`. Names in the results are relative to `cfg.corpus_root`.
pub fn run(name: &str, dir: &Path, cfg: &Config, progress: &(dyn Fn(usize, usize) + Sync)) -> std::io::Result<SuiteRun> {
    let start = Instant::now();
    let mut cfg = cfg.clone();
    cfg.corpus_root = cfg.corpus_root.canonicalize().unwrap_or(cfg.corpus_root);
    let files = discover(dir)?;
    let n = files.len();
    let results = run_files(&files, &cfg, &|done| progress(done, n));
    Ok(SuiteRun { name: name.to_string(), results, elapsed: start.elapsed() })
}

/// The command that updates the ratchet of `suite`.
pub fn update_command(suite: &str, mode: Mode) -> String {
    let syntax = match mode {
        Mode::Full => "",
        Mode::SyntaxOnly => " --syntax-only",
        Mode::Validate => " --validate",
        Mode::Assemble => " --assemble",
        Mode::Roundtrip => " --roundtrip",
    };
    format!("cargo run --release -p hlslc-testsuite --bin conformance -- {suite}{syntax} --update-ratchet")
}

/// Compares a run with its ratchet file in `ratchet_dir`. `Err` holds the failure report.
/// `Ok` holds a note (new passes to add), possibly empty.
pub fn check(run: &SuiteRun, ratchet_dir: &Path, mode: Mode) -> Result<String, String> {
    let path = ratchet::path(ratchet_dir, &run.name, mode);
    let listed = ratchet::read(&path).map_err(|e| format!("cannot read ratchet {}: {e}", path.display()))?;
    let c = ratchet::compare(&listed, &run.results);
    let mut note = String::new();
    if !c.new_passes.is_empty() {
        note = format!(
            "{}: {} file(s) pass that {} does not list; to record them run:\n    {}\n",
            run.name,
            c.new_passes.len(),
            path.display(),
            update_command(&run.name, mode)
        );
        for n in c.new_passes.iter().take(20) {
            note.push_str(&format!("  new pass: {n}\n"));
        }
    }
    if c.ok() {
        Ok(note)
    } else {
        Err(format!("{}: {}\n{note}", path.display(), ratchet::describe_regressions(&c, &run.results)))
    }
}
