// RUN: -T ps_6_5 -E main
// A construct the DXIL back end does not lower yet is a located error, not a crash.
float4 main(float4 p : SV_Position) : SV_Target {
  return float4(WaveMultiPrefixProduct(p.x, uint4(1, 1, 1, 1)), 0, 0, 1);
}
