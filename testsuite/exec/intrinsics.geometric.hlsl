// Geometric intrinsics (GLSL.std.450) and saturate.
[[vk::binding(0, 0)]] StructuredBuffer<float4> In;
[[vk::binding(1, 0)]] RWStructuredBuffer<float> Out;

[numthreads(1, 1, 1)]
void main() {
    float3 a = In[0].xyz;
    float3 b = In[1].xyz;
    Out[0] = dot(a, b);
    float3 c = cross(a, b);
    Out[1] = c.x; Out[2] = c.y; Out[3] = c.z;
    Out[4] = length(a);
    float3 n = normalize(a);
    Out[5] = n.x; Out[6] = n.y; Out[7] = n.z;
    Out[8] = sqrt(2.0);
    Out[9] = saturate(a.z);
}
