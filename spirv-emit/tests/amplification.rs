//! Amplification shaders end to end: HLSL → SPIR-V, checked by `spirv-val` (skipped with a
//! message when SPIRV-Tools is missing) and by what the disassembly must contain, in order.

mod common;

use hlslc_spirv::target::TargetEnv;

#[test]
fn amplification_shader_dispatches_mesh_tasks_with_its_payload() {
    let src = r#"
struct Payload { float dummy[4]; float4 pos; };
groupshared Payload pld;
groupshared uint scratch;
[numthreads(8, 1, 1)]
void main(uint tid : SV_DispatchThreadID, uint3 gid : SV_GroupID) {
    int n = (int)gid.y;
    scratch = tid;
    pld.pos = float4(tid, scratch, 0, 1);
    DispatchMesh(8, n, 1, pld);
}
"#;
    common::check_in_order(
        src,
        "as_6_5",
        TargetEnv::Vulkan1_1Spirv1_4,
        "vulkan1.1spv1.4",
        &[
            "OpCapability MeshShadingEXT",
            "OpExtension \"SPV_EXT_mesh_shader\"",
            "OpEntryPoint TaskEXT %main \"main\"",
            "OpExecutionMode %main LocalSize 8 1 1",
            "%pld = OpVariable %_ptr_TaskPayloadWorkgroupEXT_Payload TaskPayloadWorkgroupEXT",
            "%scratch = OpVariable %_ptr_Workgroup_uint Workgroup",
            "OpControlBarrier %uint_2 %uint_2 %uint_264",
            "OpBitcast %uint",
            "OpEmitMeshTasksEXT %uint_8 %",
        ],
    );
}

/// Before SPIR-V 1.4 the NV flavour (dxc's meshshading.nv.amplification): `TaskNV`, the
/// payload stays in `Workgroup` storage, `DispatchMesh` copies its members to `PerTaskNV`
/// outputs (with their std430 offsets) and writes `x * (y * z)` to `TaskCountNV`; no
/// `OpEmitMeshTasksEXT`.
#[test]
fn amplification_shader_before_spirv_1_4_takes_the_nv_flavour() {
    let src = r#"
struct MeshPayload { float dummy[10]; float4 pos; };
groupshared MeshPayload pld;
[numthreads(128, 1, 1)]
void main([[vk::builtin("DrawIndex")]] in int drawId : DRAW, in uint tid : SV_DispatchThreadID) {
    pld.pos = float4(tid, 0, 0, 0);
    DispatchMesh(128, drawId, drawId, pld);
}
"#;
    let text = common::check_in_order(
        src,
        "as_6_5",
        TargetEnv::Vulkan1_1,
        "vulkan1.1",
        &[
            "OpCapability MeshShadingNV",
            "OpExtension \"SPV_NV_mesh_shader\"",
            "OpEntryPoint TaskNV %main \"main\"",
            "OpDecorate %out_var_dummy PerTaskNV",
            "OpDecorate %out_var_dummy Offset 0",
            "OpDecorate %out_var_pos PerTaskNV",
            "OpDecorate %out_var_pos Offset 48",
            "BuiltIn TaskCountNV",
            "%pld = OpVariable %_ptr_Workgroup_MeshPayload Workgroup",
            "%out_var_dummy = OpVariable %_ptr_Output__arr_float_uint_10 Output",
            "OpControlBarrier %uint_2 %uint_2 %uint_264",
            "OpLoad %MeshPayload %pld",
            "OpStore %out_var_dummy",
            "OpStore %out_var_pos",
            "OpIMul %uint %uint_128",
        ],
    );
    assert!(!text.contains("EXT"), "{text}");
    assert!(!text.contains("TaskPayloadWorkgroupEXT"), "{text}");
}
