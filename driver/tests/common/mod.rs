//! Helpers for running the binaries in tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU32, Ordering};

/// A fresh folder under the system temp folder, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static N: AtomicU32 = AtomicU32::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let p = std::env::temp_dir().join(format!("hlslc-test-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
    pub fn file(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, contents).unwrap();
        p
    }
    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
    pub fn entries(&self) -> Vec<String> {
        let mut v: Vec<String> =
            std::fs::read_dir(&self.0).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        v.sort();
        v
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn hlslc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hlslc")).args(args).output().expect("run hlslc")
}

pub fn hlslc_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hlslc")).current_dir(dir).args(args).output().expect("run hlslc")
}

pub fn hlsl2spirv(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hlsl2spirv")).args(args).output().expect("run hlsl2spirv")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

pub const GOOD: &str = "float4 main(float4 c : COLOR) : SV_Target { return c; }\n";

/// The DXIL text hlslc prints for `src` compiled for `profile` (`-enable-16bit-types` with
/// `sixteen`); a failed compile fails the test.
pub fn dxil_text(src: &str, profile: &str, sixteen: bool) -> String {
    let mut o = hlslc::Options::for_profile(hlslc::Profile::parse(profile).unwrap());
    o.enable_16bit_types = sixteen;
    let r = hlslc::compile(src, "t.hlsl", &o, None);
    assert!(r.succeeded(), "{}", r.render_diagnostics());
    match r.output {
        Some(hlslc::Output::Text(t)) => t,
        other => panic!("no text output: {other:?}"),
    }
}

/// The rendered diagnostics of `src`, which must fail to compile for `profile` (and give no
/// output).
pub fn dxil_errors(src: &str, profile: &str) -> String {
    let o = hlslc::Options::for_profile(hlslc::Profile::parse(profile).unwrap());
    let r = hlslc::compile(src, "t.hlsl", &o, None);
    assert!(!r.succeeded(), "compiled:\n{:?}", r.output);
    assert_eq!(r.output, None);
    r.render_diagnostics()
}

/// Fails unless every string of `expect` occurs in `text`, in this order.
pub fn assert_in_order(text: &str, expect: &[&str]) {
    let mut rest = text;
    for e in expect {
        match rest.find(e) {
            Some(i) => rest = &rest[i + e.len()..],
            None => panic!("missing `{e}` (in this order) in:\n{text}"),
        }
    }
}
