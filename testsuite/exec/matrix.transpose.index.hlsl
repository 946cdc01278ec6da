// Matrix element and row access with run-time indices, writes to elements and rows,
// transpose, and component-wise matrix arithmetic.
[[vk::binding(0, 0)]] StructuredBuffer<float> In;
[[vk::binding(1, 0)]] StructuredBuffer<uint> Idx;
[[vk::binding(2, 0)]] RWStructuredBuffer<float> Out;

[numthreads(1, 1, 1)]
void main() {
    float3x3 m;
    for (uint r = 0; r < 3; ++r)
        m[r] = float3(In[r * 3], In[r * 3 + 1], In[r * 3 + 2]);
    uint i = Idx[0], j = Idx[1];
    float3 row = m[i];
    float e = m[j][i];
    m[i][j] = -1.0;
    m[2][0] = 50.0;
    m[j] = m[j] * 2;
    float3x3 t = transpose(m);
    float3x3 sum = t + m * 0.5;
    uint o = 0;
    Out[o++] = row.x; Out[o++] = row.y; Out[o++] = row.z; Out[o++] = e;
    for (uint a = 0; a < 3; ++a) for (uint b = 0; b < 3; ++b) Out[o++] = sum[a][b];
}
