// Prefix ++/-- and compound assignments are lvalues (as in C++): assigned to, passed to inout
// parameters, incremented again; used as values they read the place written.
[[vk::binding(0, 0)]] StructuredBuffer<int> In;
[[vk::binding(1, 0)]] RWStructuredBuffer<int> Out;

void twice(inout int v) { v *= 2; }

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    int a = In[id.x], b = In[id.x] * 3, c = 5, d = -2;
    int r0 = ++a;                 // a + 1
    ++a = b;                      // a := b (after the increment)
    ++(++b);                      // b + 2
    (c += a) = (d -= 1);          // c := d - 1, d := d - 1
    twice(--b);                   // b := 2 * (b - 1)
    int r1 = (a *= 2);            // the value written, read back
    int2x2 m = { a, b, c, d };
    int2x2 n = ++m;               // every element + 1
    --m;
    Out[id.x * 6 + 0] = r0;
    Out[id.x * 6 + 1] = b;
    Out[id.x * 6 + 2] = c * 10 + d;
    Out[id.x * 6 + 3] = r1;
    Out[id.x * 6 + 4] = n._m00 + n._m01 + n._m10 + n._m11;
    Out[id.x * 6 + 5] = m._m00 - m._m11;
}
