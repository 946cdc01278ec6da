// inout and out parameters are copied back to the caller's variables.
[[vk::binding(0, 0)]] StructuredBuffer<int> In;
[[vk::binding(1, 0)]] RWStructuredBuffer<int> Out;

void swap(inout int x, inout int y) { int t = x; x = y; y = t; }
void divmod(int a, int b, out int q, out int r) { q = a / b; r = a - q * b; }

[numthreads(1, 1, 1)]
void main() {
    int x = In[0];
    int y = In[1];
    swap(x, y);
    Out[0] = x;
    Out[1] = y;
    int q, r;
    divmod(In[2], In[3], q, r);
    Out[2] = q;
    Out[3] = r;
}
