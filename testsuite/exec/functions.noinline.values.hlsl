// [noinline] functions that take and return values only (scalars and vectors, no out/inout):
// each stays a function of its own, called, in SPIR-V (DontInline) and in DXIL (an internal
// function and a `call`, as dxc keeps them); overloads, a loop and early returns inside the
// callees, and a callee that calls others.
[[vk::binding(0, 0)]] StructuredBuffer<int> In;
[[vk::binding(1, 0)]] RWStructuredBuffer<int> Out;

[noinline] int pick(int v) { return v + 1000; }
[noinline] int pick(float v) { return (int)(v * 10); }
[noinline] int2 swap_scale(int2 v, int k) { return int2(v.y * k, v.x * k); }
[noinline] int collatz(int v) {
    int n = 0;
    while (v != 1 && n < 100) {
        v = (v & 1) ? 3 * v + 1 : v / 2;
        n++;
    }
    return n;
}
[noinline] int sign_class(int v) {
    if (v < 0) return -1;
    if (v == 0) return 0;
    return 1;
}
[noinline] int outer(int v) { return pick(v) + pick((float)v * 0.5) + sign_class(v - 5); }
[noinline] float3 scale3(float3 v, float s) { return v * s; }

[numthreads(1, 1, 1)]
void main() {
    int a = In[0], b = In[1], c = In[2];
    Out[0] = pick(a);
    Out[1] = pick((float)b);
    int2 s = swap_scale(int2(a, b), c);
    Out[2] = s.x;
    Out[3] = s.y;
    Out[4] = collatz(c);
    Out[5] = sign_class(b);
    Out[6] = outer(a);
    float3 f = scale3(float3(a, b, c), 0.5);
    Out[7] = (int)(f.x * 4 + f.y * 2 + f.z);
    Out[8] = sign_class(In[3] - In[3]);
}
