// Scalar splat into vectors (construction, assignment, arithmetic), explicit and implicit
// truncation of vectors, int vector to float vector, and per-component comparison results.
[[vk::binding(0, 0)]] StructuredBuffer<float4> V;
[[vk::binding(1, 0)]] RWStructuredBuffer<float4> Out;

[numthreads(1, 1, 1)]
void main() {
    float4 v = V[0];
    float4 s = 2.5;
    float4 a = v * 3 + s;
    float2 t = (float2)v.wzyx;
    float3 u = v;
    int4 i = int4(-3, 7, 0, 1);
    float4 fi = i;
    float4 cmp = (float4)(v < s);
    Out[0] = a;
    Out[1] = float4(t, u.z, u.x);
    Out[2] = fi / 2;
    Out[3] = cmp + (float4)(i != 0) * 10;
    Out[4] = float4(v.x, 1.0, v.yz) - float4(v.xx, 0.5.xx);
}
