#line 1 "tests/pp/includes.hlsl"

#line 1 "tests/pp/inc/common.h"


struct Light { float3 dir; };
#line 3 "tests/pp/includes.hlsl"


Light lights[4];
float4 main() : SV_Target {
    float v = ((lights[0].dir.x) * (lights[0].dir.x));
    return v;
}

