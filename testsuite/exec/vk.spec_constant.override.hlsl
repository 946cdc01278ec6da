// The shader of vk.spec_constant.default with every specialization constant set by the
// pipeline: uses must see the new values, not the defaults.
[[vk::constant_id(0)]] const int K = 5;
[[vk::constant_id(1)]] const bool FLAG = false;
[[vk::constant_id(2)]] const float SCALE = 1.5;
[[vk::constant_id(3)]] const uint U = 7;
static const int K3 = K + 3;
static const uint UM = U * 3u;
[[vk::binding(0, 0)]] RWStructuredBuffer<int> OutI;
[[vk::binding(1, 0)]] RWStructuredBuffer<float> OutF;

[numthreads(1, 1, 1)]
void main() {
    OutI[0] = K;
    OutI[1] = K3;
    OutI[2] = FLAG ? 1 : 2;
    OutI[3] = (int)(U * 2u);
    int2 v = K;
    OutI[4] = v.x + v.y * 10;
    OutI[5] = (int)UM;
    OutF[0] = SCALE * 2.0;
    OutF[1] = SCALE + K;
}
