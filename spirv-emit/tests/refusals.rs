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
    let mut sm = SourceMap::new();
    let f = sm.add("test.hlsl", src);
    let mut diags = Diagnostics::new();
    let toks = preprocess(&mut sm, f, &PpOptions::default(), None, &mut diags);
    let tu = parse(&toks, &ParseOptions::default(), &mut diags);
    let opts = SemaOptions { profile: profile.into(), entry: "main".into(), ..SemaOptions::default() };
    let m = analyze(&tu, &opts, &mut diags);
    assert!(!diags.has_errors(), "{}", diags.render(&sm));
    let m = m.expect("sema returns a module without errors");
    let lo = LowerOptions { entry_name: "main".into(), target: TargetEnv::Vulkan1_0, ..LowerOptions::default() };
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
