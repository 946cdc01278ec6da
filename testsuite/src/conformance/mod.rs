//! The DXC conformance runner: runs the lit tests of a DXC test folder against hlslc.
//!
//! Each file's `RUN:` lines are read by [`script`], run by [`run_file`] (pipelines executed stage
//! by stage with pipefail, no shell involved) and the file is classified as an [`Outcome`]. Files
//! run in parallel on a pool of threads. [`report`] totals the results; [`ratchet`] keeps the list
//! of files that must keep passing.
//!
//! Decisions (see also [`script`]):
//! - DXC hides `HLSLFileCheck/` and `CodeGenHLSL/` from lit (`config.suffixes = []` in their
//!   `lit.local.cfg`); this runner runs whatever folder it is given and ignores `lit.local.cfg`.
//! - Files taken: `.hlsl`, `.hlsli` and `.hlsl2spv` files that have a `RUN:` line (`.ll` files test
//!   LLVM passes of dxc, not a compiler).
//! - Tools other than `%dxc`, `FileCheck` and `tee` (`%dxl`, `%dxa`, `%dxv`, `%opt`, `%D3DReflect`,
//!   `%listparts`...) make the file `unsupported`, as do `XFAIL:` and unmet `REQUIRES:`.
//! - The working directory of every command is a fresh temporary folder (`%T`), so that tests that
//!   write relative files (`-Fre file.ext`) write nowhere else.

pub mod assemble;
pub mod debug_upgrade;
pub mod ratchet;
pub mod rejects;
pub mod report;
pub mod roundtrip;
mod run;
pub mod script;
pub mod suite;
mod syntax;
pub mod validate;

pub use run::{run_file, run_files};

use std::path::{Path, PathBuf};
use std::time::Duration;

/// The lit features this runner provides: `spirv`, and `dxil-1-0` up to `dxil-1-<dxil_minor>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    /// The DXIL version claimed (1.x), used for `REQUIRES: dxil-1-x` and `%dxilver 1.x`.
    pub dxil_minor: u32,
}

impl Default for Features {
    fn default() -> Self {
        Features { dxil_minor: 10 }
    }
}

impl Features {
    pub fn has(&self, feature: &str) -> bool {
        if feature == "spirv" {
            return true;
        }
        match feature.strip_prefix("dxil-1-").and_then(|m| m.parse::<u32>().ok()) {
            Some(minor) => minor <= self.dxil_minor,
            None => false,
        }
    }
}

/// What the runner checks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every RUN line as lit runs it.
    Full,
    /// Only the hlslc commands, with `-fsyntax-only` and without outputs, of the positive files
    /// (no RUN line starts with `not`, no `-verify`): does the front end accept them?
    SyntaxOnly,
    /// Compile the positive files' hlslc commands to binaries (without `-fcgl`) and run
    /// `spirv-val` on them ([`validate`]).
    Validate,
    /// Compile the positive files' hlslc commands that target DXIL to text and assemble each
    /// module with LLVM 14's `llvm-as` ([`assemble`]).
    Assemble,
    /// Compile the positive files' hlslc commands that target DXIL with `-Fo` and `-Fc`, read the
    /// bitcode back with LLVM 14's `llvm-dis` and compare it with the listing ([`roundtrip`]).
    Roundtrip,
}

/// How a file did.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    Pass,
    Fail,
    /// hlslc was killed by a signal or exited with 101 (a panic).
    Crash,
    /// A command ran past the time limit.
    Timeout,
    /// Needs a tool, feature or substitution this runner does not have.
    Unsupported,
    /// Syntax-only, validate, assemble and round-trip modes: a negative test (`not`, `-verify`), not counted.
    Negative,
    /// Validate, assemble and round-trip modes: hlslc rejected the file, so there was nothing to check.
    NotCompiled,
}

impl Outcome {
    pub const ALL: [Outcome; 7] = [
        Outcome::Pass,
        Outcome::Fail,
        Outcome::Crash,
        Outcome::Timeout,
        Outcome::Unsupported,
        Outcome::Negative,
        Outcome::NotCompiled,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail => "fail",
            Outcome::Crash => "crash",
            Outcome::Timeout => "timeout",
            Outcome::Unsupported => "unsupported",
            Outcome::Negative => "negative",
            Outcome::NotCompiled => "rejected",
        }
    }
}

/// The result for one file.
#[derive(Clone, Debug)]
pub struct FileResult {
    /// Path relative to the corpus root, with `/` separators.
    pub name: String,
    pub outcome: Outcome,
    /// Why it is not a pass: the failing command and the tail of its output, or the unsupported
    /// reason. Empty for a pass.
    pub detail: String,
    /// The option groups of its RUN lines (`run::option_tags`).
    pub tags: Vec<&'static str>,
}

/// Everything the runner needs.
#[derive(Clone, Debug)]
pub struct Config {
    /// The compiler under test.
    pub hlslc: PathBuf,
    /// Environment variables for hlslc commands only.
    pub hlslc_env: Vec<(String, String)>,
    /// LLVM FileCheck (`None`: files that need it are unsupported).
    pub filecheck: Option<PathBuf>,
    pub features: Features,
    /// Limit for each command.
    pub timeout: Duration,
    /// Threads.
    pub jobs: usize,
    pub mode: Mode,
    /// Names of results are relative to this folder.
    pub corpus_root: PathBuf,
}

impl Config {
    /// Defaults: FileCheck found on this machine, 20 s per command, one thread per core.
    pub fn new(hlslc: PathBuf, corpus_root: PathBuf, mode: Mode) -> Config {
        Config {
            hlslc,
            hlslc_env: Vec::new(),
            filecheck: crate::tools::filecheck(),
            features: Features::default(),
            timeout: Duration::from_secs(20),
            jobs: std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2),
            mode,
            corpus_root,
        }
    }
}

const EXTENSIONS: &[&str] = &["hlsl", "hlsli", "hlsl2spv"];

/// The test files under `dir` (files with a taken extension and a `RUN:` line), sorted.
pub fn discover(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d)? {
            let entry = entry?;
            let path = entry.path();
            let ty = entry.file_type()?;
            if ty.is_dir() {
                stack.push(path);
            } else if ty.is_file()
                && path.extension().and_then(|e| e.to_str()).is_some_and(|e| EXTENSIONS.contains(&e))
                && std::fs::read(&path).is_ok_and(|b| !script::run_lines(&String::from_utf8_lossy(&b)).is_empty())
            {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// `path` relative to `root` with `/` separators (the path itself when it is not under `root`).
pub fn relative_name(path: &Path, root: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}
