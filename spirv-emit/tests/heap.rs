//! SM 6.6 descriptor heaps end to end: HLSL → SPIR-V checked by `spirv-val` and by the
//! instructions its disassembly must contain (DXC's mapping, SPIR-V.rst).

use hlslc_spirv::target::TargetEnv;

mod common;

fn compile(src: &str, profile: &str) -> String {
    let words = common::compile(src, profile, TargetEnv::default());
    common::validate(&words, "vulkan1.1");
    hlslc_spirv::disasm::disassemble(&words).expect("disassembles")
}

/// The lines of `text` that contain `needle`.
fn lines_with<'a>(text: &'a str, needle: &str) -> Vec<&'a str> {
    text.lines().filter(|l| l.contains(needle)).map(str::trim).collect()
}

#[test]
fn one_runtime_array_per_type_on_one_binding_after_the_others() {
    let text = compile(
        r#"
[[vk::binding(0, 0)]] Texture2D<float4> fixedTex;
float4 main(uint i : I) : SV_Target {
    Texture2D<float4> t = ResourceDescriptorHeap[i];
    Buffer<uint> b = ResourceDescriptorHeap[i + 1];
    SamplerState s = SamplerDescriptorHeap[2];
    return t.Sample(s, float2(0, 0)) + fixedTex.Sample(s, float2(1, 1)) + b[3];
}
"#,
        "ps_6_6",
    );
    for want in [
        "OpCapability RuntimeDescriptorArray",
        "OpExtension \"SPV_EXT_descriptor_indexing\"",
        "%_runtimearr_type_2d_image = OpTypeRuntimeArray %type_2d_image",
        "%_runtimearr_type_buffer_image = OpTypeRuntimeArray %type_buffer_image",
        "%_runtimearr_type_sampler = OpTypeRuntimeArray %type_sampler",
        "OpDecorate %ResourceDescriptorHeap Binding 1",
        "OpDecorate %ResourceDescriptorHeap_0 Binding 1",
        "OpDecorate %SamplerDescriptorHeap Binding 2",
        "OpAccessChain %_ptr_UniformConstant_type_sampler %SamplerDescriptorHeap %uint_2",
    ] {
        assert!(text.contains(want), "missing `{want}` in:\n{text}");
    }
    // The texture local is loaded once, where it is declared, and sampled from that value.
    let loads = lines_with(&text, "= OpLoad %type_2d_image");
    assert_eq!(loads.len(), 2, "{text}");
}

#[test]
fn explicit_heap_bindings_and_counters() {
    let src = r#"
RWStructuredBuffer<uint> a : register(u0);
[numthreads(1, 1, 1)]
void main() {
    RWStructuredBuffer<uint> b = ResourceDescriptorHeap[5];
    b[b.IncrementCounter()] = a[0];
}
"#;
    let text = compile(src, "cs_6_6");
    for want in [
        "OpDecorate %a Binding 0",
        "OpDecorate %ResourceDescriptorHeap Binding 1",
        "OpDecorate %counter_var_ResourceDescriptorHeap Binding 2",
        "OpAccessChain %_ptr_Uniform_int %counter_var_ResourceDescriptorHeap %uint_5 %uint_0",
        "OpAtomicIAdd %int",
    ] {
        assert!(text.contains(want), "missing `{want}` in:\n{text}");
    }
}
