// RUN: -T ps_6_0 -E main
// cbuffer rows, a sample, a branch merged with a phi, intrinsics lowered to dx.op and folded.
cbuffer Material : register(b0) {
  float4 tint;
  float gain;
  float2 offset;
};
Texture2D<float4> Albedo : register(t0);
SamplerState Linear : register(s0);

float shade(float x) { return saturate(x * gain + sin(1.5)); }

float4 main(float2 uv : TEXCOORD0, nointerpolation uint mode : MODE) : SV_Target {
  float4 c = Albedo.Sample(Linear, uv + offset) * tint;
  if (mode == 2)
    c.rgb = c.bgr;
  else
    c.a = shade(dot(c.rgb, float3(0.3, 0.6, 0.1)));
  return c;
}
