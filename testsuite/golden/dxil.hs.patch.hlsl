// RUN: -T hs_6_0 -E main
// A triangle hull shader: the control point function (the entry) reads the InputPatch with
// loadInput at outputControlPointID and writes its control point with storeOutput; the patch
// constant function, a second function under its decorated name, reads the InputPatch with
// loadInput, the OutputPatch with loadOutputControlPoint and SV_PrimitiveID with primitiveID,
// and writes the tess factors with storePatchConstant; HS state tag 3 names it.
struct VSOut { float3 pos : POSITION; float4 color : COLOR; };
struct HSOut { float3 pos : POSITION; };
struct PatchData {
  float edges[3] : SV_TessFactor;
  float inside : SV_InsideTessFactor;
  uint id : PRIMID;
};

cbuffer Tess { float factor; };

PatchData PatchFn(InputPatch<VSOut, 3> ip, OutputPatch<HSOut, 3> op, uint prim : SV_PrimitiveID) {
  PatchData d;
  [unroll] for (uint i = 0; i < 3; i++)
    d.edges[i] = factor * distance(ip[i].pos, op[(i + 1) % 3].pos);
  d.inside = max(d.edges[0], ip[0].color.a);
  d.id = prim;
  return d;
}

[domain("tri")]
[partitioning("fractional_odd")]
[outputtopology("triangle_cw")]
[outputcontrolpoints(3)]
[patchconstantfunc("PatchFn")]
[maxtessfactor(15.0)]
HSOut main(InputPatch<VSOut, 3> ip, uint id : SV_OutputControlPointID) {
  HSOut o;
  o.pos = ip[id].pos * factor;
  return o;
}
