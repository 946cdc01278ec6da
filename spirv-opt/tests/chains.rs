//! `chains`: constant access chains into local variables become whole loads and stores.

mod common;
use hlslc_spirv_opt::chains;

const HEAD: &str = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%v3 = OpTypeVector %float 3
%S = OpTypeStruct %float %v3
%ptr_S = OpTypePointer Function %S
%ptr_f = OpTypePointer Function %float
%ptr_v3 = OpTypePointer Function %v3
%i0 = OpConstant %int 0
%i1 = OpConstant %int 1
%i2 = OpConstant %int 2
%i3 = OpConstant %int 3
%f1 = OpConstant %float 1
%main = OpFunction %void None %fn
%entry = OpLabel
%s = OpVariable %ptr_S Function
%d = OpVariable %ptr_S Function
"#;

/// `s` is written and read member by member; `d` is indexed past its vector (out of range: an
/// access chain may, an extract may not) and stays.
#[test]
fn converts_constant_chains() {
    let input = format!(
        "{HEAD}{}",
        r#"%p0 = OpAccessChain %ptr_f %s %i0
OpStore %p0 %f1
%p1 = OpAccessChain %ptr_f %s %i1 %i2
OpStore %p1 %f1
%q = OpAccessChain %ptr_f %s %i1 %i2
%x = OpLoad %float %q
%bad = OpAccessChain %ptr_f %d %i1 %i3
OpStore %bad %x
OpReturn
OpFunctionEnd
"#
    );
    let expected = format!(
        "{HEAD}{}",
        r#"%w0 = OpLoad %S %s
%n0 = OpCompositeInsert %S %f1 %w0 0
OpStore %s %n0
%w1 = OpLoad %S %s
%n1 = OpCompositeInsert %S %f1 %w1 1 2
OpStore %s %n1
%w2 = OpLoad %S %s
%x = OpCompositeExtract %float %w2 1 2
%bad = OpAccessChain %ptr_f %d %i1 %i3
OpStore %bad %x
OpReturn
OpFunctionEnd
"#
    );
    common::check(&input, &expected, |m| {
        assert!(chains::run(m));
    });
}
