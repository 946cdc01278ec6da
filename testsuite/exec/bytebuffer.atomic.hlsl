// RWByteAddressBuffer atomics at byte offsets: InterlockedAdd from 16 threads (each original
// value once), InterlockedCompareExchange and InterlockedExchange with originals.
[[vk::binding(0, 0)]] RWByteAddressBuffer B;
[[vk::binding(1, 0)]] RWStructuredBuffer<uint> Seen;

[numthreads(16, 1, 1)]
void main(uint gi : SV_GroupIndex) {
    uint o;
    B.InterlockedAdd(4, 3, o);
    Seen[o / 3] = 1;
    if (gi == 0) {
        uint c;
        B.InterlockedCompareExchange(8, 11, 12, c);
        B.Store(12, c);
        B.InterlockedExchange(16, 99, c);
        B.Store(20, c);
    }
}
