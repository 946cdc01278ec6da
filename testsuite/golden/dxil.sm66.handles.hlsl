// RUN: -T cs_6_6 -E main
// Shader model 6.6 binds resources with createHandleFromBinding and annotateHandle.
RWByteAddressBuffer Data : register(u2, space1);
cbuffer Params : register(b0) { uint base; uint count; };

[numthreads(8, 8, 1)]
void main(uint3 gid : SV_GroupID, uint3 gtid : SV_GroupThreadID) {
  uint addr = (base + gid.y * count + gtid.x) * 4;
  uint v = Data.Load(addr);
  GroupMemoryBarrierWithGroupSync();
  Data.Store(addr, max(v, count) ^ 0xff);
}
