// RUN: -T ps_6_0 -E main -fsyntax-only -HV 2021
template<typename T, int N> struct Arr { T v[N]; };
float4 main() : SV_Target {
    Arr<float> a;
    Arr<float, 2, 3> b;
    return 0;
}
