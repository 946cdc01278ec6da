#line 1 "pp.macro.object.hlsl"



uint area() { return (64 * 64) * 2; }

int flag = 1;


