void f() {
  float4 v = float4(1, 2, 3, 4)
  v.x = 2;
}
