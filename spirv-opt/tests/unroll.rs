//! `unroll`: a loop marked `Unroll` whose induction phi starts from a constant, steps by a
//! constant and is compared with a constant becomes its body repeated trip-count times, each
//! header copy ending in a branch (the first keeps the original ids); loops with a `break`, a
//! `continue`, a bound that is not constant or no `Unroll` are left alone.

mod common;
use hlslc_spirv_opt::unroll;

const HEAD: &str = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %rta ArrayStride 4
OpMemberDecorate %buf_t 0 Offset 0
OpDecorate %buf_t BufferBlock
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%int = OpTypeInt 32 1
%rta = OpTypeRuntimeArray %int
%buf_t = OpTypeStruct %rta
%pbuf = OpTypePointer Uniform %buf_t
%pint = OpTypePointer Uniform %int
%buf = OpVariable %pbuf Uniform
%i0 = OpConstant %int 0
%i1 = OpConstant %int 1
%i2 = OpConstant %int 2
%main = OpFunction %void None %fn
%entry = OpLabel
%n = OpLoad %int %pn
OpBranch %h
"#;

/// `for (int i = 0; i < BOUND; i++) acc += i;` then `buf[0] = acc`, with `control` and the
/// loop's `extra` block instructions.
fn looped(bound: &str, control: &str, body_end: &str) -> String {
    format!(
        r#"%h = OpLabel
%acc = OpPhi %int %i0 %entry %acc2 %c
%i = OpPhi %int %i0 %entry %i2b %c
%cond = OpSLessThan %bool %i {bound}
OpLoopMerge %m %c {control}
OpBranchConditional %cond %b %m
%b = OpLabel
%acc2 = OpIAdd %int %acc %i
{body_end}
%c = OpLabel
%i2b = OpIAdd %int %i %i1
OpBranch %h
%m = OpLabel
%p = OpAccessChain %pint %buf %i0 %i0
OpStore %p %acc
OpReturn
OpFunctionEnd
"#
    )
}

fn head() -> String {
    // %pn: a buffer element, for a bound that is not constant.
    HEAD.replace("%n = OpLoad %int %pn\n", "%pn = OpAccessChain %pint %buf %i0 %i1\n%n = OpLoad %int %pn\n")
}

#[test]
fn a_counted_loop_becomes_its_body_twice() {
    let input = format!("{}{}", head(), looped("%i2", "Unroll", "OpBranch %c"));
    let expected = format!(
        "{}{}",
        head(),
        r#"%h = OpLabel
%cond = OpSLessThan %bool %i0 %i2
OpBranch %b
%b = OpLabel
%acc2 = OpIAdd %int %i0 %i0
OpBranch %c
%c = OpLabel
%i2b = OpIAdd %int %i0 %i1
OpBranch %h1
%h1 = OpLabel
%cond1 = OpSLessThan %bool %i2b %i2
OpBranch %b1
%b1 = OpLabel
%acc21 = OpIAdd %int %acc2 %i2b
OpBranch %c1
%c1 = OpLabel
%i2b1 = OpIAdd %int %i2b %i1
OpBranch %h2
%h2 = OpLabel
%cond2 = OpSLessThan %bool %i2b1 %i2
OpBranch %m
%m = OpLabel
%p = OpAccessChain %pint %buf %i0 %i0
OpStore %p %acc21
OpReturn
OpFunctionEnd
"#
    );
    common::check(&input, &expected, |m| {
        assert!(unroll::run(m));
    });
}

#[test]
fn loops_with_a_break_a_variable_bound_or_no_unroll_stay() {
    let cases = [
        looped("%i2", "None", "OpBranch %c"),
        looped("%n", "Unroll", "OpBranch %c"),
        // `if (acc2 == 1) break;`
        looped("%i2", "Unroll", "%e = OpIEqual %bool %acc2 %i1\nOpSelectionMerge %sm None\nOpBranchConditional %e %m %sm\n%sm = OpLabel\nOpBranch %c"),
        // `if (acc2 == 1) continue;`
        looped("%i2", "Unroll", "%e = OpIEqual %bool %acc2 %i1\nOpSelectionMerge %sm None\nOpBranchConditional %e %c %sm\n%sm = OpLabel\nOpBranch %c"),
    ];
    for body in cases {
        let input = format!("{}{}", head(), body);
        common::check(&input, &input, |m| {
            assert!(!unroll::run(m));
        });
    }
}
