// A struct read whole from a structured buffer (laid out → logical copy), and a local array
// initialized from a list and indexed with a value computed at run time.
struct Pair { uint a; uint b; };
[[vk::binding(0, 0)]] StructuredBuffer<Pair> In;
[[vk::binding(1, 0)]] RWStructuredBuffer<uint> Out;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    Pair p = In[id.x];
    uint arr[4] = { 10, 20, 30, 40 };
    Out[id.x] = p.a * p.b + arr[(p.a + id.x) % 4];
}
