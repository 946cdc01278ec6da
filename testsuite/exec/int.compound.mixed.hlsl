// Compound assignment computes in the type of the usual arithmetic conversions of both sides and
// converts back: `int %= uint` and `int /= 65537u` are unsigned, `int *= 1.5` is a float
// multiply. Constant shifts take the count modulo the width (folded by the compiler).
[[vk::binding(0, 0)]] StructuredBuffer<int> A;
[[vk::binding(1, 0)]] StructuredBuffer<uint> B;
[[vk::binding(2, 0)]] RWStructuredBuffer<int> Out;
[[vk::binding(3, 0)]] RWStructuredBuffer<uint> Folded;

static const int N = -8;
static const uint K0 = 0x750u << 42u;
static const uint K1 = 0x80000000u >> 33u;
static const uint K2 = (uint)(N >> 33u);
static const uint K3 = 1u << 32u;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    int a = A[id.x];
    uint b = B[id.x];
    int v = a;
    v %= b;
    int w = a;
    w /= 65537u;
    int x = a;
    x *= 1.5;
    int y = a;
    y += 0.75;
    int2 p = int2(a, -a);
    p /= uint2(b, 7u);
    Out[id.x * 6 + 0] = v;
    Out[id.x * 6 + 1] = w;
    Out[id.x * 6 + 2] = x;
    Out[id.x * 6 + 3] = y;
    Out[id.x * 6 + 4] = p.x;
    Out[id.x * 6 + 5] = p.y;
    if (id.x == 0) {
        Folded[0] = K0;
        Folded[1] = K1;
        Folded[2] = K2;
        Folded[3] = K3;
    }
}
