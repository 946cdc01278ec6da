// Local resource variables reassigned in straight-line code, arrays of buffers indexed at run
// time (directly and through a local), IncrementCounter/DecrementCounter on elements of an
// array of RW structured buffers (an array of counters beside it), directly and through a local
// alias, and functions with buffer parameters (a copy of the function for each buffer passed),
// one of them using the counter of the buffer it is given.
[[vk::binding(0, 0)]] StructuredBuffer<uint> A;
[[vk::binding(1, 0)]] StructuredBuffer<uint> B;
[[vk::binding(2, 0)]] StructuredBuffer<uint> Arr[3];
[[vk::binding(3, 0)]] RWStructuredBuffer<uint> Out;
[[vk::binding(4, 0), vk::counter_binding(5)]] RWStructuredBuffer<uint> Counted[2];
[[vk::binding(6, 0), vk::counter_binding(7)]] RWStructuredBuffer<uint> Log;

uint sum2(StructuredBuffer<uint> b) { return b[0] + b[1]; }
uint push(RWStructuredBuffer<uint> b, uint v) { uint n = b.IncrementCounter(); b[n] = v; return n; }

[numthreads(1, 1, 1)]
void main() {
    uint i = A[0];
    uint o = 0;
    StructuredBuffer<uint> x = A;
    Out[o++] = x[1];
    x = B;
    Out[o++] = x[1];
    x = Arr[i];
    Out[o++] = x[0];
    Out[o++] = Arr[i + 1][1];
    StructuredBuffer<uint> y = Arr[2 - i];
    for (uint k = 0; k < 3; ++k)
        Out[o++] = Arr[k][0] + y[0];
    uint c0 = Counted[i].IncrementCounter();
    uint c1 = Counted[i].IncrementCounter();
    uint c2 = Counted[0].DecrementCounter();
    Counted[i - 1][c2 - 5] = 77;
    RWStructuredBuffer<uint> alias = Counted[i];
    uint c3 = alias.IncrementCounter();
    Out[o++] = c0; Out[o++] = c1; Out[o++] = c2; Out[o++] = c3;
    Out[o++] = sum2(A) + 10 * sum2(B);
    Out[o++] = push(Log, 5) * 100 + push(Log, 6);
}
