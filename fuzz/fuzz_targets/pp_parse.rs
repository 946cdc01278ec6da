//! Preprocessor + parser on arbitrary bytes: must never panic, hang or overflow the stack.
//! Run: `RUSTC_BOOTSTRAP=1 cargo fuzz run pp_parse -- -max_total_time=300` from the repo root.
#![no_main]

use hlslc_frontend::diag::Diagnostics;
use hlslc_frontend::parser::{parse, ParseOptions};
use hlslc_frontend::pp::{preprocess, IncludeHandler, IncludedFile, PpOptions};
use hlslc_frontend::SourceMap;
use libfuzzer_sys::fuzz_target;

/// Every `#include` gets the same small file, so include handling is exercised (and cycles too).
struct Loop;
impl IncludeHandler for Loop {
    fn include(&mut self, name: &str, _includer: &str, _angled: bool) -> Option<IncludedFile> {
        Some(IncludedFile { name: name.to_string(), text: "#include \"x\"\nfloat a;\n".to_string() })
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let mut sm = SourceMap::new();
    let file = sm.add("fuzz.hlsl", text);
    let mut diags = Diagnostics::new();
    let opts = PpOptions { use_filesystem: false, ..PpOptions::default() };
    let tokens = preprocess(&mut sm, file, &opts, Some(&mut Loop), &mut diags);
    let _ = parse(&tokens, &ParseOptions::default(), &mut diags);
    let _ = diags.render(&sm);
});
