// int4 / and % (truncating, sign of the dividend), /= and %=, and the same on constants that
// the compiler may fold: all must agree.
[[vk::binding(0, 0)]] StructuredBuffer<int4> A;
[[vk::binding(1, 0)]] StructuredBuffer<int4> B;
[[vk::binding(2, 0)]] RWStructuredBuffer<int4> Out;

static const int4 C = int4(-7, 7, -7, 7) / int4(2, -2, -2, 2);
static const int4 D = int4(-7, 7, -7, 7) % int4(3, -3, -3, 3);

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    int4 a = A[id.x], b = B[id.x];
    Out[id.x * 4 + 0] = a / b;
    Out[id.x * 4 + 1] = a % b;
    int4 c = a;
    c /= b.wzyx;
    c %= int4(3, -3, 5, -5);
    Out[id.x * 4 + 2] = c;
    Out[id.x * 4 + 3] = id.x == 0 ? C : D;
}
