// msad4 (masked sums of absolute byte differences over the four byte alignments of an 8-byte
// source), frexp (mantissa in [0.5, 1) and exponent as float), and the SM 6.6 8-bit pack/unpack
// intrinsics with and without clamping.
[[vk::binding(0, 0)]] StructuredBuffer<uint> U;
[[vk::binding(1, 0)]] StructuredBuffer<float> F;
[[vk::binding(2, 0)]] StructuredBuffer<int> I;
[[vk::binding(3, 0)]] RWStructuredBuffer<uint> Msad;
[[vk::binding(4, 0)]] RWStructuredBuffer<float> Frexp;
[[vk::binding(5, 0)]] RWStructuredBuffer<uint> Packed;
[[vk::binding(6, 0)]] RWStructuredBuffer<int> Unpacked;

[numthreads(1, 1, 1)]
void main() {
    uint4 m = msad4(U[0], uint2(U[1], U[2]), uint4(U[3], U[4], U[5], U[6]));
    [unroll] for (uint i = 0; i < 4; ++i) {
        Msad[i] = m[i];
    }
    float4 x = float4(F[0], F[1], F[2], F[3]);
    float4 e;
    float4 mant = frexp(x, e);
    [unroll] for (uint j = 0; j < 4; ++j) {
        Frexp[j] = mant[j];
        Frexp[4 + j] = e[j];
    }
    int4 v = int4(I[0], I[1], I[2], I[3]);
    Packed[0] = (uint)pack_s8(v);
    Packed[1] = (uint)pack_u8((uint4)v);
    Packed[2] = (uint)pack_clamp_s8(v);
    Packed[3] = (uint)pack_clamp_u8(v);
    int4 s = unpack_s8s32((int8_t4_packed)U[7]);
    uint4 z = unpack_u8u32((uint8_t4_packed)U[7]);
    [unroll] for (uint k = 0; k < 4; ++k) {
        Unpacked[k] = s[k];
        Unpacked[4 + k] = (int)z[k];
    }
}
