// [numthreads] with a specialization constant: the group size is the constant's value at
// pipeline creation (OpExecutionModeId LocalSizeId, Vulkan 1.3); here the pipeline sets it to 4.
[[vk::constant_id(7)]] const uint X = 2;
[[vk::binding(0, 0)]] RWStructuredBuffer<uint> Out;

[numthreads(X, 1, 1)]
void main(uint3 tid : SV_GroupThreadID, uint3 gid : SV_GroupID, uint idx : SV_GroupIndex) {
    Out[gid.x * X + tid.x] = 100 * tid.x + 10 * gid.x + idx;
}
