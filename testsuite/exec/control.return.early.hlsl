// Early returns from inside loops and branches of a function, and from the entry point (the
// thread that returns leaves its output untouched).
[[vk::binding(0, 0)]] StructuredBuffer<int> In;
[[vk::binding(1, 0)]] RWStructuredBuffer<int> Out;

int find(int target) {
    for (int i = 0; i < 8; ++i) {
        if (In[i] == target) return i;
        if (In[i] < -100) return -2;
    }
    return -1;
}

int classify(int v) {
    if (v < 0) return -1;
    if (v == 0) return 0;
    while (v > 10) {
        v -= 10;
        if (v == 3) return 33;
    }
    return v;
}

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    int v = In[id.x];
    if (v == 13) return;
    Out[id.x * 2] = find(v + 1);
    Out[id.x * 2 + 1] = classify(v);
}
