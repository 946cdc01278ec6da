// RUN: -T ps_6_0 -E main -fsyntax-only
#frobnicate 1
float4 main() : SV_Target { return 1; }
