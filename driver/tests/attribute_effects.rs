//! The attribute table (`hlslc_sema::attrs`) walked against both emitters: every attribute a
//! back end honors has an effect test here (a shader compiled with and without it, or with two
//! values of it, and the difference checked), and every attribute it refuses is refused with an
//! error naming it. SPIR-V outputs go through `spirv-val` when it is installed.

use hlslc::{compile, Options, Output, Profile};
use hlslc_sema::attrs::{Status, Target, ATTRIBUTES};
use std::process::Command;

/// Compiles `src` for `profile`; the text output (DXIL, or the SPIR-V disassembly after
/// `spirv-val`) or the rendered errors.
fn build(src: &str, profile: &str, spirv: bool) -> Result<String, String> {
    let mut o = Options::for_profile(Profile::parse(profile).unwrap());
    o.spirv = spirv;
    // The emitter's module: at -O3 the optimizer inlines the patch constant function (its name
    // goes) and may remove what an attribute decorated.
    o.opt_level = 0;
    let r = compile(src, "attr.hlsl", &o, None);
    if !r.succeeded() {
        return Err(r.render_diagnostics());
    }
    match r.output {
        Some(Output::Text(t)) => Ok(t),
        Some(Output::Binary(bytes)) => {
            let words: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
            validate(&bytes, profile);
            Ok(hlslc_spirv::disasm::disassemble(&words).expect("disassembles"))
        }
        None => Err("no output".into()),
    }
}

/// `spirv-val` on a module (skipped with a message when the tool is not installed).
fn validate(bytes: &[u8], name: &str) {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("hlslc-attr-{}-{name}-{n}.spv", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    match Command::new("spirv-val").args(["--target-env", "vulkan1.0", "--relax-block-layout"]).arg(&path).output() {
        Ok(out) => assert!(out.status.success(), "spirv-val: {}", String::from_utf8_lossy(&out.stderr)),
        Err(_) => eprintln!("skipping spirv-val: not installed"),
    }
    let _ = std::fs::remove_file(path);
}

/// `with` compiles and its output contains `needle`; `without` (the same shader without the
/// attribute, or with another value) does not contain it or does not compile.
fn effect(profile: &str, spirv: bool, with: &str, without: &str, needle: &str) {
    let a = build(with, profile, spirv).unwrap_or_else(|e| panic!("with the attribute: {e}\n{with}"));
    assert!(a.contains(needle), "`{needle}` missing with the attribute:\n{a}");
    if let Ok(b) = build(without, profile, spirv) {
        assert!(!b.contains(needle), "`{needle}` present without the attribute:\n{b}");
    }
}

/// Both targets.
fn effect2(profile: &str, with: &str, without: &str, spirv_needle: &str, dxil_needle: &str) {
    effect(profile, true, with, without, spirv_needle);
    effect(profile, false, with, without, dxil_needle);
}

#[test]
fn numthreads_sets_the_group_size() {
    let s = |n: &str| format!("RWBuffer<uint> b; [numthreads({n})] void main(uint3 i : SV_DispatchThreadID) {{ b[i.x] = i.x; }}");
    effect2("cs_6_0", &s("8, 4, 2"), &s("1, 1, 1"), "LocalSize 8 4 2", "!{i32 8, i32 4, i32 2}");
}

#[test]
fn shader_makes_a_library_entry_point() {
    effect("lib_6_3", true, "[shader(\"compute\")] [numthreads(1, 1, 1)] void main() {}", "[numthreads(1, 1, 1)] void main() {}", "OpEntryPoint GLCompute");
}

/// A hull shader with `{D}` domain, `{P}` partitioning, `{T}` topology, `{N}` output control
/// points, `{F}` patch constant function and `{M}` max tessellation factor.
fn hull(d: &str, p: &str, t: &str, n: u32, f: &str, m: &str) -> String {
    let (edges, inside) = if d == "quad" { (4, "float inside[2] : SV_InsideTessFactor;") } else { (3, "float inside : SV_InsideTessFactor;") };
    let fill_inside = if d == "quad" { "c.inside[0] = 1; c.inside[1] = 1;" } else { "c.inside = 1;" };
    format!(
        "struct V {{ float4 pos : POSITION; }};
struct C {{ float edges[{edges}] : SV_TessFactor; {inside} }};
C {f}(InputPatch<V, 3> p) {{ C c; for (int i = 0; i < {edges}; i++) c.edges[i] = 2; {fill_inside} return c; }}
[domain(\"{d}\")] [partitioning(\"{p}\")] [outputtopology(\"{t}\")] [outputcontrolpoints({n})] [patchconstantfunc(\"{f}\")] [maxtessfactor({m})]
V main(InputPatch<V, 3> p, uint i : SV_OutputControlPointID) {{ return p[i % 3]; }}"
    )
}

#[test]
fn domain_sets_the_tessellation_domain() {
    let quad = hull("quad", "integer", "triangle_cw", 3, "pcf", "64.0");
    let tri = hull("tri", "integer", "triangle_cw", 3, "pcf", "64.0");
    // DXIL's hull state: domain 3 (quad) then partitioning 1 (integer).
    effect2("hs_6_0", &quad, &tri, "OpExecutionMode %main Quads", "i32 3, i32 3, i32 1, i32 3");
}

#[test]
fn partitioning_sets_the_spacing() {
    let odd = hull("tri", "fractional_odd", "triangle_cw", 3, "pcf", "64.0");
    let int = hull("tri", "integer", "triangle_cw", 3, "pcf", "64.0");
    effect2("hs_6_0", &odd, &int, "SpacingFractionalOdd", "i32 2, i32 3, i32 3");
}

#[test]
fn outputtopology_sets_the_winding() {
    let ccw = hull("tri", "integer", "triangle_ccw", 3, "pcf", "64.0");
    let cw = hull("tri", "integer", "triangle_cw", 3, "pcf", "64.0");
    effect2("hs_6_0", &ccw, &cw, "VertexOrderCcw", "i32 2, i32 1, i32 4");
}

#[test]
fn outputcontrolpoints_sets_the_patch_size() {
    let four = hull("tri", "integer", "triangle_cw", 4, "pcf", "64.0");
    let three = hull("tri", "integer", "triangle_cw", 3, "pcf", "64.0");
    effect2("hs_6_0", &four, &three, "OutputVertices 4", "i32 3, i32 4, i32 2");
}

#[test]
fn patchconstantfunc_names_the_patch_function() {
    let other = hull("tri", "integer", "triangle_cw", 3, "other", "64.0");
    let pcf = hull("tri", "integer", "triangle_cw", 3, "pcf", "64.0");
    effect2("hs_6_0", &other, &pcf, "OpName %other \"other\"", "@\"\\01?other@@");
}

#[test]
fn maxtessfactor_sets_the_hull_state() {
    let m32 = hull("tri", "integer", "triangle_cw", 3, "pcf", "32.0");
    let m64 = hull("tri", "integer", "triangle_cw", 3, "pcf", "64.0");
    effect("hs_6_0", false, &m32, &m64, "float 3.200000e+01");
}

fn geometry(max: u32, instance: &str) -> String {
    format!(
        "struct V {{ float4 pos : SV_Position; }};
[maxvertexcount({max})] {instance}
void main(triangle V input[3], inout TriangleStream<V> s) {{ s.Append(input[0]); }}"
    )
}

#[test]
fn maxvertexcount_sets_the_output_size() {
    // DXIL's geometry state: input primitive 3 (triangle), max vertex count, stream mask 1.
    effect2("gs_6_0", &geometry(7, ""), &geometry(3, ""), "OutputVertices 7", "i32 3, i32 7, i32 1");
}

#[test]
fn instance_sets_the_invocations() {
    effect("gs_6_0", true, &geometry(3, "[instance(5)]"), &geometry(3, ""), "Invocations 5");
    // DXIL: the instance count ends the geometry state (`..., i32 5, i32 5}`: triangle strip 5,
    // then 5 instances).
    effect("gs_6_0", false, &geometry(3, "[instance(4)]"), &geometry(3, ""), "i32 5, i32 4}");
}

#[test]
fn earlydepthstencil_forces_early_tests() {
    let s = |a: &str| format!("{a} float4 main(float4 c : COLOR) : SV_Target {{ return c * 2; }}");
    effect2("ps_6_0", &s("[earlydepthstencil]"), &s(""), "OpExecutionMode %main EarlyFragmentTests", "!{i32 0, i64 8}");
}

#[test]
fn wavesize_sets_the_entry_property() {
    let s = |a: &str| format!("RWBuffer<uint> b; {a} [numthreads(64, 1, 1)] void main(uint3 i : SV_DispatchThreadID) {{ b[i.x] = WaveGetLaneIndex(); }}");
    // `!dx.entryPoints` tag 11 (wave size) followed by its node.
    effect("cs_6_6", false, &s("[WaveSize(32)]"), &s(""), "i32 11, !");
}

/// The root signature is compiled into the container's `RTS0` part (after `PSV0`, as dxc
/// writes it); a bad one is refused with dxc's message at the attribute.
#[test]
fn rootsignature_adds_the_rts0_part() {
    let shader = |attr: &str| format!("Texture2D<float4> t : register(t0);\n{attr}\nfloat4 main(float4 p : SV_Position) : SV_Target {{ return t.Load(int3(p.xy, 0)); }}\n");
    let container = |src: &str| {
        let mut o = Options::for_profile(Profile::parse("ps_6_0").unwrap());
        o.output_kind = hlslc::OutputKind::Binary;
        let r = compile(src, "attr.hlsl", &o, None);
        assert!(r.succeeded(), "{}", r.render_diagnostics());
        match r.output {
            Some(Output::Binary(b)) => b,
            _ => panic!("no container"),
        }
    };
    let with = container(&shader("[RootSignature(\"DescriptorTable(SRV(t0))\")]"));
    let without = container(&shader(""));
    let parts = |b: &[u8]| hlslc_dxil::container::reader::parse(b).unwrap().parts.iter().map(|p| p.fourcc.clone()).collect::<Vec<_>>();
    assert_eq!(parts(&with), ["SFI0", "ISG1", "OSG1", "PSV0", "RTS0", "STAT", "HASH", "DXIL"]);
    assert!(!parts(&without).contains(&"RTS0".to_string()));
    // A string that does not parse is an error at the attribute, with dxc's message.
    let e = build(&shader("[RootSignature(\"DescriptorTable(SRV(b0))\")]"), "ps_6_0", false).unwrap_err();
    assert!(e.contains("root signature error - Incorrect register type 'b0' in SRV (expected t#)"), "{e}");
    assert!(e.contains("attr.hlsl:2:"), "{e}");
    // SPIR-V ignores it, as dxc -spirv does: the same module with or without it.
    assert_eq!(build(&shader("[RootSignature(\"SRV(t0)\")]"), "ps_6_0", true).unwrap(), build(&shader(""), "ps_6_0", true).unwrap());
}

#[test]
fn unroll_and_loop_set_the_loop_control() {
    let s = |a: &str| format!("RWBuffer<uint> b; [numthreads(1, 1, 1)] void main(uint3 i : SV_DispatchThreadID) {{ uint x = 0; {a} for (uint k = 0; k < i.x; k++) x += k; b[0] = x; }}");
    effect("cs_6_0", true, &s("[unroll]"), &s(""), " Unroll");
    effect("cs_6_0", true, &s("[loop]"), &s(""), "DontUnroll");
    effect("cs_6_0", true, &s("[fastopt]"), &s(""), "DontUnroll");
}

#[test]
fn branch_and_flatten_set_the_selection_control() {
    let s = |a: &str| format!("RWBuffer<uint> b; [numthreads(1, 1, 1)] void main(uint3 i : SV_DispatchThreadID) {{ {a} if (i.x > 3) b[0] = 1; }}");
    effect("cs_6_0", true, &s("[branch]"), &s(""), "DontFlatten");
    effect("cs_6_0", true, &s("[flatten]"), &s(""), " Flatten");
}

#[test]
fn vk_binding_sets_binding_and_set() {
    let s = |a: &str| format!("{a} RWBuffer<uint> b; [numthreads(1, 1, 1)] void main() {{ b[0] = 1; }}");
    effect("cs_6_0", true, &s("[[vk::binding(3, 2)]]"), &s(""), "OpDecorate %b DescriptorSet 2");
    effect("cs_6_0", true, &s("[[vk::binding(3, 2)]]"), &s(""), "OpDecorate %b Binding 3");
}

#[test]
fn vk_counter_binding_binds_the_counter() {
    let s = |a: &str| format!("{a} AppendStructuredBuffer<uint> b; [numthreads(1, 1, 1)] void main() {{ b.Append(1); }}");
    effect("cs_6_0", true, &s("[[vk::counter_binding(5)]]"), &s(""), "OpDecorate %counter_var_b Binding 5");
}

#[test]
fn vk_location_sets_the_location() {
    // (Every input has it or none: dxc refuses a vk::location on only some of them.)
    let s = |a: &str| format!("float4 main({a} float4 c : COLOR) : SV_Target {{ return c; }}");
    effect("ps_6_0", true, &s("[[vk::location(7)]]"), &s(""), "OpDecorate %in_var_COLOR Location 7");
    let e = build("float4 main(float4 x : X, [[vk::location(7)]] float4 c : COLOR) : SV_Target { return x + c; }", "ps_6_0", true).unwrap_err();
    assert!(e.contains("partial explicit stage input location assignment via vk::location(X) unsupported"), "{e}");
}

#[test]
fn vk_push_constant_makes_a_push_constant_block() {
    let s = |a: &str| format!("struct S {{ uint a; float b; }}; {a} S pc; RWBuffer<float> o; [numthreads(1, 1, 1)] void main() {{ o[0] = pc.a + pc.b; }}");
    effect("cs_6_0", true, &s("[[vk::push_constant]]"), &s(""), "%pc = OpVariable %_ptr_PushConstant_type_PushConstant_S PushConstant");
    // Without the attribute the struct is a `$Globals` member.
    let plain = build(&s(""), "cs_6_0", true).unwrap();
    assert!(plain.contains("OpMemberName %type__Globals 0 \"pc\""), "{plain}");
}

#[test]
fn vk_constant_id_makes_a_specialization_constant() {
    let s = |a: &str| format!("{a} const uint K = 5; RWBuffer<uint> o; [numthreads(1, 1, 1)] void main() {{ o[0] = K; }}");
    effect("cs_6_0", true, &s("[[vk::constant_id(3)]]"), &s(""), "OpDecorate %K SpecId 3");
    let spec = build(&s("[[vk::constant_id(3)]]"), "cs_6_0", true).unwrap();
    assert!(spec.contains("%K = OpSpecConstant %uint 5"), "{spec}");
    assert!(!spec.contains("$Globals"), "{spec}");
}

#[test]
fn vk_input_attachment_index_decorates_the_subpass_input() {
    // SPIR-V.rst / DXC's vk.subpass-input.hlsl: a SubpassData image read at int2(0, 0).
    let s = |a: &str| format!("{a} SubpassInput<float3> si; [[vk::input_attachment_index(2)]] SubpassInputMS<int> ms; float4 main() : SV_Target {{ return float4(si.SubpassLoad(), ms.SubpassLoad(1)); }}");
    effect("ps_6_0", true, &s("[[vk::input_attachment_index(5)]]"), &s("[[vk::input_attachment_index(4)]]"), "OpDecorate %si InputAttachmentIndex 5");
    let out = build(&s("[[vk::input_attachment_index(5)]]"), "ps_6_0", true).unwrap();
    for needle in [
        "OpCapability InputAttachment",
        "OpDecorate %ms InputAttachmentIndex 2",
        "OpTypeImage %float SubpassData 2 0 0 2 Unknown",
        "OpTypeImage %int SubpassData 2 0 1 2 Unknown",
        "OpImageRead %v4float %",
        "OpVectorShuffle %v3float",
        "Sample %int_1",
    ] {
        assert!(out.contains(needle), "`{needle}` missing:\n{out}");
    }
    // DXC's errors.
    let cs = "[[vk::input_attachment_index(0)]] SubpassInput<float4> si; RWBuffer<float4> b; [numthreads(1, 1, 1)] void main() { b[0] = si.SubpassLoad(); }";
    assert!(build(cs, "cs_6_0", true).unwrap_err().contains("SubpassInput(MS) only allowed in pixel shader"));
    let st = "[[vk::input_attachment_index(0)]] static SubpassInput si; float4 main() : SV_Target { return 0; }";
    assert!(build(st, "ps_6_0", true).unwrap_err().contains("SubpassInput(MS) must be externally visible"));
    let ty = "struct S { float a; }; [[vk::input_attachment_index(0)]] SubpassInput<S> si; float4 main() : SV_Target { return 0; }";
    assert!(build(ty, "ps_6_0", true).unwrap_err().contains("only scalar/vector types allowed as SubpassInput(MS) parameter type"));
}

#[test]
fn vk_image_format_sets_the_image_format() {
    let s = |a: &str| format!("{a} RWBuffer<float4> b; [numthreads(1, 1, 1)] void main() {{ b[0] = 1; }}");
    effect("cs_6_0", true, &s("[[vk::image_format(\"rgba16f\")]]"), &s(""), "OpTypeImage %float Buffer 2 0 0 2 Rgba16f");
    // Variables of one image type must agree (the image type follows the HLSL type).
    let mixed = "[[vk::image_format(\"rgba8\")]] RWTexture2D<float4> a; RWTexture2D<float4> b; [numthreads(1, 1, 1)] void main() { a[uint2(0, 0)] = b[uint2(0, 0)]; }";
    let e = build(mixed, "cs_6_0", true).unwrap_err();
    assert!(e.contains("attribute 'vk::image_format' is not supported by the SPIR-V back end when variables of the same type"), "{e}");
}

#[test]
fn vk_shader_record_makes_a_shader_record_buffer() {
    // A miss shader of a library reading its shader binding table record (SPV_NV_ray_tracing, so
    // that vulkan1.0 validation applies): a ShaderRecordBufferKHR block with no binding; without
    // the attribute, a uniform buffer at binding 0.
    let s = |a: &str| format!("struct S {{ float4 v; }}; {a} ConstantBuffer<S> rec; struct P {{ float4 c; }}; [shader(\"miss\")] void main(inout P p) {{ p.c = rec.v; }}");
    let build_rt = |src: &str| -> String {
        let mut o = Options::for_profile(Profile::parse("lib_6_3").unwrap());
        o.spirv = true;
        o.opt_level = 0;
        o.spirv_options.extensions = vec!["SPV_NV_ray_tracing".into()];
        let r = compile(src, "attr.hlsl", &o, None);
        assert!(r.succeeded(), "{}\n{src}", r.render_diagnostics());
        let Some(Output::Binary(bytes)) = r.output else { panic!("no binary output") };
        validate(&bytes, "lib_6_3");
        let words: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        hlslc_spirv::disasm::disassemble(&words).expect("disassembles")
    };
    for attr in ["[[vk::shader_record_ext]]", "[[vk::shader_record_nv]]"] {
        let a = build_rt(&s(attr));
        assert!(a.contains("%rec = OpVariable %_ptr_ShaderRecordBufferKHR_type_ConstantBuffer_S ShaderRecordBufferKHR"), "{a}");
        assert!(!a.contains("OpDecorate %rec Binding") && !a.contains("OpDecorate %rec DescriptorSet"), "{a}");
    }
    let b = build_rt(&s(""));
    assert!(b.contains("%rec = OpVariable %_ptr_Uniform_type_ConstantBuffer_S Uniform"), "{b}");
    assert!(b.contains("OpDecorate %rec Binding 0"), "{b}");
}

/// A shader using attribute `name` (bare, on the entry point) for the refusal walk, with the
/// profile to compile it for.
fn refusal_sample(namespace: Option<&str>, name: &str) -> (String, &'static str) {
    let spelled = match namespace {
        Some(ns) => format!("[[{ns}::{name}]]"),
        None => format!("[{name}]"),
    };
    if name.starts_with("shader_record") {
        return (format!("{spelled} cbuffer C {{ float4 x; }}; RWBuffer<float> b; [numthreads(1, 1, 1)] void main() {{ b[0] = x.y; }}"), "cs_6_6");
    }
    if name == "clipplanes" {
        return ("float4 plane; [clipplanes(plane)] float4 main(float4 p : POSITION) : SV_Position { return p; }".into(), "vs_6_0");
    }
    (format!("RWBuffer<uint> b; {spelled} [numthreads(1, 1, 1)] void main() {{ b[0] = 1; }}"), "cs_6_6")
}

/// The walk: every honored attribute names an effect test in this file, every refused one is
/// refused by that back end with an error naming it, every irrelevant one says why.
#[test]
fn every_attribute_is_honored_with_a_test_or_refused() {
    let this_file = include_str!("attribute_effects.rs");
    for info in ATTRIBUTES {
        for (target, spirv) in [(Target::Spirv, true), (Target::Dxil, false)] {
            match info.status(target) {
                Status::Honored { test } | Status::HonoredAt { test, .. } => {
                    assert!(this_file.contains(&format!("fn {test}()")), "{}: effect test `{test}` does not exist", info.full_name());
                }
                Status::Irrelevant(why) => assert!(why.len() > 20, "{}: say why it is irrelevant", info.full_name()),
                Status::Refused => {
                    let (src, profile) = refusal_sample(info.namespace, info.name);
                    let err = build(&src, profile, spirv).expect_err(&format!("{} must be refused ({target:?})", info.full_name()));
                    let want = format!("attribute '{}' is not supported", info.full_name());
                    assert!(err.contains(&want), "{target:?}: `{want}` expected, got:\n{err}");
                }
            }
        }
    }
}

#[test]
fn unknown_attributes_warn_and_vk_attributes_warn_for_dxil() {
    let src = "[[scope::attr(0)]] [shiny] RWBuffer<uint> b; [numthreads(1, 1, 1)] void main() { b[0] = 1; }";
    let o = Options::for_profile(Profile::parse("cs_6_0").unwrap());
    let r = compile(src, "a.hlsl", &o, None);
    let d = r.render_diagnostics();
    assert!(d.contains("warning: unknown attribute 'attr' ignored"), "{d}");
    assert!(d.contains("warning: unknown attribute 'shiny' ignored"), "{d}");
    let r = compile("[[vk::binding(1)]] RWBuffer<uint> b; [numthreads(1, 1, 1)] void main() { b[0] = 1; }", "a.hlsl", &o, None);
    assert!(r.succeeded());
    assert!(r.render_diagnostics().contains("warning: 'binding' attribute ignored"), "{}", r.render_diagnostics());
}

#[test]
fn vk_offset_pins_the_member_offset() {
    // SPIR-V.rst: the offset overrules the layout rule in every buffer of the struct; the members
    // after it follow the rule from its end (float2 b@32 ends at 40: float c@40).
    let s = |a: &str| format!("struct S {{ float a; {a} float2 b; float c; }}; StructuredBuffer<S> sb; [[vk::push_constant]] S pc; RWBuffer<float> o; [numthreads(1, 1, 1)] void main() {{ o[0] = sb[0].b.x + pc.c; }}");
    effect("cs_6_0", true, &s("[[vk::offset(32)]]"), &s(""), "OpMemberDecorate %S 1 Offset 32");
    let a = build(&s("[[vk::offset(32)]]"), "cs_6_0", true).unwrap();
    assert!(a.contains("OpMemberDecorate %S 2 Offset 40"), "{a}");
    assert!(a.contains("OpMemberDecorate %type_PushConstant_S 1 Offset 32") && a.contains("OpMemberDecorate %type_PushConstant_S 2 Offset 40"), "{a}");
    let b = build(&s(""), "cs_6_0", true).unwrap();
    // DXC's relaxed rule: float2 aligns to its component (4), c follows at 12.
    assert!(b.contains("OpMemberDecorate %S 1 Offset 4") && b.contains("OpMemberDecorate %S 2 Offset 12"), "{b}");
}

#[test]
fn vk_location_on_struct_fields_and_returns() {
    // A field of a struct input, and the return value (the attribute on the function).
    let s = |a: &str, b: &str| format!("struct In {{ {b} float4 x : X; {a} float4 c : COLOR; }}; float4 main(In i) : SV_Target {{ return i.x + i.c; }}");
    effect("ps_6_0", true, &s("[[vk::location(5)]]", "[[vk::location(0)]]"), &s("", ""), "OpDecorate %in_var_COLOR Location 5");
    let r = |a: &str| format!("{a} float4 main(float4 p : POSITION) : COLOR {{ return p; }}");
    effect("vs_6_0", true, &r("[[vk::location(3)]]"), &r(""), "OpDecorate %out_var_COLOR Location 3");
}

#[test]
fn vk_index_sets_the_dual_source_index() {
    // Without the index, the second output takes location 1 (two outputs cannot share one).
    let s = |a: &str| format!("struct O {{ [[vk::location(0)]] float4 a : SV_Target0; [[{a}]] float4 b : SV_Target1; }}; O main(float4 c : COLOR) {{ O o; o.a = c; o.b = c * 2; return o; }}");
    effect("ps_6_0", true, &s("vk::location(0), vk::index(1)"), &s("vk::location(1)"), "OpDecorate %out_var_SV_Target1 Index 1");
    // DXC's checks.
    let e = build(&s("vk::location(0), vk::index(2)"), "ps_6_0", true).unwrap_err();
    assert!(e.contains("dual-source blending only accepts 0 or 1 as vk::index"), "{e}");
    let e = build("struct O { [[vk::location(1), vk::index(1)]] float4 a : SV_Target0; }; O main() { O o; o.a = 1; return o; }", "ps_6_0", true).unwrap_err();
    assert!(e.contains("dual-source blending should use vk::location 0"), "{e}");
    let e = build("int main([[vk::index(1)]] int a : A) : B { return a; }", "vs_6_0", true).unwrap_err();
    assert!(e.contains("vk::index only allowed in pixel shader"), "{e}");
    let e = build("float4 main([[vk::index(1)]] float4 a : A) : SV_Target { return a; }", "ps_6_0", true).unwrap_err();
    assert!(e.contains("vk::index should be used together with vk::location for dual-source blending"), "{e}");
}

/// A pixel shader with the entry attributes `a`.
fn pixel(a: &str) -> String {
    format!("{a} float4 main(float4 c : COLOR) : SV_Target {{ return c * 2; }}")
}

#[test]
fn vk_post_depth_coverage_sets_the_mode() {
    effect("ps_6_0", true, &pixel("[[vk::post_depth_coverage]]"), &pixel(""), "OpExecutionMode %main PostDepthCoverage");
    let a = build(&pixel("[[vk::post_depth_coverage]]"), "ps_6_0", true).unwrap();
    assert!(a.contains("OpCapability SampleMaskPostDepthCoverage") && a.contains("OpExtension \"SPV_KHR_post_depth_coverage\""), "{a}");
}

#[test]
fn vk_early_and_late_tests_and_its_companions_set_the_modes() {
    let el = "[[vk::early_and_late_tests]]";
    effect("ps_6_0", true, &pixel(el), &pixel(""), "OpExecutionMode %main EarlyAndLateFragmentTestsAMD");
    let a = build(&pixel(el), "ps_6_0", true).unwrap();
    assert!(a.contains("OpExtension \"SPV_AMD_shader_early_and_late_fragment_tests\""), "{a}");
    effect("ps_6_0", true, &pixel(&format!("{el} [[vk::depth_unchanged]]")), &pixel(el), "OpExecutionMode %main DepthUnchanged");
    for (attr, mode) in [
        ("stencil_ref_unchanged_front", "StencilRefUnchangedFrontAMD"),
        ("stencil_ref_greater_equal_front", "StencilRefGreaterFrontAMD"),
        ("stencil_ref_less_equal_front", "StencilRefLessFrontAMD"),
        ("stencil_ref_unchanged_back", "StencilRefUnchangedBackAMD"),
        ("stencil_ref_greater_equal_back", "StencilRefGreaterBackAMD"),
        ("stencil_ref_less_equal_back", "StencilRefLessBackAMD"),
    ] {
        let with = pixel(&format!("{el} [[vk::{attr}]]"));
        effect("ps_6_0", true, &with, &pixel(el), &format!("OpExecutionMode %main {mode}"));
        let a = build(&with, "ps_6_0", true).unwrap();
        assert!(a.contains("OpCapability StencilExportEXT") && a.contains("OpExtension \"SPV_EXT_shader_stencil_export\""), "{a}");
    }
    // At most one stencil mode per face (DXC's error), and none of them outside a pixel shader.
    let two = pixel(&format!("{el} [[vk::stencil_ref_less_equal_back]] [[vk::stencil_ref_greater_equal_back]]"));
    let e = build(&two, "ps_6_0", true).unwrap_err();
    assert!(e.contains("Shaders must not specify more than one of stencil_ref_unchanged_back, stencil_ref_greater_equal_back, and stencil_ref_less_equal_back."), "{e}");
    let cs = "RWBuffer<uint> b; [[vk::depth_unchanged]] [numthreads(1, 1, 1)] void main() { b[0] = 1; }";
    let e = build(cs, "cs_6_0", true).unwrap_err();
    assert!(e.contains("attribute 'vk::depth_unchanged' is not supported by the SPIR-V back end on a non-pixel entry point"), "{e}");
}

// Inline SPIR-V (`vk::ext_*`, SPIR-V.rst "Inline SPIR-V").

#[test]
fn vk_ext_instruction_emits_the_instruction() {
    let decls = "[[vk::ext_instruction(/* Sin */ 13, \"GLSL.std.450\")]] float4 spv_sin(float4 v);
        [[vk::ext_instruction(/* OpLoad */ 61)]] float load([[vk::ext_reference]] float p, [[vk::ext_literal]] int access);
        RWBuffer<float4> o;";
    let s = |body: &str| format!("{decls} [numthreads(1, 1, 1)] void main(uint3 i : SV_DispatchThreadID) {{ float x = i.x; {body} }}");
    // An instruction of an imported set, and a core one whose `ext_reference` argument is the
    // variable's pointer and whose `ext_literal` argument is a literal word (Volatile = 1).
    effect("cs_6_0", true, &s("o[0] = spv_sin(float4(1, 2, 3, x));"), &s("o[0] = cos(float4(1, 2, 3, x));"), " Sin %");
    effect("cs_6_0", true, &s("o[0] = load(x, 1);"), &s("o[0] = x;"), "OpLoad %float %x Volatile");
    let e = build(&s("int k = i.y; o[0] = load(x, k);"), "cs_6_0", true).unwrap_err();
    assert!(e.contains("attribute 'vk::ext_literal': the argument of parameter 'access' must be an integer constant"), "{e}");
    let e = build(&s("o[0] = load(x + 1, 0);"), "cs_6_0", true).unwrap_err();
    assert!(e.contains("argument for a parameter with vk::ext_reference attribute must be a reference"), "{e}");
}

#[test]
fn vk_ext_capability_and_extension_are_declared() {
    let s = |a: &str, b: &str| format!("RWBuffer<uint> o; {a} void f() {{ o[1] = 2; }} [numthreads(1, 1, 1)] void main() {{ {b} o[0] = 1; f(); }}");
    // On a called function, on a statement, on a local declaration.
    effect("cs_6_0", true, &s("[[vk::ext_capability(/* MinLod */ 42)]]", ""), &s("", ""), "OpCapability MinLod");
    effect("cs_6_0", true, &s("", "[[vk::ext_extension(\"SPV_KHR_shader_clock\")]]"), &s("", ""), "OpExtension \"SPV_KHR_shader_clock\"");
    effect("cs_6_0", true, &s("", "[[vk::ext_capability(42)]] uint k = 3;"), &s("", "uint k = 3;"), "OpCapability MinLod");
    // A number SPIR-V does not define is refused by name.
    let e = build(&s("[[vk::ext_capability(99999)]]", ""), "cs_6_0", true).unwrap_err();
    assert!(e.contains("attribute 'vk::ext_capability': 99999 is not a SPIR-V capability"), "{e}");
    // On a typedef of an ordinary type (it would apply when the type is used) it is refused.
    let e = build("[[vk::ext_capability(42)]] typedef uint U; RWBuffer<uint> o; [numthreads(1, 1, 1)] void main() { U u = 1; o[0] = u; }", "cs_6_0", true).unwrap_err();
    assert!(e.contains("attribute 'vk::ext_capability' is not supported on a typedef by the SPIR-V back end"), "{e}");
    // On a typedef of an inline SPIR-V type: declared when the type is used, not otherwise
    // (DXC's spv.inline.capability.hlsl, spv.inline.extension.unused.hlsl).
    let t = |a: &str, use_it: &str| {
        format!(
            "using u8 {a} = vk::SpirvType</* OpTypeInt */ 21, 1, 1, vk::Literal<vk::integral_constant<uint, 8> >, \
             vk::Literal<vk::integral_constant<bool, false> > >; RWBuffer<uint> o; [numthreads(1, 1, 1)] void main() {{ {use_it} o[0] = 1; }}"
        )
    };
    // (Int8 itself the capability pass infers from the type; the extension shows the attribute.)
    let with = t("[[vk::ext_capability(/* Int8 */ 39), vk::ext_extension(\"SPV_KHR_8bit_storage\")]]", "u8 b;");
    effect("cs_6_0", true, &with, &t("", "u8 b;"), "OpExtension \"SPV_KHR_8bit_storage\"");
    let a = build(&with, "cs_6_0", true).unwrap();
    assert!(a.contains("OpCapability Int8") && a.contains("%spirvIntrinsicType = OpTypeInt 8 0"), "{a}");
    let unused = build(&t("[[vk::ext_capability(39), vk::ext_extension(\"SPV_KHR_8bit_storage\")]]", ""), "cs_6_0", true).unwrap();
    assert!(!unused.contains("Int8") && !unused.contains("SPV_KHR_8bit_storage"), "{unused}");
    // On a struct field: declared when the struct is used (DXC's spv.inline.extension.hlsl).
    let f = |a: &str, use_it: &str| format!("struct T {{ {a} uint v; }}; RWBuffer<uint> o; [numthreads(1, 1, 1)] void main() {{ {use_it} o[0] = 1; }}");
    let used = "T t; t.v = 2; o[1] = t.v;";
    effect("cs_6_0", true, &f("[[vk::ext_capability(/* MinLod */ 42)]]", used), &f("", used), "OpCapability MinLod");
    let unused = build(&f("[[vk::ext_capability(42)]]", ""), "cs_6_0", true).unwrap();
    assert!(!unused.contains("MinLod"), "{unused}");
}

#[test]
fn vk_ext_type_def_defines_an_inline_type() {
    // DXC's spv.intrinsicTypeInteger.hlsl: the call defines vk::ext_type<0> from its arguments
    // (literals), vk::ext_type<1> from the type of its argument; the calls emit no code.
    let s = |call: &str| {
        format!(
            "[[vk::ext_extension(\"SPV_KHR_8bit_storage\")]] [[vk::ext_type_def(0, /* OpTypeInt */ 21)]] \
             void createTypeInt([[vk::ext_literal]] int sizeInBits, [[vk::ext_literal]] int signedness); \
             [[vk::ext_type_def(1, /* OpTypeVector */ 23)]] \
             void createTypeVector([[vk::ext_reference]] vk::ext_type<0> typeInt, [[vk::ext_literal]] int componentCount); \
             RWBuffer<uint> o; [numthreads(1, 1, 1)] void main() {{ {call} o[0] = 1; }}"
        )
    };
    let with = s("vk::ext_type<0> a; vk::ext_type<1> v; createTypeInt(8, 0); createTypeVector(a, 4);");
    effect("cs_6_0", true, &with, &s(""), "%spirvIntrinsicType = OpTypeInt 8 0");
    let a = build(&with, "cs_6_0", true).unwrap();
    assert!(a.contains("%spirvIntrinsicType_0 = OpTypeVector %spirvIntrinsicType 4"), "{a}");
    assert!(a.contains("OpExtension \"SPV_KHR_8bit_storage\""), "{a}");
    assert!(a.contains("%v = OpVariable %_ptr_Function_spirvIntrinsicType_0 Function"), "{a}");
    assert!(!a.contains("createType"), "{a}");
    // A type no call defines is an error naming it.
    let e = build(&s("vk::ext_type<1> v;"), "cs_6_0", true).unwrap_err();
    assert!(e.contains("vk::ext_type<1>: no call of a [[vk::ext_type_def(1, ...)]] function defines it") || e.contains("vk::ext_type<0>"), "{e}");
}

#[test]
fn vk_ext_decorate_decorates_the_declaration() {
    let s = |a: &str, b: &str| format!("RWBuffer<float> o; {a} float f(float v) {{ return v * 2; }} [numthreads(1, 1, 1)] void main(uint3 i : SV_DispatchThreadID) {{ {b} float x = i.x; o[0] = f(x); }}");
    // RelaxedPrecision = 0, on a function and on a local variable.
    effect("cs_6_0", true, &s("[[vk::ext_decorate(0)]]", ""), &s("", ""), "OpDecorate %f RelaxedPrecision");
    effect("cs_6_0", true, &s("", "[[vk::ext_decorate(0)]]"), &s("", ""), "OpDecorate %x RelaxedPrecision");
    // On an entry point's parameter: its stage variable (Flat = 14).
    let p = |a: &str| format!("float4 main({a} float4 c : COLOR) : SV_Target {{ return c; }}");
    effect("ps_6_0", true, &p("[[vk::ext_decorate(14)]]"), &p(""), "OpDecorate %in_var_COLOR Flat");
    // On a statement that declares nothing it is refused.
    let e = build(&s("", "[[vk::ext_decorate(0)]] o[1] = 1;"), "cs_6_0", true).unwrap_err();
    assert!(e.contains("attribute 'vk::ext_decorate' is not supported on a statement that declares no variable"), "{e}");
}

#[test]
fn vk_ext_storage_class_sets_the_storage_class() {
    let s = |a: &str| format!("{a} static uint s; RWBuffer<uint> o; [numthreads(1, 1, 1)] void main() {{ s = 1; o[0] = s; }}");
    // Workgroup = 4.
    effect("cs_6_0", true, &s("[[vk::ext_storage_class(4)]]"), &s(""), "%s = OpVariable %_ptr_Workgroup_uint Workgroup");
    let l = |a: &str| format!("RWBuffer<uint> o; [numthreads(1, 1, 1)] void main() {{ {a} uint t; t = 2; o[0] = t; }}");
    effect("cs_6_0", true, &l("[[vk::ext_storage_class(4)]]"), &l(""), "%t = OpVariable %_ptr_Workgroup_uint Workgroup");
}

#[test]
fn vk_ext_builtin_makes_a_builtin_variable() {
    let s = |a: &str, q: &str| format!("{a} static {q} uint3 nwg; RWBuffer<uint> o; [numthreads(1, 1, 1)] void main() {{ o[0] = nwg.x; }}");
    // NumWorkgroups = 24: an Input variable decorated BuiltIn, in the entry point's interface.
    effect("cs_6_0", true, &s("[[vk::ext_builtin_input(24)]]", "const"), &s("", ""), "OpDecorate %nwg BuiltIn NumWorkgroups");
    let a = build(&s("[[vk::ext_builtin_input(24)]]", "const"), "cs_6_0", true).unwrap();
    assert!(a.contains("OpEntryPoint GLCompute %main \"main\" %nwg"), "{a}");
    assert!(a.contains("%nwg = OpVariable %_ptr_Input_v3uint Input"), "{a}");
    // dxc's errors.
    let e = build(&s("[[vk::ext_builtin_input(24)]]", ""), "cs_6_0", true).unwrap_err();
    assert!(e.contains("vk::ext_builtin_input can only be applied to a const-qualified variable"), "{e}");
    let e = build("[[vk::ext_builtin_output(24)]] uint3 v; RWBuffer<uint> o; [numthreads(1, 1, 1)] void main() { o[0] = v.x; }", "cs_6_0", true).unwrap_err();
    assert!(e.contains("vk::ext_builtin_input and vk::ext_builtin_output can only be applied to a static variable"), "{e}");
    let e = build(&s("[[vk::ext_builtin_input(24)]] [[vk::ext_builtin_output(24)]]", "const"), "cs_6_0", true).unwrap_err();
    assert!(e.contains("vk::ext_builtin_input cannot be used together with vk::ext_builtin_output"), "{e}");
}

#[test]
fn vk_spvexecutionmode_adds_execution_modes() {
    let s = |a: &str| format!("{a} float4 main(float4 c : COLOR) : SV_Target {{ return c; }}");
    // EarlyFragmentTests = 9.
    effect("ps_6_0", true, &s("[[vk::spvexecutionmode(9)]]"), &s(""), "OpExecutionMode %main EarlyFragmentTests");
    let e = build(&s("[[vk::spvexecutionmode(999999)]]"), "ps_6_0", true).unwrap_err();
    assert!(e.contains("Invalid execution mode operand: 999999"), "{e}");
}

#[test]
fn vk_ext_execution_mode_intrinsics_add_execution_modes() {
    let s = |b: &str| format!("float4 main(float4 c : COLOR) : SV_Target {{ {b} return c; }}");
    effect("ps_6_0", true, &s("vk::ext_execution_mode(/* EarlyFragmentTests */ 9);"), &s(""), "OpExecutionMode %main EarlyFragmentTests");
    let e = build(&s("uint m = (uint)c.x; vk::ext_execution_mode(m);"), "ps_6_0", true).unwrap_err();
    assert!(e.contains("vk::ext_execution_mode: the execution mode must be an integer constant"), "{e}");
}

#[test]
fn vk_builtin_makes_a_builtin_stage_variable() {
    // SPIR-V.rst, "Builtin variables": PointSize is gl_PointSize.
    let vs = |a: &str| format!("float4 main({a} out float ps : PSIZE) : SV_Position {{ ps = 2; return 0; }}");
    effect("vs_6_0", true, &vs("[[vk::builtin(\"PointSize\")]]"), &vs(""), "OpDecorate %gl_PointSize BuiltIn PointSize");
    // BaseVertex / BaseInstance / DrawIndex need SPV_KHR_shader_draw_parameters.
    let vi = |a: &str| format!("float4 main({a} int b : BASE) : SV_Position {{ return b; }}");
    effect("vs_6_0", true, &vi("[[vk::builtin(\"BaseVertex\")]]"), &vi(""), "BuiltIn BaseVertex");
    let a = build(&vi("[[vk::builtin(\"DrawIndex\")]]"), "vs_6_0", true).unwrap();
    assert!(a.contains("BuiltIn DrawIndex") && a.contains("OpExtension \"SPV_KHR_shader_draw_parameters\""), "{a}");
    // DeviceIndex needs SPV_KHR_device_group.
    let a = build(&vi("[[vk::builtin(\"DeviceIndex\")]]"), "vs_6_0", true).unwrap();
    assert!(a.contains("BuiltIn DeviceIndex") && a.contains("OpExtension \"SPV_KHR_device_group\""), "{a}");
    // HelperInvocation before Vulkan 1.3: no built-in variable; OpIsHelperInvocationEXT.
    let ps = "float4 main([[vk::builtin(\"HelperInvocation\")]] bool h : HI) : SV_Target { return h ? 1 : 0; }";
    let a = build(ps, "ps_6_0", true).unwrap();
    assert!(a.contains("OpIsHelperInvocationEXT %bool") && !a.contains("BuiltIn HelperInvocation"), "{a}");
    // dxc's errors, at the attribute.
    let e = build(&vs("[[vk::location(1), vk::builtin(\"PointSize\")]]"), "vs_6_0", true).unwrap_err();
    assert!(e.contains("1:32: error: cannot use vk::builtin and vk::location together"), "{e}");
    let e = build(&vi("[[vk::builtin(\"PointSize\")]]"), "vs_6_0", true).unwrap_err();
    assert!(e.contains("PointSize builtin must be of float type"), "{e}");
    let e = build("float4 main([[vk::builtin(\"PointSize\")]] float p : P) : SV_Position { return p; }", "vs_6_0", true).unwrap_err();
    assert!(e.contains("PointSize builtin cannot be used as VSIn"), "{e}");
    let e = build(&vi("[[vk::builtin(\"ViewportMaskNV\")]]"), "vs_6_0", true).unwrap_err();
    assert!(e.contains("vk::builtin"), "{e}");
}

/// `[noinline]` is the function control `DontInline` (SPIR-V.rst), and the optimizer's inliner
/// keeps the call at -O3 while it inlines the same function without the attribute.
#[test]
fn noinline_keeps_the_function() {
    let s = |a: &str| format!("{a} float4 foo(float4 c) {{ return c * 2; }}\nfloat4 main(float4 c : COLOR) : SV_Target {{ return foo(c); }}");
    effect("ps_6_0", true, &s("[noinline]"), &s(""), "OpFunction %v4float DontInline");
    let optimized = |src: &str| {
        let mut o = Options::for_profile(Profile::parse("ps_6_0").unwrap());
        o.spirv = true;
        o.opt_level = 3;
        let r = compile(src, "attr.hlsl", &o, None);
        assert!(r.succeeded(), "{}", r.render_diagnostics());
        match r.output {
            Some(Output::Binary(bytes)) => {
                validate(&bytes, "noinline");
                let words: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
                hlslc_spirv::disasm::disassemble(&words).unwrap()
            }
            _ => panic!("no SPIR-V"),
        }
    };
    assert!(optimized(&s("[noinline]")).contains("OpFunctionCall"), "the call was inlined");
    assert!(!optimized(&s("")).contains("OpFunctionCall"), "the call was kept without [noinline]");
    // DXIL: an internal function (its mangled name: `foo(float4)` returning float4) and a call
    // of it, as dxc keeps a [noinline] function; without the attribute the call is inlined.
    effect("ps_6_0", false, &s("[noinline]"), &s(""), "call <4 x float> @\"\\01?foo@@YA?AV?$vector@M$03@@V1@@Z\"(<4 x float>");
    effect("ps_6_0", false, &s("[noinline]"), &s(""), "define internal <4 x float> @\"\\01?foo@@YA?AV?$vector@M$03@@V1@@Z\"(<4 x float> %c) #");
}

/// `[[vk::aliased_pointer]]` on a `vk::BufferPointer` local is `AliasedPointer`; without it the
/// local is `RestrictPointer` (one of the two is required on a variable holding such a pointer).
#[test]
fn aliased_pointer_decorates_the_variable() {
    let s = |a: &str| {
        format!(
            "struct S {{ float4 v; }}; struct PC {{ vk::BufferPointer<S> p; }}; [[vk::push_constant]] PC pc; RWStructuredBuffer<float4> o;\n\
             [numthreads(1, 1, 1)] void main() {{ {a} vk::BufferPointer<S> q = pc.p; o[0] = q.Get().v; }}"
        )
    };
    effect("cs_6_0", true, &s("[[vk::aliased_pointer]]"), &s(""), "OpDecorate %q AliasedPointer");
    let plain = build(&s(""), "cs_6_0", true).unwrap();
    assert!(plain.contains("OpDecorate %q RestrictPointer"), "{plain}");
}

#[test]
fn vk_combined_image_sampler_makes_one_sampled_image() {
    // A texture and a sampler with the attribute and one binding are one OpTypeSampledImage
    // variable (SPIR-V.rst); sampled with its own sampler, the load is the sampled image.
    let s = |a: &str| {
        format!(
            "{a} Texture2D<float4> t : register(t1); {a} SamplerState s : register(s1); float4 main(float2 uv : UV) : SV_Target {{ return t.Sample(s, uv); }}"
        )
    };
    let with = build(&s("[[vk::combinedImageSampler]]"), "ps_6_0", true).unwrap();
    assert!(with.contains("%t = OpVariable %_ptr_UniformConstant_type_sampled_image UniformConstant"), "{with}");
    assert!(with.contains("= OpLoad %type_sampled_image %t\n"), "{with}");
    assert!(!with.contains("%s = OpVariable") && !with.contains("OpSampledImage"), "{with}");
    assert!(with.contains("OpDecorate %t Binding 1"), "{with}");
    let without = build(&s(""), "ps_6_0", true).unwrap();
    assert!(without.contains("%s = OpVariable %_ptr_UniformConstant_type_sampler UniformConstant") && without.contains("OpSampledImage"), "{without}");
    // The register of both takes the t shift (SPIR-V.rst), and with another sampler the image
    // is taken out of the combined one.
    let other = "[[vk::combinedImageSampler]] Texture2D<float4> t : register(t1); [[vk::combinedImageSampler]] SamplerState s : register(s1); \
                 SamplerState o : register(s0); float4 main(float2 uv : UV) : SV_Target { return t.Sample(s, uv) + t.Sample(o, uv); }";
    let a = build(other, "ps_6_0", true).unwrap();
    assert!(a.contains("OpImage %type_2d_image") && a.contains("OpSampledImage %type_sampled_image"), "{a}");
    // One without its partner: dxc's fatal error.
    let e = build("Texture2D<float4> t : register(t1); [[vk::combinedImageSampler]] SamplerState s : register(s1); float4 main(float2 uv : UV) : SV_Target { return t.Sample(s, uv); }", "ps_6_0", true).unwrap_err();
    assert!(e.contains("fatal error: Texture or Sampler with [[vk::combinedImageSampler]] attribute is missing for descriptor set and binding: 0, 1"), "{e}");
    // The sampler with another texture cannot be one combined image sampler.
    let e = build("[[vk::combinedImageSampler]] Texture2D<float4> t : register(t1); [[vk::combinedImageSampler]] SamplerState s : register(s1); Texture2D<float4> u : register(t2); float4 main(float2 uv : UV) : SV_Target { return u.Sample(s, uv); }", "ps_6_0", true).unwrap_err();
    assert!(e.contains("sampler 's' has [[vk::combinedImageSampler]] and is used with a texture other than 't'"), "{e}");
}
