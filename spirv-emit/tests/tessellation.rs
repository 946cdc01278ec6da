//! Hull and domain shaders end to end: HLSL → SPIR-V, checked by `spirv-val` (skipped with a
//! message when SPIRV-Tools is missing) and by what the disassembly must contain, in order.

mod common;

use hlslc_spirv::target::TargetEnv;

const HULL: &str = r#"
struct CP { float3 p : POS; bool b : FLAG; };
struct PC { float edges[3] : SV_TessFactor; float inside : SV_InsideTessFactor; float3 n : NORMAL; };

PC pcf(InputPatch<CP, 3> ip, OutputPatch<CP, 4> op, uint pid : SV_PrimitiveID) {
    PC o;
    o.edges[0] = ip[0].p.x;
    o.edges[1] = op[3].p.y;
    o.edges[2] = pid;
    o.inside = 2;
    o.n = op[1].b ? ip[2].p : 0;
    return o;
}

[domain("tri")]
[partitioning("fractional_odd")]
[outputtopology("triangle_cw")]
[outputcontrolpoints(4)]
[patchconstantfunc("pcf")]
CP main(InputPatch<CP, 3> ip, uint id : SV_OutputControlPointID) {
    CP o = ip[id % 3];
    o.b = id > 1;
    return o;
}
"#;

#[test]
fn hull_shader_runs_per_control_point_then_the_patch_constant_function_once() {
    let text = common::check_in_order(
        HULL,
        "hs_6_0",
        TargetEnv::default(),
        "vulkan1.0",
        &[
            "OpCapability Tessellation",
            "OpEntryPoint TessellationControl %main \"main\" %in_var_POS %in_var_FLAG %gl_InvocationID %out_var_POS %out_var_FLAG %gl_PrimitiveID %gl_TessLevelOuter %gl_TessLevelInner %out_var_NORMAL",
            "OpExecutionMode %main Triangles",
            "OpExecutionMode %main SpacingFractionalOdd",
            "OpExecutionMode %main VertexOrderCw",
            "OpExecutionMode %main OutputVertices 4",
            "OpDecorate %gl_TessLevelOuter BuiltIn TessLevelOuter",
            "OpDecorate %gl_TessLevelOuter Patch",
            "OpDecorate %out_var_NORMAL Patch",
            // Per-vertex inputs are arrays over the input patch, outputs over the output patch.
            "%in_var_POS = OpVariable %_ptr_Input__arr_v3float_uint_3 Input",
            "%out_var_POS = OpVariable %_ptr_Output__arr_v3float_uint_4 Output",
            "%gl_TessLevelOuter = OpVariable %_ptr_Output__arr_float_uint_4 Output",
            "%gl_TessLevelInner = OpVariable %_ptr_Output__arr_float_uint_2 Output",
            "%out_var_NORMAL = OpVariable %_ptr_Output_v3float Output",
            "%main = OpFunction",
            "%temp_var_hullMainRetVal = OpVariable %_ptr_Function__arr_CP_uint_4 Function",
            "= OpLoad %uint %gl_InvocationID",
            "OpFunctionCall %CP %src_main %param_var_ip %param_var_id",
            "OpAccessChain %_ptr_Output_v3float %out_var_POS %",
            "OpControlBarrier %uint_2 %uint_4 %uint_0",
            "OpIEqual %bool %",
            "OpBranchConditional",
            "%if_true = OpLabel",
            // The output patch is read back from the control point outputs.
            "OpAccessChain %_ptr_Output_v3float %out_var_POS %uint_3",
            "OpFunctionCall %PC %pcf %param_var_ip %temp_var_hullMainRetVal %param_var_pid",
            // A float[3] SV_TessFactor fills the first three of TessLevelOuter's four.
            "OpAccessChain %_ptr_Output_float %gl_TessLevelOuter %uint_2",
            "OpAccessChain %_ptr_Output_float %gl_TessLevelInner %uint_0",
            "%if_merge = OpLabel",
            "OpReturn",
        ],
    );
    assert!(!text.contains("OpDecorate %out_var_POS Patch"), "per-vertex outputs are not per patch:\n{text}");
}

#[test]
fn domain_shader_reads_tess_coord_patch_constants_and_control_points() {
    let src = r#"
struct PC { float edges[2] : SV_TessFactor; float3 n : NORMAL; };
struct CP { float3 p : POS; };
struct O { float4 pos : SV_Position; };
[domain("isoline")]
O main(PC pc, float2 uv : SV_DomainLocation, const OutputPatch<CP, 2> patch) {
    O o;
    o.pos = float4(lerp(patch[0].p, patch[1].p, uv.x) + pc.n * pc.edges[1], 1);
    return o;
}
"#;
    let text = common::check_in_order(
        src,
        "ds_6_0",
        TargetEnv::default(),
        "vulkan1.0",
        &[
            "OpEntryPoint TessellationEvaluation %main \"main\" %gl_TessLevelOuter %in_var_NORMAL %gl_TessCoord %in_var_POS %gl_Position",
            "OpExecutionMode %main Isolines",
            "OpDecorate %in_var_NORMAL Patch",
            "OpDecorate %gl_TessCoord BuiltIn TessCoord",
            "%gl_TessLevelOuter = OpVariable %_ptr_Input__arr_float_uint_4 Input",
            "%gl_TessCoord = OpVariable %_ptr_Input_v3float Input",
            "%in_var_POS = OpVariable %_ptr_Input__arr_v3float_uint_2 Input",
            // TessLevelOuter is float[4]: the HLSL float[2] takes its first two.
            "= OpLoad %_arr_float_uint_4 %gl_TessLevelOuter",
            "OpCompositeExtract %float %",
            "OpCompositeConstruct %_arr_float_uint_2",
            "OpVectorShuffle %v2float",
            "OpFunctionCall %O %src_main %param_var_pc %param_var_uv %param_var_patch",
        ],
    );
    assert!(!text.contains("OpDecorate %in_var_POS Patch"), "control points are not per patch:\n{text}");
}

/// With two definitions of the patch constant function, the last is called (dxc's pick, which
/// sema makes once for both back ends).
#[test]
fn the_last_patch_constant_function_definition_is_called() {
    let src = HULL.replace(
        "PC pcf(InputPatch<CP, 3> ip, OutputPatch<CP, 4> op, uint pid : SV_PrimitiveID) {",
        "PC pcf(InputPatch<CP, 3> ip) { PC o = (PC)0; return o; }\nPC pcf(InputPatch<CP, 3> ip, OutputPatch<CP, 4> op, uint pid : SV_PrimitiveID) {",
    );
    let text = common::check_in_order(&src, "hs_6_0", TargetEnv::default(), "vulkan1.0", &["OpFunctionCall %PC %pcf %param_var_ip %temp_var_hullMainRetVal %param_var_pid"]);
    assert!(!text.contains("OpFunctionCall %PC %pcf %param_var_ip\n"), "the one-parameter definition is not called:\n{text}");
    assert_eq!(text.matches("= OpFunction %PC ").count(), 1, "{text}");
}
