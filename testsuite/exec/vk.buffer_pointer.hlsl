// Buffer device addresses: structs reached through a vk::BufferPointer held in the push
// constants (members read and written, the pointer copied, passed to a function, reassigned in a
// branch, converted to an address and back with an offset, an atomic through it), and
// vk::RawBufferLoad/Store at byte offsets of another buffer's address, and a
// reinterpret_pointer_cast to another pointee type.
struct Node {
    uint4 head;     // offset 0
    float scale;    // 16
    uint count;     // 20
    uint2 pad;      // 24; a Node is 32 bytes
};
typedef vk::BufferPointer<Node> NodeP;
struct PC {
    NodeP node;     // offset 0
    uint64_t raw;   // 8
    uint k;         // 16
};
[[vk::push_constant]] PC pc;
[[vk::binding(2, 0)]] RWStructuredBuffer<uint> Out;

uint total(NodeP p) {
    return p.Get().head.x + p.Get().head.w;
}

[numthreads(1, 1, 1)]
void main() {
    NodeP p = pc.node;
    Out[0] = p.Get().head.y;
    Out[1] = asuint(p.Get().scale * 2.0);
    Out[2] = total(p);
    p.Get().count = p.Get().count + pc.k;
    uint old;
    InterlockedAdd(p.Get().head.z, 5, old);
    Out[3] = old;
    uint64_t a = (uint64_t)p;
    NodeP q = NodeP(a + 32);
    Out[4] = q.Get().head.x;
    Out[5] = vk::RawBufferLoad<uint>(pc.raw + 8);
    Out[6] = asuint(vk::RawBufferLoad<float>(pc.raw + 16, 16));
    vk::RawBufferStore<uint>(pc.raw + 12, 99);
    if (pc.k > 3) {
        p = q;
    }
    Out[7] = p.Get().head.y;
    // The same address as a pointer to another type: the second Node's head.z.
    vk::BufferPointer<uint> w = vk::reinterpret_pointer_cast<uint>(NodeP(a + 40));
    Out[8] = w.Get();
}
