// The member offsets of DXC's layout table (SPIR-V.rst, "vector-relaxed std430") read from a
// StructuredBuffer: row_major and column_major float2x3, a float3 after a float, a struct, arrays.
// The input words are all different, so each value read names the offset it came from.
struct S { float3 f; };
struct T {
              float    a_float;
              float3   b_float3;
              S        c_S_float3;
              float2x3 d_float2x3;
    row_major float2x3 e_float2x3;
              int      f_int_3[3];
              float2   g_float2_2[2];
};
[[vk::binding(0, 0)]] StructuredBuffer<T> In;
[[vk::binding(1, 0)]] RWStructuredBuffer<uint> Out;

[numthreads(1, 1, 1)]
void main() {
    T t = In[1];
    uint o = 0;
    Out[o++] = asuint(t.a_float);
    Out[o++] = asuint(t.b_float3.x); Out[o++] = asuint(t.b_float3.z);
    Out[o++] = asuint(t.c_S_float3.f.y);
    for (uint r = 0; r < 2; ++r) for (uint c = 0; c < 3; ++c) Out[o++] = asuint(t.d_float2x3[r][c]);
    for (uint r2 = 0; r2 < 2; ++r2) for (uint c2 = 0; c2 < 3; ++c2) Out[o++] = asuint(In[1].e_float2x3[r2][c2]);
    Out[o++] = (uint)t.f_int_3[2];
    Out[o++] = asuint(t.g_float2_2[1].x); Out[o++] = asuint(t.g_float2_2[0].y);
    float2 p = mul(In[0].d_float2x3, float3(1, 0, 0));
    Out[o++] = asuint(p.y);
}
