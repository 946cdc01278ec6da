//! `[[vk::push_constant]]` and `[[vk::constant_id]]` end to end (SPIR-V.rst, "Push constants" and
//! "Specialization constants"): the SPIR-V DXC makes for them, checked after `spirv-val`, dxc's
//! errors, and what DXIL does (vk:: attributes are ignored there, with dxc's warning).

use hlslc::options::LayoutRule;
use hlslc::{compile, Options, Output, Profile};
use std::process::Command;

fn options(profile: &str, spirv: bool) -> Options {
    let mut o = Options::for_profile(Profile::parse(profile).unwrap());
    o.spirv = spirv;
    o
}

/// The SPIR-V disassembly (validated), or the rendered errors.
fn spirv_with(src: &str, o: &Options) -> Result<String, String> {
    let r = compile(src, "v.hlsl", o, None);
    if !r.succeeded() {
        return Err(r.render_diagnostics());
    }
    let Some(Output::Binary(bytes)) = r.output else { return Err("no binary".into()) };
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("hlslc-vkvars-{}-{n}.spv", std::process::id()));
    std::fs::write(&path, &bytes).unwrap();
    // dxc's relaxed block layout (and -fvk-use-scalar-layout) need the matching spirv-val switch.
    let layout_flag = if o.spirv_options.layout == LayoutRule::Scalar { "--scalar-block-layout" } else { "--relax-block-layout" };
    match Command::new("spirv-val").args(["--target-env", "vulkan1.0", layout_flag]).arg(&path).output() {
        Ok(out) => assert!(out.status.success(), "spirv-val: {}\n{src}", String::from_utf8_lossy(&out.stderr)),
        Err(_) => eprintln!("skipping spirv-val: not installed"),
    }
    let _ = std::fs::remove_file(path);
    let words: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    Ok(hlslc_spirv::disasm::disassemble(&words).unwrap())
}

fn spirv(src: &str, profile: &str) -> String {
    spirv_with(src, &options(profile, true)).unwrap_or_else(|e| panic!("{e}\n{src}"))
}

fn spirv_err(src: &str, profile: &str) -> String {
    spirv_with(src, &options(profile, true)).expect_err("must be rejected")
}

fn has(text: &str, want: &[&str]) {
    for w in want {
        assert!(text.contains(w), "missing `{w}` in:\n{text}");
    }
}

const PC: &str = "struct T { float2 val[3]; };
struct S { float f1; float3 f2; float2x3 f3; T f4; uint u; };
[[vk::push_constant]] S pcs;
RWBuffer<float> o;
[numthreads(1, 1, 1)] void main() { o[0] = pcs.f1 + pcs.f2.z + pcs.f3[1][2] + pcs.f4.val[2].y + pcs.u; }";

#[test]
fn a_push_constant_struct_is_a_push_constant_block_without_descriptor() {
    let t = spirv(PC, "cs_6_0");
    has(&t, &[
        "OpName %type_PushConstant_S \"type.PushConstant.S\"",
        "OpDecorate %type_PushConstant_S Block",
        "%pcs = OpVariable %_ptr_PushConstant_type_PushConstant_S PushConstant",
        "OpAccessChain %_ptr_PushConstant_float %pcs %int_0",
        // std430 (DXC lays push constants out as storage buffers): the float3 packs after the
        // float, the float2x3 (3 columns of float2 in memory, 24 bytes) at 16, the struct of
        // float2[3] (stride 8, alignment 8) at 40, the uint after it at 64.
        "OpMemberDecorate %type_PushConstant_S 1 Offset 4",
        "OpMemberDecorate %type_PushConstant_S 2 Offset 16",
        "OpMemberDecorate %type_PushConstant_S 3 Offset 40",
        "OpMemberDecorate %type_PushConstant_S 4 Offset 64",
        "OpDecorate %_arr_v2float_uint_3 ArrayStride 8",
    ]);
    assert!(!t.contains("OpDecorate %pcs DescriptorSet") && !t.contains("OpDecorate %pcs Binding"), "{t}");
    assert!(!t.contains("$Globals"), "{t}");
}

#[test]
fn push_constant_layout_follows_the_layout_options() {
    let src = "struct S { float a; float3 b; float c[2]; };
[[vk::push_constant]] S pc;
RWBuffer<float> o;
[numthreads(1, 1, 1)] void main() { o[0] = pc.a + pc.b.y + pc.c[1]; }";
    let with = |rule: LayoutRule| {
        let mut o = options("cs_6_0", true);
        o.spirv_options.layout = rule;
        spirv_with(src, &o).unwrap()
    };
    // Default relaxed std430: b at 4, c (stride 4) at 16.
    has(&with(LayoutRule::Default), &["OpMemberDecorate %type_PushConstant_S 1 Offset 4", "OpMemberDecorate %type_PushConstant_S 2 Offset 16"]);
    // -fvk-use-gl-layout (strict std430): b aligned to 16, c at 28.
    has(&with(LayoutRule::Gl), &["OpMemberDecorate %type_PushConstant_S 1 Offset 16", "OpMemberDecorate %type_PushConstant_S 2 Offset 28"]);
    // -fvk-use-scalar-layout: b at 4, c at 16 with stride 4.
    has(&with(LayoutRule::Scalar), &["OpMemberDecorate %type_PushConstant_S 1 Offset 4", "OpMemberDecorate %type_PushConstant_S 2 Offset 16"]);
    // -fvk-use-dx-layout (structured-buffer rules): as the relaxed default here.
    has(&with(LayoutRule::Dx), &["OpMemberDecorate %type_PushConstant_S 1 Offset 4", "OpMemberDecorate %type_PushConstant_S 2 Offset 16"]);
}

#[test]
fn a_push_constant_constant_buffer_and_whole_value_copies() {
    let src = "struct Foo { float x; float4 v[2]; };
[[vk::push_constant]] ConstantBuffer<Foo> g_pc;
RWStructuredBuffer<float> b;
float get(Foo f) { return f.x + f.v[1].y; }
[numthreads(1, 1, 1)] void main() { b[0] = get(g_pc) + g_pc.v[0].w; }";
    let t = spirv(src, "cs_6_0");
    has(&t, &[
        "%g_pc = OpVariable %_ptr_PushConstant_type_ConstantBuffer_Foo PushConstant",
        "OpDecorate %type_ConstantBuffer_Foo Block",
        // std430: the float4 array (stride 16) after the float at 16.
        "OpMemberDecorate %type_ConstantBuffer_Foo 1 Offset 16",
        "OpLoad %type_ConstantBuffer_Foo %g_pc",
    ]);
    let whole = "struct S { uint a; float2 b; };
[[vk::push_constant]] S pc;
RWStructuredBuffer<float> o;
[numthreads(1, 1, 1)] void main() { S s = pc; o[0] = s.a + s.b.y; }";
    has(&spirv(whole, "cs_6_0"), &["OpLoad %type_PushConstant_S %pc"]);
}

#[test]
fn an_anonymous_push_constant_struct() {
    let src = "[[vk::push_constant]] struct { int a; float b; float3 c; } PushConstants;
RWBuffer<int> Output;
[numthreads(1, 1, 1)] void main() { Output[0] = PushConstants.a; }";
    has(&spirv(src, "cs_6_0"), &["OpName %type_PushConstant_ \"type.PushConstant.\"", "%PushConstants = OpVariable %_ptr_PushConstant_type_PushConstant_ PushConstant"]);
}

#[test]
fn push_constant_errors_are_dxcs() {
    let two = "struct S { float4 f; };\n[[vk::push_constant]]\nS a;\n[[vk::push_constant]]\nS b;\nfloat4 main() : SV_Target { return a.f + b.f; }";
    let e = spirv_err(two, "ps_6_0");
    has(&e, &["v.hlsl:4:3: error: cannot have more than one push constant block", "v.hlsl:2:3: note: push constant block previously defined here"]);
    let bound = "struct S { float f; };\n[[vk::push_constant, vk::binding(5)]]\nS pcs;\nfloat4 main() : SV_Target { return pcs.f; }";
    has(&spirv_err(bound, "ps_6_0"), &["v.hlsl:2:3: error: vk::push_constant attribute cannot be used together with vk::binding attribute"]);
    let scalar = "[[vk::push_constant]] float x;\nfloat4 main() : SV_Target { return x; }";
    has(&spirv_err(scalar, "ps_6_0"), &["error: 'push_constant' attribute only applies to global variables of struct type"]);
    let field = "struct T { [[vk::push_constant]] float4 f; };\nT t;\nfloat4 main() : SV_Target { return t.f; }";
    has(&spirv_err(field, "ps_6_0"), &["v.hlsl:1:14: error: 'push_constant' attribute only applies to global variables of struct type"]);
    let args = "struct T { float4 f; };\n[[vk::push_constant(5)]] T t;\nfloat4 main() : SV_Target { return t.f; }";
    has(&spirv_err(args, "ps_6_0"), &["error: 'push_constant' attribute takes no arguments"]);
}

#[test]
fn dxil_ignores_vk_push_constant_with_dxcs_warning() {
    let o = options("cs_6_0", false);
    let r = compile(PC, "v.hlsl", &o, None);
    assert!(r.succeeded(), "{}", r.render_diagnostics());
    assert!(r.render_diagnostics().contains("warning: 'push_constant' attribute ignored"), "{}", r.render_diagnostics());
    let Some(Output::Text(t)) = r.output else { panic!() };
    // An ordinary global: a `$Globals` constant buffer member.
    has(&t, &["$Globals", "cbufferLoadLegacy"]);
}

#[test]
fn specialization_constants_of_each_type() {
    let src = "[[vk::constant_id(0)]] bool b0 = true;
[[vk::constant_id(1)]] bool b1 = 0;
[[vk::constant_id(2)]] bool b2 = 1.5;
[[vk::constant_id(10)]] int i0 = -42;
[[vk::constant_id(11)]] int i1 = 2.5;
[[vk::constant_id(20)]] uint u0 = 56;
static const uint base = 0xC0FFEE;
[[vk::constant_id(21)]] const uint u1 = base;
[[vk::constant_id(30)]] float f0 = -4.5;
[[vk::constant_id(31)]] float f1 = true;
RWBuffer<float> o;
[numthreads(1, 1, 1)] void main() { o[0] = (b0 && b1 && b2 ? 1 : 0) + i0 + i1 + u0 + u1 + f0 + f1; }";
    let t = spirv(src, "cs_6_0");
    has(&t, &[
        "OpDecorate %b0 SpecId 0",
        "OpDecorate %f1 SpecId 31",
        "%b0 = OpSpecConstantTrue %bool",
        "%b1 = OpSpecConstantFalse %bool",
        "%b2 = OpSpecConstantTrue %bool",
        "%i0 = OpSpecConstant %int -42",
        "%i1 = OpSpecConstant %int 2",
        "%u0 = OpSpecConstant %uint 56",
        "%u1 = OpSpecConstant %uint 12648430",
        "%f0 = OpSpecConstant %float -4.5",
        "%f1 = OpSpecConstant %float 1",
    ]);
    assert!(!t.contains("$Globals"), "{t}");
}

#[test]
fn expressions_of_specialization_constants() {
    let src = "[[vk::constant_id(10)]] const int specConst = 12;
static const int val = specConst + 3;
[[vk::constant_id(0)]] const uint k = 1;
RWTexture2D<float3> img;
RWBuffer<int> o;
[numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { img[id.xy * k] = 0; o[0] = val; }";
    let t = spirv(src, "cs_6_0");
    has(&t, &["= OpSpecConstantOp %int IAdd %specConst %int_3", "OpSpecConstantComposite %v2uint %k %k"]);
}

#[test]
fn specialization_constant_errors_are_dxcs() {
    let cases = [
        ("[[vk::constant_id(0)]]\nconst bool sc0 = true;\n[[vk::constant_id(1)]]\nconst bool sc1 = sc0;\n", "4:18: error: unsupported specialization constant initializer"),
        ("[[vk::constant_id(2)]]\nconst double sc2 = 42;\n", "2:1: error: unsupported specialization constant type"),
        ("[[vk::constant_id(3)]]\nconst int sc3;\n", "2:11: error: missing default value for specialization constant"),
        ("[[vk::constant_id(5)]]\nstatic const int sc5 = 1;\n", "2:18: error: specialization constant must be externally visible"),
        ("[[vk::constant_id(6)]]\nconst float3 sc6 = 1;\n", "2:1: error: unsupported specialization constant type"),
    ];
    for (decls, want) in cases {
        let src = format!("{decls}float4 main() : SV_Target {{ return 1; }}");
        let e = spirv_err(&src, "ps_6_0");
        assert!(e.contains(want), "`{want}` expected for:\n{src}\ngot:\n{e}");
    }
}

#[test]
fn a_specialization_constant_is_not_a_constant_expression() {
    // dxc cannot size an array with one (SPIR-V.rst's example leaves it out): refused, not
    // silently folded to the default.
    let src = "[[vk::constant_id(1)]] const uint N = 4;\nstatic float a[N];\nfloat4 main() : SV_Target { return a[0]; }";
    assert!(spirv_with(src, &options("ps_6_0", true)).is_err());
}

/// `-fspv-reflect` (SPIR-V.rst, "HLSL semantic and Vulkan Location", "HLSL User Types",
/// "Counter buffers"): the semantic of every stage variable, the HLSL type of every bound resource
/// in DXC's spelling, and the counter of every counted buffer.
#[test]
fn fspv_reflect_decorates_semantics_user_types_and_counters() {
    let src = r#"
        Texture2DMSArray<float4, 64> ms;
        RWStructuredBuffer<float> rw;
        cbuffer Params { float k; };
        struct S { float a; };
        ConstantBuffer<S> cb;
        SamplerState samp;
        float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD3) : SV_Target {
            rw.IncrementCounter();
            return pos * uv.x * k * cb.a;
        }"#;
    let mut o = options("ps_6_0", true);
    o.opt_level = 0;
    o.spirv_options.reflect = true;
    let a = spirv_with(src, &o).unwrap();
    for needle in [
        "OpExtension \"SPV_GOOGLE_hlsl_functionality1\"",
        "OpExtension \"SPV_GOOGLE_user_type\"",
        "OpDecorateString %gl_FragCoord UserSemantic \"SV_Position\"",
        "OpDecorateString %in_var_TEXCOORD3 UserSemantic \"TEXCOORD3\"",
        "OpDecorateString %out_var_SV_Target UserSemantic \"SV_Target\"",
        "OpDecorateString %ms UserTypeGOOGLE \"texture2dmsarray:<float4,64>\"",
        "OpDecorateString %rw UserTypeGOOGLE \"rwstructuredbuffer:<float>\"",
        "OpDecorateString %Params UserTypeGOOGLE \"cbuffer\"",
        "OpDecorateString %cb UserTypeGOOGLE \"constantbuffer:<S>\"",
        "OpDecorateId %rw CounterBuffer %counter_var_rw",
    ] {
        assert!(a.contains(needle), "missing {needle}\n{a}");
    }
    // Samplers and the counter itself get no user type; without the option nothing of this.
    assert!(!a.contains("%samp UserTypeGOOGLE") && !a.contains("%counter_var_rw UserTypeGOOGLE"), "{a}");
    o.spirv_options.reflect = false;
    let b = spirv_with(src, &o).unwrap();
    assert!(!b.contains("GOOGLE") && !b.contains("UserSemantic") && !b.contains("CounterBuffer"), "{b}");
}
