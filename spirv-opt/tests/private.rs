//! `private`: `Private` variables only an entry point uses become its `Function` variables
//! (what a `static const` global becomes after inlining), and only those.

mod common;
use hlslc_spirv_opt::{optimize, private, Options};

const HEAD: &str = r#"OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %buf %B %C %shared
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
OpMemberDecorate %S 1 Offset 4
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u3 = OpConstant %uint 3
%v2 = OpTypeVector %uint 2
%S = OpTypeStruct %uint %uint
%ptr_S = OpTypePointer StorageBuffer %S
%ptr_u = OpTypePointer StorageBuffer %uint
%ptr_p = OpTypePointer Private %uint
%ptr_pv = OpTypePointer Private %v2
%buf = OpVariable %ptr_S StorageBuffer
"#;

/// `static const uint B = 2;` (stored at the start of the entry point), `static uint2 C = {3, 3}`
/// (an initializer, read through an access chain), and `shared`, which a called helper also
/// writes: B and C move into `main`, with their initializer and a `Function` pointer type for C's
/// chain; `shared` stays `Private`. In SPIR-V 1.4 the moved ones leave the interface list.
#[test]
fn moves_private_variables_only_the_entry_point_uses() {
    let body = |globals: &str, entry: &str, chain_type: &str| {
        format!(
            r#"{HEAD}%vc = OpConstantComposite %v2 %u3 %u3
{globals}%main = OpFunction %void None %fn
%entry = OpLabel
{entry}OpStore %B %u2
%b = OpLoad %uint %B
%c0 = OpAccessChain {chain_type} %C %u0
%c = OpLoad %uint %c0
%p0 = OpAccessChain %ptr_u %buf %u0
OpStore %p0 %b
%p1 = OpAccessChain %ptr_u %buf %u1
OpStore %p1 %c
OpStore %shared %b
%r = OpFunctionCall %void %helper
OpReturn
OpFunctionEnd
%helper = OpFunction %void None %fn
%he = OpLabel
OpStore %shared %u1
OpReturn
OpFunctionEnd
"#
        )
    };
    let input = body(
        "%B = OpVariable %ptr_p Private\n%C = OpVariable %ptr_pv Private %vc\n%shared = OpVariable %ptr_p Private\n",
        "",
        "%ptr_p",
    );
    let expected = body(
        "%shared = OpVariable %ptr_p Private\n%ptr_f = OpTypePointer Function %uint\n%ptr_fv = OpTypePointer Function %v2\n",
        "%C = OpVariable %ptr_fv Function %vc\n%B = OpVariable %ptr_f Function\n",
        "%ptr_f",
    )
    .replace("%main \"main\" %buf %B %C %shared", "%main \"main\" %buf %shared");
    common::check_env("vulkan1.2", &input, &expected, |m| {
        assert!(private::run(m));
        assert!(!private::run(m));
    });
}

/// Through the whole pipeline, the moved variables' values become constants: `buf.a = B` stores
/// the constant 2 and `buf.b = C.x` the constant 3 (after inlining, which leaves the helper's store
/// to `shared` in `main`, so `shared` moves too, and is then removed as write-only).
#[test]
fn the_pipeline_propagates_static_constants() {
    let input = format!(
        r#"{HEAD}%vc = OpConstantComposite %v2 %u3 %u3
%B = OpVariable %ptr_p Private
%C = OpVariable %ptr_pv Private %vc
%shared = OpVariable %ptr_p Private
%main = OpFunction %void None %fn
%entry = OpLabel
OpStore %B %u2
%b = OpLoad %uint %B
%c0 = OpAccessChain %ptr_p %C %u0
%c = OpLoad %uint %c0
%p0 = OpAccessChain %ptr_u %buf %u0
OpStore %p0 %b
%p1 = OpAccessChain %ptr_u %buf %u1
OpStore %p1 %c
OpStore %shared %b
OpReturn
OpFunctionEnd
"#
    );
    let expected = r#"OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %buf
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
OpMemberDecorate %S 1 Offset 4
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u3 = OpConstant %uint 3
%S = OpTypeStruct %uint %uint
%ptr_S = OpTypePointer StorageBuffer %S
%ptr_u = OpTypePointer StorageBuffer %uint
%buf = OpVariable %ptr_S StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
%p0 = OpAccessChain %ptr_u %buf %u0
OpStore %p0 %u2
%p1 = OpAccessChain %ptr_u %buf %u1
OpStore %p1 %u3
OpReturn
OpFunctionEnd
"#;
    common::check_env("vulkan1.2", &input, expected, |m| optimize(m, &Options::default()));
}
