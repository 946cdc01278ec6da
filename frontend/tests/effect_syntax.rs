//! Effect-framework syntax dxc parses and ignores with a warning: effect objects
//! (`BlendState B { ... };`) are dropped whole, and a state block after a declarator
//! (`SamplerState s { Filter = ...; };`) is dropped while the declaration stays.

use hlslc_frontend::ast::*;
mod common;
use common::parse_warned;

fn var_names(tu: &TranslationUnit) -> Vec<String> {
    tu.decls
        .iter()
        .filter_map(|d| match d {
            Decl::Var(v) => Some(v.declarators.iter().map(|d| d.name.name.clone()).collect::<Vec<_>>()),
            _ => None,
        })
        .flatten()
        .collect()
}

#[test]
fn a_state_block_is_dropped_and_the_declaration_kept() {
    let (tu, warnings) = parse_warned(
        "SamplerState samp\n{\n    Filter = MIN_MAG_MIP_LINEAR;\n    AddressU = Clamp;\n};\nfloat4 g;",
    );
    assert_eq!(var_names(&tu), ["samp", "g"]);
    assert!(warnings.contains("t.hlsl:2:1: warning: effect state block ignored"), "{warnings}");
}

#[test]
fn effect_objects_are_dropped_whole() {
    let (tu, warnings) = parse_warned(
        "BlendState NoBlend { BlendEnable[0] = FALSE; };\nBlendState A;\nBlendState B = A;\n\
         float4 main() : SV_Target { RenderTargetView rtv { state = foo; }; return 0; }",
    );
    assert_eq!(var_names(&tu), Vec::<String>::new());
    assert_eq!(warnings.matches("warning: effect object ignored").count(), 4, "{warnings}");
    let Some(Decl::Func(f)) = tu.decls.last() else { panic!("no function: {:?}", tu.decls) };
    assert!(f.body.is_some());
}

#[test]
fn a_braced_initializer_with_equals_is_not_a_state_block() {
    let (tu, warnings) = parse_warned("struct S { int a; };\nS s = { 1 };\nfloat4 c = { 1, 2, 3, 4 };");
    assert_eq!(var_names(&tu), ["s", "c"]);
    assert!(!warnings.contains("effect"), "{warnings}");
}
