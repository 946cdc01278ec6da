//! Constructs of DXC's positive test files that the parser once refused.

mod common;
use common::parse_src;

fn errors_of(src: &str) -> String {
    let (_, errors, text) = parse_src(src);
    if errors {
        text
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
