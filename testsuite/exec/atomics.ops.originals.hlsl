// Every Interlocked* operation on a structured buffer, each returning the original value,
// signed min/max on negative ints, and compare-exchange that fails and then succeeds.
[[vk::binding(0, 0)]] RWStructuredBuffer<uint> U;
[[vk::binding(1, 0)]] RWStructuredBuffer<int> S;
[[vk::binding(2, 0)]] RWStructuredBuffer<uint> Orig;

[numthreads(1, 1, 1)]
void main() {
    uint o;
    InterlockedAdd(U[0], 5, o);         Orig[0] = o;
    InterlockedAnd(U[1], 0xF0F0, o);    Orig[1] = o;
    InterlockedOr(U[2], 0x0F00, o);     Orig[2] = o;
    InterlockedXor(U[3], 0xFFFF, o);    Orig[3] = o;
    InterlockedMin(U[4], 3u, o);        Orig[4] = o;
    InterlockedMax(U[5], 0x80000000u, o); Orig[5] = o;
    InterlockedExchange(U[6], 77, o);   Orig[6] = o;
    InterlockedCompareExchange(U[7], 1, 2, o); Orig[7] = o;
    InterlockedCompareExchange(U[7], o, 2, o); Orig[8] = o;
    int so;
    InterlockedMin(S[0], -5, so);       Orig[9] = (uint)so;
    InterlockedMax(S[1], -5, so);       Orig[10] = (uint)so;
    InterlockedAdd(S[2], -10);
}
