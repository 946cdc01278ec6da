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

#[test]
fn amplification_shader_before_spirv_1_4_is_not_supported_yet() {
    let src = "struct P { float x; }; groupshared P p; [numthreads(1, 1, 1)] void main() { DispatchMesh(1, 1, 1, p); }";
    let e = common::lower(src, "as_6_5", TargetEnv::default()).expect_err("the NV flavour is not done");
    assert!(e.message.contains("not supported"), "{}", e.message);
}
