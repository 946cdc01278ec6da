// Matrix elements and rows as places and values: swizzle and element assignment (plain and
// compound, constant and run-time indices), rows of 1xN / Nx1 matrices (vectors in SPIR-V),
// a row of a transpose through a run-time index, and asfloat/asint/asuint on matrices.
[[vk::binding(0, 0)]] StructuredBuffer<float> In;
[[vk::binding(1, 0)]] StructuredBuffer<uint> Idx;
[[vk::binding(2, 0)]] RWStructuredBuffer<float> Out;
[[vk::binding(3, 0)]] RWStructuredBuffer<uint> Bits;

[numthreads(1, 1, 1)]
void main() {
    uint i = Idx[0], j = Idx[1];
    float2x3 m = float2x3(In[0], In[1], In[2], In[3], In[4], In[5]);
    m._m00_m11 = float2(10, 11);
    m._m12 = 12;
    m[1][0] = 13;
    m[i][j] = 14;
    m._m02 += 100;
    m[j - 1][i + 1] *= 2;
    m._m10_m01 = m._m01_m10;
    float1x3 r = float1x3(In[0], In[1], In[2]);
    float3x1 c = float3x1(In[3], In[4], In[5]);
    r[0][j] = 20;
    r[i][0] += 1;
    c[j][0] = 30;
    c._m00 = 31;
    float3 row = r[i];
    float col = c[j - 1][i];
    float3x3 sq = float3x3(In[0], In[1], In[2], In[3], In[4], In[5], In[6], In[7], In[8]);
    float3 trow = transpose(sq)[j];
    uint o = 0;
    for (uint a = 0; a < 2; ++a) for (uint b = 0; b < 3; ++b) Out[o++] = m[a][b];
    Out[o++] = row.x; Out[o++] = row.y; Out[o++] = row.z;
    Out[o++] = c._m00; Out[o++] = c._m10; Out[o++] = c._m20; Out[o++] = col;
    Out[o++] = trow.x; Out[o++] = trow.y; Out[o++] = trow.z;
    uint2x2 u = asuint(float2x2(In[0], In[1], In[2], In[3]));
    int2x3 n = asint(m);
    float2x2 f = asfloat(uint2x2(Idx[2], Idx[3], Idx[4], Idx[5]));
    float1x2 g = asfloat(uint1x2(Idx[2], Idx[3]));
    uint k = 0;
    Bits[k++] = u[0][0]; Bits[k++] = u[0][1]; Bits[k++] = u[1][0]; Bits[k++] = u[1][1];
    Bits[k++] = (uint)n[1][2]; Bits[k++] = (uint)n[0][0];
    Bits[k++] = asuint(f[0][1] + f[1][0]); Bits[k++] = asuint(f._m11); Bits[k++] = asuint(g[0][1]);
}
