// Random program, seed 2507 (testsuite/randprog/randprog.py).
// Shrunk by reduce.py from a program that failed on an NVIDIA H200 (driver 580) at -O0 and -O3
// while lavapipe computes the evaluator's values; kept as a regression case (README, Random programs).
[[vk::binding(0, 0)]] RWStructuredBuffer<uint> Out;
[[vk::binding(1, 0)]] StructuredBuffer<uint> In;
[[vk::binding(2, 0)]] RWByteAddressBuffer Raw;
[[vk::binding(3, 0)]] RWStructuredBuffer<uint> Acc;
struct R { uint a; int2 b; float c; };
struct M { row_major float2x3 r; float2x3 c; };
[[vk::binding(4, 0)]] RWStructuredBuffer<uint> Own;
[[vk::binding(5, 0)]] RWStructuredBuffer<R> Rec;
[[vk::binding(6, 0)]] RWStructuredBuffer<M> Mat;
[[vk::binding(7, 0)]] RWStructuredBuffer<uint> Out2;
groupshared uint Shared[8];
struct S { int a; uint b; float c; };

uint2 f24(inout uint p1, out int3 p2, inout float p3) {
    p2 = int3(1, 2147483647, 0);
    return uint2(2147483648u, 4294967295u);
}

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint t = id.x;
    S s0;
    s0.a = (int)In[t];
    s0.b = In[t + 8] ^ t;
    s0.c = (float)(s0.a % 100);
    int2 v25 = ((int2(0, 5)) >> ((int2(20, (-1)))));
    uint v26 = ((((33.0) != (s0.c)) ? ((uint3(0u, 989294340u, 2147483648u)) + (uint3(37u, 0u, 2945924057u))) : uint3(18u, 12u, 19u))).z;
    float v27 = s0.c;
    Shared[t] = (uint)((-1949662362));
    GroupMemoryBarrierWithGroupSync();
    uint w = Shared[(t + 7u) % 8u];
    Raw.Store(id.x * 16u + ((w & 3u) * 4u), (((uint)abs((-40.0))) - ((-(s0.a)))));
    uint back = Raw.Load(id.x * 16u + ((w & 3u) * 4u));
    InterlockedAdd(Acc[0], ((((In[((uint)s0.a) & 63u]) ^ (2147483648u))) % (((((w) * (s0.a))) & 7u) + 1u)));
    InterlockedMax(Acc[1], s0.b);
    InterlockedXor(Acc[2], t);
    Out[id.x * 8u + 0u] = ((min(uint2(3033269528u, 0u), ((uint2(4083498085u, 0u)) + (uint2(0u, 4294967295u))))).x);
    Out[id.x * 8u + 1u] = (uint)(int)(floor(((float)((max(s0.a, s0.a)) % 2048)) * 0.5));
    Out[id.x * 8u + 2u] = (uint)(s0.a);
    Out[id.x * 8u + 3u] = (uint)(int)(floor(((-18.0)) * 0.5));
    Out[id.x * 8u + 4u] = (uint)(((s0.a) & ((int)In[((uint)v26) & 63u])));
    Out[id.x * 8u + 5u] = (uint)(s0.a);
    Out[id.x * 8u + 6u] = (2147483648u);
    Out[id.x * 8u + 7u] = (uint)(max(s0.a, max(s0.a, (-(s0.a)))));
    Out[id.x * 8u + 7u] += back + (uint)s0.a + s0.b + (uint)(int)s0.c;
    GroupMemoryBarrierWithGroupSync();
    uint o1; InterlockedAdd(Own[t * 2u], s0.b, o1);
    uint o2; InterlockedCompareExchange(Own[t * 2u + 1u], (t * 3u), w, o2);
    uint o3; InterlockedMin(Shared[t], s0.b, o3);
    uint o4; Raw.InterlockedAdd(id.x * 16u + 12u, v26, o4);
    uint o5; InterlockedExchange(Own[t * 2u], ((((s0.a) - (t))) ^ ((uint)abs(27.0))), o5);
    R r0;
    r0.a = In[((uint)w) & 63u];
    r0.b = (((int2((-9), (-1127420627))).yy) * (((v25) - (v25))));
    r0.c = (float)((int)((float)((s0.a) % 2048)) | 1);
    Rec[t] = r0;
    uint rq = Rec[t].a ^ (uint)Rec[t].b.y ^ (uint)(int)Rec[t].c;
    float2x2 m1 = float2x2(clamp((clamp((s0.c) - ((-11.0)), -2048.0, 2048.0)) + ((((s0.a) < ((int)In[((uint)v26) & 63u])) ? s0.c : v27)), -2048.0, 2048.0), clamp((max((-40.0), s0.c)) * (abs(v27)), -2048.0, 2048.0), floor((clamp((36.0) - ((-30.0)), -2048.0, 2048.0)) * 0.5), min(floor((s0.c) * 0.5), 35.0));
    m1[1] = float2(37.0, 30.0);
    m1._m00 = v27;
    float fm = mul(m1, float2(s0.c, v27))[1] + transpose(m1)[0][1];
    int2x2 im = int2x2(((((int)In[((uint)v26) & 63u]) <= (s0.a)) ? (int3(8, 1225141731, 1379822395)).y : ((4) >> ((s0.a) & 31))), (((int)In[((uint)v26) & 63u]) >> ((((s0.a) << (((-2147483647 - 1))))) & 31)), ((((s0.a) >> (((-2147483647 - 1))))) ^ (clamp(s0.a, (-65), (-16)))), (((((int)In[((uint)s0.b) & 63u]) | (2147483647))) - ((((v27) >= (v27)) ? 2147483647 : s0.a))));
    int2 iv = mul(im, int2(min(((s0.a) * (s0.a)), s0.a), (int3(1, 1, 0)).z));
    float2x3 mc = float2x3((float)((int)(clamp((clamp(((-29.0)) - (v27), -2048.0, 2048.0)) * (floor((30.0) * 0.5)), -2048.0, 2048.0)) | 1), (float)((int)(clamp((clamp((1.0) - ((-27.0)), -2048.0, 2048.0)) - (clamp((v27) - ((-36.0)), -2048.0, 2048.0)), -2048.0, 2048.0)) | 1), (float)((int)(s0.c) | 1), (float)((int)(floor((floor((s0.c) * 0.5)) * 0.5)) | 1), (float)((int)(((!((14.0) > ((-1.0)))) ? (float)((v26) % 2048u) : max((-1.0), s0.c))) | 1), (float)((int)(clamp((abs(v27)) - (floor((s0.c) * 0.5)), -2048.0, 2048.0)) | 1));
    Mat[t].r = mc;
    Mat[t].c = mc;
    float mr = Mat[t].r[1][1] - Mat[t].c[0][1] + Mat[t].r._m12;
    Out2[id.x * 10u + 0u] = o1;
    Out2[id.x * 10u + 1u] = o2;
    Out2[id.x * 10u + 2u] = o3;
    Out2[id.x * 10u + 3u] = o4;
    Out2[id.x * 10u + 4u] = o5;
    Out2[id.x * 10u + 5u] = rq;
    Out2[id.x * 10u + 6u] = (uint)(int)fm;
    Out2[id.x * 10u + 7u] = (uint)iv.x;
    Out2[id.x * 10u + 8u] = (uint)iv.y;
    Out2[id.x * 10u + 9u] = (uint)(int)mr;
}
