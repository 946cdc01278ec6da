// packoffset(cN.c) places a constant-buffer member at byte 16 N + 4 c.
[[vk::binding(0, 0)]] cbuffer Params {
    float b : packoffset(c0.y);
    uint2 c : packoffset(c1.z);
    uint4 a : packoffset(c2);
    uint3 d : packoffset(c5);
};
[[vk::binding(1, 0)]] RWStructuredBuffer<uint> Out;

[numthreads(1, 1, 1)]
void main() {
    Out[0] = asuint(b);
    Out[1] = c.x;
    Out[2] = c.y;
    [unroll] for (uint i = 0; i < 4; ++i) {
        Out[3 + i] = a[i];
    }
    [unroll] for (uint j = 0; j < 3; ++j) {
        Out[7 + j] = d[j];
    }
}
