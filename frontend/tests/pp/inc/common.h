#pragma once
#define SQUARE(x) ((x) * (x))
struct Light { float3 dir; };
