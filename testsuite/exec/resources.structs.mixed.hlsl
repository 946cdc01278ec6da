// Structs that mix resources and data (no resource is stored in memory: each data member is a
// Function variable of its own, each resource member designates a global at compile time):
// initializer lists (a vector member spread into scalars), whole copies, member writes, nested
// structs, arrays of them, a by-value parameter the callee changes, and out resource parameters
// (a local, and a member of a mixed struct), methods that read and write the object's data
// or return one of its resources.
struct Material {
    StructuredBuffer<uint> src;
    uint scale;
    uint2 extra;
    uint get(uint i) { return src[i] * scale; }
    void bump() { scale += 1; }
    uint twice(uint i) { return get(i) * 2; }
    StructuredBuffer<uint> buffer() { return src; }
};
struct Pass { Material m; RWStructuredBuffer<uint> dst; uint base; };

[[vk::binding(0, 0)]] StructuredBuffer<uint> A;
[[vk::binding(1, 0)]] StructuredBuffer<uint> B;
[[vk::binding(2, 0)]] RWStructuredBuffer<uint> Out;

uint shade(Material m, uint i) {
    m.scale += 1;
    return m.src[i] * m.scale + m.extra.y;
}

void pickB(out StructuredBuffer<uint> b) { b = B; }
void keepOrA(inout StructuredBuffer<uint> b, uint k) { if (k == 3) { b = A; } }

[numthreads(1, 1, 1)]
void main() {
    uint o = 0;
    Material m = { A, 3, uint2(5, 7) };
    Out[o++] = m.src[1] * m.scale;
    Material m2 = m;
    m2.src = B;
    m2.scale = 10;
    Out[o++] = m.src[0] + m.scale + m2.src[0] * m2.scale;
    Out[o++] = shade(m, 2);
    Out[o++] = m.scale;
    Pass p;
    p.m = m2;
    p.dst = Out;
    p.base = 100;
    p.dst[o++] = p.m.src[2] + p.base + p.m.extra.x;
    Material arr[2];
    arr[0] = m;
    arr[1] = m2;
    arr[1].extra = uint2(1, 2);
    Out[o++] = arr[0].src[0] * arr[1].scale + arr[1].extra.y;
    StructuredBuffer<uint> t;
    pickB(t);
    Out[o++] = t[1];
    Material m3;
    m3.scale = 4;
    pickB(m3.src);
    Out[o++] = m3.src[0] * m3.scale;
    m3.bump();
    Out[o++] = m3.get(1);
    m3.src = A;
    Out[o++] = m3.twice(2) + arr[1].get(0);
    Out[o++] = m3.buffer()[0] * m3.scale + arr[1].buffer()[2];
}
