//! `-fspv-extension=`: which extensions are allowed, which spelling of an extension the module
//! uses under the list, the order of `OpExtension`, and an unknown name. Expectations from DXC's
//! lit tests (`spirv.ext.*`, `*.compute.*khr*`).

mod common;
use common::*;

/// Compiles `src` with `args` (plus `-spirv -fcgl`) and returns (exit code, stdout, stderr).
fn compile(src: &str, args: &[&str]) -> (i32, String, String) {
    let dir = TempDir::new("spvext");
    let file = dir.file("a.hlsl", src);
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["-spirv", "-fcgl", file.to_str().unwrap()]);
    let o = hlslc(&all);
    (code(&o), stdout(&o), stderr(&o))
}

const VIEW_ID_VS: &str = r#"
float4 main([[vk::builtin("BaseVertex")]] int baseVertex : A,
            [[vk::builtin("DeviceIndex")]] int deviceIndex : C,
            uint viewid : SV_ViewID) : B {
    return baseVertex + viewid;
}
"#;

const DERIVATIVES_CS: &str = r#"
RWStructuredBuffer<float> o;
[numthreads(2, 2, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    o[id.x] = ddx(0.5) + ddy(0.5);
}
"#;

/// The extension names of the module, in order.
fn extensions(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("OpExtension \""))
        .map(|l| l.trim_end_matches('"').to_string())
        .collect()
}

#[test]
fn extensions_follow_the_order_of_their_built_ins() {
    // spirv.ext.allow-all-khr.hlsl: draw parameters, device group, multiview, as the parameters.
    let (rc, out, err) = compile(VIEW_ID_VS, &["-T", "vs_6_1", "-E", "main", "-fspv-extension=KHR"]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(
        extensions(&out),
        ["SPV_KHR_shader_draw_parameters", "SPV_KHR_device_group", "SPV_KHR_multiview"]
    );
    assert!(out.contains("OpCapability MultiView"), "{out}");
    // spirv.ext.cl.allow.hlsl: two names listed, in the other order; the module's order is the same.
    let (rc, out, err) = compile(
        VIEW_ID_VS,
        &[
            "-T",
            "vs_6_1",
            "-E",
            "main",
            "-fspv-extension=SPV_KHR_multiview",
            "-fspv-extension=SPV_KHR_shader_draw_parameters",
            "-fspv-extension=SPV_KHR_device_group",
        ],
    );
    assert_eq!(rc, 0, "{err}");
    assert_eq!(
        extensions(&out),
        ["SPV_KHR_shader_draw_parameters", "SPV_KHR_device_group", "SPV_KHR_multiview"]
    );
    // In Vulkan 1.1 all three are core: no OpExtension, the capability stays.
    let (rc, out, err) = compile(VIEW_ID_VS, &["-T", "vs_6_1", "-E", "main", "-fspv-target-env=vulkan1.1"]);
    assert_eq!(rc, 0, "{err}");
    assert!(extensions(&out).is_empty(), "{out}");
    assert!(out.contains("OpCapability MultiView"), "{out}");
}

#[test]
fn a_missing_extension_is_still_refused() {
    let (rc, _, err) =
        compile(VIEW_ID_VS, &["-T", "vs_6_1", "-E", "main", "-fspv-extension=SPV_KHR_shader_draw_parameters"]);
    assert_eq!(rc, 1);
    assert!(err.contains("SPIR-V extension 'SPV_KHR_multiview' required but not permitted"), "{err}");
}

#[test]
fn an_unknown_extension_is_an_error_with_the_known_ones() {
    // spirv.ext.cl.unknown.hlsl
    let (rc, _, err) = compile(VIEW_ID_VS, &["-T", "vs_6_1", "-E", "main", "-fspv-extension=MyExtension"]);
    assert_eq!(rc, 1);
    assert!(err.contains("error: unknown SPIR-V extension 'MyExtension'"), "{err}");
    assert!(err.contains("note: known extensions are"), "{err}");
    assert!(err.contains("SPV_KHR_multiview"), "{err}");
}

#[test]
fn compute_derivatives_take_the_spelling_the_list_allows() {
    let args = |ext: &'static str| ["-T", "cs_6_6", "-E", "main", ext];
    // ddx.compute.khr.hlsl: the KHR name listed, the KHR extension used.
    for ext in ["-fspv-extension=SPV_KHR_compute_shader_derivatives", "-fspv-extension=KHR"] {
        let (rc, out, err) = compile(DERIVATIVES_CS, &args(ext));
        assert_eq!(rc, 0, "{ext}: {err}");
        assert_eq!(extensions(&out), ["SPV_KHR_compute_shader_derivatives"], "{ext}");
        assert!(out.contains("OpCapability ComputeDerivativeGroupQuadsKHR"), "{out}");
        assert!(out.contains("OpExecutionMode %main DerivativeGroupQuadsKHR"), "{out}");
    }
    // ddx.compute.hlsl: the NV name listed, the NV extension used.
    let (rc, out, err) = compile(DERIVATIVES_CS, &args("-fspv-extension=SPV_NV_compute_shader_derivatives"));
    assert_eq!(rc, 0, "{err}");
    assert_eq!(extensions(&out), ["SPV_NV_compute_shader_derivatives"]);
    // No list: the NV spelling (the one the SPIRV-Tools in use validate).
    let (rc, out, err) = compile(DERIVATIVES_CS, &["-T", "cs_6_6", "-E", "main"]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(extensions(&out), ["SPV_NV_compute_shader_derivatives"]);
}
