// switch: fallthrough between cases, grouped labels, a negative label, default in the middle,
// break inside a loop inside a case, and continue from a switch inside a loop.
[[vk::binding(0, 0)]] StructuredBuffer<int> In;
[[vk::binding(1, 0)]] RWStructuredBuffer<int> Out;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    int x = In[id.x];
    int r = 0;
    switch (x) {
    case 0:
        r += 1;
    case 1:
        r += 10;
        break;
    case 2:
    case 3:
        r += 100;
        break;
    default:
        r += 1000;
    case -1:
        r += 7;
        break;
    case 4:
        for (int k = 0; k < 10; ++k) {
            if (k == 3) break;
            r += 2;
        }
        break;
    }
    int acc = 0;
    for (int i = 0; i < 6; ++i) {
        switch (i - x) {
        case 0: continue;
        case 1: acc += 100; break;
        default: acc += 1; break;
        }
        acc *= 2;
    }
    Out[id.x * 2 + 0] = r;
    Out[id.x * 2 + 1] = acc;
}
