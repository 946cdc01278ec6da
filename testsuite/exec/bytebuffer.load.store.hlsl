// Byte-address buffers address bytes: Load4 at 0, Store2 at 16, Load at 4, Store at 24.
[[vk::binding(0, 0)]] RWByteAddressBuffer B;

[numthreads(1, 1, 1)]
void main() {
    uint4 v = B.Load4(0);
    B.Store2(16, v.xy + v.zw);
    B.Store(24, B.Load(4) * 3);
}
