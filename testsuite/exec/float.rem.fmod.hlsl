// float % and fmod take the sign of the dividend; negation and compound float ops.
[[vk::binding(0, 0)]] StructuredBuffer<float> A;
[[vk::binding(1, 0)]] StructuredBuffer<float> B;
[[vk::binding(2, 0)]] RWStructuredBuffer<float> Out;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float a = A[id.x], b = B[id.x];
    Out[id.x * 4 + 0] = a % b;
    Out[id.x * 4 + 1] = fmod(a, b);
    float c = -a;
    c -= b; c *= 0.5; c /= 4.0;
    Out[id.x * 4 + 2] = c;
    Out[id.x * 4 + 3] = a - b * 2;
}
