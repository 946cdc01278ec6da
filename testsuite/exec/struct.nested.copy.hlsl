// Nested structs with arrays: read from a buffer, copied by value (the copy changes, the
// original does not), returned from a function, written back whole to a RW buffer.
struct Inner { int a; int b[2]; };
struct Outer { Inner items[2]; float f; };
[[vk::binding(0, 0)]] StructuredBuffer<Outer> In;
[[vk::binding(1, 0)]] RWStructuredBuffer<Outer> Copy;
[[vk::binding(2, 0)]] RWStructuredBuffer<int> Out;

Inner make(int x) { Inner r; r.a = x; r.b[0] = x + 1; r.b[1] = x * 2; return r; }
int total(Outer o) { return o.items[0].a + o.items[1].b[1]; }

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    Outer o = In[id.x];
    Outer c = o;
    c.items[1] = make(o.items[0].b[0]);
    c.f += 1.5;
    c.items[id.x].a = -9;
    Copy[id.x] = c;
    Out[id.x * 3 + 0] = total(o);
    Out[id.x * 3 + 1] = total(c);
    Out[id.x * 3 + 2] = (int)(o.f * 2);
}
