// RUN: -T vs_6_0 -E main -spirv
// A vertex shader has no derivatives: Sample needs an explicit level (SampleLevel is fine).
Texture2D tex : register(t0);
SamplerState smp : register(s0);
float4 main(float2 uv : TEXCOORD0) : SV_Position { return tex.Sample(smp, uv) + tex.SampleLevel(smp, uv, 0); }
