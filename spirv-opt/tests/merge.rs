//! `merge`: a block with one predecessor that branches straight to it joins that predecessor.

mod common;
use hlslc_spirv_opt::merge;

/// entry -> a -> b (a selection header) -> merge: `a` joins `entry`; `b` then joins too (the
/// selection header moves with it); the merge block stays apart, and its phi names the block
/// that now ends in the branch.
#[test]
fn merges_straight_chains() {
    let head = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%int = OpTypeInt 32 1
%i0 = OpConstant %int 0
%i1 = OpConstant %int 1
%t = OpConstantTrue %bool
%main = OpFunction %void None %fn
%entry = OpLabel
"#;
    let input = format!(
        "{head}{}",
        r#"OpBranch %a
%a = OpLabel
%x = OpIAdd %int %i0 %i1
OpBranch %b
%b = OpLabel
%p = OpPhi %int %x %a
%y = OpIAdd %int %p %i1
OpSelectionMerge %m None
OpBranchConditional %t %then %m
%then = OpLabel
OpBranch %m
%m = OpLabel
%z = OpPhi %int %y %b %i0 %then
OpReturn
OpFunctionEnd
"#
    );
    let expected = format!(
        "{head}{}",
        r#"%x = OpIAdd %int %i0 %i1
%y = OpIAdd %int %x %i1
OpSelectionMerge %m None
OpBranchConditional %t %then %m
%then = OpLabel
OpBranch %m
%m = OpLabel
%z = OpPhi %int %y %entry %i0 %then
OpReturn
OpFunctionEnd
"#
    );
    common::check(&input, &expected, |m| {
        assert!(merge::run(m));
        assert!(!merge::run(m));
    });
}
