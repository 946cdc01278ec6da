// Global arrays of buffers indexed per thread (NonUniformResourceIndex) and by constants: DXIL
// makes each element's handle from the array's register range (createHandle with the range start
// plus the index); reads from an array of structured buffers, writes to an array of RW ones, each
// written element read back through the array (only a descriptor array's first element can be
// expected directly).
[[vk::binding(0, 0)]] StructuredBuffer<uint> Sel;
[[vk::binding(1, 0)]] StructuredBuffer<uint> Src[3];
[[vk::binding(2, 0)]] RWStructuredBuffer<uint> Dst[2];
[[vk::binding(3, 0)]] RWStructuredBuffer<uint> Out;
[[vk::binding(4, 0)]] RWStructuredBuffer<uint> Back;

[numthreads(4, 1, 1)]
void main(uint gi : SV_GroupIndex) {
    uint s = Sel[gi];
    Out[gi] = Src[NonUniformResourceIndex(s)][gi] + 1000 * Src[2][gi] + 100000 * Src[1][0];
    uint d = gi & 1;
    Dst[NonUniformResourceIndex(d)][gi] = Src[NonUniformResourceIndex(s)][gi ^ 3] * 10 + s;
    Back[gi] = Dst[NonUniformResourceIndex(d)][gi];
}
