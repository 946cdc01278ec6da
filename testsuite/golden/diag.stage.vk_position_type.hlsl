// RUN: -T vs_6_0 -E main -spirv
// Vulkan's Position is a vec4 of 32-bit floats.
struct Out { float3 position : SV_Position; float2 uv : TEXCOORD0; };
Out main(float3 p : POSITION) { Out o; o.position = p; o.uv = p.xy; return o; }
