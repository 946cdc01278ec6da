// D3DCOLORtoUBYTE4 (swizzle zyxw, scale by 255.002, truncate), AddUint64 on uint2 and uint4
// word pairs (carry from the low word), the packed 8-bit dot products, and modf.
[[vk::binding(0, 0)]] StructuredBuffer<float> Color;
[[vk::binding(1, 0)]] StructuredBuffer<uint> U;
[[vk::binding(2, 0)]] RWStructuredBuffer<int> Ubyte;
[[vk::binding(3, 0)]] RWStructuredBuffer<uint> Sums;
[[vk::binding(4, 0)]] RWStructuredBuffer<float> Modf;

[numthreads(1, 1, 1)]
void main() {
    [unroll] for (uint c = 0; c < 2; ++c) {
        int4 b = D3DCOLORtoUBYTE4(float4(Color[4 * c], Color[4 * c + 1], Color[4 * c + 2], Color[4 * c + 3]));
        [unroll] for (uint i = 0; i < 4; ++i) {
            Ubyte[4 * c + i] = b[i];
        }
    }
    uint4 a = uint4(U[0], U[1], U[2], U[3]);
    uint4 b = uint4(U[4], U[5], U[6], U[7]);
    uint2 s2 = AddUint64(a.xy, b.xy);
    uint4 s4 = AddUint64(a, b);
    Sums[0] = s2.x;
    Sums[1] = s2.y;
    Sums[2] = s4.x;
    Sums[3] = s4.y;
    Sums[4] = s4.z;
    Sums[5] = s4.w;
    Sums[6] = dot4add_u8packed(U[8], U[9], U[10]);
    Sums[7] = (uint)dot4add_i8packed(U[8], U[9], -(int)U[10]);
    float4 x = float4(2.75, -2.75, 0.5, -7.0);
    float4 whole;
    float4 frac = modf(x, whole);
    [unroll] for (uint j = 0; j < 4; ++j) {
        Modf[j] = frac[j];
        Modf[4 + j] = whole[j];
    }
}
