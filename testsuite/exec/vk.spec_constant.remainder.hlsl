// A specialization constant's signed % and / (OpSpecConstantOp) and the same operations at run
// time, with the pipeline setting the constant to a negative value: Vulkan leaves OpSRem
// undefined for negative operands (NVIDIA computes an unsigned remainder), so hlslc computes
// a % b as a - (a / b) * b in both places; the values must be C's truncating ones.
[[vk::constant_id(0)]] const int K = 7;
static const int R2 = K % 2;
static const int RM3 = K % -3;
static const int Q2 = K / 2;
[[vk::binding(0, 0)]] RWStructuredBuffer<int> Out;
[[vk::binding(1, 0)]] StructuredBuffer<int> In;

[numthreads(1, 1, 1)]
void main() {
    Out[0] = R2;
    Out[1] = RM3;
    Out[2] = Q2;
    Out[3] = K % In[0];
    Out[4] = In[1] % K;
    Out[5] = In[1] % In[0];
}
