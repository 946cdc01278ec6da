#line 1 "pp.include.once.hlsl"

#line 1 "inc/colors.hlsli"


static const float3 kTint = float3(1, 0, 0);
#line 3 "pp.include.once.hlsl"

float3 tint() { return kTint * float3(1, 0, 0); }

