// Random program, seed 7079 (testsuite/randprog/randprog.py).
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

uint f4(out float p1, inout uint p2) {
    p1 = 5.0;
    return (~(((p2) * (((In[((uint)p2) & 63u]) << ((p2) & 31))))));
}

uint2 f9(uint p_in5, inout uint p6) {
    return uint2(590017880u, 0u);
}

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint t = id.x;
    S s0;
    s0.a = (int)In[t];
    s0.b = In[t + 8] ^ t;
    s0.c = (float)(s0.a % 100);
    uint v10 = ((t) / (((s0.b) & 7u) + 1u));
    uint v11 = (((uint)abs(clamp((s0.c) - ((-15.0)), -2048.0, 2048.0))) * (((int2(1, (-2147483647 - 1))).yyxy).w));
    Shared[t] = (uint)((((int)In[((uint)s0.a) & 63u]) >> ((s0.a) & 31)));
    GroupMemoryBarrierWithGroupSync();
    uint w = Shared[(t + 3u) % 8u];
    uint v14 = (((((s0.a) + (s0.a))) <= (((int(1)) % ((((-2147483647 - 1)) & 7) + 1)))) ? (((((-1)) % (((In[((uint)v11) & 63u]) & 7u) + 1u))) << ((min(v11, 1263535870u)) & 31)) : (~((uint)abs(7.0))));
    int v15 = (((int)(clamp((s0.c) - ((-18.0)), -2048.0, 2048.0))) & (s0.a));
    Raw.Store(id.x * 16u + ((w & 3u) * 4u), ((((int)In[((uint)v15) & 63u]) >= ((int)In[4])) ? (((-867578494)) - (v14)) : In[((uint)t) & 63u]));
    uint back = Raw.Load(id.x * 16u + ((w & 3u) * 4u));
    InterlockedAdd(Acc[0], ((countbits(v11)) ^ (((In[6]) % (((v14) & 7u) + 1u)))));
    InterlockedMax(Acc[1], w);
    InterlockedXor(Acc[2], v11);
    Out[id.x * 8u + 0u] = (w);
    Out[id.x * 8u + 1u] = (uint)(((((((s0.c) <= ((-2.0))) ? int2(0, (-1)) : int2(0, (-1482557257)))) | (int2((-4), 1)))).y);
    Out[id.x * 8u + 2u] = (uint)((((clamp((34.0) + (s0.c), -2048.0, 2048.0)) != (clamp((s0.c) * (s0.c), -2048.0, 2048.0))) ? v15 : (((int)(1.0)) * ((int)In[19]))));
    Out[id.x * 8u + 3u] = (uint)(int)(clamp((clamp((floor(((-39.0)) * 0.5)) + ((float)((w) % 2048u)), -2048.0, 2048.0)) * (s0.c), -2048.0, 2048.0));
    Out[id.x * 8u + 4u] = (uint)(max(((v15) | (max(s0.a, v15))), max(s0.a, (-((int)In[2])))));
    Out[id.x * 8u + 5u] = (uint)((((((int4((-1913988299), (-242310900), (-1), 2147483647)) / (((int4(1, 0, 38907512, 1)) & 7) + 1))) * (((int4(2039438546, 0, (-2147483647 - 1), (-1))) & (int4((-14), 1796409740, (-1505515867), (-1))))))).y);
    Out[id.x * 8u + 6u] = (uint)(int)(clamp((min(clamp((s0.c) + (s0.c), -2048.0, 2048.0), s0.c)) * ((float)((((16) | (s0.a))) % 2048)), -2048.0, 2048.0));
    Out[id.x * 8u + 7u] = (uint)(int)(s0.c);
    Out[id.x * 8u + 7u] += back + (uint)s0.a + s0.b + (uint)(int)s0.c;
    GroupMemoryBarrierWithGroupSync();
    uint o1; InterlockedAdd(Own[t * 2u], s0.b, o1);
    uint o2; InterlockedCompareExchange(Own[t * 2u + 1u], (t * 3u), (min(uint3(4294967295u, 0u, 4294967295u), uint3(40u, 2147483648u, 307535825u))).x, o2);
    uint o3; InterlockedAnd(Shared[t], In[((uint)v10) & 63u], o3);
    uint o4; Raw.InterlockedOr(id.x * 16u + 12u, ((((In[52]) << ((s0.b) & 31))) >> ((1u))), o4);
    uint o5; InterlockedExchange(Own[t * 2u], ((clamp(s0.a, 81, 91)) ^ ((~(s0.b)))), o5);
    R r0;
    r0.a = ((3185032079u) >> ((In[62])));
    r0.b = (clamp(int2(0, (-2147483647 - 1)), (-81), 49)).xy;
    r0.c = (float)((int)(clamp((clamp((s0.c) * (32.0), -2048.0, 2048.0)) + (clamp((s0.c) * (s0.c), -2048.0, 2048.0)), -2048.0, 2048.0)) | 1);
    Rec[t] = r0;
    Rec[t].b.y = ((((((-10)) < (2147483647)) ? v15 : 1090314273)) | ((((v11) != (4294967295u)) ? (int)In[((uint)v14) & 63u] : v15)));
    uint rq = Rec[t].a ^ (uint)Rec[t].b.y ^ (uint)(int)Rec[t].c;
    float2x2 m1 = float2x2(abs(clamp((40.0) * (3.0), -2048.0, 2048.0)), s0.c, clamp(((-24.0)) * (s0.c), -2048.0, 2048.0), clamp((s0.c) + (s0.c), -2048.0, 2048.0));
    m1[0] = clamp(((((1) < (1)) ? float2(21.0, 34.0) : float2((-34.0), 38.0))) - (floor((float2((-33.0), 21.0)) * 0.5)), -2048.0, 2048.0);
    float fm = mul(float2(floor((floor((s0.c) * 0.5)) * 0.5), 6.0), m1)[1] + transpose(m1)[0][0];
    int2x2 im = int2x2(v15, v15, (((v15) != ((int)In[((uint)v15) & 63u])) ? v15 : ((s0.a) + (s0.a))), ((v15) ^ ((int2((-11), 1)).y)));
    int2 iv = mul(im, int2(s0.a, v15));
    float2x3 mc = float2x3((float)((int)(clamp((s0.c) - ((((1) <= ((int)In[((uint)v10) & 63u])) ? s0.c : (-16.0))), -2048.0, 2048.0)) | 1), (float)((int)(11.0) | 1), (float)((int)((float)(((~(2147483648u))) % 2048u)) | 1), (float)((int)(clamp((((((-6.0)) < (s0.c)) ? (-37.0) : 8.0)) - (clamp(((-11.0)) + (s0.c), -2048.0, 2048.0)), -2048.0, 2048.0)) | 1), (float)((int)(floor((s0.c) * 0.5)) | 1), (float)((int)(s0.c) | 1));
    Mat[t].r = mc;
    Mat[t].c = mc;
    float mr = Mat[t].r[1][0] - Mat[t].c[1][2] + Mat[t].r._m12;
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
