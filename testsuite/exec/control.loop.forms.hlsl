// for with continue, while with break, do-while whose condition is false at once, nested loops
// breaking out of the inner loop, and a loop counting down a uint to zero.
[[vk::binding(0, 0)]] StructuredBuffer<uint> In;
[[vk::binding(1, 0)]] RWStructuredBuffer<uint> Out;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint n = In[id.x];
    uint odd = 0;
    for (uint i = 0; i < n; ++i) {
        if (i % 2 == 0) continue;
        odd += i;
    }
    uint w = 1, steps = 0;
    while (true) {
        if (w >= n) break;
        w *= 3;
        ++steps;
    }
    uint d = 0;
    do { d += 5; } while (d < n);
    uint pairs = 0;
    for (uint a = 0; a < 5; ++a) {
        for (uint b = 0; b < 5; ++b) {
            if (b > a) break;
            if ((a + b) % 3 == n % 3) pairs += 1;
        }
    }
    uint down = 0;
    for (uint c = n; c > 0; --c) down += c;
    Out[id.x * 5 + 0] = odd;
    Out[id.x * 5 + 1] = steps;
    Out[id.x * 5 + 2] = d;
    Out[id.x * 5 + 3] = pairs;
    Out[id.x * 5 + 4] = down;
}
