// Compound assignment with mixed signedness and width, for the operators int.compound.mixed
// leaves out. Each computes in the type of the usual arithmetic conversions of both sides and
// converts back: `int64_t /= uint` is a signed 64-bit division (int64 holds every uint), `int
// /= uint64_t` an unsigned 64-bit one, `uint /= int` and `uint %= int` unsigned, `uint /= 2.5`
// a float division truncated back. A shift keeps its left operand's type (`int >>= uint` is
// arithmetic, `uint >>= int` logical) and takes the count modulo the width; constant 64-bit
// shifts fold with the count modulo 64.
[[vk::binding(0, 0)]] StructuredBuffer<int> A;
[[vk::binding(1, 0)]] StructuredBuffer<uint> B;
[[vk::binding(2, 0)]] RWStructuredBuffer<uint> Out;

static const uint64_t F0 = 1ull << 65;
static const int64_t N64 = -8;
static const uint64_t F1 = (uint64_t)(N64 >> 65u);
static const uint64_t F2 = 0x8000000000000000ull >> 127;

[numthreads(1, 1, 1)]
void main() {
    int a = A[0];
    int s = A[1];
    int c = A[2];
    uint b = B[0];
    uint n = B[1];
    uint m = B[2];
    int v0 = a; v0 -= b;
    int v1 = s; v1 >>= n;
    int v2 = c; v2 <<= n;
    int v3 = a; v3 &= m;
    int v4 = a; v4 |= m;
    int v5 = a; v5 ^= m;
    uint u0 = b; u0 -= c;
    uint u1 = m; u1 >>= c;
    uint u2 = m; u2 %= a;
    uint u3 = m; u3 /= s;
    uint u4 = m; u4 /= 2.5;
    int v6 = a; v6 /= (uint64_t)b;
    int64_t w0 = a; w0 /= b;
    int64_t w1 = a; w1 %= b;
    uint64_t x0 = m; x0 *= s;
    Out[0] = v0; Out[1] = v1; Out[2] = v2; Out[3] = v3; Out[4] = v4; Out[5] = v5;
    Out[6] = u0; Out[7] = u1; Out[8] = u2; Out[9] = u3; Out[10] = u4; Out[11] = v6;
    Out[12] = (uint)w0; Out[13] = (uint)(w0 >> 32);
    Out[14] = (uint)w1; Out[15] = (uint)(w1 >> 32);
    Out[16] = (uint)x0; Out[17] = (uint)(x0 >> 32);
    Out[18] = (uint)F0; Out[19] = (uint)(F0 >> 32);
    Out[20] = (uint)F1; Out[21] = (uint)(F1 >> 32);
    Out[22] = (uint)F2; Out[23] = (uint)(F2 >> 32);
}
