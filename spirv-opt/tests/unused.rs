//! `unused`: what no entry point reaches goes, with its names and decorations.

mod common;
use hlslc_spirv_opt::{unused, Keep};

/// A fragment shader with an unused helper function, an unused uniform buffer (its struct type,
/// names and decorations), an unused input, an unused constant and type.
const INPUT: &str = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %in_used %in_unused %out
OpExecutionMode %main OriginUpperLeft
OpName %main "main"
OpName %helper "helper"
OpName %type_CB "type.CB"
OpMemberName %type_CB 0 "scale"
OpName %cb "CB"
OpName %in_unused "in.var.UNUSED"
OpDecorate %in_used Location 0
OpDecorate %in_unused Location 1
OpDecorate %out Location 0
OpDecorate %cb DescriptorSet 0
OpDecorate %cb Binding 3
OpDecorate %type_CB Block
OpMemberDecorate %type_CB 0 Offset 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%int = OpTypeInt 32 1
%v4float = OpTypeVector %float 4
%ptr_in = OpTypePointer Input %v4float
%ptr_out = OpTypePointer Output %v4float
%type_CB = OpTypeStruct %float
%ptr_cb = OpTypePointer Uniform %type_CB
%unused_type = OpTypeVector %int 3
%unused_const = OpConstant %int 7
%in_used = OpVariable %ptr_in Input
%in_unused = OpVariable %ptr_in Input
%out = OpVariable %ptr_out Output
%cb = OpVariable %ptr_cb Uniform
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpLoad %v4float %in_used
OpStore %out %v
OpReturn
OpFunctionEnd
%helper = OpFunction %void None %fn
%h = OpLabel
OpReturn
OpFunctionEnd
"#;

#[test]
fn removes_what_no_entry_point_reaches() {
    let expected = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %in_used %out
OpExecutionMode %main OriginUpperLeft
OpName %main "main"
OpDecorate %in_used Location 0
OpDecorate %out Location 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%ptr_in = OpTypePointer Input %v4float
%ptr_out = OpTypePointer Output %v4float
%in_used = OpVariable %ptr_in Input
%out = OpVariable %ptr_out Output
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpLoad %v4float %in_used
OpStore %out %v
OpReturn
OpFunctionEnd
"#;
    common::check(INPUT, expected, |m| {
        assert!(unused::run(m, &Keep::default()));
        assert!(!unused::run(m, &Keep::default()), "a second run finds nothing more");
    });
}

#[test]
fn preserve_bindings_keeps_resources() {
    let expected = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %in_used %out
OpExecutionMode %main OriginUpperLeft
OpName %main "main"
OpName %type_CB "type.CB"
OpMemberName %type_CB 0 "scale"
OpName %cb "CB"
OpDecorate %in_used Location 0
OpDecorate %out Location 0
OpDecorate %cb DescriptorSet 0
OpDecorate %cb Binding 3
OpDecorate %type_CB Block
OpMemberDecorate %type_CB 0 Offset 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%ptr_in = OpTypePointer Input %v4float
%ptr_out = OpTypePointer Output %v4float
%type_CB = OpTypeStruct %float
%ptr_cb = OpTypePointer Uniform %type_CB
%in_used = OpVariable %ptr_in Input
%out = OpVariable %ptr_out Output
%cb = OpVariable %ptr_cb Uniform
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpLoad %v4float %in_used
OpStore %out %v
OpReturn
OpFunctionEnd
"#;
    common::check(INPUT, expected, |m| {
        unused::run(m, &Keep { bindings: true, interface: false });
    });
}

#[test]
fn preserve_interface_keeps_stage_variables() {
    let expected = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %in_used %in_unused %out
OpExecutionMode %main OriginUpperLeft
OpName %main "main"
OpName %in_unused "in.var.UNUSED"
OpDecorate %in_used Location 0
OpDecorate %in_unused Location 1
OpDecorate %out Location 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%ptr_in = OpTypePointer Input %v4float
%ptr_out = OpTypePointer Output %v4float
%in_used = OpVariable %ptr_in Input
%in_unused = OpVariable %ptr_in Input
%out = OpVariable %ptr_out Output
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpLoad %v4float %in_used
OpStore %out %v
OpReturn
OpFunctionEnd
"#;
    common::check(INPUT, expected, |m| {
        unused::run(m, &Keep { bindings: false, interface: true });
    });
}

/// A called function stays, and what only it uses (a workgroup variable, a constant) stays too;
/// a counter buffer named by `OpDecorateId` stays with the buffer.
#[test]
fn keeps_what_calls_and_decorations_reach() {
    let input = r#"
OpCapability Shader
OpExtension "SPV_GOOGLE_hlsl_functionality1"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
OpDecorate %counter DescriptorSet 0
OpDecorate %counter Binding 1
OpDecorateId %buf HlslCounterBufferGOOGLE %counter
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%S = OpTypeStruct %uint
%ptr_S = OpTypePointer StorageBuffer %S
%ptr_u = OpTypePointer StorageBuffer %uint
%ptr_w = OpTypePointer Workgroup %uint
%u0 = OpConstant %uint 0
%u5 = OpConstant %uint 5
%buf = OpVariable %ptr_S StorageBuffer
%counter = OpVariable %ptr_S StorageBuffer
%shared = OpVariable %ptr_w Workgroup
%main = OpFunction %void None %fn
%entry = OpLabel
%r = OpFunctionCall %void %callee
OpReturn
OpFunctionEnd
%callee = OpFunction %void None %fn
%c = OpLabel
OpStore %shared %u5
%p = OpAccessChain %ptr_u %buf %u0
OpStore %p %u5
OpReturn
OpFunctionEnd
"#;
    let out = common::check_env("vulkan1.1", input, input, |m| {
        assert!(!unused::run(m, &Keep::default()), "everything is reachable");
    });
    if let Some(out) = out {
        assert!(out.contains("CounterBuffer"), "{out}");
    }
}
