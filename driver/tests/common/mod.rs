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

/// A mesh shader (driver/tests/dxil_mesh.rs, container.rs): 4 vertices, 2 triangles (topology 2), a 16-byte payload (a float and a
/// uint[3]), 8 threads.
pub const MESH: &str = "struct V { float4 pos : SV_Position; float2 uv : TEXCOORD0; };\n\
    struct P { uint id : SV_PrimitiveID; bool cull : SV_CullPrimitive; };\n\
    struct Pl { float scale; uint flags[3]; };\n\
    groupshared float shared_data[8];\n\
    [numthreads(8, 1, 1)]\n\
    [outputtopology(\"triangle\")]\n\
    void main(uint i : SV_GroupIndex, in payload Pl pl, out vertices V verts[4], out primitives P prims[2], out indices uint3 tris[2]) {\n\
      SetMeshOutputCounts(4, 2);\n\
      shared_data[i] = pl.scale;\n\
      verts[i].pos = float4(pl.scale, 0, 0, 1);\n\
      verts[i].uv = float2(1, 2);\n\
      if (i < 2) {\n\
        tris[i] = uint3(0, i + 1, i + 2);\n\
        prims[i].id = pl.flags[1];\n\
        prims[i].cull = false;\n\
      }\n\
    }\n";

