//! Ray tracing libraries and ray queries. Expectations come from SPIR-V.rst ("Raytracing in
//! Vulkan and SPIRV", "RayQuery") and the CHECK lines of DXC's `raytracing.*` / `rayquery_*`
//! tests, not from hlslc's output; every module goes through `spirv-val`.

mod common;

use hlslc_spirv::lower::{LowerError, LowerOptions};
use hlslc_spirv::target::TargetEnv;

fn lower(src: &str, profile: &str, target: TargetEnv, nv: bool) -> Result<Vec<u32>, LowerError> {
    common::lower_with(src, profile, LowerOptions { target, ray_tracing_nv: nv, ..LowerOptions::default() })
}

/// Compiles, validates for `env` and returns the disassembly.
fn compile(src: &str, profile: &str, target: TargetEnv, nv: bool, env: &str) -> String {
    let words = lower(src, profile, target, nv).unwrap_or_else(|e| panic!("lowering failed: {e:?}"));
    common::validate(&words, env);
    hlslc_spirv::disasm::disassemble(&words).expect("disassembles")
}

/// The lines of `text` that contain every part of `parts`, in order.
fn has_line(text: &str, parts: &[&str]) -> bool {
    text.lines().any(|l| {
        let mut rest = l;
        parts.iter().all(|p| match rest.find(p) {
            Some(i) => {
                rest = &rest[i + p.len()..];
                true
            }
            None => false,
        })
    })
}

const LIBRARY: &str = r#"
struct Payload { float4 color; };
struct Attr { float2 bary; };
struct CallData { float4 data; };
RaytracingAccelerationStructure scene : register(t0);
RWTexture2D<float4> image : register(u0);

[shader("raygeneration")]
void RayGen() {
  uint2 px = DispatchRaysIndex().xy;
  uint2 size = DispatchRaysDimensions().xy;
  RayDesc ray;
  ray.Origin = float3((float2)px / (float2)size, 0);
  ray.Direction = float3(0, 0, 1);
  ray.TMin = 0.001;
  ray.TMax = 1000.0;
  Payload p = { float4(0, 0, 0, 0) };
  TraceRay(scene, RAY_FLAG_FORCE_OPAQUE, 0xff, 0, 1, 0, ray, p);
  CallData c = { p.color };
  CallShader(2, c);
  image[px] = c.data;
}

[shader("miss")]
void Miss(inout Payload p) {
  p.color = float4(WorldRayDirection(), 1);
}

[shader("closesthit")]
void Hit(inout Payload p, in Attr a) {
  float3x4 m = ObjectToWorld3x4();
  p.color = float4(a.bary, RayTCurrent(), (float)HitKind()) + m[0];
}
"#;

#[test]
fn khr_library_with_raygen_miss_and_closesthit() {
    let d = compile(LIBRARY, "lib_6_3", TargetEnv::Vulkan1_2, false, "vulkan1.2");
    assert!(d.contains("OpCapability RayTracingKHR"), "{d}");
    assert!(d.contains("OpExtension \"SPV_KHR_ray_tracing\""), "{d}");
    assert!(!d.contains("SPV_NV_ray_tracing") && !d.contains("RayQueryKHR"), "{d}");
    // One entry point per [shader] function, with its own name.
    assert!(has_line(&d, &["OpEntryPoint RayGenerationKHR %RayGen \"RayGen\""]), "{d}");
    assert!(has_line(&d, &["OpEntryPoint MissKHR %Miss \"Miss\""]), "{d}");
    assert!(has_line(&d, &["OpEntryPoint ClosestHitKHR %Hit \"Hit\""]), "{d}");
    // The acceleration structure type, DXC's name.
    assert!(d.contains("%accelerationStructureNV = OpTypeAccelerationStructureKHR"), "{d}");
    // Entry parameters live in the ray tracing storage classes.
    assert!(d.contains("OpTypePointer IncomingRayPayloadKHR %Payload"), "{d}");
    assert!(d.contains("OpTypePointer HitAttributeKHR %Attr"), "{d}");
    // TraceRay's payload: a RayPayloadKHR variable at location 0, passed by pointer; CallShader's
    // data a CallableDataKHR variable at location 0.
    assert!(has_line(&d, &["%p = OpVariable %_ptr_RayPayloadKHR_Payload RayPayloadKHR"]), "{d}");
    assert!(has_line(&d, &["OpDecorate %p Location 0"]), "{d}");
    assert!(has_line(&d, &["OpDecorate %c Location 0"]), "{d}");
    assert!(has_line(&d, &["OpTraceRayKHR ", " %uint_1 %uint_255 %uint_0 %uint_1 %uint_0 ", " %p"]), "{d}");
    assert!(has_line(&d, &["OpExecuteCallableKHR %uint_2 %c"]), "{d}");
    // System values are built-ins; ObjectToWorld3x4 transposes the 4x3 built-in.
    for b in ["LaunchIdKHR", "LaunchSizeKHR", "WorldRayDirectionKHR", "ObjectToWorldKHR", "RayTmaxKHR", "HitKindKHR"] {
        assert!(has_line(&d, &["OpDecorate ", &format!(" BuiltIn {b}")]), "{b}\n{d}");
    }
    assert!(has_line(&d, &["= OpLoad %mat4v3float "]), "{d}");
    assert!(has_line(&d, &["= OpTranspose %mat3v4float "]), "{d}");
}

#[test]
fn nv_library_names_payloads_by_location() {
    let d = compile(LIBRARY, "lib_6_3", TargetEnv::Vulkan1_0, true, "vulkan1.0");
    assert!(d.contains("OpCapability RayTracingNV"), "{d}");
    assert!(d.contains("OpExtension \"SPV_NV_ray_tracing\""), "{d}");
    assert!(!d.contains("RayTracingKHR") && !d.contains("SPV_KHR_ray_tracing"), "{d}");
    // OpTraceNV and OpExecuteCallableNV take the location of the variable, not the variable.
    assert!(has_line(&d, &["OpTraceNV ", " %uint_1 %uint_255 %uint_0 %uint_1 %uint_0 ", " %uint_0"]), "{d}");
    assert!(has_line(&d, &["OpExecuteCallableNV %uint_2 %uint_0"]), "{d}");
    // RayTCurrent is HitTNV under the NV extension.
    assert!(has_line(&d, &["OpDecorate ", " BuiltIn HitTNV"]), "{d}");
}

#[test]
fn khr_ray_tracing_needs_spirv_1_4() {
    let e = lower(LIBRARY, "lib_6_3", TargetEnv::Vulkan1_0, false).expect_err("vulkan1.0 has no SPV_KHR_ray_tracing");
    assert!(e.message.contains("Vulkan 1.1 with SPIR-V 1.4 is required for Raytracing"), "{e:?}");
}

#[test]
fn ignore_hit_writes_the_payload_back_and_ends_the_block() {
    let src = r#"
struct Payload { float4 color; };
struct Attr { float2 bary; };
[shader("anyhit")]
void AnyHit(inout Payload p, in Attr a) {
  p.color = float4(a.bary, 0, 1);
  if (HitKind() == 1) {
    IgnoreHit();
    p.color = 0;
  }
  AcceptHitAndEndSearch();
}
"#;
    let d = compile(src, "lib_6_3", TargetEnv::Vulkan1_2, false, "vulkan1.2");
    // The payload the function has goes to the incoming variable before the shader ends.
    let lines: Vec<&str> = d.lines().map(str::trim).collect();
    let ignore = lines.iter().position(|l| *l == "OpIgnoreIntersectionKHR").expect("OpIgnoreIntersectionKHR");
    assert!(lines[ignore - 1].starts_with("OpStore %p "), "{d}");
    assert!(lines[ignore - 2].contains("= OpLoad %Payload %p_0"), "{d}");
    // A terminator: the dead store after it is not emitted, a label follows.
    assert!(lines[ignore + 1].ends_with("OpLabel"), "{d}");
    assert!(lines.iter().any(|l| *l == "OpTerminateRayKHR"), "{d}");
}

#[test]
fn each_intersection_entry_lists_only_its_hit_attributes() {
    let src = r#"
struct A1 { float2 bary; };
struct A2 { float4 v; };
[shader("intersection")]
void Isect1() { A1 a = { float2(0, 1) }; ReportHit(1.0, 0, a); }
[shader("intersection")]
void Isect2() { A2 a = { float4(0, 1, 2, 3) }; ReportHit(2.0, 1, a); }
"#;
    // spirv-val rejects an entry point with two HitAttributeKHR variables in its interface.
    let d = compile(src, "lib_6_3", TargetEnv::Vulkan1_2, false, "vulkan1.2");
    assert!(has_line(&d, &["= OpReportIntersectionKHR %bool %float_1 %uint_0"]), "{d}");
    assert!(has_line(&d, &["= OpReportIntersectionKHR %bool %float_2 %uint_1"]), "{d}");
}

#[test]
fn ray_query_in_a_compute_shader() {
    let src = r#"
RaytracingAccelerationStructure scene : register(t0);
RWStructuredBuffer<float> result : register(u0);
[numthreads(1, 1, 1)]
void main() {
  RayQuery<RAY_FLAG_FORCE_OPAQUE> q;
  RayDesc ray;
  ray.Origin = float3(0, 0, 0);
  ray.Direction = float3(0, 0, 1);
  ray.TMin = 0.0;
  ray.TMax = 100.0;
  q.TraceRayInline(scene, RAY_FLAG_ACCEPT_FIRST_HIT_AND_END_SEARCH, 0xff, ray);
  while (q.Proceed()) {
    if (q.CandidateType() == CANDIDATE_PROCEDURAL_PRIMITIVE && q.CandidateProceduralPrimitiveNonOpaque())
      q.CommitProceduralPrimitiveHit(1.5);
    else
      q.CommitNonOpaqueTriangleHit();
  }
  if (q.CommittedStatus() == COMMITTED_TRIANGLE_HIT)
    result[0] = q.CommittedRayT() + q.CommittedObjectToWorld3x4()[0][0];
}
"#;
    let d = compile(src, "cs_6_5", TargetEnv::Vulkan1_2, false, "vulkan1.2");
    assert!(d.contains("OpCapability RayQueryKHR") && d.contains("OpExtension \"SPV_KHR_ray_query\""), "{d}");
    assert!(!d.contains("RayTracingKHR") && !d.contains("SPV_KHR_ray_tracing"), "{d}");
    // An unnamed Function variable of the ray query type.
    assert!(has_line(&d, &["= OpVariable %_ptr_Function_rayQueryKHR Function"]), "{d}");
    // The template's FORCE_OPAQUE (1) or-ed into ACCEPT_FIRST_HIT_AND_END_SEARCH (4).
    assert!(has_line(&d, &["OpRayQueryInitializeKHR ", " %uint_5 %uint_255 "]), "{d}");
    assert!(has_line(&d, &["= OpRayQueryProceedKHR %bool "]), "{d}");
    assert!(has_line(&d, &["= OpRayQueryGetIntersectionTypeKHR %uint ", " %uint_0"]), "{d}");
    assert!(has_line(&d, &["= OpRayQueryGetIntersectionTypeKHR %uint ", " %uint_1"]), "{d}");
    // NonOpaque is the negation of SPIR-V's AABB-opaque query.
    assert!(has_line(&d, &["= OpRayQueryGetIntersectionCandidateAABBOpaqueKHR %bool "]), "{d}");
    assert!(has_line(&d, &["= OpLogicalNot %bool "]), "{d}");
    assert!(has_line(&d, &["OpRayQueryGenerateIntersectionKHR ", " %float_1_5"]), "{d}");
    assert!(has_line(&d, &["OpRayQueryConfirmIntersectionKHR "]), "{d}");
    assert!(has_line(&d, &["= OpRayQueryGetIntersectionTKHR %float ", " %uint_1"]), "{d}");
    assert!(has_line(&d, &["= OpRayQueryGetIntersectionObjectToWorldKHR %mat4v3float ", " %uint_1"]), "{d}");
}

#[test]
fn shader_records_are_std430_blocks_without_bindings() {
    // SPIR-V.rst: [[vk::shader_record_ext]] on a cbuffer or ConstantBuffer; DXC lays records out
    // as storage buffers (vk.layout.shader-record-ext.std430.hlsl: `float2 f1[3]` has stride 8),
    // so `float a[2]` has stride 4 (16 in a uniform buffer) and a float3 after it offset 16
    // (its 16-byte alignment; 32 in a uniform buffer).
    let src = r#"
struct S { float a[2]; float3 b; };
[[vk::shader_record_ext]] ConstantBuffer<S> rec;
[[vk::shader_record_ext]] cbuffer Block { float c[2]; float3 d; };
struct Payload { float4 color; };
[shader("miss")]
void Miss(inout Payload p) { p.color = float4(rec.b + d, rec.a[1] + c[0]); }
"#;
    let d = compile(src, "lib_6_3", TargetEnv::Vulkan1_2, false, "vulkan1.2");
    assert!(has_line(&d, &["%rec = OpVariable %_ptr_ShaderRecordBufferKHR_type_ConstantBuffer_S ShaderRecordBufferKHR"]), "{d}");
    assert!(has_line(&d, &["%Block = OpVariable %_ptr_ShaderRecordBufferKHR_type_Block ShaderRecordBufferKHR"]), "{d}");
    assert!(has_line(&d, &["OpMemberDecorate %type_ConstantBuffer_S 1 Offset 16"]), "{d}");
    assert!(has_line(&d, &["OpMemberDecorate %type_Block 1 Offset 16"]), "{d}");
    assert!(has_line(&d, &["OpDecorate %_arr_float_uint_2 ArrayStride 4"]), "{d}");
    assert!(!d.contains(" Binding ") && !d.contains(" DescriptorSet "), "{d}");
    assert!(has_line(&d, &["= OpAccessChain %_ptr_ShaderRecordBufferKHR_v3float %rec %int_1"]), "{d}");
    assert!(has_line(&d, &["= OpAccessChain %_ptr_ShaderRecordBufferKHR_v3float %Block %int_1"]), "{d}");
}
