//! Pass tests on hand-written modules: SPIR-V assembly in, the pass, the expected assembly out.
//! `spirv-as` assembles both texts, `spirv-val` checks input, output and expectation, and the
//! output and expectation are compared as `spirv-dis --raw-id` text with ids renumbered in order
//! of first appearance (so names in the texts are free and removed ids leave no gaps).
#![allow(dead_code)]

use rspirv::binary::Assemble;
use rspirv::dr::Module;
use std::path::PathBuf;
use std::process::Command;

fn tool(name: &str) -> bool {
    Command::new(name).arg("--version").output().map(|o| o.status.success()).unwrap_or(false)
}

/// Whether spirv-as, spirv-dis and spirv-val are installed (a message when not).
pub fn tools() -> bool {
    let ok = tool("spirv-as") && tool("spirv-dis") && tool("spirv-val");
    if !ok {
        eprintln!("skipping: spirv-as/spirv-dis/spirv-val are not installed");
    }
    ok
}

fn scratch(name: &str) -> PathBuf {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("hlslc-spirv-opt-tests-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    dir.join(format!("{n}.{name}"))
}

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

pub fn assemble(text: &str, env: &str) -> Vec<u32> {
    let src = scratch("in.spvasm");
    let out = scratch("out.spv");
    std::fs::write(&src, text).unwrap();
    let o = Command::new("spirv-as").args(["--target-env", env]).arg(&src).arg("-o").arg(&out).output().expect("spirv-as runs");
    assert!(o.status.success(), "spirv-as: {}\n{text}", String::from_utf8_lossy(&o.stderr));
    std::fs::read(&out).unwrap().chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

pub fn disassemble(words: &[u32]) -> String {
    let p = scratch("dis.spv");
    std::fs::write(&p, bytes(words)).unwrap();
    let o = Command::new("spirv-dis").args(["--raw-id", "--no-header"]).arg(&p).output().expect("spirv-dis runs");
    assert!(o.status.success(), "spirv-dis: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

pub fn validate(words: &[u32], env: &str, what: &str) {
    let p = scratch("val.spv");
    std::fs::write(&p, bytes(words)).unwrap();
    let o = Command::new("spirv-val").args(["--target-env", env]).arg(&p).output().expect("spirv-val runs");
    assert!(
        o.status.success(),
        "spirv-val rejected the {what}:\n{}{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
        disassemble(words)
    );
}

/// `%N` ids renumbered in order of first appearance; blank lines dropped.
pub fn canonical(text: &str) -> String {
    let mut map = std::collections::HashMap::new();
    let mut out = String::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let mut rest = line;
        while let Some(p) = rest.find('%') {
            out.push_str(&rest[..p]);
            let tail = &rest[p + 1..];
            let n = tail.find(|c: char| !c.is_ascii_digit()).unwrap_or(tail.len());
            if n == 0 {
                out.push('%');
                rest = tail;
                continue;
            }
            let next = map.len() + 1;
            let id = *map.entry(tail[..n].to_string()).or_insert(next);
            out.push_str(&format!("%{id}"));
            rest = &tail[n..];
        }
        out.push_str(rest);
        out.push('\n');
    }
    out
}

/// Assembles `input`, runs `pass` on it and compares with `expected`; every module is validated.
/// Returns the output text (canonical), or `None` when the tools are missing.
pub fn check_env(env: &str, input: &str, expected: &str, pass: impl FnOnce(&mut Module)) -> Option<String> {
    if !tools() {
        return None;
    }
    let words = assemble(input, env);
    validate(&words, env, "input");
    Some(run_and_compare(env, &words, expected, pass))
}

/// Runs `pass` on the assembled input and compares its valid output with the valid expectation.
fn run_and_compare(env: &str, words: &[u32], expected: &str, pass: impl FnOnce(&mut Module)) -> String {
    let mut m = rspirv::dr::load_words(words).expect("rspirv loads the input");
    pass(&mut m);
    let out = m.assemble();
    validate(&out, env, "output");
    let want = assemble(expected, env);
    validate(&want, env, "expectation");
    let (got, want) = (canonical(&disassemble(&out)), canonical(&disassemble(&want)));
    assert_eq!(got, want, "\n--- got\n{got}\n--- expected\n{want}");
    got
}

/// [`check_env`] for Vulkan 1.0.
pub fn check(input: &str, expected: &str, pass: impl FnOnce(&mut Module)) -> Option<String> {
    check_env("vulkan1.0", input, expected, pass)
}

/// [`check_env`] for a pass that makes an invalid input valid: `spirv-val` must reject the input
/// (containing `why` in its complaint) and accept the output and the expectation.
pub fn check_fixes(env: &str, why: &str, input: &str, expected: &str, pass: impl FnOnce(&mut Module)) -> Option<String> {
    if !tools() {
        return None;
    }
    let words = assemble(input, env);
    let p = scratch("invalid.spv");
    std::fs::write(&p, bytes(&words)).unwrap();
    let o = Command::new("spirv-val").args(["--target-env", env]).arg(&p).output().expect("spirv-val runs");
    let said = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(!o.status.success() && said.contains(why), "spirv-val should reject the input with {why:?}, said: {said}");
    Some(run_and_compare(env, &words, expected, pass))
}

/// Loads assembled words into a module, module-level `OpExtInst`s included (rspirv's loader
/// refuses them: they are taken out of the binary first, then appended to the module's globals as
/// the emitter places them, after every type, constant and variable, so inputs must put them
/// there).
pub fn load_with_debug(words: &[u32]) -> Module {
    use rspirv::dr::{Instruction, Operand};
    let mut kept = words[..5].to_vec();
    let mut ext = Vec::new();
    let mut k = 5;
    let mut in_functions = false;
    while k < words.len() {
        let (n, op) = ((words[k] >> 16) as usize, words[k] & 0xffff);
        in_functions |= op == spirv::Op::Function as u32;
        if op == spirv::Op::ExtInst as u32 && !in_functions {
            let w = &words[k..k + n];
            let mut ops = vec![Operand::IdRef(w[3]), Operand::LiteralExtInstInteger(w[4])];
            ops.extend(w[5..].iter().map(|&x| Operand::IdRef(x)));
            ext.push(Instruction::new(spirv::Op::ExtInst, Some(w[1]), Some(w[2]), ops));
        } else {
            kept.extend_from_slice(&words[k..k + n]);
        }
        k += n;
    }
    let mut m = rspirv::dr::load_words(&kept).expect("rspirv loads the input");
    m.types_global_values.extend(ext);
    m
}

/// [`check_env`] for inputs with module-level debug instructions ([`load_with_debug`]).
pub fn check_debug(env: &str, input: &str, expected: &str, pass: impl FnOnce(&mut Module)) -> Option<String> {
    if !tools() {
        return None;
    }
    let words = assemble(input, env);
    validate(&words, env, "input");
    let mut m = load_with_debug(&words);
    pass(&mut m);
    let out = m.assemble();
    validate(&out, env, "output");
    let want = assemble(expected, env);
    validate(&want, env, "expectation");
    let (got, want) = (canonical(&disassemble(&out)), canonical(&disassemble(&want)));
    assert_eq!(got, want, "\n--- got\n{got}\n--- expected\n{want}");
    Some(got)
}
