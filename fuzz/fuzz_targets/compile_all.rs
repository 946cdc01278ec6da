//! The whole compiler on arbitrary bytes, through both back ends and the optimizer: the library's
//! `hlslc::compile` for SPIR-V (at `-O0` or `-O3`, with reflection read back) and for a DXIL
//! container (lowering, the bitcode writer, the container parts). Nothing may panic, hang or
//! overflow the stack; SPIR-V that comes out must be a well-formed module (rspirv loads it, with
//! its header and id bound), and a container must start with its `DXBC` header. The input's
//! length picks the target profile, so corpus shaders work as seeds unchanged. Run:
//! `RUSTC_BOOTSTRAP=1 cargo fuzz run compile_all -- -max_total_time=300` from the repo root.
#![no_main]

use hlslc::{compile, Options, Output, OutputKind, Profile};
use libfuzzer_sys::fuzz_target;

const PROFILES: &[&str] = &["ps_6_0", "vs_6_0", "cs_6_0", "gs_6_0", "hs_6_0", "ds_6_0", "ms_6_5", "as_6_5", "cs_6_6", "ps_6_2"];

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let profile = Profile::parse(PROFILES[data.len() % PROFILES.len()]).expect("a known profile");
    let base = Options { output_kind: OutputKind::Binary, use_filesystem: false, ..Options::for_profile(profile) };

    let spirv = Options { spirv: true, opt_level: if data.len() / PROFILES.len() % 2 == 0 { 3 } else { 0 }, ..base.clone() };
    let r = compile(&text, "fuzz.hlsl", &spirv, None);
    if let Some(Output::Binary(bytes)) = &r.output {
        assert!(bytes.len() % 4 == 0, "SPIR-V of {} bytes", bytes.len());
        let words: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        let m = rspirv::dr::load_words(&words).expect("the SPIR-V written loads back");
        let bound = m.header.as_ref().expect("a header").bound;
        assert!(m.all_inst_iter().filter_map(|i| i.result_id).all(|id| id < bound), "an id at or above the bound {bound}");
    }
    let _ = r.render_diagnostics();

    let r = compile(&text, "fuzz.hlsl", &base, None);
    if let Some(Output::Binary(bytes)) = &r.output {
        assert!(bytes.starts_with(b"DXBC"), "a container without its header");
    }
    let _ = r.render_diagnostics();
});
