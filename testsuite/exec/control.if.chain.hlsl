// if / else-if chains, nested ifs, and short-circuit && and || (HLSL 2021): the right-hand
// side's side effect happens only when it is evaluated.
[[vk::binding(0, 0)]] StructuredBuffer<int> In;
[[vk::binding(1, 0)]] RWStructuredBuffer<int> Out;

int bump(inout int n, int v) { n += 1; return v; }

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    int x = In[id.x];
    int r;
    if (x < -10) r = 0;
    else if (x < 0) r = 1;
    else if (x == 0) r = 2;
    else if (x < 10 && x != 5) r = 3;
    else r = 4;
    int nest = 0;
    if (x > 0) {
        if (x % 2 == 0) nest = 20;
        else nest = 21;
    } else {
        if (x > -5) nest = 30;
    }
    int calls = 0;
    bool a = x > 0 && bump(calls, x) > 5;
    bool b = x < 0 || bump(calls, -x) > 5;
    Out[id.x * 4 + 0] = r;
    Out[id.x * 4 + 1] = nest;
    Out[id.x * 4 + 2] = calls;
    Out[id.x * 4 + 3] = (a ? 1 : 0) + (b ? 2 : 0);
}
