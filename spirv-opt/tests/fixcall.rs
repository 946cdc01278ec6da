//! `fixcall` (`-fspv-fix-func-call-arguments`): access-chain arguments of a call go through new
//! function variables, copied in before the call (in argument order) and back after it (in the
//! reverse order); whole variables stay as they are; a module with one function is left alone.

mod common;
use hlslc_spirv_opt::fixcall;

const HEAD: &str = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %rta ArrayStride 4
OpMemberDecorate %buf_t 0 Offset 0
OpDecorate %buf_t Block
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%int = OpTypeInt 32 1
%S = OpTypeStruct %int %int
%rta = OpTypeRuntimeArray %float
%buf_t = OpTypeStruct %rta
%pbuf = OpTypePointer StorageBuffer %buf_t
%psbf = OpTypePointer StorageBuffer %float
%pfi = OpTypePointer Function %int
%pff = OpTypePointer Function %float
%pfS = OpTypePointer Function %S
%callee_t = OpTypeFunction %void %pff %pfi %pfS
%buf = OpVariable %pbuf StorageBuffer
%i0 = OpConstant %int 0
%i1 = OpConstant %int 1
%callee = OpFunction %void DontInline %callee_t
%a = OpFunctionParameter %pff
%b = OpFunctionParameter %pfi
%c = OpFunctionParameter %pfS
%cb = OpLabel
OpReturn
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
"#;

#[test]
fn access_chain_arguments_are_copied_around_the_call() {
    let input = format!(
        "{HEAD}{}",
        r#"%s = OpVariable %pfS Function
%ac0 = OpAccessChain %psbf %buf %i0 %i1
%ac1 = OpAccessChain %pfi %s %i1
%r = OpFunctionCall %void %callee %ac0 %ac1 %s
OpReturn
OpFunctionEnd
"#
    );
    // The storage-buffer float needs a function-scope pointer type the module already has;
    // the variables come first, the later one on top.
    let expected = format!(
        "{HEAD}{}",
        r#"%v1 = OpVariable %pfi Function
%v0 = OpVariable %pff Function
%s = OpVariable %pfS Function
%ac0 = OpAccessChain %psbf %buf %i0 %i1
%ac1 = OpAccessChain %pfi %s %i1
%l0 = OpLoad %float %ac0
OpStore %v0 %l0
%l1 = OpLoad %int %ac1
OpStore %v1 %l1
%r = OpFunctionCall %void %callee %v0 %v1 %s
%b1 = OpLoad %int %v1
OpStore %ac1 %b1
%b0 = OpLoad %float %v0
OpStore %ac0 %b0
OpReturn
OpFunctionEnd
"#
    );
    common::check_fixes("vulkan1.1", "OpFunctionCall", &input, &expected, |m| {
        assert!(fixcall::run(m));
    });
}

#[test]
fn whole_variables_and_single_function_modules_are_left_alone() {
    let input = format!(
        "{HEAD}{}",
        r#"%s = OpVariable %pfS Function
%f = OpVariable %pff Function
%i = OpVariable %pfi Function
%r = OpFunctionCall %void %callee %f %i %s
OpReturn
OpFunctionEnd
"#
    );
    common::check_env("vulkan1.1", &input, &input, |m| {
        assert!(!fixcall::run(m));
    });
    let single = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
"#;
    common::check(single, single, |m| {
        assert!(!fixcall::run(m));
    });
}
