// Bit casts: asuint/asint of floats, asfloat of uints and ints, on scalars and vectors.
[[vk::binding(0, 0)]] StructuredBuffer<float> F;
[[vk::binding(1, 0)]] StructuredBuffer<uint> U;
[[vk::binding(2, 0)]] RWStructuredBuffer<uint> OutBits;
[[vk::binding(3, 0)]] RWStructuredBuffer<float> OutFloat;

[numthreads(1, 1, 1)]
void main() {
    float4 f = float4(F[0], F[1], F[2], F[3]);
    uint4 u = asuint(f);
    OutBits[0] = u.x; OutBits[1] = u.y; OutBits[2] = u.z; OutBits[3] = u.w;
    int s = asint(F[1]);
    OutBits[4] = (uint)(s >> 31);
    OutFloat[0] = asfloat(U[0]);
    OutFloat[1] = asfloat((int)U[1]);
    float2 g = asfloat(uint2(U[2], U[3]));
    OutFloat[2] = g.x; OutFloat[3] = g.y;
}
