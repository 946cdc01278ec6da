// Shifts (amount taken modulo 32, arithmetic >> on int) and bit-counting intrinsics.
[[vk::binding(0, 0)]] StructuredBuffer<uint> X;
[[vk::binding(1, 0)]] StructuredBuffer<uint> S;
[[vk::binding(2, 0)]] RWStructuredBuffer<uint> Shl;
[[vk::binding(3, 0)]] RWStructuredBuffer<uint> Shr;
[[vk::binding(4, 0)]] RWStructuredBuffer<int> Sar;
[[vk::binding(5, 0)]] RWStructuredBuffer<uint> Bits;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint x = X[id.x];
    uint s = S[id.x];
    Shl[id.x] = x << s;
    Shr[id.x] = x >> s;
    Sar[id.x] = ((int)x) >> s;
    Bits[id.x * 3 + 0] = countbits(x);
    Bits[id.x * 3 + 1] = reversebits(x);
    Bits[id.x * 3 + 2] = firstbithigh(x);
}
