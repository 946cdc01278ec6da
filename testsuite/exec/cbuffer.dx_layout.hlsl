// fxc's cbuffer packing (-fvk-use-dx-layout): a column-major float1x3 and a row-major float2x1
// put each element in its own 16-byte row; a double3 that would cross a row starts the next one.
cbuffer C {
    float a;                // 0
    float1x3 m;             // 16, 32, 48
    float b;                // 52
    row_major float2x1 r;   // 64, 80
    float c;                // 84
    double3 d0;             // 96
    double3 d1;             // 128 (120 would cross the row at 128)
};
[[vk::binding(1, 0)]] RWStructuredBuffer<float> Out;

[numthreads(1, 1, 1)]
void main() {
    Out[0] = a;
    Out[1] = m._m00;
    Out[2] = m._m01;
    Out[3] = m._m02;
    Out[4] = b;
    Out[5] = r._m00;
    Out[6] = r._m10;
    Out[7] = c;
    float3 v = m;
    Out[8] = v.y + v.z;
    Out[9] = m[0][(uint)a % 3];
    Out[10] = (float)d0.x;
    Out[11] = (float)d1.x;
}
