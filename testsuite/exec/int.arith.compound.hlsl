// Compound assignments, unary minus/complement and pre/post increment on int, wrapping at 32 bits.
[[vk::binding(0, 0)]] StructuredBuffer<int> A;
[[vk::binding(1, 0)]] StructuredBuffer<int> B;
[[vk::binding(2, 0)]] RWStructuredBuffer<int> Out;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    int x = A[id.x], y = B[id.x];
    int r = x;
    r += y; r *= 3; r -= x; r = -r; r ^= y; r |= 1; r &= ~4;
    int p = r++;
    p += r;
    int q = --r;
    q -= r--;
    q += 7 * r;
    Out[id.x * 3 + 0] = r;
    Out[id.x * 3 + 1] = p;
    Out[id.x * 3 + 2] = q;
}
