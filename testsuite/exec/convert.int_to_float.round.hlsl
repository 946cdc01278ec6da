// int -> float and uint -> float conversions round to nearest (even).
[[vk::binding(0, 0)]] StructuredBuffer<int> I;
[[vk::binding(1, 0)]] StructuredBuffer<uint> U;
[[vk::binding(2, 0)]] RWStructuredBuffer<float> FI;
[[vk::binding(3, 0)]] RWStructuredBuffer<float> FU;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    FI[id.x] = (float)I[id.x];
    FU[id.x] = U[id.x];  // implicit conversion
}
