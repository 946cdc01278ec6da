//! `-O0`..`-O3`, `-Od`, `-fcgl`, `-fspv-preserve-bindings` and `-fspv-preserve-interface` on the
//! SPIR-V output: what the optimizer (hlslc-spirv-opt) removes and what these options keep.

use hlslc::cli::{parse_args, Tool};
use hlslc::{compile, Output};
use std::process::Command;

const SRC: &str = r#"
Texture2D unusedTex : register(t3);
cbuffer Used : register(b0) { float4 tint; };
float4 scale(float4 c, float k) { return c * k; }
float4 main(float4 color : COLOR0, float4 unusedIn : TEXCOORD5) : SV_Target {
    float4 r = scale(color, 2.0);
    return r * tint;
}
"#;

/// Compiles `SRC` with `flags` and returns the disassembly; the binary must pass spirv-val.
fn spirv(flags: &[&str]) -> String {
    spirv_of(SRC, flags)
}

/// [`spirv`] for another source.
fn spirv_of(src: &str, flags: &[&str]) -> String {
    let mut args: Vec<String> = ["-spirv", "-T", "ps_6_0", "-E", "main", "a.hlsl"].iter().map(|s| s.to_string()).collect();
    args.extend(flags.iter().map(|s| s.to_string()));
    let inv = parse_args(Tool::Hlslc, &args).expect("arguments parse");
    let r = compile(src, "a.hlsl", &inv.options, None);
    assert!(r.succeeded(), "{}", r.render_diagnostics());
    let Some(Output::Binary(bytes)) = &r.output else { panic!("no SPIR-V") };
    // Tests run in parallel and compile the same flags: each call gets its own file.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("hlslc-spirv-opt-{}-{n}-{}.spv", std::process::id(), flags.join("_")));
    std::fs::write(&path, bytes).unwrap();
    match Command::new("spirv-val").arg(&path).output() {
        Ok(o) => assert!(o.status.success(), "spirv-val {flags:?}: {}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr)),
        Err(_) => eprintln!("spirv-val not installed: validation skipped"),
    }
    let _ = std::fs::remove_file(&path);
    r.listing.expect("a listing without -Fo")
}

#[test]
fn o3_is_the_default_and_optimizes() {
    let o0 = spirv(&["-O0"]);
    let o3 = spirv(&[]);
    assert_eq!(o3, spirv(&["-O3"]));
    // The emitter's module: the helper is called, the unused texture and input are declared.
    assert!(o0.contains("OpFunctionCall"), "{o0}");
    assert!(o0.contains("%unusedTex"), "{o0}");
    assert!(o0.contains("in_var_TEXCOORD5"), "{o0}");
    assert!(o0.contains("OpVariable %_ptr_Function"), "{o0}");
    // Optimized: the helper is inlined, locals are SSA values, unused declarations are gone.
    for gone in ["%scale", "%unusedTex", "in_var_TEXCOORD5", "OpVariable %_ptr_Function"] {
        assert!(!o3.contains(gone), "{gone} left at -O3:\n{o3}");
    }
    assert!(o3.contains("%tint") || o3.contains("Used"), "{o3}");
    assert!(o3.len() < o0.len());
}

#[test]
fn every_level_but_zero_runs_the_same_recipe() {
    let o3 = spirv(&["-O3"]);
    assert_eq!(spirv(&["-O1"]), o3);
    assert_eq!(spirv(&["-O2"]), o3);
}

#[test]
fn od_and_fcgl_keep_the_emitters_module() {
    let o0 = spirv(&["-O0"]);
    assert_eq!(spirv(&["-Od"]), o0);
    assert_eq!(spirv(&["-fcgl"]), o0);
}

#[test]
fn preserve_bindings_keeps_unused_resources() {
    let kept = spirv(&["-fspv-preserve-bindings"]);
    assert!(kept.contains("OpDecorate %unusedTex Binding 3"), "{kept}");
    assert!(!kept.contains("in_var_TEXCOORD5"), "only bindings are kept:\n{kept}");
}

#[test]
fn preserve_interface_keeps_unused_stage_variables() {
    let kept = spirv(&["-fspv-preserve-interface"]);
    assert!(kept.contains("in_var_TEXCOORD5"), "{kept}");
    assert!(!kept.contains("%unusedTex"), "only the interface is kept:\n{kept}");
}

/// A texel offset passed through a parameter: `Offset` with a run-time value, which Vulkan allows
/// only on gathers, until inlining makes it a constant.
const OFFSET_SRC: &str = r#"
SamplerState s;
Texture2D<float4> t;
float4 sample(int2 offset) { return t.Sample(s, float2(0.1, 0.2), offset); }
float4 main() : SV_Target { return sample(int2(1, -1)); }
"#;

/// dxc legalizes such a module even at `-O0`/`-Od` (texture.sample.offset.needs.legalization.o0
/// checks `ConstOffset`): so does hlslc, and the output is valid; `-fcgl` keeps the emitter's
/// module.
#[test]
fn o0_legalizes_a_run_time_texel_offset() {
    for level in ["-O0", "-Od"] {
        let text = spirv_of(OFFSET_SRC, &[level]);
        assert!(text.contains("ConstOffset"), "{level}:\n{text}");
        assert!(!text.contains(" Offset "), "{level}:\n{text}");
    }
    let args: Vec<String> = ["-spirv", "-T", "ps_6_0", "-E", "main", "a.hlsl", "-fcgl"].iter().map(|s| s.to_string()).collect();
    let inv = parse_args(Tool::Hlslc, &args).expect("arguments parse");
    let r = compile(OFFSET_SRC, "a.hlsl", &inv.options, None);
    assert!(r.succeeded(), "{}", r.render_diagnostics());
    let text = r.listing.expect("a listing");
    assert!(text.contains("OpFunctionCall %v4float %sample"), "{text}");
    assert!(text.contains(" Offset %"), "{text}");
    // A module without a run-time offset keeps the emitter's form at -O0.
    assert!(spirv(&["-O0"]).contains("OpFunctionCall"));
}

/// An offset that no folding makes constant (a stage input) is refused at `-O0` as at `-O3`,
/// naming the problem, instead of giving invalid SPIR-V.
#[test]
fn an_offset_that_stays_run_time_is_refused_at_every_level() {
    let src = r#"
SamplerState s;
Texture2D<float4> t;
float4 main(int2 offset : A) : SV_Target { return t.Sample(s, float2(0.1, 0.2), offset); }
"#;
    for level in ["-O0", "-O3"] {
        let args: Vec<String> = ["-spirv", "-T", "ps_6_0", "-E", "main", "a.hlsl", level].iter().map(|s| s.to_string()).collect();
        let inv = parse_args(Tool::Hlslc, &args).expect("arguments parse");
        let r = compile(src, "a.hlsl", &inv.options, None);
        assert!(!r.succeeded(), "{level}");
        assert!(r.render_diagnostics().contains("a texture offset is not a compile-time constant"), "{level}: {}", r.render_diagnostics());
    }
}

/// A base struct's method called on a derived object passes `OpAccessChain` of member 0, as
/// dxc does (oo.inheritance.call.base.method), which is valid only once inlined: `-O0`
/// legalizes it and `-O3` optimizes it; both validate and read `trans` through member 0.
#[test]
fn a_base_method_call_on_a_derived_object_is_legalized_at_o0() {
    let src = r#"
struct empty {};
struct bar : empty {
  float4x4 trans;
  float4 value() { return mul(float4(1, 1, 1, 0), trans); }
};
struct foo : bar {
  float4 get() { return value(); }
};
cbuffer C { float4x4 m; };
float4 main() : SV_Target {
  foo x;
  x.trans = m;
  return x.get();
}
"#;
    for level in ["-O0", "-O3"] {
        let text = spirv_of(src, &[level]);
        assert!(!text.contains("OpFunctionCall %v4float %bar_value"), "{level}:\n{text}");
    }
}

#[test]
fn a_combined_image_sampler_is_legalized_at_o0() {
    // dxc legalizes a module with a [[vk::combinedImageSampler]] binding at every level: the
    // helper returning the texture is inlined into main, so the sample reads the combined
    // variable's load directly (CodeGenSPIRV/vk.combined-image-sampler.hlsl checks dxc's form).
    let src = r#"
[[vk::combinedImageSampler]] SamplerState sam : register(s1);
[[vk::combinedImageSampler]] Texture2D<float4> tex : register(t1);
Texture2D<float4> getTexture() { return tex; }
float4 sampleIt() { return getTexture().SampleLevel(sam, float2(1, 2), 0); }
float4 main() : SV_Target { return sampleIt(); }
"#;
    let text = spirv_of(src, &["-O0"]);
    assert!(!text.contains("OpFunctionCall"), "{text}");
    assert!(text.contains("OpImageSampleExplicitLod"), "{text}");
    // -fcgl keeps the emitter's calls.
    let text = spirv_of(src, &["-fcgl"]);
    assert!(text.contains("OpFunctionCall"), "{text}");
}

/// `-fspv-debug=vulkan` at `-O3`: the debug information stays, valid (spirv-val in `spirv`), and
/// describes the optimized code: locals promoted to SSA values are `DebugValue`s (no
/// `DebugDeclare` names a removed variable), the inlined helper's scopes name a
/// `DebugInlinedAt`, and its `DebugFunction` stays for them.
#[test]
fn debug_info_survives_o3() {
    let o3 = spirv(&["-fspv-debug=vulkan"]);
    for gone in ["OpFunctionCall", "OpVariable %_ptr_Function", "DebugDeclare"] {
        assert!(!o3.contains(gone), "{gone} left at -O3:\n{o3}");
    }
    assert!(o3.contains("DebugValue"), "{o3}");
    let inlined_at = o3.lines().find(|l| l.contains("DebugInlinedAt")).expect("a DebugInlinedAt");
    let id = inlined_at.split('=').next().unwrap().trim();
    assert!(o3.lines().any(|l| l.contains("DebugScope") && l.trim_end().ends_with(id)), "no DebugScope names {id}:\n{o3}");
    assert!(o3.contains("OpString \"scale\""), "{o3}");
    assert!(o3.contains("OpExtInstImport \"NonSemantic.Shader.DebugInfo.100\""), "{o3}");
}

/// `EvaluateAttribute*` passes a temporary holding the value, as dxc's `-fcgl` output does;
/// at `-O0` as at `-O3` the interpolant becomes the stage input it was loaded from (through a
/// struct parameter and a helper function): the whole input, an access chain for a vector's
/// component, an array element or a matrix row (SPIR-V column), and the output validates.
/// `-fcgl` keeps the temporaries.
#[test]
fn evaluate_attribute_interpolates_the_stage_input_at_every_level() {
    let src = r#"
struct PSIn { float4 pos : SV_Position; float4 color : COLOR; float2 uv[2] : TEXCOORD; float2x3 m : MAT; };
float4 helper(PSIn i) { return EvaluateAttributeCentroid(i.color) + EvaluateAttributeAtSample(i.color.y, 1); }
float4 main(PSIn i) : SV_Target {
  float4 r = helper(i);
  r.xy += EvaluateAttributeSnapped(i.uv[1], int2(1, -1));
  r.z += EvaluateAttributeAtSample(i.m, 2)[1][2];
  return r;
}
"#;
    for level in ["-O0", "-O3"] {
        let text = spirv_of(src, &[level]);
        assert!(text.contains("OpCapability InterpolationFunction"), "{level}:\n{text}");
        assert!(text.contains("InterpolateAtCentroid %in_var_COLOR\n"), "{level}:\n{text}");
        for (chain, op) in [
            ("%_ptr_Input_float %in_var_COLOR %uint_1", "InterpolateAtSample"),
            ("%_ptr_Input_v2float %in_var_TEXCOORD %uint_1", "InterpolateAtOffset"),
            ("%_ptr_Input_v3float %in_var_MAT %uint_1", "InterpolateAtSample"),
        ] {
            let at = text.find(&format!("OpAccessChain {chain}\n")).unwrap_or_else(|| panic!("{level}: no {chain}:\n{text}"));
            let next = text[at..].lines().nth(1).unwrap();
            assert!(next.contains(op), "{level}: {chain} then {next}");
        }
        assert!(!text.contains("temp_var"), "{level}:\n{text}");
    }
    let args: Vec<String> = ["-spirv", "-T", "ps_6_0", "-E", "main", "a.hlsl", "-fcgl"].iter().map(|s| s.to_string()).collect();
    let inv = parse_args(Tool::Hlslc, &args).expect("arguments parse");
    let r = compile(src, "a.hlsl", &inv.options, None);
    let text = r.listing.expect("a listing");
    assert!(text.contains("InterpolateAtCentroid %temp_var_v4float"), "{text}");
}

/// A computed value has no input to interpolate: refused at every level but `-fcgl`, naming the
/// intrinsics, instead of giving invalid SPIR-V.
#[test]
fn evaluate_attribute_of_a_computed_value_is_refused() {
    let src = "float4 main(float4 c : COLOR) : SV_Target { return EvaluateAttributeCentroid(c * 2); }";
    for level in ["-O0", "-O3"] {
        let args: Vec<String> = ["-spirv", "-T", "ps_6_0", "-E", "main", "a.hlsl", level].iter().map(|s| s.to_string()).collect();
        let inv = parse_args(Tool::Hlslc, &args).expect("arguments parse");
        let r = compile(src, "a.hlsl", &inv.options, None);
        assert!(!r.succeeded(), "{level}");
        assert!(r.render_diagnostics().contains("EvaluateAttributeCentroid/EvaluateAttributeSnapped need a pixel shader input"), "{level}");
    }
}

/// HLSL's signed `%` truncates (the remainder has the dividend's sign); Vulkan leaves `OpSRem`
/// undefined for negative operands and NVIDIA's driver computes an unsigned remainder, so every
/// output but `-fcgl`'s (dxc's high-level form) divides, multiplies and subtracts instead.
#[test]
fn signed_remainder_is_computed_without_op_srem_except_at_fcgl() {
    let src = r#"
cbuffer C : register(b0) { int a; int b; int2 va; int2 vb; uint ua; uint ub; };
float4 main() : SV_Target { return float4(a % b, (va % vb).x, ua % ub, 0); }
"#;
    let fcgl = spirv_of(src, &["-fcgl"]);
    assert_eq!(fcgl.matches("OpSRem").count(), 2, "{fcgl}");
    for flags in [&["-O0"][..], &["-O3"][..]] {
        let out = spirv_of(src, flags);
        assert!(!out.contains("OpSRem"), "{flags:?}:\n{out}");
        assert_eq!(out.matches("OpSDiv").count(), 2, "{flags:?}:\n{out}");
        // The unsigned remainder is defined for all operands and stays.
        assert!(out.contains("OpUMod"), "{flags:?}:\n{out}");
    }
    // A specialization constant's `%` is evaluated by the driver with the same rules.
    let spec = r#"
[[vk::constant_id(0)]] const int a = -7;
static const int b = a % 2;
float4 main() : SV_Target { return float4(b, 0, 0, 0); }
"#;
    assert!(spirv_of(spec, &["-fcgl"]).contains("OpSpecConstantOp %int SRem"));
    let out = spirv_of(spec, &["-O0"]);
    assert!(!out.contains("SRem") && out.contains("OpSpecConstantOp %int SDiv"), "{out}");
}
