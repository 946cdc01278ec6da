// RUN: -T cs_6_0 -E main
// Typed, structured and byte-address buffers, thread ids, a loop with a phi and an atomic.
struct P { float3 pos; uint id; };
StructuredBuffer<P> Points : register(t0);
ByteAddressBuffer Raw : register(t1);
RWBuffer<float> Out : register(u0);
RWStructuredBuffer<uint> Counts : register(u1);

[numthreads(64, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID, uint gi : SV_GroupIndex) {
  P p = Points[tid.x];
  float sum = 0;
  for (uint i = 0; i < p.id; ++i)
    sum += p.pos.x * i;
  sum += asfloat(Raw.Load(gi * 4));
  Out[tid.x] = sqrt(sum);
  InterlockedAdd(Counts[0], 1);
}
