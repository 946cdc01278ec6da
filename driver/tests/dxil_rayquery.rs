//! Inline ray tracing in DXIL (shader model 6.5, any stage): `RayQuery<flags>` as the `i32`
//! handle of `dx.op.allocateRayQuery(i32 178, flags)`, its methods as `dx.op.rayQuery_*` on that
//! handle (opcodes 179 to 215 of DXIL.rst), `RayDesc` flattened to origin, TMin, direction,
//! TMax. The expected text follows dxc's HLSLFileCheck `hlsl/objects/RayQuery/tryAllOps.hlsl`
//! CHECK lines and DXIL.rst's opcode table, not hlslc's output.

mod common;
use common::{assert_in_order, dxil_text};

const CS: &str = "RaytracingAccelerationStructure scene : register(t0);\n\
    RWByteAddressBuffer log : register(u0);\n\
    [numthreads(1, 1, 1)]\n\
    void main() {\n\
      RayQuery<RAY_FLAG_FORCE_OPAQUE | RAY_FLAG_ACCEPT_FIRST_HIT_AND_END_SEARCH> q;\n\
      RayDesc ray;\n\
      ray.Origin = float3(0, 0, 0);\n\
      ray.TMin = 0.5;\n\
      ray.Direction = float3(1, 0, 0);\n\
      ray.TMax = 100.0;\n\
      q.TraceRayInline(scene, RAY_FLAG_NONE, 0xFF, ray);\n\
      while (q.Proceed()) {\n\
        if (q.CandidateType() == CANDIDATE_PROCEDURAL_PRIMITIVE) q.CommitProceduralPrimitiveHit(2.0);\n\
        else q.CommitNonOpaqueTriangleHit();\n\
      }\n\
      if (q.CommittedStatus() == COMMITTED_TRIANGLE_HIT) {\n\
        float2 bary = q.CommittedTriangleBarycentrics();\n\
        float3x4 m = q.CommittedObjectToWorld3x4();\n\
        log.Store(0, asuint(bary.y + m[2][1] + q.CommittedRayT()));\n\
      }\n\
    }\n";

#[test]
fn ray_query_methods_are_their_operations_on_the_handle() {
    let text = dxil_text(CS, "cs_6_5", false);
    assert_in_order(
        &text,
        &[
            "define void @main() {",
            // FORCE_OPAQUE (1) | ACCEPT_FIRST_HIT_AND_END_SEARCH (4).
            "call i32 @dx.op.allocateRayQuery(i32 178, i32 5)",
            "call void @dx.op.rayQuery_TraceRayInline(i32 179, i32 %",
            "i32 0, i32 255, float 0.000000e+00, float 0.000000e+00, float 0.000000e+00, float 5.000000e-01, float 1.000000e+00, float 0.000000e+00, float 0.000000e+00, float 1.000000e+02)",
            "call i1 @dx.op.rayQuery_Proceed.i1(i32 180, i32 %",
            "call i32 @dx.op.rayQuery_StateScalar.i32(i32 185, i32 %",
            "call void @dx.op.rayQuery_CommitProceduralPrimitiveHit(i32 183, i32 %",
            "call void @dx.op.rayQuery_CommitNonOpaqueTriangleHit(i32 182, i32 %",
            "call i32 @dx.op.rayQuery_StateScalar.i32(i32 184, i32 %",
            "ret void",
        ],
    );
    assert!(text.contains(", float 2.000000e+00)"), "{text}");
    // Only the components read remain: barycentrics .y (component 1), the 3x4 matrix at row 2,
    // column 1, and the committed ray T.
    assert!(text.contains("call float @dx.op.rayQuery_StateVector.f32(i32 194, i32 %"), "{text}");
    assert!(text.contains(", i8 1)"), "{text}");
    assert!(text.contains("call float @dx.op.rayQuery_StateMatrix.f32(i32 188, i32 %"), "{text}");
    assert!(text.contains(", i32 2, i8 1)"), "{text}");
    assert!(text.contains("call float @dx.op.rayQuery_StateScalar.f32(i32 200, i32 %"), "{text}");
}
