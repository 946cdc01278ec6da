//! `branch`: branches on constants and unreachable blocks.

mod common;
use hlslc_spirv_opt::branch;

const HEAD: &str = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%int = OpTypeInt 32 1
%ptr = OpTypePointer Function %int
%i0 = OpConstant %int 0
%i1 = OpConstant %int 1
%i2 = OpConstant %int 2
%t = OpConstantFalse %bool
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpVariable %ptr Function
"#;

/// `if (false) {...} else {...}`: the header loses its merge and its then side; the merge
/// block's phi loses the operand from the removed block. A later `if` whose both sides return
/// keeps its unreachable merge block as `OpUnreachable`.
#[test]
fn folds_constant_branches_and_removes_unreachable_blocks() {
    let input = format!(
        "{HEAD}{}",
        r#"OpSelectionMerge %m None
OpBranchConditional %t %then %else
%then = OpLabel
%a = OpIAdd %int %i1 %i1
OpBranch %m
%else = OpLabel
OpBranch %m
%m = OpLabel
%p = OpPhi %int %a %then %i2 %else
OpStore %v %p
%c = OpLoad %int %v
%cc = OpSLessThan %bool %c %i1
OpSelectionMerge %m2 None
OpBranchConditional %cc %r1 %r2
%r1 = OpLabel
OpReturn
%r2 = OpLabel
OpReturn
%m2 = OpLabel
OpStore %v %i0
OpReturn
OpFunctionEnd
"#
    );
    let expected = format!(
        "{HEAD}{}",
        r#"OpBranch %else
%else = OpLabel
OpBranch %m
%m = OpLabel
%p = OpPhi %int %i2 %else
OpStore %v %p
%c = OpLoad %int %v
%cc = OpSLessThan %bool %c %i1
OpSelectionMerge %m2 None
OpBranchConditional %cc %r1 %r2
%r1 = OpLabel
OpReturn
%r2 = OpLabel
OpReturn
%m2 = OpLabel
OpUnreachable
OpFunctionEnd
"#
    );
    common::check(&input, &expected, |m| {
        assert!(branch::run(m));
        assert!(!branch::run(m));
    });
}
