// RUN: -T ps_6_0 -E main
// Casts that narrow an lvalue are lvalues: each assignment below writes the leading part of
// its variable, so the pixel gets 1+2+3 from `v`, 4+5 from `arr`, and 7 from `d` (its base).
struct Base { float x; };
struct Derived : Base { float y; };

float main(float4 i : I) : SV_Target {
  float4 v = 0;
  (float3)v = float3(1, 2, 3);
  float arr[4] = { 0, 0, 0, 9 };
  float two[2] = { 4, 5 };
  (float[2])arr = two;
  Derived d = (Derived)0;
  Base b = { 7 };
  (Base)d = b;
  return v.x + v.y + v.z + v.w + arr[0] + arr[1] + arr[2] + d.x + d.y;
}
