// Unsigned / and % on values above 2^31 (must not be treated as negative).
[[vk::binding(0, 0)]] StructuredBuffer<uint> A;
[[vk::binding(1, 0)]] StructuredBuffer<uint> B;
[[vk::binding(2, 0)]] RWStructuredBuffer<uint> Quot;
[[vk::binding(3, 0)]] RWStructuredBuffer<uint> Rem;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    Quot[id.x] = A[id.x] / B[id.x];
    Rem[id.x] = A[id.x] % B[id.x];
}
