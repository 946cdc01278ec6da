// Methods called on values that are not in memory (a function's result, a method's result):
// the value is copied to a temporary that the method's `this` points at.
[[vk::binding(0, 0)]] StructuredBuffer<int> In;
[[vk::binding(1, 0)]] RWStructuredBuffer<int> Out;

struct S {
    int a; int b;
    int sum() { return a + b; }
    int bump() { a += 100; return a; }   // changes the temporary only
};
struct T {
    S s; int k;
    S getS() { S r = s; r.b *= k; return r; }
};

S makeS(int x) { S s = { x, x * 2 }; return s; }
T makeT(int x) { T t = { makeS(x), 3 }; return t; }

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    int x = In[id.x];
    S s = makeS(x);
    Out[id.x * 4 + 0] = makeS(x).sum();
    Out[id.x * 4 + 1] = makeT(x).getS().sum();
    Out[id.x * 4 + 2] = makeS(x).bump();
    Out[id.x * 4 + 3] = s.sum();
}
