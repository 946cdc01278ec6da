// RUN: -T ps_6_0 -E main -fsyntax-only
float4 main() : SV_Target {
    float x = 1
    return x;
}
