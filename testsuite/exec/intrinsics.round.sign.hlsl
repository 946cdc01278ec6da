// Rounding intrinsics (round is round-half-even), sign of float and int, step, saturate, mad.
[[vk::binding(0, 0)]] StructuredBuffer<float> F;
[[vk::binding(1, 0)]] StructuredBuffer<int> I;
[[vk::binding(2, 0)]] RWStructuredBuffer<float> OutF;
[[vk::binding(3, 0)]] RWStructuredBuffer<int> OutI;

[numthreads(6, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float f = F[id.x];
    int i = I[id.x];
    OutF[id.x * 6 + 0] = round(f);
    OutF[id.x * 6 + 1] = trunc(f);
    OutF[id.x * 6 + 2] = ceil(f);
    OutF[id.x * 6 + 3] = step(0.5, f);
    OutF[id.x * 6 + 4] = saturate(f);
    OutF[id.x * 6 + 5] = mad(f, 2.0, -1.0);
    OutI[id.x * 2 + 0] = sign(f);
    OutI[id.x * 2 + 1] = sign(i) * 10 + abs(i);
}
