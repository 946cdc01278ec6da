// functions.inout.targets with every function kept apart ([noinline]) and compiled with
// -fspv-fix-func-call-arguments: the component, element, member and buffer-element arguments go to
// the calls as access chains copied through function variables around each call.
struct P { int x; float y; };
[[vk::binding(0, 0)]] StructuredBuffer<int> In;
[[vk::binding(1, 0)]] RWStructuredBuffer<int> Out;

[noinline] void twice(inout int v) { v *= 2; }
[noinline] void addto(inout float v, float d) { v += d; }
[noinline] void setpair(out int a, out int b, int s) { a = s + 1; b = s - 1; }
[noinline] int pick(int v) { return v + 1000; }
[noinline] int pick(float v) { return (int)(v * 10); }
[noinline] int outer(int v) { int t = v; twice(t); return pick(t) + pick((float)t); }

[numthreads(1, 1, 1)]
void main() {
    int3 v = int3(In[0], In[1], In[2]);
    twice(v.y);
    int arr[3] = { 1, 2, 3 };
    uint k = (uint)In[3] % 3;
    twice(arr[k]);
    P p = { 5, 0.5 };
    twice(p.x);
    addto(p.y, 2.0);
    setpair(Out[8], Out[9], In[4]);
    Out[0] = v.x; Out[1] = v.y; Out[2] = v.z;
    Out[3] = arr[0] + arr[1] * 10 + arr[2] * 100;
    Out[4] = p.x;
    Out[5] = (int)(p.y * 4);
    Out[6] = outer(In[0]);
    twice(Out[7]);
}
