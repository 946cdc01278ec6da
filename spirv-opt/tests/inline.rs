//! `inline`: calls become copies of the callee's body.

mod common;
use hlslc_spirv_opt::inline;

const HEAD: &str = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
OpDecorate %S BufferBlock
OpMemberDecorate %S 0 Offset 0
OpDecorate %sum NoContraction
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%uint = OpTypeInt 32 0
%ptr_f = OpTypePointer Function %float
%fn_add = OpTypeFunction %float %ptr_f %float
%S = OpTypeStruct %float
%ptr_S = OpTypePointer Uniform %S
%ptr_u = OpTypePointer Uniform %float
%u0 = OpConstant %uint 0
%f1 = OpConstant %float 1
%f2 = OpConstant %float 2
%buf = OpVariable %ptr_S Uniform
"#;

/// A callee reading a pointer parameter and a local variable with an initializer, called twice
/// in a block that heads a selection: the selection moves to the block after the second call,
/// the variables to the entry block, the initializer becomes a store where each copy starts,
/// and `NoContraction` goes to each copy of the add. The second call is the callee's last: it
/// takes the body itself (renamed as a copy would be; the callee's own decoration goes) and
/// leaves an unreachable block.
#[test]
fn inlines_calls_and_splits_blocks() {
    let input = format!(
        "{HEAD}{}",
        r#"
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpVariable %ptr_f Function
OpStore %x %f1
%r1 = OpFunctionCall %float %add %x %f2
%r2 = OpFunctionCall %float %add %x %r1
%c = OpFOrdLessThan %bool %r2 %f2
OpSelectionMerge %merge None
OpBranchConditional %c %then %merge
%then = OpLabel
%p = OpAccessChain %ptr_u %buf %u0
OpStore %p %r2
OpBranch %merge
%merge = OpLabel
OpReturn
OpFunctionEnd
%add = OpFunction %float None %fn_add
%a = OpFunctionParameter %ptr_f
%b = OpFunctionParameter %float
%ae = OpLabel
%t = OpVariable %ptr_f Function %f2
%av = OpLoad %float %a
%tv = OpLoad %float %t
%s0 = OpFAdd %float %av %b
%sum = OpFAdd %float %s0 %tv
OpReturnValue %sum
OpFunctionEnd
"#
    )
    .replace("%uint = OpTypeInt 32 0", "%uint = OpTypeInt 32 0\n%bool = OpTypeBool");
    let expected = format!(
        "{HEAD}{}",
        r#"
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpVariable %ptr_f Function
%t1 = OpVariable %ptr_f Function
%t2 = OpVariable %ptr_f Function
OpStore %x %f1
OpStore %t1 %f2
OpBranch %ae1
%ae1 = OpLabel
%av1 = OpLoad %float %x
%tv1 = OpLoad %float %t1
%s01 = OpFAdd %float %av1 %f2
%sum1 = OpFAdd %float %s01 %tv1
OpBranch %after1
%after1 = OpLabel
OpStore %t2 %f2
OpBranch %ae2
%ae2 = OpLabel
%av2 = OpLoad %float %x
%tv2 = OpLoad %float %t2
%s02 = OpFAdd %float %av2 %sum1
%sum2 = OpFAdd %float %s02 %tv2
OpBranch %after2
%after2 = OpLabel
%c = OpFOrdLessThan %bool %sum2 %f2
OpSelectionMerge %merge None
OpBranchConditional %c %then %merge
%then = OpLabel
%p = OpAccessChain %ptr_u %buf %u0
OpStore %p %sum2
OpBranch %merge
%merge = OpLabel
OpReturn
OpFunctionEnd
%add = OpFunction %float None %fn_add
%a = OpFunctionParameter %ptr_f
%b = OpFunctionParameter %float
%stub = OpLabel
OpUnreachable
OpFunctionEnd
"#
    )
    .replace("%uint = OpTypeInt 32 0", "%uint = OpTypeInt 32 0\n%bool = OpTypeBool")
    .replace("OpDecorate %sum NoContraction\n", "OpDecorate %sum1 NoContraction\nOpDecorate %sum2 NoContraction\n");
    common::check(&input, &expected, |m| {
        assert!(inline::run(m));
    });
}

/// A callee with two returns gets one (a loop that runs once) and is inlined; the module stays
/// valid (`tests/returns.rs` has the case left alone: a return inside a loop).
#[test]
fn inlines_callees_with_several_returns() {
    let input = format!(
        "{HEAD}{}",
        r#"
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpVariable %ptr_f Function
OpStore %x %f1
%r = OpFunctionCall %float %pick %x %f2
OpReturn
OpFunctionEnd
%pick = OpFunction %float None %fn_add
%a = OpFunctionParameter %ptr_f
%b = OpFunctionParameter %float
%pe = OpLabel
%av = OpLoad %float %a
%c = OpFOrdLessThan %bool %av %b
%sum = OpFAdd %float %av %b
OpSelectionMerge %m None
OpBranchConditional %c %early %m
%early = OpLabel
OpReturnValue %av
%m = OpLabel
OpReturnValue %b
OpFunctionEnd
"#
    )
    .replace("%uint = OpTypeInt 32 0", "%uint = OpTypeInt 32 0\n%bool = OpTypeBool");
    if !common::tools() {
        return;
    }
    let words = common::assemble(&input, "vulkan1.0");
    let mut m = rspirv::dr::load_words(&words).unwrap();
    assert!(inline::run(&mut m));
    use rspirv::binary::Assemble;
    common::validate(&m.assemble(), "vulkan1.0", "output");
    let insts = || m.functions[0].blocks.iter().flat_map(|b| b.instructions.iter());
    assert_eq!(insts().filter(|i| i.class.opcode == spirv::Op::FunctionCall).count(), 0);
    assert_eq!(insts().filter(|i| i.class.opcode == spirv::Op::LoopMerge).count(), 1);
    // The phi of the wrapper's merge block picks the returned value: %av or %b.
    assert_eq!(insts().filter(|i| i.class.opcode == spirv::Op::Phi).count(), 1);
}
