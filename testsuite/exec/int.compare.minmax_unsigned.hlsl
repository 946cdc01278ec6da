// Unsigned min/max/clamp and comparisons above 2^31 (must not use signed instructions), and
// signed ones on the same bits.
[[vk::binding(0, 0)]] StructuredBuffer<uint> A;
[[vk::binding(1, 0)]] StructuredBuffer<uint> B;
[[vk::binding(2, 0)]] RWStructuredBuffer<uint> Out;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint a = A[id.x], b = B[id.x];
    int sa = (int)a, sb = (int)b;
    Out[id.x * 6 + 0] = min(a, b);
    Out[id.x * 6 + 1] = max(a, b);
    Out[id.x * 6 + 2] = clamp(a, 10u, 0x90000000u);
    Out[id.x * 6 + 3] = (uint)min(sa, sb);
    Out[id.x * 6 + 4] = (uint)max(sa, sb);
    Out[id.x * 6 + 5] = (a < b ? 1u : 0u) | (sa < sb ? 2u : 0u) | (a >= b ? 4u : 0u) | (sa == sb ? 8u : 0u);
}
