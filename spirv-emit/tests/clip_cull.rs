//! `SV_ClipDistance` / `SV_CullDistance`: all values of one direction share one `float` array
//! built-in, sorted by semantic index and packed tightly. Checked by `spirv-val` (skipped when
//! SPIRV-Tools is missing) and by what the disassembly must contain, in order.

mod common;

use hlslc_spirv::target::TargetEnv;

#[test]
fn vertex_outputs_are_packed_by_semantic_index() {
    // Clip: c0 (float3, index 0) at 0..3, c1 (float2, index 1) at 3..5.
    // Cull: k3 at 0, k5 at 1.
    let src = r#"
struct Out { float4 pos : SV_Position; float2 c1 : SV_ClipDistance1; };
Out main(out float3 c0 : SV_ClipDistance0, out float k5 : SV_CullDistance5, out float k3 : SV_CullDistance3) {
    c0 = 1; k5 = 2; k3 = 3;
    Out o = (Out)0;
    return o;
}
"#;
    common::check_in_order(
        src,
        "vs_6_0",
        TargetEnv::default(),
        "vulkan1.1",
        &[
            "OpCapability ClipDistance",
            "OpCapability CullDistance",
            "OpDecorate %gl_ClipDistance BuiltIn ClipDistance",
            "OpDecorate %gl_CullDistance BuiltIn CullDistance",
            "%gl_ClipDistance = OpVariable %_ptr_Output__arr_float_uint_5 Output",
            "%gl_CullDistance = OpVariable %_ptr_Output__arr_float_uint_2 Output",
            // c1 starts at element 3.
            "OpIAdd %uint %uint_3 %uint_1",
            // c0 at element 0, then k5 at 1 and k3 at 0.
            "OpIAdd %uint %uint_0 %uint_2",
            "OpAccessChain %_ptr_Output_float %gl_CullDistance %uint_1",
            "OpAccessChain %_ptr_Output_float %gl_CullDistance %uint_0",
        ],
    );
}

#[test]
fn pixel_inputs_read_from_the_shared_arrays() {
    let src = r#"
float4 main(float2 a : SV_ClipDistance2, float b[2] : SV_ClipDistance0, float c : SV_CullDistance) : SV_Target {
    return float4(a, b[1], c);
}
"#;
    common::check_in_order(
        src,
        "ps_6_0",
        TargetEnv::default(),
        "vulkan1.1",
        &[
            "%gl_ClipDistance = OpVariable %_ptr_Input__arr_float_uint_4 Input",
            "%gl_CullDistance = OpVariable %_ptr_Input__arr_float_uint_1 Input",
            // a (index 2) comes after b's two floats.
            "OpAccessChain %_ptr_Input_float %gl_ClipDistance %uint_2",
            "OpAccessChain %_ptr_Input_float %gl_ClipDistance %uint_3",
            "OpCompositeConstruct %v2float",
            "OpAccessChain %_ptr_Input_float %gl_ClipDistance %uint_0",
            "OpAccessChain %_ptr_Input_float %gl_ClipDistance %uint_1",
            "OpCompositeConstruct %_arr_float_uint_2",
            "OpAccessChain %_ptr_Input_float %gl_CullDistance %uint_0",
        ],
    );
}

#[test]
fn vertex_shader_clip_inputs_stay_attributes() {
    let words = common::compile("float4 main(float2 c : SV_ClipDistance) : SV_Position { return c.xyxy; }", "vs_6_0", TargetEnv::default());
    let text = common::spirv_dis(&words, "clip_vs_in");
    assert!(!text.contains("BuiltIn ClipDistance"), "{text}");
    assert!(text.contains("%in_var_SV_ClipDistance = OpVariable %_ptr_Input_v2float Input"), "{text}");
}
