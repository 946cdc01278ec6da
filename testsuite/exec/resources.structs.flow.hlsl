// Resources held at compile time (no resource is stored in memory): a local struct of buffers
// assigned member by member, built from an initializer list and copied whole, struct and
// array-of-buffers parameters
// (a copy of the function for each set of buffers passed), an initializer list of buffers, a
// function returning a buffer (and its counter), a buffer local assigned in both arms of a
// run-time branch or in the case a constant switch takes, and a static local initialized from a
// run-time value once.
struct Pair { StructuredBuffer<uint> a; StructuredBuffer<uint> b; };
struct Nested { Pair p; RWStructuredBuffer<uint> dst; };

[[vk::binding(0, 0)]] StructuredBuffer<uint> X;
[[vk::binding(1, 0)]] StructuredBuffer<uint> Y;
[[vk::binding(2, 0)]] StructuredBuffer<uint> GA;
[[vk::binding(3, 0)]] StructuredBuffer<uint> GB;
[[vk::binding(4, 0)]] RWStructuredBuffer<uint> Out;
[[vk::binding(5, 0), vk::counter_binding(6)]] RWStructuredBuffer<uint> Log;

uint dot2(Pair p, uint i) { return p.a[i] * p.b[i]; }
uint pick(StructuredBuffer<uint> bufs[2], uint i) { return bufs[0][i] + 10 * bufs[1][i]; }
StructuredBuffer<uint> second(Pair p) { return p.b; }
RWStructuredBuffer<uint> logBuffer() { return Log; }
uint firstSeen(uint x) { static uint f = x * 2; return f; }

[numthreads(1, 1, 1)]
void main() {
    uint o = 0;
    Pair G = { GA, GB };
    Pair p;
    p.a = X;
    p.b = Y;
    Out[o++] = p.a[0] + p.b[1];
    Pair q = p;
    q.a = G.a;
    Out[o++] = dot2(q, 1);
    Out[o++] = dot2(G, 0);
    Nested n;
    n.p = G;
    n.dst = Out;
    n.dst[o++] = n.p.b[1];
    StructuredBuffer<uint> bufs[2] = { Y, G.b };
    Out[o++] = pick(bufs, 0);
    Out[o++] = second(p)[0];
    StructuredBuffer<uint> s;
    if (X[0] > 5) {
        s = X;
        Out[o++] = s[1];
    } else {
        s = Y;
        Out[o++] = s[1] + 1000;
    }
    if (X[0] > 100) {
        s = G.a;
    } else {
        s = G.a;
    }
    Out[o++] = s[2];
    switch (2) {
    case 1: s = X; break;
    case 2: s = Y; break;
    default: s = G.a; break;
    }
    Out[o++] = s[0];
    Out[o++] = firstSeen(X[1]) * 100 + firstSeen(Y[1]);
    uint slot = logBuffer().IncrementCounter();
    logBuffer()[slot] = 42;
    Out[o++] = slot;
}
