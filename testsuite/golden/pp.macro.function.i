#line 1 "pp.macro.function.hlsl"




float f(float v) { return ((v + 1) * (v + 1)); }
int myVar = 3;
static const string name = "hello world";

