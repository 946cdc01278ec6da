// Tree reduction in groupshared memory with barriers: one sum per group of 64 threads.
[[vk::binding(0, 0)]] StructuredBuffer<uint> In;
[[vk::binding(1, 0)]] RWStructuredBuffer<uint> Sums;

groupshared uint partial[64];

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint gi : SV_GroupIndex, uint3 group : SV_GroupID) {
    partial[gi] = In[id.x];
    GroupMemoryBarrierWithGroupSync();
    for (uint stride = 32; stride > 0; stride >>= 1) {
        if (gi < stride)
            partial[gi] += partial[gi + stride];
        GroupMemoryBarrierWithGroupSync();
    }
    if (gi == 0)
        Sums[group.x] = partial[0];
}
