//! `dce`: unused results without effects go; so do local variables that are only written.

mod common;
use hlslc_spirv_opt::dce;

#[test]
fn removes_unused_results_and_write_only_variables() {
    let head = r#"
OpCapability Shader
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
OpDecorate %S BufferBlock
OpMemberDecorate %S 0 Offset 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%uint = OpTypeInt 32 0
%v2 = OpTypeVector %float 2
%ptr_v2 = OpTypePointer Function %v2
%ptr_fn_f = OpTypePointer Function %float
%S = OpTypeStruct %float
%ptr_S = OpTypePointer Uniform %S
%ptr_u = OpTypePointer Uniform %float
%u0 = OpConstant %uint 0
%f1 = OpConstant %float 1
%buf = OpVariable %ptr_S Uniform
%main = OpFunction %void None %fn
%entry = OpLabel
"#;
    let input = format!(
        "{head}{}",
        r#"%w = OpVariable %ptr_v2 Function
%p = OpAccessChain %ptr_u %buf %u0
%x = OpLoad %float %p
%unused_sqrt = OpExtInst %float %glsl Sqrt %x
%unused_chain = OpFAdd %float %x %f1
%unused_mul = OpFMul %float %unused_chain %x
%wx = OpAccessChain %ptr_fn_f %w %u0
OpStore %wx %x
%kept = OpFAdd %float %x %x
OpStore %p %kept
OpReturn
OpFunctionEnd
"#
    );
    let expected = format!(
        "{head}{}",
        r#"%p = OpAccessChain %ptr_u %buf %u0
%x = OpLoad %float %p
%kept = OpFAdd %float %x %x
OpStore %p %kept
OpReturn
OpFunctionEnd
"#
    );
    common::check(&input, &expected, |m| {
        assert!(dce::run(m));
        assert!(!dce::run(m));
    });
}
