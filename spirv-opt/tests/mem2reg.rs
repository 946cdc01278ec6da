//! `mem2reg`: local variables become SSA values, with `OpPhi`s where paths meet.

mod common;
use hlslc_spirv_opt::mem2reg;

const HEAD: &str = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
OpDecorate %S BufferBlock
OpMemberDecorate %S 0 Offset 0
OpMemberDecorate %S 1 Offset 4
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%ptr_f = OpTypePointer Function %uint
%S = OpTypeStruct %uint %uint
%ptr_S = OpTypePointer Uniform %S
%ptr_u = OpTypePointer Uniform %uint
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u10 = OpConstant %uint 10
%buf = OpVariable %ptr_S Uniform
"#;

/// `x = 1; if (c) x = 2; out = x;` and a counting loop `for (i = 0; i < 10; i++) s += i;`.
/// `kept` is reached through an access chain and stays a variable.
#[test]
fn promotes_across_branches_and_loops() {
    let input = format!(
        "{HEAD}{}",
        r#"
%arr = OpTypeArray %uint %u2
%ptr_arr = OpTypePointer Function %arr
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpVariable %ptr_f Function
%i = OpVariable %ptr_f Function %u0
%s = OpVariable %ptr_f Function
%kept = OpVariable %ptr_arr Function
OpStore %x %u1
%p0 = OpAccessChain %ptr_u %buf %u0
%in = OpLoad %uint %p0
%c = OpULessThan %bool %in %u10
OpSelectionMerge %m None
OpBranchConditional %c %then %m
%then = OpLabel
OpStore %x %u2
OpBranch %m
%m = OpLabel
%xv = OpLoad %uint %x
OpStore %s %xv
OpBranch %header
%header = OpLabel
OpLoopMerge %exit %cont None
OpBranch %check
%check = OpLabel
%iv = OpLoad %uint %i
%lt = OpULessThan %bool %iv %u10
OpBranchConditional %lt %body %exit
%body = OpLabel
%sv = OpLoad %uint %s
%iv2 = OpLoad %uint %i
%sum = OpIAdd %uint %sv %iv2
OpStore %s %sum
%k = OpAccessChain %ptr_f %kept %u0
OpStore %k %sum
OpBranch %cont
%cont = OpLabel
%iv3 = OpLoad %uint %i
%inc = OpIAdd %uint %iv3 %u1
OpStore %i %inc
OpBranch %header
%exit = OpLabel
%sv2 = OpLoad %uint %s
%p1 = OpAccessChain %ptr_u %buf %u1
OpStore %p1 %sv2
OpReturn
OpFunctionEnd
"#
    );
    let expected = format!(
        "{HEAD}{}",
        r#"
%arr = OpTypeArray %uint %u2
%ptr_arr = OpTypePointer Function %arr
%undef = OpUndef %uint
%main = OpFunction %void None %fn
%entry = OpLabel
%kept = OpVariable %ptr_arr Function
%p0 = OpAccessChain %ptr_u %buf %u0
%in = OpLoad %uint %p0
%c = OpULessThan %bool %in %u10
OpSelectionMerge %m None
OpBranchConditional %c %then %m
%then = OpLabel
OpBranch %m
%m = OpLabel
%x = OpPhi %uint %u1 %entry %u2 %then
OpBranch %header
%header = OpLabel
%i = OpPhi %uint %u0 %m %inc %cont
%s = OpPhi %uint %x %m %sum %cont
OpLoopMerge %exit %cont None
OpBranch %check
%check = OpLabel
%lt = OpULessThan %bool %i %u10
OpBranchConditional %lt %body %exit
%body = OpLabel
%sum = OpIAdd %uint %s %i
%k = OpAccessChain %ptr_f %kept %u0
OpStore %k %sum
OpBranch %cont
%cont = OpLabel
%inc = OpIAdd %uint %i %u1
OpBranch %header
%exit = OpLabel
%p1 = OpAccessChain %ptr_u %buf %u1
OpStore %p1 %s
OpReturn
OpFunctionEnd
"#
    );
    common::check(&input, &expected, |m| {
        assert!(mem2reg::run(m));
    });
}
