// Adds two arrays element by element.
//
//   hlslc -T cs_6_0 -E main -spirv compute.hlsl -Fo compute.spv
//   hlsl2spirv compute.hlsl -o compute.spv        (profile inferred from [numthreads]: cs_6_0)

#define GROUP_SIZE 64

StructuredBuffer<float> inputA : register(t0);
StructuredBuffer<float> inputB : register(t1);
RWStructuredBuffer<float> result : register(u0);

cbuffer Params : register(b0)
{
    uint count;
};

[numthreads(GROUP_SIZE, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    if (id.x < count)
    {
        result[id.x] = inputA[id.x] + inputB[id.x];
    }
}
