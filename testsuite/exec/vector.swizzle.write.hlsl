// Swizzles as lvalues: partial writes, compound assignment through a swizzle, swizzles of
// swizzles, scalar swizzles, and a swizzled buffer element.
[[vk::binding(0, 0)]] StructuredBuffer<float4> V;
[[vk::binding(1, 0)]] RWStructuredBuffer<float4> Out;

[numthreads(1, 1, 1)]
void main() {
    float4 v = V[0];
    v.xz = float2(10, 20);
    v.yx += float2(1, 2);
    v.w *= 3;
    float s = 4.0;
    float3 sss = s.xxx;
    Out[0] = v;
    Out[1] = float4(v.zyx.xz, sss.yz);
    Out[2] = V[1];
    Out[2].wx = float2(-1, -2);
    Out[2].y += 100;
}
