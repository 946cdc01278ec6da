// HLSL 2021 without -enable-16bit-types: f32/f64 are accepted with an extension warning, f16
// also needs native 16-bit types, and other widths are no suffix at all.
static const float a = 1.0f32;
static const double b = 2.5e1F64;
static const half c = 1.0f16;
static const float d = 1.0f8;
static const float e = 1.f324;
static const int f = 1f32;
