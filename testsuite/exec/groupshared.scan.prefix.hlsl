// Inclusive prefix sum (Hillis-Steele) over 32 values in groupshared memory, double buffered,
// with a barrier between steps; a second groupshared array reverses the result.
[[vk::binding(0, 0)]] StructuredBuffer<uint> In;
[[vk::binding(1, 0)]] RWStructuredBuffer<uint> Out;

groupshared uint buf[2][32];
groupshared uint rev[32];

[numthreads(32, 1, 1)]
void main(uint gi : SV_GroupIndex) {
    buf[0][gi] = In[gi];
    GroupMemoryBarrierWithGroupSync();
    uint src = 0;
    for (uint step = 1; step < 32; step *= 2) {
        uint v = buf[src][gi];
        if (gi >= step) v += buf[src][gi - step];
        buf[1 - src][gi] = v;
        src = 1 - src;
        GroupMemoryBarrierWithGroupSync();
    }
    rev[31 - gi] = buf[src][gi];
    GroupMemoryBarrierWithGroupSync();
    Out[gi] = buf[src][gi];
    Out[32 + gi] = rev[gi];
}
