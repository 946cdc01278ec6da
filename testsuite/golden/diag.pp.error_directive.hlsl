// RUN: -T ps_6_0 -E main -fsyntax-only
#ifndef REQUIRED
#error REQUIRED must be defined
#endif
float4 main() : SV_Target { return 1; }
