// `[[vk::push_constant]] ConstantBuffer<S>`: members read through the buffer and through a copy
// of its value.
struct S {
    float2 scale;
    uint count;
    float4 bias;
};
[[vk::push_constant]] ConstantBuffer<S> pc;
[[vk::binding(0, 0)]] RWStructuredBuffer<float> Out;

S get() { return pc; }

[numthreads(1, 1, 1)]
void main() {
    S s = get();
    for (uint i = 0; i < pc.count; i++) {
        Out[i] = pc.scale.x * i + pc.bias[i % 4];
    }
    Out[4] = s.scale.y;
    Out[5] = s.bias.w + s.count;
}
