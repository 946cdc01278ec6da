//! `cse` (redundancy-elimination): what a dominating instruction computed is reused; loads only
//! from memory nothing writes.

mod common;
use hlslc_spirv_opt::{cse, fold};

/// The first test's `NoContraction` products.
const PRECISE: &str = "OpDecorate %precise NoContraction\nOpDecorate %precise2 NoContraction\n";

const HEAD: &str = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %cb DescriptorSet 0
OpDecorate %cb Binding 0
OpDecorate %rw DescriptorSet 0
OpDecorate %rw Binding 1
OpDecorate %ro DescriptorSet 0
OpDecorate %ro Binding 2
OpDecorate %C Block
OpMemberDecorate %C 0 Offset 0
OpMemberDecorate %C 1 Offset 16
OpDecorate %B BufferBlock
OpMemberDecorate %B 0 Offset 0
OpDecorate %R BufferBlock
OpMemberDecorate %R 0 Offset 0
OpMemberDecorate %R 0 NonWritable
OpMemberDecorate %S 0 Offset 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%C = OpTypeStruct %v4float %int
%B = OpTypeStruct %int
%S = OpTypeStruct %v4float
%R = OpTypeStruct %S
%ptr_C = OpTypePointer Uniform %C
%ptr_B = OpTypePointer Uniform %B
%ptr_R = OpTypePointer Uniform %R
%ptr_v4 = OpTypePointer Uniform %v4float
%ptr_i = OpTypePointer Uniform %int
%ptr_S = OpTypePointer Uniform %S
%i0 = OpConstant %int 0
%i1 = OpConstant %int 1
%cb = OpVariable %ptr_C Uniform
%rw = OpVariable %ptr_B Uniform
%ro = OpVariable %ptr_R Uniform
"#;

#[test]
fn reuses_dominating_results_and_read_only_loads() {
    let head = HEAD.replace("%void = OpTypeVoid", &format!("{PRECISE}%void = OpTypeVoid"));
    let input = format!(
        "{head}{}",
        r#"
%main = OpFunction %void None %fn
%entry = OpLabel
%p1 = OpAccessChain %ptr_i %cb %i1
%a = OpLoad %int %p1
%p2 = OpAccessChain %ptr_i %cb %i1
%b = OpLoad %int %p2
%q1 = OpAccessChain %ptr_i %rw %i0
%c = OpLoad %int %q1
%q2 = OpAccessChain %ptr_i %rw %i0
%d = OpLoad %int %q2
%s1 = OpIAdd %int %a %c
%s2 = OpIAdd %int %b %d
%precise = OpIMul %int %s1 %s2
%precise2 = OpIMul %int %s1 %s2
%cond = OpSLessThan %bool %a %i0
OpSelectionMerge %merge None
OpBranchConditional %cond %then %else
%then = OpLabel
%t = OpIMul %int %s1 %i1
OpBranch %merge
%else = OpLabel
%e = OpIMul %int %s1 %i1
%e2 = OpIAdd %int %a %c
OpBranch %merge
%merge = OpLabel
%phi = OpPhi %int %t %then %e2 %else
%m = OpIMul %int %s1 %i1
%r1 = OpAccessChain %ptr_S %ro %i0
%sv = OpLoad %S %r1
%r2 = OpAccessChain %ptr_S %ro %i0
%sv2 = OpLoad %S %r2
%x = OpCompositeExtract %v4float %sv 0
%y = OpCompositeExtract %v4float %sv2 0
%z = OpFAdd %v4float %x %y
%out = OpIAdd %int %phi %m
%out2 = OpIAdd %int %out %precise
%out3 = OpIAdd %int %out2 %precise2
OpStore %q1 %out3
%pv = OpAccessChain %ptr_v4 %cb %i0
OpReturn
OpFunctionEnd
"#
    );
    // The uniform-buffer load is reused, the storage buffers' are not (not even the one whose
    // members are `NonWritable`: SPIRV-Tools counts only a `NonWritable` variable); the sibling branches keep
    // their own products (neither dominates the other), the merge block reuses neither; the
    // `NoContraction` products stay two.
    let expected = format!(
        "{head}{}",
        r#"
%main = OpFunction %void None %fn
%entry = OpLabel
%p1 = OpAccessChain %ptr_i %cb %i1
%a = OpLoad %int %p1
%q1 = OpAccessChain %ptr_i %rw %i0
%c = OpLoad %int %q1
%d = OpLoad %int %q1
%s1 = OpIAdd %int %a %c
%s2 = OpIAdd %int %a %d
%precise = OpIMul %int %s1 %s2
%precise2 = OpIMul %int %s1 %s2
%cond = OpSLessThan %bool %a %i0
OpSelectionMerge %merge None
OpBranchConditional %cond %then %else
%then = OpLabel
%t = OpIMul %int %s1 %i1
OpBranch %merge
%else = OpLabel
%e = OpIMul %int %s1 %i1
OpBranch %merge
%merge = OpLabel
%phi = OpPhi %int %t %then %s1 %else
%m = OpIMul %int %s1 %i1
%r1 = OpAccessChain %ptr_S %ro %i0
%sv = OpLoad %S %r1
%sv2 = OpLoad %S %r1
%x = OpCompositeExtract %v4float %sv 0
%y = OpCompositeExtract %v4float %sv2 0
%z = OpFAdd %v4float %x %y
%out = OpIAdd %int %phi %m
%out2 = OpIAdd %int %out %precise
%out3 = OpIAdd %int %out2 %precise2
OpStore %q1 %out3
%pv = OpAccessChain %ptr_v4 %cb %i0
OpReturn
OpFunctionEnd
"#
    );
    common::check(&input, &expected, |m| {
        assert!(cse::run(m));
        assert!(!cse::run(m));
    });
}

#[test]
fn a_construct_of_every_extract_in_order_is_the_composite() {
    let input = format!(
        "{HEAD}{}",
        r#"
%main = OpFunction %void None %fn
%entry = OpLabel
%r1 = OpAccessChain %ptr_S %ro %i0
%sv = OpLoad %S %r1
%f = OpCompositeExtract %v4float %sv 0
%back = OpCompositeConstruct %S %f
%v = OpCompositeExtract %v4float %back 0
%x = OpCompositeExtract %float %v 0
%y = OpCompositeExtract %float %v 1
%z = OpCompositeExtract %float %v 2
%w = OpCompositeExtract %float %v 3
%same = OpCompositeConstruct %v4float %x %y %z %w
%swapped = OpCompositeConstruct %v4float %y %x %z %w
%sum = OpFAdd %v4float %same %swapped
%pv = OpAccessChain %ptr_v4 %cb %i0
OpReturn
OpFunctionEnd
"#
    );
    let expected = format!(
        "{HEAD}{}",
        r#"
%main = OpFunction %void None %fn
%entry = OpLabel
%r1 = OpAccessChain %ptr_S %ro %i0
%sv = OpLoad %S %r1
%f = OpCompositeExtract %v4float %sv 0
%v = OpCompositeExtract %v4float %sv 0
%x = OpCompositeExtract %float %v 0
%y = OpCompositeExtract %float %v 1
%z = OpCompositeExtract %float %v 2
%w = OpCompositeExtract %float %v 3
%swapped = OpCompositeConstruct %v4float %y %x %z %w
%sum = OpFAdd %v4float %v %swapped
%pv = OpAccessChain %ptr_v4 %cb %i0
OpReturn
OpFunctionEnd
"#
    );
    common::check(&input, &expected, |m| {
        assert!(fold::run(m));
        assert!(!fold::run(m));
    });
}
