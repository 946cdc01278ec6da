// Swizzles on read and on write, and vector * scalar.
[[vk::binding(0, 0)]] StructuredBuffer<float4> In;
[[vk::binding(1, 0)]] RWStructuredBuffer<float4> Rev;
[[vk::binding(2, 0)]] RWStructuredBuffer<float4> Mix;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float4 v = In[id.x];
    Rev[id.x] = v.wzyx;
    float4 m = 0;
    m.yx = v.xy * 2;
    m.zw = v.zz;
    Mix[id.x] = m;
}
