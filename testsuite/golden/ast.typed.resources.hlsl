// RUN: -T ps_6_0 -E main -ast-dump
// Resources, methods, intrinsics, cbuffers and a user template.
cbuffer Params : register(b0) {
    float4 tint;
    row_major float3x4 xf;
};
Texture2D<float4> tex : register(t0);
SamplerState samp : register(s0);
ByteAddressBuffer raw : register(t1);

template <typename T> T square(T x) { return x * x; }

float4 main(float2 uv : TEXCOORD0) : SV_Target {
    float4 c = tex.Sample(samp, uv);
    uint w, h;
    tex.GetDimensions(w, h);
    uint word = raw.Load(4);
    float3 p = mul(xf, c);
    [unroll] for (int i = 0; i < 2; ++i) {
        c.rgb += saturate(p) * square(i);
    }
    if (any(c < 0)) discard;
    return lerp(c, tint, 0.5) * square(2.0f) + asfloat(word) + w;
}
