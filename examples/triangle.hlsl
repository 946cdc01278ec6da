// A coloured triangle: vertex shader `VSMain`, pixel shader `main`.
//
//   hlslc -T vs_6_0 -E VSMain -spirv triangle.hlsl -Fo triangle.vs.spv
//   hlslc -T ps_6_0 -E main   -spirv triangle.hlsl -Fo triangle.ps.spv
//   hlslc -T ps_6_0 -fsyntax-only triangle.hlsl

cbuffer Frame : register(b0)
{
    float4x4 viewProjection;
    float time;
};

struct VSInput
{
    float3 position : POSITION;
    float3 color : COLOR0;
};

struct PSInput
{
    float4 position : SV_Position;
    float3 color : COLOR0;
};

PSInput VSMain(VSInput input)
{
    PSInput output;
    output.position = mul(viewProjection, float4(input.position, 1.0));
    output.color = input.color;
    return output;
}

float4 main(PSInput input) : SV_Target
{
    float pulse = 0.75 + 0.25 * sin(time);
    return float4(input.color * pulse, 1.0);
}
