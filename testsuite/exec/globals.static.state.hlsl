// Static globals changed by functions (one copy per invocation), a static const table indexed
// at run time, and a function-scope static that keeps its value from one call to the next.
[[vk::binding(0, 0)]] StructuredBuffer<uint> In;
[[vk::binding(1, 0)]] RWStructuredBuffer<uint> Out;

static uint total = 100;
static const uint Primes[6] = { 2, 3, 5, 7, 11, 13 };

void add(uint v) { total += v; }
uint next() { static uint n = 0; n += 1; return n; }

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint x = In[id.x];
    add(x);
    add(Primes[x % 6]);
    uint a = next();
    uint b = next();
    Out[id.x * 2] = total;
    Out[id.x * 2 + 1] = a * 10 + b;
}
