// RUN: -T ds_6_0 -E main
// A quad domain shader: SV_DomainLocation through domainLocation, control points of the
// OutputPatch through loadInput with a vertex index, the patch constant struct (tess factors
// and a user value) through loadPatchConstant, the vertex through storeOutput; DS state tag 2.
struct ControlPoint { float3 pos : POSITION; float2 uv : TEXCOORD0; };
struct PatchData {
  float edges[4] : SV_TessFactor;
  float inside[2] : SV_InsideTessFactor;
  float3 normal : NORMAL;
};
struct DSOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; };

float3 corner(const OutputPatch<ControlPoint, 4> p, uint i) { return p[i].pos; }

[domain("quad")]
DSOut main(PatchData pd, float2 uv : SV_DomainLocation, const OutputPatch<ControlPoint, 4> patch,
           uint prim : SV_PrimitiveID) {
  float3 a = lerp(corner(patch, 0), corner(patch, 1), uv.x);
  float3 b = lerp(patch[3].pos, patch[2].pos, uv.x);
  DSOut o;
  o.pos = float4(lerp(a, b, uv.y) + pd.normal * pd.edges[1], 1.0);
  o.uv = patch[prim & 3].uv * pd.inside[0];
  return o;
}
