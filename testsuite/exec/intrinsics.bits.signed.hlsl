// firstbithigh on int (for negatives: the highest 0 bit) and uint, firstbitlow, countbits and
// reversebits on vectors; no bit found gives 0xFFFFFFFF.
[[vk::binding(0, 0)]] StructuredBuffer<uint> U;
[[vk::binding(1, 0)]] RWStructuredBuffer<uint> Out;

[numthreads(1, 1, 1)]
void main() {
    uint4 u = uint4(U[0], U[1], U[2], U[3]);
    int4 s = (int4)u;
    uint4 hs = (uint4)firstbithigh(s);
    uint4 hu = firstbithigh(u);
    uint4 lo = firstbitlow(u);
    uint4 cb = countbits(u);
    uint4 rb = reversebits(u);
    [unroll] for (int k = 0; k < 4; ++k) {
        Out[k * 5 + 0] = hs[k];
        Out[k * 5 + 1] = hu[k];
        Out[k * 5 + 2] = lo[k];
        Out[k * 5 + 3] = cb[k];
        Out[k * 5 + 4] = rb[k];
    }
}
