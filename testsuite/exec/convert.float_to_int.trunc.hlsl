// float -> int and float -> uint conversions truncate toward zero.
[[vk::binding(0, 0)]] StructuredBuffer<float> F;
[[vk::binding(1, 0)]] RWStructuredBuffer<int> I;
[[vk::binding(2, 0)]] RWStructuredBuffer<uint> U;

[numthreads(5, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float f = F[id.x];
    I[id.x] = (int)f;
    U[id.x] = (uint)abs(f);
}
