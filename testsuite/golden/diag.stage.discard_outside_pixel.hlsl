// RUN: -T cs_6_0 -E main -spirv
// discard in a function a compute shader calls; a function nobody calls may hold one.
void stop_here(uint i) { if (i > 4) discard; }
void never_called() { discard; }
[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) { stop_here(id.x); }
