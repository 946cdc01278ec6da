// RUN: -T ps_6_0 -E main
// A method that writes its object's array in a loop and under a branch: the object's elements
// get phis at the loop header and at the branch's merge, like any local.
struct S {
  float A[4];
  void splat(float f) {
    for (int i = 0; i < 4; i++)
      A[i] = f;
  }
  void bump(bool c) {
    if (c)
      A[1] += 1.0;
  }
};
float main(float a : COLOR0, int ix : I) : SV_Target {
  S s;
  s.splat(a);
  s.bump(a > 0.5);
  return s.A[ix];
}
