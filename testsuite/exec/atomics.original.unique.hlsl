// 64 threads increment one counter; the original values they get back are 0..63, each once.
[[vk::binding(0, 0)]] RWStructuredBuffer<uint> Counter;
[[vk::binding(1, 0)]] RWStructuredBuffer<uint> Seen;

[numthreads(64, 1, 1)]
void main() {
    uint original;
    InterlockedAdd(Counter[0], 1, original);
    Seen[original] = 1;
}
