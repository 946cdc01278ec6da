#pragma once
#define RED float3(1, 0, 0)
static const float3 kTint = RED;
