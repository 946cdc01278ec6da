//! `offsets`: an `Offset` image operand whose id is a constant becomes `ConstOffset` (outside
//! gathers, where `Offset` may stay).

mod common;
use hlslc_spirv_opt::offsets;

#[test]
fn constant_offsets_become_const_offset_outside_gathers() {
    let head = r#"
OpCapability Shader
OpCapability ImageGatherExtended
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%int = OpTypeInt 32 1
%v2float = OpTypeVector %float 2
%v2int = OpTypeVector %int 2
%v4float = OpTypeVector %float 4
%img = OpTypeImage %float 2D 0 0 0 1 Unknown
%simg = OpTypeSampledImage %img
%pimg = OpTypePointer UniformConstant %simg
%tex = OpVariable %pimg UniformConstant
%f0 = OpConstant %float 0
%i0 = OpConstant %int 0
%i1 = OpConstant %int 1
%uv = OpConstantComposite %v2float %f0 %f0
%off = OpConstantComposite %v2int %i1 %i0
%main = OpFunction %void None %fn
%entry = OpLabel
%t = OpLoad %simg %tex
"#;
    let input = format!(
        "{head}{}",
        r#"%a = OpImageSampleExplicitLod %v4float %t %uv Lod|Offset %f0 %off
%b = OpImageGather %v4float %t %uv %i0 Offset %off
OpReturn
OpFunctionEnd
"#
    );
    let expected = format!(
        "{head}{}",
        r#"%a = OpImageSampleExplicitLod %v4float %t %uv Lod|ConstOffset %f0 %off
%b = OpImageGather %v4float %t %uv %i0 Offset %off
OpReturn
OpFunctionEnd
"#
    );
    common::check_env("spv1.0", &input, &expected, |m| {
        assert!(offsets::run(m));
    });
}
