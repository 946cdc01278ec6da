// Bit intrinsics on 64-bit and 16-bit integers (Vulkan's FindUMsb/FindSMsb/FindILsb and
// OpBitReverse take 32-bit values: the compiler splits or widens). 64-bit values come in as
// (low, high) word pairs.
[[vk::binding(0, 0)]] StructuredBuffer<uint> W;
[[vk::binding(1, 0)]] RWStructuredBuffer<uint> Out;

[numthreads(5, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint k = id.x;
    uint64_t u = (uint64_t)W[2 * k] | ((uint64_t)W[2 * k + 1] << 32);
    int64_t s = (int64_t)u;
    uint16_t h = (uint16_t)W[2 * k];
    int16_t hs = (int16_t)h;
    uint64_t r = reversebits(u);
    uint o = k * 13;
    Out[o + 0] = firstbithigh(u);
    Out[o + 1] = firstbitlow(u);
    Out[o + 2] = firstbithigh(s);
    Out[o + 3] = (uint)r;
    Out[o + 4] = (uint)(r >> 32);
    Out[o + 5] = (uint)sign(s);
    Out[o + 6] = firstbithigh(h);
    Out[o + 7] = firstbitlow(h);
    Out[o + 8] = firstbithigh(hs);
    Out[o + 9] = reversebits(h);
    Out[o + 10] = (uint16_t)reversebits(hs);
    Out[o + 11] = (uint)sign(hs);
    Out[o + 12] = countbits(u);
}
