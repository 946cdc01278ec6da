// The three forms of mul() and transpose on a matrix built row by row (HLSL matrices are
// transposed in SPIR-V, so each form swaps its operands there).
[[vk::binding(0, 0)]] StructuredBuffer<float> In;
[[vk::binding(1, 0)]] RWStructuredBuffer<float> Out;

[numthreads(1, 1, 1)]
void main() {
    float2x2 m = float2x2(In[0], In[1], In[2], In[3]);
    float2 v = float2(In[4], In[5]);
    float2 vm = mul(v, m);
    float2 mv = mul(m, v);
    float2x2 mm = mul(m, m);
    float2x2 t = transpose(m);
    Out[0] = vm.x; Out[1] = vm.y;
    Out[2] = mv.x; Out[3] = mv.y;
    Out[4] = mm[0][0]; Out[5] = mm[0][1]; Out[6] = mm[1][0]; Out[7] = mm[1][1];
    Out[8] = t._m00; Out[9] = t._m01; Out[10] = t._m10; Out[11] = t._m11;
}
