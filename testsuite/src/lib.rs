//! hlslc-testsuite: the tools that measure hlslc against DXC's tests and against expectations of
//! our own.
//!
//! - [`conformance`]: runs DXC's lit tests (`../shared/corpus/dxc`) against hlslc, fully or
//!   syntax-only, with ratchet files of passing tests (binary `conformance`, test
//!   `tests/conformance.rs`).
//! - [`golden`]: our own cases under `golden/`, each an `.hlsl` file with its command line and the
//!   expected output beside it (test `tests/golden.rs`, `BLESS=1` to update).
//! - [`exec`]: compute shaders run on a Vulkan device with buffers checked afterwards (test
//!   `tests/exec.rs`, cases under `exec/`).
//!
//! The hlslc under test is the `conformance` binary itself when [`AS_HLSLC_ENV`] is set: it then
//! behaves exactly as `hlslc` (same library entry point), so that the tests always run the
//! compiler built from the current sources, without depending on another package's binary.

pub mod conformance;
pub mod exec;
pub mod golden;
pub mod process;
pub mod tools;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// When this variable is set, the `conformance` binary runs as `hlslc`.
pub const AS_HLSLC_ENV: &str = "HLSLC_TESTSUITE_AS_HLSLC";

/// How to start the compiler under test.
#[derive(Clone, Debug)]
pub struct Hlslc {
    pub program: PathBuf,
    pub env: Vec<(String, String)>,
}

impl Hlslc {
    /// A real `hlslc` binary.
    pub fn at(program: PathBuf) -> Hlslc {
        Hlslc { program, env: Vec::new() }
    }
    /// The `conformance` binary at `program`, acting as hlslc.
    pub fn via_conformance(program: PathBuf) -> Hlslc {
        Hlslc { program, env: vec![(AS_HLSLC_ENV.to_string(), "1".to_string())] }
    }
}

/// The repository root (the parent of this package).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from(".."))
}

/// This package's folder (`testsuite/`).
pub fn package_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Where DXC's lit tests are expected: `../shared/corpus/dxc` beside the checkout, or
/// `$HLSLC_CORPUS`.
pub fn corpus_root() -> PathBuf {
    match std::env::var_os("HLSLC_CORPUS") {
        Some(p) => PathBuf::from(p),
        None => repo_root().join("../shared/corpus/dxc"),
    }
}

/// A temporary folder removed on drop.
#[derive(Debug)]
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let p = std::env::temp_dir().join(format!("hlslc-{tag}-{}-{nanos}-{n}", std::process::id()));
        let _ = std::fs::create_dir_all(&p);
        TempDir(p)
    }
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
