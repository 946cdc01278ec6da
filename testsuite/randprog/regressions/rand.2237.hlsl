// Random program, seed 2237 (testsuite/randprog/randprog.py).
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

int f5(float p_in1, uint p_in2) {
    return ((((((int)In[((uint)p_in2) & 63u]) & (1u))) <= ((uint3(1u, 0u, 3571229250u)).y)) ? (((-218798138)) + ((int)In[47])) : ((((2147483647) ^ ((int)In[((uint)p_in2) & 63u]))) ^ ((((int)In[((uint)p_in2) & 63u]) ^ ((int)In[((uint)p_in2) & 63u])))));
}

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint t = id.x;
    S s0;
    s0.a = (int)In[t];
    s0.b = In[t + 8] ^ t;
    s0.c = (float)(s0.a % 100);
    Shared[t] = ((s0.b) | ((((int)In[((uint)t) & 63u]) ^ (s0.b))));
    GroupMemoryBarrierWithGroupSync();
    uint w = Shared[(t + 4u) % 8u];
    float v58 = s0.c;
    Raw.Store(id.x * 16u + ((w & 3u) * 4u), (((((-12.0)) > (17.0)) ? uint4(1u, 0u, 1u, 2147483648u) : uint4(2147483648u, 2147483648u, 4294967295u, 2706974233u))).w);
    uint back = Raw.Load(id.x * 16u + ((w & 3u) * 4u));
    InterlockedAdd(Acc[0], ((!((15.0) != (v58))) ? (uint)(4294967295u) : ((4294967295u) ^ (4294967295u))));
    InterlockedMax(Acc[1], ((((-4.0)) != (v58)) ? (~(s0.b)) : (~(t))));
    InterlockedXor(Acc[2], (uint)(s0.a));
    Out[id.x * 8u + 0u] = (uint)(s0.a);
    Out[id.x * 8u + 1u] = (uint)(int)((float)((countbits(((0u) ^ (2147483648u)))) % 2048u));
    Out[id.x * 8u + 2u] = (uint)(int)(clamp(((float)((((s0.a) & (s0.a))) % 2048)) * (clamp((clamp((v58) - (4.0), -2048.0, 2048.0)) * ((float)((s0.a) % 2048)), -2048.0, 2048.0)), -2048.0, 2048.0));
    Out[id.x * 8u + 3u] = (((countbits((((w) >= (w)) ? 37u : t))) / ((((((uint4(1u, 4294967295u, 940896091u, 22u)).x) / ((((uint)(s0.b)) & 7u) + 1u))) & 7u) + 1u)));
    Out[id.x * 8u + 4u] = (uint)(int)(min((-3.0), floor((floor((36.0) * 0.5)) * 0.5)));
    Out[id.x * 8u + 5u] = (uint)(min(min((-((int)In[((uint)s0.b) & 63u])), (-(s0.a))), ((((482350495) & (s0.a))) & ((((int)In[((uint)w) & 63u]) % (((s0.a) & 7) + 1))))));
    Out[id.x * 8u + 6u] = (uint)((((((-(int(2147483647)))) + ((-(int((-2147483647 - 1))))))) * ((int)((int)(s0.a)))));
    Out[id.x * 8u + 7u] = (uint)(((((w) == (t)) || ((0u) < (s0.b))) ? ((0) - (((int((-10))) >> (((-1)))))) : clamp((((-1)) % (((s0.a) & 7) + 1)), (-60), 51)));
    Out[id.x * 8u + 7u] += back + (uint)s0.a + s0.b + (uint)(int)s0.c;
    GroupMemoryBarrierWithGroupSync();
    uint o1; InterlockedAdd(Own[t * 2u], ((0) - (((2698409542u) % (((t) & 7u) + 1u)))), o1);
    uint o2; InterlockedCompareExchange(Own[t * 2u + 1u], (t * 3u), (((uint)(t)) | (((w) / (((s0.b) & 7u) + 1u)))), o2);
    uint o3; InterlockedAnd(Shared[t], ((((s0.b) ^ (In[61]))) - ((uint)(s0.a))), o3);
    uint o4; Raw.InterlockedExchange(id.x * 16u + 12u, In[61], o4);
    uint o5; InterlockedExchange(Own[t * 2u], ((firstbithigh(In[((uint)t) & 63u])) >> ((((s0.b) ^ (s0.b))) & 31)), o5);
    R r0;
    r0.a = In[((uint)s0.a) & 63u];
    r0.b = (int2((-2147483647 - 1), 2147483647)).yy;
    r0.c = (float)((int)(clamp((floor((2.0) * 0.5)) - (clamp((v58) * (v58), -2048.0, 2048.0)), -2048.0, 2048.0)) | 1);
    Rec[t] = r0;
    Rec[t].b.y = (-(((s0.a) - ((-1)))));
    uint rq = Rec[t].a ^ (uint)Rec[t].b.y ^ (uint)(int)Rec[t].c;
    float2x2 m1 = float2x2(clamp((clamp(((-28.0)) + (v58), -2048.0, 2048.0)) * (clamp((9.0) * (s0.c), -2048.0, 2048.0)), -2048.0, 2048.0), (((1) != (s0.a)) ? max(40.0, 8.0) : v58), clamp((s0.c) + (36.0), -2048.0, 2048.0), s0.c);
    m1[0] = clamp((clamp((float2((-24.0), 7.0)) - (float2((-6.0), 38.0)), -2048.0, 2048.0)) + (float2(9.0, (-33.0))), -2048.0, 2048.0);
    float fm = mul(m1, float2(floor((floor(((-1.0)) * 0.5)) * 0.5), floor((floor((v58) * 0.5)) * 0.5)))[0] + transpose(m1)[1][0];
    int2x2 im = int2x2(((((31.0) >= (v58)) ? int2(2147483647, 0) : int2((-1), 2147483647))).y, (((-(s0.a))) % (((((s0.a) / (((0) & 7) + 1))) & 7) + 1)), (((((22.0) != (23.0)) ? s0.a : s0.a)) / ((((int3((-8), 0, 2147483647)).x) & 7) + 1)), (((w) < (w)) ? ((s0.a) + (s0.a)) : ((s0.a) * (s0.a))));
    int2 iv = mul(im, int2((((s0.c) <= (33.0)) ? ((s0.a) - (s0.a)) : (((-1)) / (((s0.a) & 7) + 1))), s0.a));
    float2x3 mc = float2x3((float)((int)(((((s0.c) >= (37.0)) && (((int)In[55]) > (s0.a))) ? (float)((t) % 2048u) : clamp((v58) - (39.0), -2048.0, 2048.0))) | 1), (float)((int)(clamp((clamp((v58) + (v58), -2048.0, 2048.0)) * (clamp((s0.c) - (v58), -2048.0, 2048.0)), -2048.0, 2048.0)) | 1), (float)((int)(s0.c) | 1), (float)((int)(s0.c) | 1), (float)((int)(clamp(((((1) <= (2147483647)) ? v58 : v58)) + (clamp((s0.c) - ((-37.0)), -2048.0, 2048.0)), -2048.0, 2048.0)) | 1), (float)((int)(29.0) | 1));
    Mat[t].r = mc;
    Mat[t].c = mc;
    float mr = Mat[t].r[0][2] - Mat[t].c[1][0] + Mat[t].r._m12;
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
