//! `ifconv`: phis joining the two sides of a selection become selects on its condition.

mod common;
use hlslc_spirv_opt::ifconv;

const HEAD: &str = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%float = OpTypeFloat 32
%v2float = OpTypeVector %float 2
%pf = OpTypePointer Private %float
%f1 = OpConstant %float 1
%f2 = OpConstant %float 2
%v1 = OpConstantComposite %v2float %f1 %f2
%v2 = OpConstantComposite %v2float %f2 %f1
%g = OpVariable %pf Private
"#;

/// Two arms: the scalar phi (values listed false side first) and the vector phi become selects
/// (the vector one on the condition splat into a new `v2bool`); the phi of a value computed in
/// an arm stays, ahead of the selects.
#[test]
fn converts_phis_whose_values_are_available_at_the_header() {
    let body = r#"%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpLoad %float %g
%c = OpFOrdLessThan %bool %x %f1
OpSelectionMerge %m None
OpBranchConditional %c %then %else
%then = OpLabel
%y = OpFAdd %float %x %f1
OpBranch %m
%else = OpLabel
OpBranch %m
%m = OpLabel
%a = OpPhi %float %x %else %f1 %then
%b = OpPhi %v2float %v1 %then %v2 %else
%d = OpPhi %float %y %then %f2 %else
%s = OpFAdd %float %a %d
%e = OpCompositeExtract %float %b 0
%t = OpFAdd %float %s %e
OpStore %g %t
OpReturn
OpFunctionEnd
"#;
    let expected_body = r#"%v2bool = OpTypeVector %bool 2
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpLoad %float %g
%c = OpFOrdLessThan %bool %x %f1
OpSelectionMerge %m None
OpBranchConditional %c %then %else
%then = OpLabel
%y = OpFAdd %float %x %f1
OpBranch %m
%else = OpLabel
OpBranch %m
%m = OpLabel
%d = OpPhi %float %y %then %f2 %else
%a = OpSelect %float %c %f1 %x
%cv = OpCompositeConstruct %v2bool %c %c
%b = OpSelect %v2float %cv %v1 %v2
%s = OpFAdd %float %a %d
%e = OpCompositeExtract %float %b 0
%t = OpFAdd %float %s %e
OpStore %g %t
OpReturn
OpFunctionEnd
"#;
    common::check(&format!("{HEAD}{body}"), &format!("{HEAD}{expected_body}"), |m| {
        assert!(ifconv::run(m));
        assert!(!ifconv::run(m));
    });
}

/// An `if` with no `else`: the header itself is the false-side predecessor.
#[test]
fn converts_an_if_without_else() {
    let body = r#"%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpLoad %float %g
%c = OpFOrdLessThan %bool %x %f1
OpSelectionMerge %m None
OpBranchConditional %c %then %m
%then = OpLabel
OpBranch %m
%m = OpLabel
%a = OpPhi %float %x %entry %f2 %then
OpStore %g %a
OpReturn
OpFunctionEnd
"#;
    let expected = r#"%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpLoad %float %g
%c = OpFOrdLessThan %bool %x %f1
OpSelectionMerge %m None
OpBranchConditional %c %then %m
%then = OpLabel
OpBranch %m
%m = OpLabel
%a = OpSelect %float %c %f2 %x
OpStore %g %a
OpReturn
OpFunctionEnd
"#;
    common::check(&format!("{HEAD}{body}"), &format!("{HEAD}{expected}"), |m| {
        assert!(ifconv::run(m));
    });
}
