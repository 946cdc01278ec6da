// float +, *, / including overflow to infinity.
[[vk::binding(0, 0)]] StructuredBuffer<float> A;
[[vk::binding(1, 0)]] StructuredBuffer<float> B;
[[vk::binding(2, 0)]] RWStructuredBuffer<float> Sum;
[[vk::binding(3, 0)]] RWStructuredBuffer<float> Prod;
[[vk::binding(4, 0)]] RWStructuredBuffer<float> Quot;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float a = A[id.x], b = B[id.x];
    Sum[id.x] = a + b;
    Prod[id.x] = a * b;
    Quot[id.x] = a / b;
}
