// Signed integer / and % truncate toward zero; the remainder takes the sign of the dividend.
[[vk::binding(0, 0)]] StructuredBuffer<int> A;
[[vk::binding(1, 0)]] StructuredBuffer<int> B;
[[vk::binding(2, 0)]] RWStructuredBuffer<int> Quot;
[[vk::binding(3, 0)]] RWStructuredBuffer<int> Rem;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    int a = A[id.x];
    int b = B[id.x];
    Quot[id.x] = a / b;
    Rem[id.x] = a % b;
}
