//! `descsroa`: an array of descriptors indexed by constants becomes one variable per element,
//! named `name[i]`, with the array's decorations and its binding plus the index; an array with
//! a dynamic index keeps its form.

mod common;
use hlslc_spirv_opt::descsroa;

const HEAD: &str = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %out
OpExecutionMode %main OriginUpperLeft
"#;

const TYPES: &str = r#"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%uint = OpTypeInt 32 0
%v2float = OpTypeVector %float 2
%v4float = OpTypeVector %float 4
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%f0 = OpConstant %float 0
%uv = OpConstantComposite %v2float %f0 %f0
%img = OpTypeImage %float 2D 0 0 0 1 Unknown
%arr = OpTypeArray %img %u2
%parr = OpTypePointer UniformConstant %arr
%pimg = OpTypePointer UniformConstant %img
%smp = OpTypeSampler
%psmp = OpTypePointer UniformConstant %smp
%simg = OpTypeSampledImage %img
%pout = OpTypePointer Output %v4float
%out = OpVariable %pout Output
"#;

#[test]
fn constant_indices_split_the_array_into_element_variables() {
    let input = format!(
        "{HEAD}{}{TYPES}{}",
        r#"OpName %tex "tex"
OpDecorate %tex DescriptorSet 1
OpDecorate %tex Binding 3
OpDecorate %s DescriptorSet 0
OpDecorate %s Binding 0
OpDecorate %out Location 0
"#,
        r#"%tex = OpVariable %parr UniformConstant
%s = OpVariable %psmp UniformConstant
%main = OpFunction %void None %fn
%entry = OpLabel
%sv = OpLoad %smp %s
%p1 = OpAccessChain %pimg %tex %u1
%t1 = OpLoad %img %p1
%p0 = OpAccessChain %pimg %tex %u0
%t0 = OpLoad %img %p0
%si1 = OpSampledImage %simg %t1 %sv
%a = OpImageSampleImplicitLod %v4float %si1 %uv
%si0 = OpSampledImage %simg %t0 %sv
%b = OpImageSampleImplicitLod %v4float %si0 %uv
%c = OpFAdd %v4float %a %b
OpStore %out %c
OpReturn
OpFunctionEnd
"#
    );
    let expected = format!(
        "{HEAD}{}{TYPES}{}",
        r#"OpName %tex0 "tex[0]"
OpName %tex1 "tex[1]"
OpDecorate %s DescriptorSet 0
OpDecorate %s Binding 0
OpDecorate %out Location 0
OpDecorate %tex0 DescriptorSet 1
OpDecorate %tex0 Binding 3
OpDecorate %tex1 DescriptorSet 1
OpDecorate %tex1 Binding 4
"#,
        r#"%tex0 = OpVariable %pimg UniformConstant
%tex1 = OpVariable %pimg UniformConstant
%s = OpVariable %psmp UniformConstant
%main = OpFunction %void None %fn
%entry = OpLabel
%sv = OpLoad %smp %s
%t1 = OpLoad %img %tex1
%t0 = OpLoad %img %tex0
%si1 = OpSampledImage %simg %t1 %sv
%a = OpImageSampleImplicitLod %v4float %si1 %uv
%si0 = OpSampledImage %simg %t0 %sv
%b = OpImageSampleImplicitLod %v4float %si0 %uv
%c = OpFAdd %v4float %a %b
OpStore %out %c
OpReturn
OpFunctionEnd
"#
    );
    common::check_env("spv1.0", &input, &expected, |m| {
        assert!(descsroa::run(m));
    });
}

#[test]
fn a_dynamic_index_keeps_the_array() {
    let input = format!(
        "{HEAD}{}{TYPES}{}",
        r#"OpDecorate %tex DescriptorSet 0
OpDecorate %tex Binding 0
OpDecorate %s DescriptorSet 0
OpDecorate %s Binding 2
OpDecorate %out Location 0
"#,
        r#"%tex = OpVariable %parr UniformConstant
%s = OpVariable %psmp UniformConstant
%pv = OpTypePointer Function %uint
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpVariable %pv Function
%i = OpLoad %uint %v
%sv = OpLoad %smp %s
%p = OpAccessChain %pimg %tex %i
%t = OpLoad %img %p
%si = OpSampledImage %simg %t %sv
%a = OpImageSampleImplicitLod %v4float %si %uv
OpStore %out %a
OpReturn
OpFunctionEnd
"#
    );
    common::check_env("spv1.0", &input, &input, |m| {
        assert!(!descsroa::run(m));
    });
}
