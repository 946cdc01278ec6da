// RUN: -T ps_6_0 -E main -ast-dump-parse
cbuffer Params : register(b0) { float4 color; };
float4 main(float2 uv : TEXCOORD0) : SV_Target {
    return color * uv.x;
}
