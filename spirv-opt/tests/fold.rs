//! `fold`: constants folded and propagated, copies and composite round trips removed.

mod common;
use hlslc_spirv_opt::fold;

const HEAD: &str = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
OpDecorate %S BufferBlock
OpMemberDecorate %S 0 Offset 0
OpMemberDecorate %S 1 Offset 16
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%v2float = OpTypeVector %float 2
%S = OpTypeStruct %v4float %int
%ptr_S = OpTypePointer Uniform %S
%ptr_v4 = OpTypePointer Uniform %v4float
%ptr_i = OpTypePointer Uniform %int
%i0 = OpConstant %int 0
%i1 = OpConstant %int 1
%i6 = OpConstant %int 6
%im7 = OpConstant %int -7
%f1 = OpConstant %float 1
%f2 = OpConstant %float 2
%v12 = OpConstantComposite %v2float %f1 %f2
%buf = OpVariable %ptr_S Uniform
"#;

#[test]
fn folds_constants_copies_and_composites() {
    let input = format!(
        "{HEAD}{}",
        r#"
%main = OpFunction %void None %fn
%entry = OpLabel
%pv = OpAccessChain %ptr_v4 %buf %i0
%v = OpLoad %v4float %pv
%a = OpIMul %int %i6 %im7
%b = OpSDiv %int %a %i6
%c = OpSLessThan %bool %b %i0
%d = OpSelect %int %c %a %i1
%pi = OpAccessChain %ptr_i %buf %i1
OpStore %pi %d
%copy = OpCopyObject %v4float %v
%ins = OpCompositeInsert %v4float %f2 %copy 1
%x = OpCompositeExtract %float %ins 1
%y = OpCompositeExtract %float %ins 2
%sum2 = OpFAdd %v2float %v12 %v12
%z = OpCompositeExtract %float %sum2 1
%sh = OpVectorShuffle %v2float %v %v12 3 5
%w = OpCompositeExtract %float %sh 1
%t = OpCompositeExtract %float %sh 0
%out = OpCompositeConstruct %v4float %x %y %z %w
%out2 = OpFAdd %v4float %out %v
%out3 = OpVectorTimesScalar %v4float %out2 %t
OpStore %pv %out3
OpReturn
OpFunctionEnd
"#
    );
    let expected = format!(
        "{HEAD}{}",
        r#"
%i42 = OpConstant %int -42
%true = OpConstantTrue %bool
%f4 = OpConstant %float 4
%v24 = OpConstantComposite %v2float %f2 %f4
%main = OpFunction %void None %fn
%entry = OpLabel
%pv = OpAccessChain %ptr_v4 %buf %i0
%v = OpLoad %v4float %pv
%pi = OpAccessChain %ptr_i %buf %i1
OpStore %pi %i42
%ins = OpCompositeInsert %v4float %f2 %v 1
%y = OpCompositeExtract %float %v 2
%sh = OpVectorShuffle %v2float %v %v12 3 5
%t = OpCompositeExtract %float %v 3
%out = OpCompositeConstruct %v4float %f2 %y %f4 %f2
%out2 = OpFAdd %v4float %out %v
%out3 = OpVectorTimesScalar %v4float %out2 %t
OpStore %pv %out3
OpReturn
OpFunctionEnd
"#
    );
    common::check(&input, &expected, |m| {
        assert!(fold::run(m));
        assert!(!fold::run(m));
    });
}

#[test]
fn unsigned_comparisons_with_zero_are_known() {
    let head = HEAD.replace("%bool = OpTypeBool", "%bool = OpTypeBool\n%uint = OpTypeInt 32 0\n%u0 = OpConstant %uint 0");
    let body = |a: &str, b: &str| {
        format!(
            r#"
%main = OpFunction %void None %fn
%entry = OpLabel
%pi = OpAccessChain %ptr_i %buf %i1
%v = OpLoad %int %pi
%u = OpBitcast %uint %v
%lt = OpULessThan %bool %u %u0
%ge = OpUGreaterThanEqual %bool %u %u0
%gt = OpUGreaterThan %bool %u0 %u
%le = OpULessThanEqual %bool %u0 %u
%keep = OpULessThan %bool %u0 %u
%x = OpSelect %int %lt %i6 %i1
%y = OpSelect %int %ge {a} %i1
%z = OpSelect %int %gt %i6 %i1
%w = OpSelect %int %le %i0 {b}
%k = OpSelect %int %keep %x %y
%s1 = OpIAdd %int %k %z
%s2 = OpIAdd %int %s1 %w
OpStore %pi %s2
OpReturn
OpFunctionEnd
"#
        )
    };
    let input = format!("{head}{}", body("%i6", "%i6"));
    // lt and gt are false, ge and le true: x = 1, y = 6, z = 1, w = 0; `0 < u` depends on u.
    // Folding leaves the dead comparisons for DCE; compare after both.
    let expected = format!(
        "{head}{}",
        r#"
%false = OpConstantFalse %bool
%true = OpConstantTrue %bool
%main = OpFunction %void None %fn
%entry = OpLabel
%pi = OpAccessChain %ptr_i %buf %i1
%v = OpLoad %int %pi
%u = OpBitcast %uint %v
%keep = OpULessThan %bool %u0 %u
%k = OpSelect %int %keep %i1 %i6
%s1 = OpIAdd %int %k %i1
%s2 = OpIAdd %int %s1 %i0
OpStore %pi %s2
OpReturn
OpFunctionEnd
"#
    );
    common::check(&input, &expected, |m| {
        assert!(fold::run(m));
        hlslc_spirv_opt::dce::run(m);
    });
}
