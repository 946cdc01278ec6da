// mul in all three forms on non-square matrices (2x3 and 3x2), scalar*matrix, and vector*vector
// (a dot product); any missing transposition shows with non-square shapes.
[[vk::binding(0, 0)]] StructuredBuffer<float> In;
[[vk::binding(1, 0)]] RWStructuredBuffer<float> Out;

[numthreads(1, 1, 1)]
void main() {
    float2x3 m = float2x3(In[0], In[1], In[2], In[3], In[4], In[5]);
    float3x2 n = float3x2(In[6], In[7], In[8], In[9], In[10], In[11]);
    float3 v3 = float3(In[12], In[13], In[14]);
    float2 v2 = float2(In[15], In[16]);
    float2 mv = mul(m, v3);
    float3 vm = mul(v2, m);
    float2x2 mn = mul(m, n);
    float3x3 nm = mul(n, m);
    float2x3 sm = mul(2.0, m);
    float d = mul(v3, v3);
    uint o = 0;
    Out[o++] = mv.x; Out[o++] = mv.y;
    Out[o++] = vm.x; Out[o++] = vm.y; Out[o++] = vm.z;
    for (uint r = 0; r < 2; ++r) for (uint c = 0; c < 2; ++c) Out[o++] = mn[r][c];
    for (uint r2 = 0; r2 < 3; ++r2) for (uint c2 = 0; c2 < 3; ++c2) Out[o++] = nm[r2][c2];
    Out[o++] = sm._m12; Out[o++] = sm._m01;
    Out[o++] = d;
}
