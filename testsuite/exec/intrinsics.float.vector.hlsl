// Float vector min/max/clamp/abs/lerp/frac and dot of int vectors.
[[vk::binding(0, 0)]] StructuredBuffer<float4> V;
[[vk::binding(1, 0)]] RWStructuredBuffer<float4> Out;
[[vk::binding(2, 0)]] RWStructuredBuffer<int> Dots;

[numthreads(1, 1, 1)]
void main() {
    float4 a = V[0], b = V[1];
    Out[0] = min(a, b);
    Out[1] = max(a, b);
    Out[2] = clamp(a, -1.0, float4(0.5, 1.0, 2.0, 3.0));
    Out[3] = abs(a - b);
    Out[4] = lerp(a, b, float4(0.0, 0.25, 0.5, 1.0));
    Out[5] = frac(a);
    int3 ia = (int3)a.xyz, ib = (int3)b.xyz;
    Dots[0] = dot(ia, ib);
    Dots[1] = dot(ia.xy, int2(-3, 5));
}
