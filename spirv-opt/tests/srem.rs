//! `srem`: `OpSRem` becomes `a - (a / b) * b`, which Vulkan defines for negative operands.

mod common;
use hlslc_spirv_opt::srem;

const HEAD: &str = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%v2int = OpTypeVector %int 2
%pint = OpTypePointer Function %int
%pv2 = OpTypePointer Function %v2int
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpVariable %pint Function
%y = OpVariable %pv2 Function
%a = OpLoad %int %x
%b = OpLoad %int %x
%va = OpLoad %v2int %y
%vb = OpLoad %v2int %y
"#;

#[test]
fn signed_remainders_become_division_multiplication_and_subtraction() {
    let input = format!(
        "{HEAD}{}",
        r#"%r = OpSRem %int %a %b
%vr = OpSRem %v2int %va %vb
%m = OpSMod %int %a %b
%u = OpIAdd %int %r %m
OpReturn
OpFunctionEnd
"#
    );
    let expected = format!(
        "{HEAD}{}",
        r#"%q1 = OpSDiv %int %a %b
%p1 = OpIMul %int %q1 %b
%r = OpISub %int %a %p1
%q2 = OpSDiv %v2int %va %vb
%p2 = OpIMul %v2int %q2 %vb
%vr = OpISub %v2int %va %p2
%m = OpSMod %int %a %b
%u = OpIAdd %int %r %m
OpReturn
OpFunctionEnd
"#
    );
    common::check_env("spv1.0", &input, &expected, |m| {
        assert!(srem::run(m));
    });
}

#[test]
fn a_module_without_signed_remainders_is_unchanged() {
    let input = format!("{HEAD}%s = OpIAdd %int %a %b\nOpReturn\nOpFunctionEnd\n");
    common::check_env("spv1.0", &input, &input, |m| {
        assert!(!srem::run(m));
    });
}

#[test]
fn a_specialization_constants_remainder_is_rewritten_too() {
    let head = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %a SpecId 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%two = OpConstant %int 2
%a = OpSpecConstant %int -7
"#;
    let tail = "%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n";
    let input = format!("{head}%r = OpSpecConstantOp %int SRem %a %two\n{tail}");
    let expected = format!(
        "{head}%q = OpSpecConstantOp %int SDiv %a %two\n%p = OpSpecConstantOp %int IMul %q %two\n%r = OpSpecConstantOp %int ISub %a %p\n{tail}"
    );
    common::check_env("spv1.0", &input, &expected, |m| {
        assert!(srem::run(m));
    });
}
