//! Sema's register and semantic rules (issue #12), in dxc's wording (the messages of
//! SemaHLSL/packreg.hlsl and semantics.hlsl), checked with `-verify`: each line says the
//! diagnostic dxc gives there.

mod common;
use common::*;

const RULES: &str = r#"
struct S { float a; };
cbuffer A : register(t1) { float a1; }                  // expected-error {{invalid register specification, expected 'b' binding}}
cbuffer A2 : register(B2) { float a2; }
tbuffer B : register(b1) { float b1; }                  // expected-error {{invalid register specification, expected 't' binding}}
ConstantBuffer<S> C : register(u3);                     // expected-error {{invalid register specification, expected 'b' binding}}
TextureBuffer<S> D : register(c3);                      // expected-error {{invalid register specification, expected 't' binding}}
SamplerState E : register(c4);                          // expected-error {{invalid register specification, expected 's' or 't' binding}}
SamplerState E2 : register(t4);
Texture2D F : register(u5);                             // expected-error {{invalid register specification, expected 't' or 's' binding}}
Texture2D F2[2] : register(s5);
Texture3D F3 : register(q5);                            // expected-error {{register type is unsupported - available types are 'b', 'c', 'i', 's', 't', 'u'}}
StructuredBuffer<float> G : register(s6);               // expected-error {{invalid register specification, expected 't' binding}}
Buffer<float> G2[3] : register(u6);                     // expected-error {{invalid register specification, expected 't' binding}}
RWTexture2D<float> H : register(t7);                    // expected-error {{invalid register specification, expected 'u' binding}}
AppendStructuredBuffer<float> H2 : register(b7);        // expected-error {{invalid register specification, expected 'u' binding}}
SamplerState I : register(s1) : register(s2);           // expected-error {{conflicting register semantics}}
SamplerState I2 : register(vs, s1) : register(ps, s2);
SamplerState J : register(s8589934592);                 // expected-error {{register number should be an integral numeric string}}
SamplerState K : register(s1, spice);                   // expected-error {{expected space definition with syntax 'spaceX', where X is an integral value}}
SamplerState K2 : register(s1, spacex);                 // expected-error {{space number should be an integral numeric string}}
cbuffer L : register(ps, b1) : register(vs, b2) { float l; } // expected-error 2 {{user defined constant buffer slots cannot be target specific}}
float4 M : register(c1);
void f() {
  float x : SEM;                                        // expected-error {{semantic is not a valid modifier for a local variable}}
}
[shader("pixel")] float4 main() : SV_Target { return M; }
"#;

#[test]
fn register_types_spaces_conflicts_and_local_semantics_are_checked() {
    let dir = TempDir::new("regrules");
    let f = dir.file("regs.hlsl", RULES);
    for profile in ["lib_6_3", "ps_6_0"] {
        let o = hlslc(&["-T", profile, "-E", "main", "-verify", f.to_str().unwrap()]);
        assert_eq!(code(&o), 0, "{profile}: {}{}", stdout(&o), stderr(&o));
    }
}

#[test]
fn dxil_text_starts_with_the_resource_bindings_table() {
    // dxc's order: constant buffers, samplers, SRVs, UAVs; rows as dxc prints them (columns of
    // HLSLFileCheck's resource_binding tests).
    let src = "RWStructuredBuffer<uint> Out : register(u1);\n\
        Texture2D<float4> Tex : register(t2, space1);\n\
        SamplerState Smp : register(s0);\n\
        cbuffer Cb : register(b3) { float4 k; };\n\
        float4 main(float2 uv : UV) : SV_Target { Out[0] = 1; return Tex.Sample(Smp, uv) * k; }\n";
    let text = dxil_text(src, "ps_6_0", false);
    let expected = ";\n; Resource Bindings:\n;\n\
        ; Name                                 Type  Format         Dim      ID      HLSL Bind  Count\n\
        ; ------------------------------ ---------- ------- ----------- ------- -------------- ------\n\
        ; Cb                                cbuffer      NA          NA     CB0            cb3     1\n\
        ; Smp                               sampler      NA          NA      S0             s0     1\n\
        ; Tex                               texture     f32          2d      T0      t2,space1     1\n\
        ; Out                                   UAV  struct         r/w      U0             u1     1\n\
        ;\ntarget datalayout";
    assert!(text.starts_with(expected), "{text}");
}

#[test]
fn a_tbuffer_block_is_a_shader_resource_view() {
    // `tbuffer` is an SRV bound at its `t` register (dxc: kind tbuffer, `texture` in the table,
    // HLSLFileCheck resource_binding/bindings2.hlsl's MyTB row); it was a CBV at cb0.
    let src = "tbuffer MyTB : register(t11, space3) { float f3; float4 f4; };\n\
        cbuffer Cb : register(b2) { float4 k; };\n\
        float4 main() : SV_Target { return f3 * f4 * k; }\n";
    let text = dxil_text(src, "ps_6_0", false);
    assert!(text.contains("; Cb                                cbuffer      NA          NA     CB0            cb2     1\n"), "{text}");
    assert!(text.contains("; MyTB                              texture     u32     tbuffer      T0     t11,space3     1\n"), "{text}");
}
