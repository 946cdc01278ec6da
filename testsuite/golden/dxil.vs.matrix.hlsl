// RUN: -T vs_6_0 -E main
// A row-vector times matrix product from $Globals, struct output, integer arithmetic and a switch.
float4x4 WorldViewProj;
struct VSOut { float4 pos : SV_Position; float3 color : COLOR0; int flags : FLAGS; };

VSOut main(float3 pos : POSITION, int kind : KIND, uint vid : SV_VertexID) {
  VSOut o;
  o.pos = mul(float4(pos, 1), WorldViewProj);
  o.color = float3(1, 0, 0);
  switch (kind) {
    case 0: o.color = pos; break;
    case 1: o.color.g = 1; // fall through
    default: o.color.b = (float)vid;
  }
  o.flags = (kind << 2) | (int)(vid & 3) - kind / 3;
  return o;
}
