// RUN: -T cs_6_0 -E main -ast-dump
// Structs (with a base and a method), arrays, enums, overloaded calls, out arguments.
enum Color { Red, Green = 4 };
struct Base { float w; };
struct Point : Base {
    float3 pos;
    int id;
    float len() { return length(pos) + w; }
};
static const int kCount = 3;
groupshared float cache[kCount];
RWStructuredBuffer<Point> points : register(u1, space2);

float twice(float x) { return x * 2; }
int twice(int x) { return x * 2; }
void split(float4 v, out float2 lo, inout float2 hi) { lo = v.xy; hi += v.zw; }

[numthreads(8, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID) {
    Point p = points[tid.x];
    p.w = twice(1.5f);
    p.id = twice((int)tid.y) + Green;
    float arr[2] = { p.len(), p.pos.x };
    cache[tid.x % kCount] = arr[1];
    int2 lo;
    float2 hi = 0;
    split(float4(p.pos, 1), lo, hi);
    Point q = (Point)0;
    q.pos = float3(lo, hi.x);
    points[tid.x] = q;
}
