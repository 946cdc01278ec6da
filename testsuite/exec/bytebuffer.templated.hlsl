// Templated ByteAddressBuffer Load<T>/Store<T> (uint, uint2) at byte offsets, next to
// Load3/Store3/Store4, with offsets computed at run time.
[[vk::binding(0, 0)]] ByteAddressBuffer In;
[[vk::binding(1, 0)]] RWByteAddressBuffer Out;

[numthreads(1, 1, 1)]
void main() {
    uint base = In.Load<uint>(0);
    float f = asfloat(In.Load<uint>(4));
    int2 i2 = (int2)In.Load<uint2>(base);
    uint3 u3 = In.Load3(base + 8);
    Out.Store<uint>(0, asuint(f * 2));
    Out.Store<uint2>(4, (uint2)(i2 * -1));
    Out.Store3(12, u3 + 1);
    Out.Store4(24, uint4(u3.zyx, base));
    Out.Store<uint2>(40, In.Load<uint2>(20));
    Out.Store<uint>(48, In.Load<uint>(24) + In.Load<uint>(20));
}
