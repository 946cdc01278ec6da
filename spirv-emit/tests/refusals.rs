//! Input dxc refuses when targeting SPIR-V, refused with dxc's message at dxc's place; every
//! such error of a module is reported (lowering goes on after each), and the constructs next to
//! them that dxc accepts still compile.

use hlslc_frontend::diag::Diagnostics;
use hlslc_frontend::parser::{parse, ParseOptions};
use hlslc_frontend::pp::{preprocess, PpOptions};
use hlslc_frontend::SourceMap;
use hlslc_sema::{analyze, SemaOptions};
use hlslc_spirv::lower::{lower_module_all, LowerOptions};
use hlslc_spirv::target::TargetEnv;

/// Every lowering error of `src` (entry `main`) as `line:col: message` (`-: message` without a
/// place); empty when it lowers.
fn errors(src: &str, profile: &str) -> Vec<String> {
    errors_with(src, profile, false, TargetEnv::Vulkan1_0)
}

/// [`errors`] with `-enable-16bit-types` (`sixteen`) and a target environment.
fn errors_with(src: &str, profile: &str, sixteen: bool, target: TargetEnv) -> Vec<String> {
    let mut sm = SourceMap::new();
    let f = sm.add("test.hlsl", src);
    let mut diags = Diagnostics::new();
    let toks = preprocess(&mut sm, f, &PpOptions::default(), None, &mut diags);
    let tu = parse(&toks, &ParseOptions::default(), &mut diags);
    let opts = SemaOptions { profile: profile.into(), entry: "main".into(), enable_16bit: sixteen, ..SemaOptions::default() };
    let m = analyze(&tu, &opts, &mut diags);
    assert!(!diags.has_errors(), "{}", diags.render(&sm));
    let m = m.expect("sema returns a module without errors");
    let lo = LowerOptions { entry_name: "main".into(), target, ..LowerOptions::default() };
    match lower_module_all(&m, &lo) {
        Ok(_) => Vec::new(),
        Err(es) => es
            .into_iter()
            .map(|e| match e.span {
                Some(s) => {
                    let (line, col) = sm.file(s.file).line_col(s.start);
                    format!("{line}:{col}: {}", e.message)
                }
                None => format!("-: {}", e.message),
            })
            .collect(),
    }
}

#[test]
fn gather_cmp_of_one_component_has_no_vulkan_equivalent() {
    // OpImageDrefGather compares the first component only: GatherCmpGreen/Blue/Alpha have no
    // SPIR-V form. dxc points at the method name, and reports each call.
    let src = "SamplerComparisonState s;\nTexture2D<float4> t;\n\
               float4 main(float2 uv : A, float c : B) : SV_Target {\n\
               \x20 float4 r = t.GatherCmpGreen(s, uv, c);\n\
               \x20 r += t.GatherCmpBlue(s, uv, c, int2(1, 2));\n\
               \x20 r += t.GatherCmpAlpha(s, uv, c);\n\
               \x20 return r + t.GatherCmpRed(s, uv, c) + t.GatherCmp(s, uv, c);\n}\n";
    assert_eq!(
        errors(src, "ps_6_0"),
        vec![
            "4:16: no equivalent for GatherCmpGreen intrinsic method in Vulkan",
            "5:10: no equivalent for GatherCmpBlue intrinsic method in Vulkan",
            "6:10: no equivalent for GatherCmpAlpha intrinsic method in Vulkan",
        ]
    );
    // The red component (and GatherCmp) is OpImageDrefGather.
    let ok = "SamplerComparisonState s;\nTexture2D<float4> t;\n\
              float4 main(float2 uv : A, float c : B) : SV_Target { return t.GatherCmpRed(s, uv, c) + t.GatherCmp(s, uv, c); }\n";
    assert_eq!(errors(ok, "ps_6_0"), Vec::<String>::new());
}

#[test]
fn gather_raw_is_unimplemented_for_spirv() {
    let src = "vk::SampledTexture2DArray<uint> t;\n\
               uint4 main() : SV_Target {\n\
               \x20 return t.GatherRaw(float3(0.5, 0.25, 0.1)) + t.GatherRaw(float3(0.5, 0.25, 0.1), int2(2, 3));\n}\n";
    assert_eq!(
        errors(src, "ps_6_7"),
        vec!["3:12: intrinsic 'GatherRaw' method unimplemented", "3:50: intrinsic 'GatherRaw' method unimplemented"]
    );
}

#[test]
fn explicit_locations_used_twice() {
    // Every input and every output has vk::location: a location taken twice is refused, in
    // each direction; dxc names the entry point's first stage variable ('M'), whichever variable
    // took the location first.
    let src = "[[vk::location(3)]]\nfloat main(\n\
               \x20 [[vk::location(3)]] float m : M,\n\
               \x20 [[vk::location(3)]] float n : N,\n\
               \x20 [[vk::location(3)]] out float x : X\n) : R { x = m + n; return 1.0; }\n";
    let e = errors(src, "vs_6_0");
    assert_eq!(e.len(), 2, "{e:?}");
    assert!(e[0].ends_with("stage input location #3 already consumed by semantic 'M'"), "{e:?}");
    assert!(e[0].starts_with("4:"), "{e:?}");
    assert!(e[1].ends_with("stage output location #3 already consumed by semantic 'M'"), "{e:?}");
    assert!(e[1].starts_with("5:"), "{e:?}");

    // A double4 takes two locations, so location 1 is taken by the first field.
    let src = "struct I {\n  [[vk::location(0)]] double4 a : COLOR0;\n  [[vk::location(1)]] double4 b : COLOR1;\n};\n\
               float4 main(I i) : SV_Target { return float4(i.a + i.b); }\n";
    let e = errors(src, "ps_6_0");
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].starts_with("3:") && e[0].ends_with("stage input location #1 already consumed by semantic 'COLOR0'"), "{e:?}");
    // At location 2 it fits; the output has no vk::location (each direction is checked alone).
    let ok = "struct I {\n  [[vk::location(0)]] double4 a : COLOR0;\n  [[vk::location(2)]] double4 b : COLOR1;\n};\n\
              float4 main(I i) : SV_Target { return float4(i.a + i.b); }\n";
    assert_eq!(errors(ok, "ps_6_0"), Vec::<String>::new());
}

#[test]
fn partial_explicit_locations_refused() {
    let src = "float main([[vk::location(5)]] int a : A, float b : B) : R { return a + b; }\n";
    assert_eq!(errors(src, "vs_6_0"), vec!["-: partial explicit stage input location assignment via vk::location(X) unsupported"]);
    let src = "[[vk::location(1)]] float main(float a : A, out float b : B) : R { b = a; return a; }\n";
    assert_eq!(errors(src, "vs_6_0"), vec!["-: partial explicit stage output location assignment via vk::location(X) unsupported"]);
}

#[test]
fn two_render_targets_at_one_location() {
    // SV_Target and SV_Target0 are both location 0.
    let src = "void main(float4 c : COLOR, out float4 x : SV_Target, out float4 y : SV_Target0, out float4 z : SV_Target1) {\n\
               \x20 x = c; y = c; z = c;\n}\n";
    let e = errors(src, "ps_6_0");
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].ends_with("Multiple stage variables have a duplicated pair of location and index at 0 / 0"), "{e:?}");
    assert!(e[0].starts_with("1:"), "{e:?}");
    let ok = "void main(float4 c : COLOR, out float4 x : SV_Target0, out float4 z : SV_Target1) { x = c; z = c; }\n";
    assert_eq!(errors(ok, "ps_6_0"), Vec::<String>::new());
}

#[test]
fn image_format_must_match_the_sampled_type() {
    const MSG: &str = "The image format and the sampled type are not compatible.\n\
                       For the table of compatible types, see https://docs.vulkan.org/spec/latest/appendices/spirvenv.html#spirvenv-format-type-matching.";
    let bad = [
        ("r64i", "uint"),
        ("r64ui", "uint"),
        ("r64ui", "int64_t"),
        ("rgba32f", "int4"),
        ("rgba8", "uint4"),
        ("rgba32i", "float4"),
        ("rgba32i", "uint4"),
        ("rgba32ui", "int4"),
        ("r32ui", "float"),
    ];
    for (format, ty) in bad {
        let src = format!("[[vk::image_format(\"{format}\")]]\nRWTexture1D<{ty}> t1;\n\nvoid main() {{}}\n");
        assert_eq!(errors(&src, "vs_6_0"), vec![format!("2:{}: {MSG}", 15 + ty.len())], "{format} with {ty}");
    }
    let good = [
        ("r64i", "int64_t"),
        ("r64ui", "uint64_t"),
        ("rgba32f", "float4"),
        ("r11g11b10f", "float3"),
        ("rgba16snorm", "float4"),
        ("rg8i", "int2"),
        ("rgb10a2ui", "uint4"),
        ("r32ui", "uint"),
        ("unknown", "int"),
    ];
    for (format, ty) in good {
        let src = format!("[[vk::image_format(\"{format}\")]]\nRWBuffer<{ty}> b;\n\nvoid main() {{}}\n");
        assert_eq!(errors(&src, "vs_6_0"), Vec::<String>::new(), "{format} with {ty}");
    }
    // dxc checks a resource variable, not an array of them.
    let src = "[[vk::image_format(\"rgba16ui\")]]\nBuffer<int4> b[2];\n\nvoid main() {}\n";
    assert_eq!(errors(src, "vs_6_0"), Vec::<String>::new());
}

#[test]
fn global_structs_with_resources() {
    // A global struct mixing resources and other members has no SPIR-V form dxc supports.
    let mix = "struct T { float2x3 a[4]; };\nstruct S { Texture2D t[2]; SamplerState s[3]; T sub[2]; };\n\
               float4 f(S x, float2 v) { return x.t[0].Sample(x.s[0], v); }\n\
               S globalS[2];\n\
               float4 main() : SV_Target { return f(globalS[0], float2(0, 0)); }\n";
    assert_eq!(errors(mix, "ps_6_0"), vec!["4:3: global structures containing both resources and non-resources are not supported"]);
    // Resources only, among them a buffer: refused too.
    let buffer = "struct S { Texture2D t[2]; SamplerState s[3]; RWStructuredBuffer<float> rw; };\n\
                  float4 f(S x, float2 v) { return x.t[0].Sample(x.s[0], v); }\n\
                  S globalS[2];\n\
                  float4 main() : SV_Target { return f(globalS[0], float2(0, 0)) + globalS[1].rw[0]; }\n";
    assert_eq!(errors(buffer, "ps_6_0"), vec!["3:3: global structures containing buffers are not supported"]);
    // Textures and samplers only: accepted (each member becomes its own variable).
    let ok = "struct S { Texture2D t; SamplerState s; };\nS g;\n\
              float4 main(float2 v : A) : SV_Target { return g.t.Sample(g.s, v); }\n";
    assert_eq!(errors(ok, "ps_6_0"), Vec::<String>::new());
    // A static struct is private to the invocation: not refused.
    let ok = "struct S { float a; Texture2D t; };\nstatic S g;\nfloat4 main() : SV_Target { return g.a; }\n";
    assert!(errors(ok, "ps_6_0").iter().all(|e| !e.contains("global structures")));
}

#[test]
fn multi_dimensional_arrays_of_counted_buffers() {
    let src = "RWStructuredBuffer<uint> b[2][3] : register(u0, space2);\n\
               float4 main(uint i : A) : SV_Target { b[1][i].IncrementCounter(); return b[i][i][0]; }\n";
    assert_eq!(errors(src, "ps_6_6"), vec!["1:26: Multi-dimensional arrays of RW/append/consume structured buffers are unsupported in Vulkan"]);
    // One dimension, or a structured buffer without a counter: accepted.
    let ok = "RWStructuredBuffer<uint> b[3];\nStructuredBuffer<uint> c[2][3];\n\
              float4 main(uint i : A) : SV_Target { return b[i][0] + c[i][i][0]; }\n";
    assert_eq!(errors(ok, "ps_6_6"), Vec::<String>::new());
}

#[test]
fn half_textures_refused_for_vulkan() {
    let src = "Buffer<half4> b;\nTexture2D<half> t;\nvoid main() : SV_Target {}\n";
    let e = errors_with(src, "ps_6_6", true, TargetEnv::Vulkan1_0);
    assert_eq!(
        e,
        vec![
            "1:15: The sampled type for textures cannot be a floating point type smaller than 32-bits when targeting a Vulkan environment.",
            "2:17: The sampled type for textures cannot be a floating point type smaller than 32-bits when targeting a Vulkan environment."
        ]
    );
    // Without Vulkan's rules (universal1.5) they are OpTypeFloat 16 images; without
    // -enable-16bit-types `half` is a 32-bit float.
    assert_eq!(errors_with(src, "ps_6_6", true, TargetEnv::Universal1_5), Vec::<String>::new());
    assert_eq!(errors_with(src, "ps_6_6", false, TargetEnv::Vulkan1_0), Vec::<String>::new());
    // 16-bit integers are fine, and so are 16-bit floats in a structured buffer.
    let ok = "Buffer<int16_t4> b;\nStructuredBuffer<half4> s;\nvoid main() : SV_Target {}\n";
    assert_eq!(errors_with(ok, "ps_6_6", true, TargetEnv::Vulkan1_0), Vec::<String>::new());
}

#[test]
fn integer_column_major_matrices_in_buffers() {
    const MSG: &str = "externally initialized non-floating-point column-major matrices not supported yet";
    let src = "cbuffer C {\n  struct S { int2x3 m[5]; } s;\n}\n\
               struct T { uint a; float1x3 c; uint2x3 f; };\n\
               StructuredBuffer<T> sb;\n\
               bool2x2 g;\n\
               void main() {}\n";
    assert_eq!(errors(src, "vs_6_0"), vec![format!("2:29: {MSG}"), format!("5:21: {MSG}"), format!("6:9: {MSG}")]);
    // Row-major ones, float ones, and statics are accepted.
    let ok = "cbuffer C { row_major int2x3 m; float2x3 f; };\nstruct T { row_major uint3x2 a; };\nRWStructuredBuffer<T> b;\n\
              static int2x2 p;\nvoid main() {}\n";
    assert_eq!(errors(ok, "vs_6_0"), Vec::<String>::new());
}

#[test]
fn uninitialized_string_refused() {
    let src = "string first;\nstring second = \"two\";\n[numthreads(1, 1, 1)] void main() {}\n";
    assert_eq!(errors(src, "cs_6_0"), vec!["1:8: Found uninitialized string variable."]);
}

#[test]
fn patch_constant_function_patch_sizes() {
    // The patch constant function's InputPatch has the entry's control points, its OutputPatch
    // the entry's output control points.
    let hull = |input: u32, output: u32| {
        format!(
            "struct CP {{ float4 p : POSITION; }};\n\
             struct PC {{ float e[3] : SV_TessFactor; float i : SV_InsideTessFactor; }};\n\
             PC Const(InputPatch<CP, {input}> v, OutputPatch<CP, {output}> o) {{ return (PC)0; }}\n\
             [domain(\"tri\")] [partitioning(\"fractional_odd\")] [outputtopology(\"triangle_cw\")]\n\
             [patchconstantfunc(\"Const\")] [outputcontrolpoints(5)]\n\
             CP main(InputPatch<CP, 3> v, uint id : SV_OutputControlPointID) {{ return v[id]; }}\n"
        )
    };
    assert_eq!(errors(&hull(3, 5), "hs_6_0"), Vec::<String>::new());
    let e = errors(&hull(2, 5), "hs_6_0");
    assert_eq!(e, vec!["3:10: Patch constant function's input patch input should have 3 elements, but has 2."]);
    let e = errors(&hull(3, 2), "hs_6_0");
    assert_eq!(e.first().map(String::as_str), Some("3:31: Patch constant function's output patch input should have 5 elements, but has 2."), "{e:?}");
}
