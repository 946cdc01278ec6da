//! Compiling HLSL through front end, sema and SPIR-V lowering for the intrinsic tests, with
//! `spirv-val` on every output.

#![allow(dead_code)]

use hlslc_spirv::target::TargetEnv;

/// Lowers `src`, validates it with `spirv-val` for `target` (skipped when not installed), and
/// checks that the disassembly contains every line of `expect`, in order.
pub fn check(src: &str, profile: &str, target: TargetEnv, expect: &[&str]) -> String {
    let words = super::compile(src, profile, target);
    super::validate(&words, target.as_str());
    let text = hlslc_spirv::disasm::disassemble(&words).expect("disassembles");
    let mut rest = text.as_str();
    for e in expect {
        match rest.find(e) {
            Some(i) => rest = &rest[i + e.len()..],
            None => panic!("missing `{e}` (in order) in:\n{text}"),
        }
    }
    text
}
