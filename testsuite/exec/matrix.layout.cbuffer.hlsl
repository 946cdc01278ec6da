// The same members in a cbuffer ("vector-relaxed std140": matrix rows/columns and array
// elements on 16-byte strides), and mul() with a row_major and a column_major cbuffer matrix.
struct S { float3 f; };
[[vk::binding(0, 0)]] cbuffer CB {
              float    a_float;
              float3   b_float3;
              S        c_S_float3;
              float2x3 d_float2x3;
    row_major float2x3 e_float2x3;
              int      f_int_3[3];
              float2   g_float2_2[2];
};
[[vk::binding(1, 0)]] RWStructuredBuffer<uint> Out;

[numthreads(1, 1, 1)]
void main() {
    uint o = 0;
    Out[o++] = asuint(a_float);
    Out[o++] = asuint(b_float3.x); Out[o++] = asuint(b_float3.z);
    Out[o++] = asuint(c_S_float3.f.y);
    for (uint r = 0; r < 2; ++r) for (uint c = 0; c < 3; ++c) Out[o++] = asuint(d_float2x3[r][c]);
    for (uint r2 = 0; r2 < 2; ++r2) for (uint c2 = 0; c2 < 3; ++c2) Out[o++] = asuint(e_float2x3[r2][c2]);
    Out[o++] = (uint)f_int_3[2];
    Out[o++] = asuint(g_float2_2[1].x); Out[o++] = asuint(g_float2_2[0].y);
    float2 p = mul(d_float2x3, float3(0, 1, 0));
    float3 q = mul(float2(0, 1), e_float2x3);
    Out[o++] = asuint(p.x); Out[o++] = asuint(q.z);
}
