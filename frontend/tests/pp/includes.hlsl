// RUN: %dxc -T ps_6_0 -P -DCOUNT=4 %s
#include "inc/common.h"
#include "inc/common.h"

Light lights[COUNT];
float4 main() : SV_Target {
    float v = SQUARE(lights[0].dir.x);
    return v;
}
