// switch on a 64-bit selector: case labels above 32 bits (two-word literals in OpSwitch), labels
// that differ only in the high word, a negative label and the default.
[[vk::binding(0, 0)]] StructuredBuffer<uint> In;
[[vk::binding(1, 0)]] RWStructuredBuffer<uint> Out;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    int64_t x = (int64_t)(((uint64_t)In[id.x * 2 + 1] << 32) | In[id.x * 2]);
    uint r;
    switch (x) {
    case 5:
        r = 1;
        break;
    case 0x100000005:
        r = 2;
        break;
    case 0x7FFFFFFF00000000:
        r = 3;
        break;
    case -1:
        r = 4;
        break;
    case -4294967296:
        r = 5;
        break;
    default:
        r = 6;
        break;
    }
    Out[id.x] = r;
}
