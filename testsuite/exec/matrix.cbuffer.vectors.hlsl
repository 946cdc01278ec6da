// 1xN and Nx1 matrices in a cbuffer are vectors (SPIR-V.rst), laid out as vectors whatever their
// orientation: their elements, rows and swizzles read with constant and run-time indices.
[[vk::binding(0, 0)]] cbuffer CB {
              float    a;
              float1x3 b;
              float3x1 c;
    row_major float1x3 d;
    row_major float3x1 e;
              float1x2 g;
              float2x1 h;
              float1x1 k;
};
[[vk::binding(1, 0)]] StructuredBuffer<uint> Idx;
[[vk::binding(2, 0)]] RWStructuredBuffer<float> Out;

[numthreads(1, 1, 1)]
void main() {
    uint i = Idx[0], j = Idx[1];
    uint o = 0;
    Out[o++] = a;
    Out[o++] = b[0][0]; Out[o++] = b[0][2]; Out[o++] = b._m01; Out[o++] = b[i][j]; Out[o++] = b[i].y;
    Out[o++] = c[1][0]; Out[o++] = c._m20; Out[o++] = c[j][i]; Out[o++] = c[i].x;
    Out[o++] = d[0][1]; Out[o++] = d[i][j];
    Out[o++] = e[2][0]; Out[o++] = e[j][i]; Out[o++] = e._m10_m00.x;
    Out[o++] = g[0][1]; Out[o++] = g[i][i]; Out[o++] = h[1][0]; Out[o++] = h[i + 1][i];
    Out[o++] = k[0][0] + k._m00;
    float3 row = b[i];
    Out[o++] = row.z;
}
