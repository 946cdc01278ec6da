// Templated ByteAddressBuffer Load<T>/Store<T> of 16-bit types (-enable-16bit-types): each value
// is the half of a word that its byte address selects, and a store rewrites only that half.
[[vk::binding(0, 0)]] ByteAddressBuffer In;
[[vk::binding(1, 0)]] RWByteAddressBuffer Out;

[numthreads(1, 1, 1)]
void main() {
    uint base = In.Load(0);
    half h = In.Load<half>(base + 6);
    uint16_t u = In.Load<uint16_t>(4);
    int16_t s = In.Load<int16_t>(base + 8);
    uint16_t3 v = In.Load<uint16_t3>(12);
    half2 hv = In.Load<half2>(20);
    Out.Store<half>(2, h * (half)2);
    Out.Store<uint16_t>(4, u + 1);
    Out.Store<int16_t>(base + 10, s);
    Out.Store<uint16_t3>(14, v.zyx);
    Out.Store<half2>(20, hv.yx);
    Out.Store<uint>(24, (uint)(int)s);
}
