// Random program, seed 1416 (testsuite/randprog/randprog.py).
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

uint2 f4(out int3 p1) {
    p1 = int3(12, 1, (-9));
    return uint2(6u, 2147483648u);
}

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint t = id.x;
    S s0;
    s0.a = (int)In[t];
    s0.b = In[t + 8] ^ t;
    s0.c = (float)(s0.a % 100);
    int3 v6 = int3((-327298006), 1, (-2027766052));
    s0.a = max((int)In[((uint)s0.b) & 63u], max(((s0.a) | (s0.a)), (-((int)In[((uint)t) & 63u]))));
    Shared[t] = (((2147483648u) != (In[13])) ? ((0u) * (s0.b)) : (((-17)) & (t)));
    GroupMemoryBarrierWithGroupSync();
    uint w = Shared[(t + 3u) % 8u];
    Raw.Store(id.x * 16u + ((w & 3u) * 4u), min(In[((uint)s0.b) & 63u], In[((uint)s0.a) & 63u]));
    uint back = Raw.Load(id.x * 16u + ((w & 3u) * 4u));
    InterlockedAdd(Acc[0], s0.b);
    InterlockedMax(Acc[1], (((((s0.c) < (s0.c)) ? 4294967295u : 1u)) & (countbits(s0.b))));
    InterlockedXor(Acc[2], In[((uint)w) & 63u]);
    Out[id.x * 8u + 0u] = (uint)(((clamp((int)(s0.c), (-88), (-79))) ^ ((v6).z)));
    Out[id.x * 8u + 1u] = (((w) + (t)));
    Out[id.x * 8u + 2u] = ((~((((1) > (s0.a)) ? (uint)(s0.a) : 523584856u))));
    Out[id.x * 8u + 3u] = (t);
    Out[id.x * 8u + 4u] = (((((max(1u, t)) - (t))) | (reversebits((((-1)) / (((w) & 7u) + 1u))))));
    Out[id.x * 8u + 5u] = (uint)((((int)In[((uint)s0.a) & 63u]) | (((((s0.a) + (s0.a))) << ((((s0.a) % ((((int)In[20]) & 7) + 1))) & 31)))));
    Out[id.x * 8u + 6u] = (uint)(int)(clamp(((((t) == (t)) ? clamp((24.0) - (3.0), -2048.0, 2048.0) : abs((-34.0)))) * ((float)(((((int)In[((uint)t) & 63u]) + ((int)In[((uint)s0.b) & 63u]))) % 2048)), -2048.0, 2048.0));
    Out[id.x * 8u + 7u] = (uint)(int)(s0.c);
    Out[id.x * 8u + 7u] += back + (uint)s0.a + s0.b + (uint)(int)s0.c;
    GroupMemoryBarrierWithGroupSync();
    uint o1; InterlockedAdd(Own[t * 2u], w, o1);
    uint o2; InterlockedCompareExchange(Own[t * 2u + 1u], (t * 3u), ((firstbitlow(4294967295u)) ^ ((uint)(w))), o2);
    uint o3; InterlockedXor(Shared[t], ((((t) - (s0.b))) | (firstbitlow(2147483648u))), o3);
    uint o4; Raw.InterlockedExchange(id.x * 16u + 12u, s0.b, o4);
    uint o5; InterlockedExchange(Own[t * 2u], ((!((s0.c) >= (8.0))) ? (uint)abs(4.0) : ((t) >> ((s0.b) & 31))), o5);
    R r0;
    r0.a = (uint)(((0) * (s0.a)));
    r0.b = int2((-1512779790), (-15));
    r0.c = (float)((int)(clamp((clamp((s0.c) - ((-25.0)), -2048.0, 2048.0)) + ((float)((0u) % 2048u)), -2048.0, 2048.0)) | 1);
    Rec[t] = r0;
    Rec[t].b.y = (int)(clamp((s0.c) - (s0.c), -2048.0, 2048.0));
    uint rq = Rec[t].a ^ (uint)Rec[t].b.y ^ (uint)(int)Rec[t].c;
    float2x2 m1 = float2x2(((((t) < (1u)) && ((18) <= (0))) ? floor((s0.c) * 0.5) : s0.c), s0.c, (((s0.c) == (s0.c)) ? (float)((s0.a) % 2048) : clamp((s0.c) + (s0.c), -2048.0, 2048.0)), (float)((t) % 2048u));
    m1[1] = max(float2(34.0, 6.0), float2(30.0, 40.0));
    float fm = mul(m1, float2((float)((s0.a) % 2048), 19.0))[1] + transpose(m1)[0][0];
    int2x2 im = int2x2(s0.a, s0.a, (((v6).x) | (((s0.a) * (s0.a)))), ((s0.a) << ((((s0.a) % (((0) & 7) + 1))) & 31)));
    int2 iv = mul(im, int2((-238503624), ((s0.a) + ((int)In[((uint)w) & 63u]))));
    float2x3 mc = float2x3((float)((int)(s0.c) | 1), (float)((int)(s0.c) | 1), (float)((int)(clamp((abs(s0.c)) - (clamp((s0.c) + (s0.c), -2048.0, 2048.0)), -2048.0, 2048.0)) | 1), (float)((int)(max(clamp(((-17.0)) - ((-34.0)), -2048.0, 2048.0), s0.c)) | 1), (float)((int)(clamp((clamp((36.0) - (38.0), -2048.0, 2048.0)) - (abs((-24.0))), -2048.0, 2048.0)) | 1), (float)((int)((float)((reversebits(In[((uint)w) & 63u])) % 2048u)) | 1));
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
