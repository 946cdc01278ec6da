// Loops with break and continue: Collatz steps to reach 1 (capped at 1000).
[[vk::binding(0, 0)]] StructuredBuffer<uint> N;
[[vk::binding(1, 0)]] RWStructuredBuffer<uint> Steps;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint n = N[id.x];
    uint steps = 0;
    for (uint i = 0; i < 1000; ++i) {
        if (n == 1)
            break;
        ++steps;
        if ((n & 1) == 0) {
            n /= 2;
            continue;
        }
        n = 3 * n + 1;
    }
    Steps[id.x] = steps;
}
