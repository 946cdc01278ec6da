// bool from int/float (non-zero is true), bool to int/float, int <-> uint reinterpretation and
// the vector ternary selecting per component.
[[vk::binding(0, 0)]] StructuredBuffer<int> I;
[[vk::binding(1, 0)]] StructuredBuffer<float> F;
[[vk::binding(2, 0)]] RWStructuredBuffer<int> Out;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    int i = I[id.x];
    float f = F[id.x];
    bool bi = (bool)i;
    bool bf = f;
    uint u = (uint)i;
    int3 a = int3(i, 2 * i, -i);
    int3 sel = select(a > 0, a, int3(100, 200, 300));
    Out[id.x * 6 + 0] = (int)bi + 2 * (int)bf;
    Out[id.x * 6 + 1] = (int)(u >> 28);
    Out[id.x * 6 + 2] = (int)((float)bi * 3.0 + f);
    Out[id.x * 6 + 3] = sel.x + sel.y + sel.z;
    Out[id.x * 6 + 4] = (bi && !bf) ? 1 : 0;
    Out[id.x * 6 + 5] = (int)(i < 0u);
}
