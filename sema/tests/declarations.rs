//! Declarations dxc accepts beyond the common forms: stage-specific and offset registers,
//! `unsigned` shorthand types, and the other odd declarations checked here.

mod common;
use common::*;
use hlslc_sema::SemaOptions;

fn var<'m>(m: &'m hlslc_sema::tast::Module, name: &str) -> &'m hlslc_sema::tast::Var {
    m.vars.iter().find(|v| v.name == name).unwrap_or_else(|| panic!("no variable {name}"))
}

#[test]
fn registers_for_other_stages_are_ignored() {
    let src = "Buffer<uint> buf : register(ps, space1) : register(vs, space2);\n\
               SamplerState s : register(vs, s3) : register(ps_6_0, s[5]);\n\
               SamplerState o : register(ps, s2[8]);\n\
               SamplerState f : register(ps, s[1.5 + 1]);\n\
               Texture2D t : register(ps, t);\n\
               float4 main() : SV_Target { return buf[0]; }";
    let m = ok(src);
    assert_eq!(var(&m, "buf").binding.space, 1, "ps_6_0 takes the ps annotation");
    assert_eq!(var(&m, "s").binding.register, Some(('s', 5)));
    assert_eq!(var(&m, "o").binding.register, Some(('s', 10)), "s2[8] is s10");
    assert_eq!(var(&m, "f").binding.register, Some(('s', 2)), "the offset 2.5 truncates");
    assert_eq!(var(&m, "t").binding.register, Some(('t', 0)), "a register type alone is register 0");
    let vs = SemaOptions { profile: "vs_6_0".into(), ..SemaOptions::default() };
    let m = run_with("Buffer<uint> buf : register(ps, space1) : register(vs, space2);\nuint main() : OUT { return buf[0]; }", &vs)
        .module
        .expect("accepted");
    assert_eq!(var(&m, "buf").binding.space, 2);
    assert!(err("SamplerState s : register(ps, s[x]); float4 main() : SV_Target { return 0; }").contains("invalid register"));
}

#[test]
fn unsigned_applies_to_integer_shorthand_types() {
    let m = ok("unsigned dword3x4 c; unsigned min16int3 d; unsigned int64_t2 e;\nfloat4 main() : SV_Target { return c[0][3] + d[2] + e.x; }");
    assert_eq!(m.types.name(var(&m, "c").ty), "uint3x4");
    assert_eq!(m.types.name(var(&m, "d").ty), "min16uint3");
    assert_eq!(m.types.name(var(&m, "e").ty), "uint64_t2");
    assert!(!run("unsigned float2 f; float4 main() : SV_Target { return 0; }").diags.list.is_empty());
}
