// A linked list in device memory: each Node holds the index of its successor; the shader turns
// the indices into vk::BufferPointers (written through the pointer, a struct that contains a
// pointer to its own type), then walks the list from the root and records what it visits.
struct Node;
typedef vk::BufferPointer<Node> NodeP;
struct Node {
    uint value;     // offset 0
    uint next_index;// 4: 0xFFFFFFFF ends the list
    NodeP next;     // 8; a Node is 16 bytes
};
struct PC {
    NodeP root;
};
[[vk::push_constant]] PC pc;
[[vk::binding(1, 0)]] RWStructuredBuffer<uint> Out;

[numthreads(1, 1, 1)]
void main() {
    uint64_t base = (uint64_t)pc.root;
    for (uint i = 0; i < 4; i++) {
        NodeP n = NodeP(base + 16 * i);
        uint k = n.Get().next_index;
        n.Get().next = k == 0xFFFFFFFF ? NodeP(0) : NodeP(base + 16 * k);
    }
    NodeP p = pc.root;
    uint count = 0;
    uint sum = 0;
    while ((uint64_t)p != 0 && count < 8) {
        Out[count] = p.Get().value;
        sum += p.Get().value;
        count++;
        p = p.Get().next;
    }
    Out[8] = count;
    Out[9] = sum;
}
