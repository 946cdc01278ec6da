// RUN: -T cs_6_0 -E main -ast-dump
// Intrinsic overloads on scalars, vectors and matrices; atomics and wave ops on resources.
RWBuffer<uint> counters : register(u0);
RWTexture2D<float4> image : register(u1);

[numthreads(4, 4, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint old;
    InterlockedAdd(counters[0], 1, old);
    float4 px = image[id.xy];
    float3x3 m = float3x3(1, 0, 0, 0, 1, 0, 0, 0, 1);
    float3 r = mul(px.xyz, transpose(m));
    int k = clamp(id.x, 0, 3);
    px.w = max(dot(r, r), 1) + abs(-k) + WaveActiveSum(px.x);
    image[id.xy] = px * (float)countbits(old);
}
