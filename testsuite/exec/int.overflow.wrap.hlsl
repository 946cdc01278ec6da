// 32-bit integer +, -, * wrap around modulo 2^32.
[[vk::binding(0, 0)]] StructuredBuffer<int> A;
[[vk::binding(1, 0)]] StructuredBuffer<int> B;
[[vk::binding(2, 0)]] RWStructuredBuffer<int> Sum;
[[vk::binding(3, 0)]] RWStructuredBuffer<int> Diff;
[[vk::binding(4, 0)]] RWStructuredBuffer<int> Prod;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    int a = A[id.x], b = B[id.x];
    Sum[id.x] = a + b;
    Diff[id.x] = a - b;
    Prod[id.x] = a * b;
}
