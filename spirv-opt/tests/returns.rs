//! `returns` (through `inline`): a callee with several returns outside loops gets one return
//! (a loop that runs once, each return a break to its merge) and is inlined; one that returns
//! from inside a loop is left as it is.

mod common;
use hlslc_spirv_opt::{inline, optimize, Options};
use rspirv::binary::Assemble;
use spirv::Op;

const HEAD: &str = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
OpDecorate %S BufferBlock
OpMemberDecorate %S 0 Offset 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%int = OpTypeInt 32 1
%fi = OpTypeFunction %int %int
%S = OpTypeStruct %int
%ptr_S = OpTypePointer Uniform %S
%ptr_i = OpTypePointer Uniform %int
%i0 = OpConstant %int 0
%i1 = OpConstant %int 1
%i2 = OpConstant %int 2
%i10 = OpConstant %int 10
%buf = OpVariable %ptr_S Uniform
%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpAccessChain %ptr_i %buf %i0
%x = OpLoad %int %p
%r = OpFunctionCall %int %f %x
OpStore %p %r
OpReturn
OpFunctionEnd
"#;

fn count(m: &rspirv::dr::Module, op: Op) -> usize {
    m.functions.iter().flat_map(|f| f.blocks.iter()).flat_map(|b| b.instructions.iter()).filter(|i| i.class.opcode == op).count()
}

fn run(callee: &str) -> Option<(rspirv::dr::Module, rspirv::dr::Module)> {
    if !common::tools() {
        return None;
    }
    let words = common::assemble(&format!("{HEAD}{callee}"), "vulkan1.0");
    common::validate(&words, "vulkan1.0", "input");
    let mut inlined = rspirv::dr::load_words(&words).unwrap();
    inline::run(&mut inlined);
    common::validate(&inlined.assemble(), "vulkan1.0", "inlined module");
    let mut optimized = rspirv::dr::load_words(&words).unwrap();
    optimize(&mut optimized, &Options::default());
    common::validate(&optimized.assemble(), "vulkan1.0", "optimized module");
    Some((inlined, optimized))
}

#[test]
fn early_returns_in_selections_are_inlined() {
    // f(x) = x < 0 ? -x : (x == 1 ? 10 : x * 2), written with three returns, one in a switch.
    let callee = r#"
%f = OpFunction %int None %fi
%x_ = OpFunctionParameter %int
%fe = OpLabel
%neg = OpSLessThan %bool %x_ %i0
OpSelectionMerge %m1 None
OpBranchConditional %neg %t1 %m1
%t1 = OpLabel
%nx = OpSNegate %int %x_
OpReturnValue %nx
%m1 = OpLabel
OpSelectionMerge %m2 None
OpSwitch %x_ %m2 1 %case1
%case1 = OpLabel
OpReturnValue %i10
%m2 = OpLabel
%dbl = OpIMul %int %x_ %i2
OpReturnValue %dbl
OpFunctionEnd
"#;
    let Some((inlined, optimized)) = run(callee) else { return };
    assert_eq!(count(&inlined, Op::FunctionCall), 0, "the call is inlined");
    // The wrapper loop, in the caller: the callee's only call took its body, leaving an
    // unreachable block.
    assert_eq!(count(&inlined, Op::LoopMerge), 1);
    let stub: Vec<Op> = inlined.functions[1].blocks.iter().flat_map(|b| &b.instructions).map(|i| i.class.opcode).collect();
    assert_eq!(stub, [Op::Unreachable], "what is left of the callee");
    assert_eq!(count(&optimized, Op::FunctionCall), 0);
    assert_eq!(optimized.functions.len(), 1, "the inlined callee is removed");
}

#[test]
fn a_return_inside_a_loop_is_not_merged() {
    let callee = r#"
%f = OpFunction %int None %fi
%x_ = OpFunctionParameter %int
%fe = OpLabel
OpBranch %hdr
%hdr = OpLabel
%i = OpPhi %int %i0 %fe %next %cont
OpLoopMerge %exit %cont None
OpBranch %body
%body = OpLabel
%hit = OpSGreaterThan %bool %i %x_
OpSelectionMerge %bm None
OpBranchConditional %hit %ret %bm
%ret = OpLabel
OpReturnValue %i
%bm = OpLabel
OpBranch %cont
%cont = OpLabel
%next = OpIAdd %int %i %i1
%more = OpSLessThan %bool %next %i10
OpBranchConditional %more %hdr %exit
%exit = OpLabel
OpReturnValue %x_
OpFunctionEnd
"#;
    let Some((inlined, _)) = run(callee) else { return };
    assert_eq!(count(&inlined, Op::FunctionCall), 1, "left as a call");
    assert_eq!(count(&inlined, Op::ReturnValue), 2, "with its two returns");
}
