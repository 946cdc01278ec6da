// abs, min, max, clamp on int; floor, frac, lerp on float.
[[vk::binding(0, 0)]] StructuredBuffer<int> I;
[[vk::binding(1, 0)]] StructuredBuffer<float> F;
[[vk::binding(2, 0)]] RWStructuredBuffer<int> IOut;
[[vk::binding(3, 0)]] RWStructuredBuffer<float> FOut;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    int i = I[id.x];
    float f = F[id.x];
    IOut[id.x * 4 + 0] = abs(i);
    IOut[id.x * 4 + 1] = min(i, 2);
    IOut[id.x * 4 + 2] = max(i, -3);
    IOut[id.x * 4 + 3] = clamp(i, -10, 10);
    FOut[id.x * 3 + 0] = floor(f);
    FOut[id.x * 3 + 1] = frac(f);
    FOut[id.x * 3 + 2] = lerp(f, 10.0, 0.25);
}
