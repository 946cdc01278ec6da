// Static data members defined outside their struct (`static const uint S::K = 3;`): the
// definition's initializer is the member's, read through the struct, an object and a method.
[[vk::binding(0, 0)]] StructuredBuffer<uint> In;
[[vk::binding(1, 0)]] RWStructuredBuffer<uint> Out;

struct S {
    static const uint K;
    static uint counter;
    uint v;
    uint scaled() { return v * K + counter; }
};

static const uint S::K = 3;
static uint S::counter = 1000;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    S s;
    s.v = In[id.x];
    Out[id.x * 4 + 0] = S::K;
    Out[id.x * 4 + 1] = s.scaled();
    S::counter += s.v;
    Out[id.x * 4 + 2] = S::counter;
    Out[id.x * 4 + 3] = s.K * s.v;
}
