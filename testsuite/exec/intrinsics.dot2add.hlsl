// dot2add(half2 a, half2 b, float acc): the two products in half precision, widened to float,
// added to each other and to the float accumulator (the third case's accumulator needs float
// precision: in half it would round to 1000).
[[vk::binding(0, 0)]] StructuredBuffer<float> In;
[[vk::binding(1, 0)]] RWStructuredBuffer<float> Out;

[numthreads(1, 1, 1)]
void main() {
    [unroll] for (uint i = 0; i < 3; ++i) {
        half2 a = half2(In[5 * i], In[5 * i + 1]);
        half2 b = half2(In[5 * i + 2], In[5 * i + 3]);
        Out[i] = dot2add(a, b, In[5 * i + 4]);
    }
}
