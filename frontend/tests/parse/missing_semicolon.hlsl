float4 main() : SV_Target
{
    float x = 1
    return x;
}
