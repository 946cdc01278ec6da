// A push-constant struct with relaxed std430 padding (a float3 after a uint, a uint2, a float
// array, an int4 pushed to the next 16 bytes): every member read, one array element at a run-time
// index, and a copy of the whole block.
struct PC {
    uint a;
    float3 v;
    float b;
    uint2 u2;
    float arr[3];
    int4 i4;
};
[[vk::push_constant]] PC pc;
[[vk::binding(0, 0)]] RWStructuredBuffer<uint> OutU;
[[vk::binding(1, 0)]] RWStructuredBuffer<float> OutF;

[numthreads(1, 1, 1)]
void main() {
    OutU[0] = pc.a;
    OutU[1] = pc.u2.x;
    OutU[2] = pc.u2.y;
    OutU[3] = asuint(pc.i4.x);
    OutU[4] = asuint(pc.i4.y);
    OutU[5] = asuint(pc.i4.z);
    OutU[6] = asuint(pc.i4.w);
    PC c = pc;
    OutU[7] = c.a + c.u2.y;
    OutF[0] = pc.v.x;
    OutF[1] = pc.v.y;
    OutF[2] = pc.v.z;
    OutF[3] = pc.b;
    OutF[4] = pc.arr[0];
    OutF[5] = pc.arr[1];
    OutF[6] = pc.arr[2];
    OutF[7] = pc.arr[pc.a % 3] + c.arr[2];
}
