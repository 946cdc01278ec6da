// RUN: -T ps_6_0 -E main -fsyntax-only -HV 2021
template<typename T> T get(T v) { return v.missing; }
float4 main() : SV_Target { return get(1.0f); }
