// 64 threads race: InterlockedMax/Min keep the extreme, InterlockedOr sets one bit each,
// InterlockedAdd sums all values in a groupshared counter.
[[vk::binding(0, 0)]] StructuredBuffer<uint> In;
[[vk::binding(1, 0)]] RWStructuredBuffer<uint> R;

groupshared uint counter;

[numthreads(64, 1, 1)]
void main(uint gi : SV_GroupIndex) {
    if (gi == 0) counter = 0;
    GroupMemoryBarrierWithGroupSync();
    uint v = In[gi];
    InterlockedMax(R[0], v);
    InterlockedMin(R[1], v);
    InterlockedOr(R[2], 1u << (gi % 32));
    InterlockedAdd(counter, v);
    GroupMemoryBarrierWithGroupSync();
    if (gi == 0) R[3] = counter;
}
