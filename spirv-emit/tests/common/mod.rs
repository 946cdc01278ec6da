//! Helpers for tests that run SPIRV-Tools (`spirv-as`, `spirv-dis`, `spirv-val`). Tests skip, with
//! a message, when the tools are not installed.

#![allow(dead_code)]

pub mod intrinsics;

use std::path::{Path, PathBuf};
use std::process::Command;

pub fn tool(name: &str) -> Option<PathBuf> {
    let ok = Command::new(name).arg("--version").output().map(|o| o.status.success()).unwrap_or(false);
    if ok {
        Some(PathBuf::from(name))
    } else {
        eprintln!("skipping: `{name}` is not installed");
        None
    }
}

pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hlslc-spirv-tests-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    dir.join(name)
}

pub fn words_to_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

pub fn bytes_to_words(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// Assembles a `.spvasm` file with `spirv-as`.
pub fn assemble(src: &Path, target_env: &str) -> Vec<u32> {
    let out = scratch(&format!("{}.spv", src.file_stem().unwrap().to_string_lossy()));
    let o = Command::new("spirv-as")
        .args(["--target-env", target_env])
        .arg(src)
        .arg("-o")
        .arg(&out)
        .output()
        .expect("run spirv-as");
    assert!(o.status.success(), "spirv-as {}: {}", src.display(), String::from_utf8_lossy(&o.stderr));
    bytes_to_words(&std::fs::read(&out).unwrap())
}

/// `spirv-dis` with its default options.
pub fn spirv_dis(words: &[u32], name: &str) -> String {
    let path = scratch(&format!("{name}.dis.spv"));
    std::fs::write(&path, words_to_bytes(words)).unwrap();
    let o = Command::new("spirv-dis").arg(&path).output().expect("run spirv-dis");
    assert!(o.status.success(), "spirv-dis: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// `spirv-val --target-env env`; returns the error text on failure.
pub fn spirv_val(words: &[u32], name: &str, env: &str) -> Result<(), String> {
    let path = scratch(&format!("{name}.val.spv"));
    std::fs::write(&path, words_to_bytes(words)).unwrap();
    let o = Command::new("spirv-val").args(["--target-env", env]).arg(&path).output().expect("run spirv-val");
    if o.status.success() {
        Ok(())
    } else {
        Err(format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr)))
    }
}

/// A line-by-line diff of the first difference, for readable failures.
pub fn first_difference(ours: &str, theirs: &str) -> String {
    for (i, (a, b)) in ours.lines().zip(theirs.lines()).enumerate() {
        if a != b {
            return format!("line {}:\n  ours:     {a:?}\n  spirv-dis: {b:?}", i + 1);
        }
    }
    format!("line counts differ: ours {}, spirv-dis {}", ours.lines().count(), theirs.lines().count())
}
