// Templated ByteAddressBuffer Load<T>/Store<T> of non-uint types: float, int, bool, vectors,
// matrices (column-major in the buffer), a struct, an array, double and uint64_t (two words,
// low first), and Store(offset, value) with T deduced from the value.
struct S { float a; uint b; int2 e; float4 v; };

[[vk::binding(0, 0)]] ByteAddressBuffer In;
[[vk::binding(1, 0)]] RWByteAddressBuffer Out;

[numthreads(1, 1, 1)]
void main() {
    uint base = In.Load(0);
    float f = In.Load<float>(base);
    int n = In.Load<int>(base + 4);
    bool t = In.Load<bool>(12);
    float3 v = In.Load<float3>(16);
    float2x3 m = In.Load<float2x3>(28);
    S s = In.Load<S>(64);
    float a[3] = In.Load<float[3]>(96);
    double d = In.Load<double>(112);
    uint64_t q = In.Load<uint64_t>(120);
    int2x2 im = In.Load<int2x2>(128);
    Out.Store<float>(0, f * 2);
    Out.Store<int>(4, -n);
    Out.Store<bool>(8, !t);
    Out.Store<float3>(12, v.zyx);
    Out.Store<float2x3>(24, m * 2);
    Out.Store<float3x2>(48, transpose(m));
    s.a += 1;
    s.e.y = s.b;
    s.v.w = m[1][2];
    Out.Store<S>(80, s);
    Out.Store<float[3]>(112, a);
    Out.Store<double>(128, d * 2);
    Out.Store<uint64_t>(136, q + 1);
    Out.Store(144, im[1]);
    Out.Store<int2x2>(152, im);
    Out.Store(168, m[1][2]);
}
