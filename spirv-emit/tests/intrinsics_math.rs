//! Math and bit intrinsics: DXC's instruction choices, matrices row by row, integer `mul`.

mod common;

use common::intrinsics::check;
use hlslc_spirv::TargetEnv;

const V10: TargetEnv = TargetEnv::Vulkan1_0;

#[test]
fn componentwise_ops_apply_to_matrix_rows() {
    check(
        r#"
RWStructuredBuffer<float2x3> o : register(u0);
[numthreads(1, 1, 1)]
void main() {
    float2x3 m = o[0];
    o[1] = sin(m) + saturate(m) + max(m, m) + mad(m, m, m) + ldexp(m, m);
}
"#,
        "cs_6_0",
        V10,
        &[
            "OpDecorate %",
            " NoContraction",
            "%mat2v3float",
            "OpCompositeExtract %v3float",
            "Sin",
            "OpCompositeExtract %v3float",
            "Sin",
            "OpCompositeConstruct %mat2v3float",
            "FClamp",
            "NMax",
            "Fma",
            "Exp2",
            "OpFMul %v3float",
        ],
    );
}

#[test]
fn min_max_are_nan_aware_and_mad_is_exact() {
    let text = check(
        r#"
RWStructuredBuffer<float4> f : register(u0);
RWStructuredBuffer<int2> i : register(u1);
[numthreads(1, 1, 1)]
void main() {
    f[0] = min(f[1], f[2]) + max(f[1], f[2]) + log10(f[3]);
    i[0] = mad(i[1], i[2], i[3]) + sign(f[0].xy) + max(i[1], i[2]);
}
"#,
        "cs_6_0",
        V10,
        &[
            "NMin %",
            "NMax %",
            "Log2 %",
            "OpVectorTimesScalar %v4float",
            "OpIMul %v2int",
            "OpIAdd %v2int",
            "FSign %",
            "OpConvertFToS %v2int",
            "SMax %",
        ],
    );
    assert_eq!(text.matches("NoContraction").count(), 2, "{text}");
}

#[test]
fn integer_matrix_products_use_dot_products() {
    check(
        r#"
RWStructuredBuffer<int3> o : register(u0);
[numthreads(1, 1, 1)]
void main() {
    int2x3 a = int2x3(o[0], o[1]);
    int3x2 b = int3x2(o[2].xy, o[3].xy, o[4].xy);
    int2 v = o[5].xy;
    o[6] = mul(v, a);
    o[7].xy = mul(a, o[8]);
    int2x2 p = mul(a, b);
    o[9] = int3(p[0], dot(v, v));
    int2x3 q = mul(v.x, a);
    o[10] = q[1];
}
"#,
        "cs_6_0",
        V10,
        &[
            "OpCompositeConstruct %_arr_v2int_uint_3",
            "OpIMul %int",
            "OpIAdd %int",
            "OpCompositeConstruct %v3int",
            "OpCompositeConstruct %v2int",
            "OpCompositeConstruct %_arr_v2int_uint_2",
            "OpIMul %v3int",
        ],
    );
}

#[test]
fn float_classification_and_packing() {
    check(
        r#"
RWStructuredBuffer<uint4> o : register(u0);
[numthreads(1, 1, 1)]
void main() {
    float4 x = asfloat(o[0]);
    uint4 r = (uint4)isfinite(x) + (uint4)isnormal(x);
    r.x += f32tof16(x.x) + countbits(r.y) + firstbithigh(r.z) + reversebits(r.w);
    r.yz += f32tof16(f16tof32(r.yz));
    uint lo, hi;
    asuint(asdouble(r.x, r.y), lo, hi);
    o[1] = r + uint4(lo, hi, 0, 0);
}
"#,
        "cs_6_0",
        V10,
        &[
            "OpIsNan %v4bool",
            "OpIsInf %v4bool",
            "OpLogicalOr %v4bool",
            "OpLogicalNot %v4bool",
            "OpBitcast %v4uint",
            "OpBitwiseAnd %v4uint",
            "OpINotEqual %v4bool",
            "PackHalf2x16",
            "OpBitCount %uint",
            "FindUMsb",
            "OpBitReverse %uint",
            "UnpackHalf2x16",
            "OpBitcast %double",
            "OpBitcast %v2uint",
        ],
    );
}

#[test]
fn lighting_helpers() {
    check(
        r#"
float4 main(float3 n : N, float3 i : I, float4 a : A, float4 b : B) : SV_Target {
    float3 f = faceforward(n, i, n);
    float s, c;
    sincos(a.x, s, c);
    return lit(a.x, a.y, a.z) + dst(a, b) + float4(f, s + c) + select(a > b, a, b);
}
"#,
        "ps_6_0",
        V10,
        &[
            "FaceForward",
            "Sin",
            "Cos",
            "FMax %float_0 %",
            "FMin %",
            "OpFOrdLessThan %bool",
            "OpSelect %float",
            "OpCompositeConstruct %v4float %float_1",
            "OpSelect %v4float",
        ],
    );
}
