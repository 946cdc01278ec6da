Texture2D<float4 t;
float4 main() : SV_Target { return 0; }
