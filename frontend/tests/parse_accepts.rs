//! Constructs of DXC's positive test files that the parser once refused.

use hlslc_frontend::diag::Diagnostics;
use hlslc_frontend::lexer::lex;
use hlslc_frontend::parser::{parse, ParseOptions};
use hlslc_frontend::SourceMap;

fn errors_of(src: &str) -> String {
    let mut sm = SourceMap::new();
    let id = sm.add("t.hlsl", src);
    let toks = lex(id, src);
    let mut diags = Diagnostics::new();
    parse(&toks, &ParseOptions::default(), &mut diags);
    if diags.has_errors() {
        diags.render(&sm)
    } else {
        String::new()
    }
}

fn parses(src: &str) {
    let e = errors_of(src);
    assert!(e.is_empty(), "unexpected errors for:\n{src}\n{e}");
}

#[test]
fn a_struct_with_an_attribute_before_its_name_is_a_type() {
    parses("struct [raypayload] P { float4 c : read(caller) : write(miss); };\nvoid f(inout P payload) {}");
    // Without the pre-pass knowing `P` names a type, `P payload` is two names in a row.
    assert!(!errors_of("void f(inout Q payload) {}").is_empty());
}
