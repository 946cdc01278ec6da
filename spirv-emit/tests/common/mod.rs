//! Helpers for tests that run SPIRV-Tools (`spirv-as`, `spirv-dis`, `spirv-val`). Tests skip, with
//! a message, when the tools are not installed.

#![allow(dead_code)]

pub mod intrinsics;

use hlslc_frontend::diag::Diagnostics;
use hlslc_frontend::parser::{parse, ParseOptions};
use hlslc_frontend::pp::{preprocess, PpOptions};
use hlslc_frontend::source::FileId;
use hlslc_frontend::SourceMap;
use hlslc_sema::{analyze, SemaOptions};
use hlslc_spirv::lower::{emit_spirv, LowerError, LowerOptions};
use hlslc_spirv::target::TargetEnv;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Lowers `src` (entry `main`) for `profile` and `target` through front end, sema and SPIR-V
/// lowering; a sema error fails the test.
pub fn lower(src: &str, profile: &str, target: TargetEnv) -> Result<Vec<u32>, LowerError> {
    lower_with(src, profile, LowerOptions { target, ..LowerOptions::default() })
}

/// [`lower`] with every lowering option given (`entry_name` is set to `main`).
pub fn lower_with(src: &str, profile: &str, lo: LowerOptions) -> Result<Vec<u32>, LowerError> {
    lower_with_sources(src, profile, |_, _| lo)
}

/// [`lower_with`], the options made from the compilation's sources and the main file (for
/// options that carry them, such as `-Zi`'s `DebugSource`).
pub fn lower_with_sources(
    src: &str,
    profile: &str,
    options: impl FnOnce(SourceMap, FileId) -> LowerOptions,
) -> Result<Vec<u32>, LowerError> {
    let mut sm = SourceMap::new();
    let f = sm.add("test.hlsl", src);
    let mut diags = Diagnostics::new();
    let toks = preprocess(&mut sm, f, &PpOptions::default(), None, &mut diags);
    let tu = parse(&toks, &ParseOptions::default(), &mut diags);
    // Sema with the SPIR-V back end's rules, as the driver runs it for `-spirv`.
    let opts = SemaOptions { profile: profile.into(), entry: "main".into(), spirv: true, ..SemaOptions::default() };
    let m = analyze(&tu, &opts, &mut diags);
    assert!(!diags.has_errors(), "{}", diags.render(&sm));
    let m = m.expect("sema returns a module without errors");
    emit_spirv(&m, &LowerOptions { entry_name: "main".into(), ..options(sm, f) })
}

/// [`lower`] for a module that must lower.
pub fn compile(src: &str, profile: &str, target: TargetEnv) -> Vec<u32> {
    lower(src, profile, target).unwrap_or_else(|e| panic!("lowering failed: {e:?}"))
}

/// Runs `spirv-val` for `env` when it is installed (a message otherwise); a rejected module
/// fails the test with the validator's message and the disassembly. Returns whether it ran.
pub fn validate(words: &[u32], env: &str) -> bool {
    if tool("spirv-val").is_none() {
        return false;
    }
    if let Err(e) = spirv_val(words, "module", env) {
        panic!("spirv-val rejected the module:\n{e}\n{}", hlslc_spirv::disasm::disassemble(words).unwrap_or_default());
    }
    true
}

pub fn tool(name: &str) -> Option<PathBuf> {
    let ok = Command::new(name).arg("--version").output().map(|o| o.status.success()).unwrap_or(false);
    if ok {
        Some(PathBuf::from(name))
    } else {
        eprintln!("skipping: `{name}` is not installed");
        None
    }
}

/// A scratch file path, unique to the call: tests run in parallel threads of one process and
/// may assemble the same source at once (two tests writing one `constants.spv` read back a
/// half-written file now and then).
pub fn scratch(name: &str) -> PathBuf {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("hlslc-spirv-tests-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    dir.join(format!("{n}-{name}"))
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
    // Tests of one binary run in parallel and may share a name: each call gets its own file.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = scratch(&format!("{name}.{n}.val.spv"));
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

/// Compiles `src` (entry `main`) for `profile` and `target`, validates it for `env`, and checks
/// that `expect` appear in its disassembly in this order; returns the disassembly.
pub fn check_in_order(src: &str, profile: &str, target: TargetEnv, env: &str, expect: &[&str]) -> String {
    let words = compile(src, profile, target);
    let text = hlslc_spirv::disasm::disassemble(&words).expect("disassembles");
    validate(&words, env);
    let mut rest = text.as_str();
    for e in expect {
        match rest.find(e) {
            Some(i) => rest = &rest[i + e.len()..],
            None => panic!("missing `{e}` (in this order) in:\n{text}"),
        }
    }
    text
}
