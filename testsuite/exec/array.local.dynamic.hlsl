// Local one- and two-dimensional arrays written and read with run-time indices, array copies,
// arrays passed by value to functions, and a static const table.
[[vk::binding(0, 0)]] StructuredBuffer<uint> In;
[[vk::binding(1, 0)]] RWStructuredBuffer<uint> Out;

static const uint Table[5] = { 3, 1, 4, 1, 5 };

uint sum4(uint a[4]) { uint s = 0; for (uint k = 0; k < 4; ++k) s += a[k] * (k + 1); a[0] = 999; return s; }

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint grid[3][4];
    for (uint r = 0; r < 3; ++r)
        for (uint c = 0; c < 4; ++c)
            grid[r][c] = r * 10 + c + In[id.x];
    uint i = In[id.x] % 3, j = (In[id.x] + 1) % 4;
    grid[i][j] = 7;
    uint row[4] = grid[i];
    uint copy[4] = row;
    copy[j] += 100;
    Out[id.x * 4 + 0] = grid[i][j] + grid[2 - i][3 - j];
    Out[id.x * 4 + 1] = sum4(row);
    Out[id.x * 4 + 2] = row[0] + copy[j];
    Out[id.x * 4 + 3] = Table[(In[id.x] + id.x) % 5];
}
