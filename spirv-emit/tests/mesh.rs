//! Mesh shaders (SPV_EXT_mesh_shader) end to end: HLSL → SPIR-V, checked by `spirv-val`
//! (skipped with a message when SPIRV-Tools is missing) and by what the disassembly must
//! contain, in order. The expected lines follow DXC's `meshshading.ext.triangle.mesh.hlsl` and
//! `meshshading.ext.cullprimative.hlsl` CHECK lines (SPIR-V.rst, "Mesh and Amplification
//! Shaders").

mod common;

use hlslc_spirv::target::TargetEnv;

const TRIANGLE: &str = r#"
struct MeshPerVertex {
    float4 position : SV_Position;
    float2 userVertAttr : USER;
    float4 userVertAttrArr[2] : USER_ARR;
    float4x4 userVertAttrMat : USER_MAT;
};
struct MeshPerPrimitive {
    int primId : SV_PrimitiveID;
    int layer  : SV_RenderTargetArrayIndex;
    bool cull : SV_CullPrimitive;
    float3 userPrimAttr : PRIM_USER;
};
struct MeshPayload { float dummy[10]; float4 pos; };

[outputtopology("triangle")]
[numthreads(128, 1, 1)]
void main(out vertices MeshPerVertex verts[64],
          out indices uint3 primitiveInd[81],
          out primitives MeshPerPrimitive prims[81],
          in payload MeshPayload pld,
          in uint tid : SV_DispatchThreadID,
          in uint tig : SV_GroupIndex)
{
    SetMeshOutputCounts(64, 81);
    verts[tid].position.x = 11.0;
    verts[tid].position.yw = float2(12.0, 14.0);
    verts[tid].userVertAttrArr[1] = float4(27.0, 28.0, 29.0, 30.0);
    verts[tid].userVertAttrMat[3] = float4(7.0, 8.0, 9.0, 10.0);
    MeshPerVertex vert;
    vert.position = pld.pos;
    vert.userVertAttr = float2(9.0, 10.0);
    vert.userVertAttrArr[0] = float4(17.0, 18.0, 19.0, 20.0);
    vert.userVertAttrArr[1] = float4(27.0, 28.0, 29.0, 30.0);
    vert.userVertAttrMat = (float4x4)0;
    verts[tid + 1] = vert;
    prims[tig].primId = 10;
    prims[tig].cull = false;
    prims[tig].userPrimAttr = verts[tid].position.xyz;
    primitiveInd[4].x = 1;
    primitiveInd[2][2] = 1;
    primitiveInd[tid] = uint3(11, 12, 13);
}
"#;

#[test]
fn triangle_mesh_shader_writes_its_outputs_in_place() {
    common::check_in_order(
        TRIANGLE,
        "ms_6_5",
        TargetEnv::Vulkan1_1Spirv1_4,
        "vulkan1.1spv1.4",
        &[
            "OpCapability MeshShadingEXT",
            "OpExtension \"SPV_EXT_mesh_shader\"",
            "OpEntryPoint MeshEXT %main \"main\"",
            "OpExecutionMode %main LocalSize 128 1 1",
            "OpExecutionMode %main OutputTrianglesEXT",
            "OpExecutionMode %main OutputVertices 64",
            "OpExecutionMode %main OutputPrimitivesEXT 81",
            // (DXC puts the Location decorations after the others: meshshading.ext.triangle.mesh.)
            "OpDecorate %gl_Position BuiltIn Position",
            "BuiltIn PrimitiveTriangleIndicesEXT",
            "OpDecorate %gl_PrimitiveID BuiltIn PrimitiveId",
            "OpDecorate %gl_PrimitiveID PerPrimitiveEXT",
            "OpDecorate %gl_Layer BuiltIn Layer",
            "OpDecorate %gl_Layer PerPrimitiveEXT",
            "BuiltIn CullPrimitiveEXT",
            "PerPrimitiveEXT",
            "OpDecorate %out_var_PRIM_USER PerPrimitiveEXT",
            "OpDecorate %out_var_USER Location 0",
            "OpDecorate %out_var_USER_ARR Location 1",
            "OpDecorate %out_var_USER_MAT Location 3",
            "OpDecorate %out_var_PRIM_USER Location 7",
            "%gl_Position = OpVariable %_ptr_Output__arr_v4float_uint_64 Output",
            "%out_var_USER = OpVariable %_ptr_Output__arr_v2float_uint_64 Output",
            "%out_var_USER_ARR = OpVariable %_ptr_Output__arr__arr_v4float_uint_2_uint_64 Output",
            "%out_var_USER_MAT = OpVariable %_ptr_Output__arr_mat4v4float_uint_64 Output",
            "= OpVariable %_ptr_Output__arr_v3uint_uint_81 Output",
            "%gl_PrimitiveID = OpVariable %_ptr_Output__arr_int_uint_81 Output",
            "%gl_Layer = OpVariable %_ptr_Output__arr_int_uint_81 Output",
            "= OpVariable %_ptr_Output__arr_bool_uint_81 Output",
            "%out_var_PRIM_USER = OpVariable %_ptr_Output__arr_v3float_uint_81 Output",
            "%in_var_pld = OpVariable %_ptr_TaskPayloadWorkgroupEXT_MeshPayload TaskPayloadWorkgroupEXT",
            // The wrapper copies the payload into the parameter.
            "OpLoad %MeshPayload %in_var_pld",
            "OpStore %param_var_pld",
            "OpSetMeshOutputsEXT %uint_64 %uint_81",
            // verts[tid].position.x = 11; verts[tid].position.yw = ...: one store per component.
            "OpAccessChain %_ptr_Output_v4float %gl_Position",
            "OpAccessChain %_ptr_Output_float",
            "OpStore", "%float_11",
            "OpAccessChain %_ptr_Output_v4float %gl_Position",
            "OpAccessChain %_ptr_Output_float", "%uint_1",
            "OpCompositeExtract %float",
            "OpAccessChain %_ptr_Output_float", "%uint_3",
            "OpAccessChain %_ptr_Output__arr_v4float_uint_2 %out_var_USER_ARR",
            "OpAccessChain %_ptr_Output_v4float", "%uint_1",
            "OpAccessChain %_ptr_Output_mat4v4float %out_var_USER_MAT",
            "OpAccessChain %_ptr_Output_v4float", "%uint_3",
            // verts[tid + 1] = vert: member by member.
            "OpIAdd %uint",
            "OpAccessChain %_ptr_Output_v4float %gl_Position",
            "OpAccessChain %_ptr_Output_v2float %out_var_USER",
            "OpAccessChain %_ptr_Output__arr_v4float_uint_2 %out_var_USER_ARR",
            "OpAccessChain %_ptr_Output_mat4v4float %out_var_USER_MAT",
            "OpAccessChain %_ptr_Output_int %gl_PrimitiveID",
            "OpStore", "%int_10",
            "OpAccessChain %_ptr_Output_bool",
            "OpStore", "%false",
            // An output read back from its variable.
            "OpAccessChain %_ptr_Output_v4float %gl_Position",
            "OpAccessChain %_ptr_Output_v3float %out_var_PRIM_USER",
            // primitiveInd[4].x = 1; primitiveInd[2][2] = 1
            "OpAccessChain %_ptr_Output_v3uint", "%uint_4",
            "OpAccessChain %_ptr_Output_uint",
            "OpStore", "%uint_1",
            "OpAccessChain %_ptr_Output_v3uint", "%uint_2",
            "OpAccessChain %_ptr_Output_uint", "%uint_2",
            "OpAccessChain %_ptr_Output_v3uint",
        ],
    );
}

#[test]
fn line_and_point_topologies_pick_their_index_builtins() {
    for (topology, index_ty, mode, builtin) in [
        ("line", "uint2", "OutputLinesEXT", "PrimitiveLineIndicesEXT"),
        ("point", "uint", "OutputPoints", "PrimitivePointIndicesEXT"),
    ] {
        let src = format!(
            "struct V {{ float4 pos : SV_Position; }};
             [outputtopology(\"{topology}\")] [numthreads(32, 1, 1)]
             void main(out vertices V verts[16], out indices {index_ty} ind[8], uint t : SV_GroupIndex) {{
                 SetMeshOutputCounts(16, 8);
                 verts[t].pos = float4(1, 2, 3, 4);
                 ind[t] = ({index_ty})t;
             }}"
        );
        common::check_in_order(
            &src,
            "ms_6_5",
            TargetEnv::Vulkan1_1Spirv1_4,
            "vulkan1.1spv1.4",
            &[&format!("OpExecutionMode %main {mode}"), "OpExecutionMode %main OutputVertices 16", &format!("BuiltIn {builtin}")],
        );
    }
}

/// Before SPIR-V 1.4 the NV flavour (dxc's meshshading.nv.line.mesh): `MeshNV`, the indices one
/// flat `uint` array (`PrimitiveIndicesNV`, 2 entries per line: element 6 is entries 6*2 and
/// 6*2 + 1), `SetMeshOutputCounts` a store of the primitive count to `PrimitiveCountNV`; a mesh
/// payload is read member by member from `PerTaskNV` inputs.
#[test]
fn mesh_shader_before_spirv_1_4_takes_the_nv_flavour() {
    let src = r#"
struct MeshPerVertex { float4 position : SV_Position; };
struct MeshPayload { float dummy[10]; float4 pos; };
[outputtopology("line")]
[numthreads(128, 1, 1)]
void main(out vertices MeshPerVertex verts[256], out indices uint2 primitiveInd[256],
          in payload MeshPayload pld, in uint tid : SV_DispatchThreadID) {
    SetMeshOutputCounts(256, 256);
    verts[tid].position = pld.pos;
    primitiveInd[6] = uint2(1, 2);
}
"#;
    let text = common::check_in_order(
        src,
        "ms_6_5",
        TargetEnv::Vulkan1_1,
        "vulkan1.1",
        &[
            "OpCapability MeshShadingNV",
            "OpExtension \"SPV_NV_mesh_shader\"",
            "OpEntryPoint MeshNV %main \"main\" %in_var_dummy %in_var_pos %gl_GlobalInvocationID %gl_Position",
            "OpExecutionMode %main OutputLinesEXT",
            "OpExecutionMode %main OutputPrimitivesEXT 256",
            "BuiltIn PrimitiveIndicesNV",
            "OpDecorate %in_var_dummy PerTaskNV",
            "OpDecorate %in_var_pos Offset 48",
            "BuiltIn PrimitiveCountNV",
            "OpVariable %_ptr_Output__arr_uint_uint_512 Output",
            "OpStore %",
            "OpIMul %uint %uint_6 %uint_2",
            "OpAccessChain %_ptr_Output_uint",
            "OpCompositeExtract %uint",
            "OpStore",
            "OpIAdd %uint",
            "OpAccessChain %_ptr_Output_uint",
            "OpCompositeExtract %uint",
            "OpStore",
        ],
    );
    assert!(!text.contains("SetMeshOutputsEXT"), "{text}");
    assert!(!text.contains("MeshShadingEXT"), "{text}");
    // -fspv-extension=SPV_NV_mesh_shader asks for it on SPIR-V 1.4 too (the driver's option).
    let lo = hlslc_spirv::lower::LowerOptions { target: TargetEnv::Vulkan1_1Spirv1_4, mesh_nv: true, ..Default::default() };
    let words = common::lower_with(src, "ms_6_5", lo).expect("lowers");
    let text = hlslc_spirv::disasm::disassemble(&words).expect("disassembles");
    assert!(text.contains("OpEntryPoint MeshNV"), "{text}");
}

/// A mesh shader's clip and cull distances: each kind one built-in, an array over the output
/// vertices of the per-vertex arrays, packed by semantic index as in other stages (SV_ClipDistance3
/// takes elements 0..2, SV_ClipDistance4 2..5); a whole value, a component and a swizzle are
/// written through `(vertex, element)` access chains (DXC's meshshading.ext.triangle.mesh).
#[test]
fn clip_and_cull_distances_in_mesh_outputs_are_per_vertex_arrays() {
    let src = r#"
struct V {
    float4 p : SV_Position;
    float3 clip4 : SV_ClipDistance4;
    float cull5 : SV_CullDistance5;
    float2 clip3 : SV_ClipDistance3;
};
[outputtopology("triangle")] [numthreads(4, 1, 1)]
void main(out vertices V verts[64], out indices uint3 prims[2], uint tid : SV_GroupIndex) {
    SetMeshOutputCounts(64, 2);
    verts[tid].clip4 = float3(1.0, 2.0, 3.0);
    verts[tid].clip4[0] = 10.0;
    verts[tid].cull5 = 5.0;
    verts[tid].clip3.y = 12.0;
    V v;
    v.p = float4(0, 0, 0, 1);
    v.clip4 = float3(4, 5, 6);
    v.cull5 = 7;
    v.clip3 = float2(8, 9);
    verts[tid + 1] = v;
}
"#;
    let text = common::check_in_order(
        src,
        "ms_6_5",
        TargetEnv::Vulkan1_1Spirv1_4,
        "vulkan1.1spv1.4",
        &[
            "OpCapability ClipDistance",
            "OpCapability CullDistance",
            "OpEntryPoint MeshEXT %main \"main\" %gl_ClipDistance %gl_CullDistance",
            "OpDecorate %gl_ClipDistance BuiltIn ClipDistance",
            "OpDecorate %gl_CullDistance BuiltIn CullDistance",
            "%gl_ClipDistance = OpVariable %_ptr_Output__arr__arr_float_uint_5_uint_64 Output",
            "%gl_CullDistance = OpVariable %_ptr_Output__arr__arr_float_uint_1_uint_64 Output",
        ],
    );
    // clip4 = float3(...) writes elements 2, 3 and 4 of the vertex's array (clip3 takes 0 and
    // 1), cull5 element 0 of the cull array: (vertex, element) access chains.
    let chains = |var: &str, k: u32| {
        text.lines().filter(|l| l.contains(&format!("OpAccessChain %_ptr_Output_float {var} ")) && l.trim_end().ends_with(&format!(" %uint_{k}"))).count()
    };
    for k in [2, 3, 4] {
        assert!(chains("%gl_ClipDistance", k) >= 2, "element {k} of clip4, written whole twice:\n{text}");
    }
    assert!(chains("%gl_CullDistance", 0) >= 2, "cull5:\n{text}");
    assert!(!text.contains("SV_ClipDistance3"), "no ordinary stage variable for a clip distance:\n{text}");
}

#[test]
fn a_clip_distance_array_in_mesh_outputs_is_refused_by_name() {
    let src = "struct V { float4 p : SV_Position; float c[2] : SV_ClipDistance0; }; [outputtopology(\"triangle\")] [numthreads(1, 1, 1)]
               void main(out vertices V v[3], out indices uint3 i[1]) { SetMeshOutputCounts(3, 1); }";
    let e = common::lower(src, "ms_6_5", TargetEnv::Vulkan1_1Spirv1_4).expect_err("not done");
    assert!(e.message.contains("an array of SV_ClipDistance/SV_CullDistance values in a mesh shader output"), "{}", e.message);
}
