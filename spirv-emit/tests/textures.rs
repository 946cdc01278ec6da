//! Texture methods end to end: HLSL → SPIR-V, every module checked by `spirv-val` (skipped with
//! a message when SPIRV-Tools is missing) and by the instructions its disassembly must contain.

use hlslc_spirv::target::TargetEnv;

mod common;

fn check(src: &str, profile: &str, expect: &[&str]) -> String {
    let words = common::compile(src, profile, TargetEnv::default());
    common::validate(&words, "vulkan1.1");
    let text = hlslc_spirv::disasm::disassemble(&words).expect("disassembles");
    for e in expect {
        assert!(text.contains(e), "missing `{e}` in:\n{text}");
    }
    text
}

#[test]
fn sampled_texture_methods() {
    let text = check(
        r#"
vk::SampledTexture2D<float4> st : register(t0);
vk::SampledTextureCUBE<float> sc : register(t1);
float4 main(float2 uv : UV, float3 dir : DIR) : SV_Target {
    uint status;
    float4 a = st.Sample(uv, int2(1, -1), 0.5, status);
    float4 g = st.GatherGreen(uv);
    float lod = st.CalculateLevelOfDetailUnclamped(uv);
    float c = st.SampleCmpLevelZero(uv, 0.25);
    float s = sc.SampleLevel(dir, 2.0);
    uint w, h, levels;
    st.GetDimensions(1, w, h, levels);
    float4 t = st.Load(int3(w, h, 0));
    return a + g + lod + c + s + t + status;
}
"#,
        "ps_6_0",
        &[
            "OpTypeImage %float 2D 0 0 0 1 Unknown",
            "OpTypeSampledImage %type_2d_image",
            "OpTypeStruct %uint %v4float",
            "OpImageSparseSampleImplicitLod %SparseResidencyStruct",
            "ConstOffset|MinLod",
            "OpImageGather %v4float",
            "OpImageQueryLod %v2float",
            "OpImageSampleDrefExplicitLod %float",
            "OpImageSampleExplicitLod %v4float",
            "OpImageQuerySizeLod %v2uint",
            "OpImageQueryLevels %uint",
            "OpImageFetch %v4float",
            "OpCapability MinLod",
            "OpCapability SparseResidency",
            "OpCapability ImageQuery",
        ],
    );
    // The image of a combined image sampler is taken out with OpImage for queries and fetches.
    assert!(text.contains("= OpImage %type_2d_image"), "{text}");
}

#[test]
fn texture_with_sampler_methods() {
    check(
        r#"
Texture2DArray<float4> arr : register(t0);
Texture2D<float> depth : register(t1);
Texture2DMS<float4> ms : register(t2);
SamplerState samp : register(s0);
SamplerComparisonState cmp : register(s1);
float4 main(float3 uv : UV, int2 off : OFF) : SV_Target {
    float4 a = arr.SampleGrad(samp, uv, uv.xy, uv.yx, int2(1, 0));
    float4 go = arr.Gather(samp, uv, off);
    float4 b = arr.SampleBias(samp, uv, 1.0);
    float4 g = depth.GatherCmp(cmp, uv.xy, 0.5, int2(1, 1));
    float4 o4 = depth.GatherRed(samp, uv.xy, int2(0, 1), int2(1, 0), int2(1, 1), int2(0, 0));
    float d = depth.SampleCmp(cmp, uv.xy, 0.5);
    float4 m = ms.Load(int2(1, 2), 3);
    float fw, fh, fs;
    ms.GetDimensions(fw, fh, fs);
    return a + go + b + g + o4 + d + m + fw + fh + fs;
}
"#,
        "ps_6_0",
        &[
            "OpSampledImage %type_sampled_image",
            "OpImageSampleExplicitLod %v4float",
            "Grad|ConstOffset",
            "OpImageGather %v4float",
            "%int_0 Offset",
            "Bias %float_1",
            "OpImageDrefGather %v4float",
            "ConstOffsets",
            "OpImageSampleDrefImplicitLod %float",
            "OpImageFetch %v4float",
            "Sample %int_3",
            "OpImageQuerySize %v2uint",
            "OpImageQuerySamples %uint",
            "OpConvertUToF %float",
            "OpCapability ImageGatherExtended",
        ],
    );
}

#[test]
fn resource_arrays_and_counters() {
    check(
        r#"
struct S { float4 v; };
Texture2D<float4> texs[3] : register(t0);
SamplerState samps[2] : register(s0);
Buffer<float4> bufs[2];
AppendStructuredBuffer<S> app : register(u0);
ConsumeStructuredBuffer<S> con : register(u1);
RWStructuredBuffer<S> counted : register(u2);
RWByteAddressBuffer raw : register(u3);
[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    S s;
    s.v = texs[2].SampleLevel(samps[1], float2(0.5, 0.5), 0) + bufs[1].Load(id.x) + con.Consume().v;
    app.Append(s);
    uint n = counted.IncrementCounter();
    uint count, stride, bytes;
    counted.GetDimensions(count, stride);
    raw.GetDimensions(bytes);
    raw.Store(0, n + count + stride + bytes + counted.DecrementCounter());
}
"#,
        "cs_6_0",
        &[
            "OpTypeArray %type_2d_image %uint_3",
            "OpTypeArray %type_sampler %uint_2",
            "OpTypeImage %float Buffer 2 0 0 1 Rgba32f",
            "OpAccessChain %_ptr_UniformConstant_type_2d_image %texs",
            "%type_ACSBuffer_counter = OpTypeStruct %int",
            "%counter_var_app = OpVariable %_ptr_Uniform_type_ACSBuffer_counter Uniform",
            "%counter_var_counted = OpVariable",
            "OpAtomicIAdd %int",
            "OpAtomicISub %int",
            "OpArrayLength %uint %counted 0",
            "OpIMul %uint",
            "OpStore %stride %uint_16",
        ],
    );
}

#[test]
fn subscript_of_read_only_textures_fetches_level_zero() {
    let text = check(
        r#"
Texture2D<float3> t : register(t0);
Buffer<float> b : register(t1);
RWStructuredBuffer<float4> o : register(u0);
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    o[0] = float4(t[id.xy + uint2(1, 0)], b[id.x]);
}
"#,
        "cs_6_0",
        &["OpImageFetch %v4float", "Lod %uint_0", "OpVectorShuffle %v3float"],
    );
    assert_eq!(text.matches("OpImageFetch").count(), 2, "{text}");
    assert!(!text.contains("OpAccessChain %_ptr_Function_v3float"), "{text}");
}
