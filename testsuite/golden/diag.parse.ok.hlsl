// RUN: -T cs_6_0 -E main -fsyntax-only
RWStructuredBuffer<uint> Out : register(u0);
[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) { Out[id.x] = id.x * 2; }
