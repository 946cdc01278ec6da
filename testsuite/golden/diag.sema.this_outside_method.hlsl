// RUN: -T ps_6_0 -E main -fsyntax-only
float4 main() : SV_Target { return this.x; }
