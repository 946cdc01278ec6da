// RUN: -T ps_6_0 -E main -ast-dump
// Scalar/vector/matrix conversions, literal types, splats and truncations.
float4 main(float2 uv : TEXCOORD0, int i : IDX) : SV_Target {
    float f = i;            // IntToFloat
    int n = 2.5;            // FloatToInt of a literal float
    uint u = -1;            // literal int to uint
    half h = 1.0;           // literal float to half
    float3 v = f;           // Splat
    float2 t = (float2)v;   // explicit VectorTruncate
    float s = uv;           // implicit ToScalar (truncation)
    float2x2 m = 1;         // Splat of a literal to a matrix
    float4 fromm = (float4)m; // MatrixToVector
    float3x3 big = 0;
    float2x2 small = (float2x2)big; // MatrixTruncate
    bool b = f;             // FloatToBool
    int bi = b;             // BoolToInt
    double d = f;           // FloatToFloat
    int4 iv = v.xyzz;       // FloatToInt on a swizzle
    return float4(t * s, n + u, h) + d + iv.x + fromm + small._m01;
}
