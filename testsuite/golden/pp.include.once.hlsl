// RUN: -P
#include "inc/colors.hlsli"
#include "inc/colors.hlsli"
float3 tint() { return kTint * RED; }
