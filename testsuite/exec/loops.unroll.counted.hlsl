// [unroll] loops: counted ones (fully unrolled at -O3: nested, stepping down, with a continue,
// [unroll(N)]) and ones that stay loops (a bound read from a buffer, a break).
[[vk::binding(0, 0)]] StructuredBuffer<int> In;
[[vk::binding(1, 0)]] RWStructuredBuffer<int> Out;

[numthreads(1, 1, 1)]
void main() {
    int a0 = 0;
    [unroll] for (int i = 0; i < 4; i++) { a0 += In[i] * i; }
    int a1 = 0;
    [unroll] for (int x = 0; x < 3; x++) {
        [unroll] for (int y = 0; y < 2; y++) { a1 += In[x] * 10 + y; }
    }
    int a2 = 0;
    [unroll(2)] for (uint u = 5; u > 1; u -= 2) { a2 = a2 * 100 + (int)u * In[u % 4]; }
    int a3 = 0;
    [unroll] for (int j = 0; j < 5; ++j) { if (j == 2) continue; a3 += j * j; }
    int a4 = 0;
    [unroll] for (int k = 0; k < (In[3] & 3); k++) { a4 += In[k] + 1; }
    int a5 = 0;
    [unroll] for (int t = 0; t < 4; t++) { if (In[t] > 5) break; a5 += In[t]; }
    Out[0] = a0; Out[1] = a1; Out[2] = a2; Out[3] = a3; Out[4] = a4; Out[5] = a5;
}
