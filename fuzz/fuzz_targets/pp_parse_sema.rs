//! Preprocessor + parser + sema on arbitrary bytes: must never panic, hang or overflow the stack.
//! The input's length picks the target profile (so several stages' checks run, and corpus
//! shaders work as seeds unchanged). Run:
//! `RUSTC_BOOTSTRAP=1 cargo fuzz run pp_parse_sema -- -max_total_time=300` from the repo root.
#![no_main]

use hlslc_frontend::diag::Diagnostics;
use hlslc_frontend::parser::{parse, ParseOptions};
use hlslc_frontend::pp::{preprocess, PpOptions};
use hlslc_frontend::SourceMap;
use hlslc_sema::{analyze, SemaOptions};
use libfuzzer_sys::fuzz_target;

const PROFILES: &[&str] = &["ps_6_0", "vs_6_0", "cs_6_0", "gs_6_0", "hs_6_0", "ds_6_0", "ms_6_5", "as_6_5", "lib_6_3"];

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let mut sm = SourceMap::new();
    let file = sm.add("fuzz.hlsl", text);
    let mut diags = Diagnostics::new();
    let tokens = preprocess(&mut sm, file, &PpOptions::default(), None, &mut diags);
    let tu = parse(&tokens, &ParseOptions::default(), &mut diags);
    if diags.has_errors() {
        return;
    }
    let opts = SemaOptions { profile: PROFILES[data.len() % PROFILES.len()].to_string(), ..SemaOptions::default() };
    let _ = analyze(&tu, &opts, &mut diags);
    let _ = diags.render(&sm);
});
