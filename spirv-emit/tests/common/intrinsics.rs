//! Compiling HLSL through front end, sema and SPIR-V lowering for the intrinsic tests, with
//! `spirv-val` on every output.

#![allow(dead_code)]

use hlslc_frontend::diag::Diagnostics;
use hlslc_frontend::parser::{parse, ParseOptions};
use hlslc_frontend::pp::{preprocess, PpOptions};
use hlslc_frontend::SourceMap;
use hlslc_sema::{analyze, SemaOptions};
use hlslc_spirv::lower::{emit_spirv, LowerError, LowerOptions};
use hlslc_spirv::target::TargetEnv;

/// Lowers `src` (entry `main`) for `profile` and `target`.
pub fn lower(src: &str, profile: &str, target: TargetEnv) -> Result<Vec<u32>, LowerError> {
    let mut sm = SourceMap::new();
    let f = sm.add("test.hlsl", src);
    let mut diags = Diagnostics::new();
    let toks = preprocess(&mut sm, f, &PpOptions::default(), None, &mut diags);
    let tu = parse(&toks, &ParseOptions::default(), &mut diags);
    let opts = SemaOptions { profile: profile.into(), entry: "main".into(), ..SemaOptions::default() };
    let m = analyze(&tu, &opts, &mut diags);
    assert!(!diags.has_errors(), "{}", diags.render(&sm));
    let m = m.expect("sema returns a module without errors");
    let lo = LowerOptions { entry_name: "main".into(), target, ..LowerOptions::default() };
    emit_spirv(&m, &lo)
}

/// Lowers `src`, validates it with `spirv-val` for `target` (skipped when not installed), and
/// checks that the disassembly contains every line of `expect`, in order.
pub fn check(src: &str, profile: &str, target: TargetEnv, expect: &[&str]) -> String {
    let words = lower(src, profile, target).unwrap_or_else(|e| panic!("lowering failed: {e:?}"));
    let text = hlslc_spirv::disasm::disassemble(&words).expect("disassembles");
    if super::tool("spirv-val").is_some() {
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if let Err(e) = super::spirv_val(&words, &format!("intrinsics{n}"), target.as_str()) {
            panic!("spirv-val rejected the module:\n{e}\n{text}");
        }
    }
    let mut rest = text.as_str();
    for e in expect {
        match rest.find(e) {
            Some(i) => rest = &rest[i + e.len()..],
            None => panic!("missing `{e}` (in order) in:\n{text}"),
        }
    }
    text
}
