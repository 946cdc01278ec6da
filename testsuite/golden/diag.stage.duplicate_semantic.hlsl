// RUN: -T vs_6_0 -E main -spirv
// Two inputs, and two outputs (one a struct field), with one semantic.
struct Extra { float4 more : COLOR1; };
void main(float4 a : COLOR1, float4 b : COLOR1, out float4 pos : SV_Position, out float4 c : COLOR1, out Extra e) {
  pos = a; c = b; e.more = a;
}
