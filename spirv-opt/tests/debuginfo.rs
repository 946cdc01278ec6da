//! `debuginfo`: debug information kept through the passes (`DebugValue`s for promoted
//! variables, `DebugInlinedAt` for inlined code, `DebugInfoNone` for removed variables), and
//! [`debuginfo::strip`], which removes the sets with the strings only they named and
//! `SPV_KHR_non_semantic_info` (`OpSource`/`OpLine` and their strings stay).
//! (rspirv's loader refuses module-scope `OpExtInst`s: `common::load_with_debug` adds them to
//! the loaded module as the emitter builds them.)

mod common;
use hlslc_spirv_opt::{dce, debuginfo, inline, mem2reg, unused, Keep};
use rspirv::binary::Assemble;
use rspirv::dr::{Instruction, Operand};
use spirv::Op;

const HEAD: &str = r#"OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%file = OpString "a.hlsl"
OpSource HLSL 600 %file
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%u1 = OpConstant %uint 1
%u4 = OpConstant %uint 4
%u5 = OpConstant %uint 5
%main = OpFunction %void None %fn
%entry = OpLabel
OpLine %file 2 1
OpReturn
OpFunctionEnd
"#;

#[test]
fn removes_non_semantic_debug_info_and_keeps_op_line() {
    if !common::tools() {
        return;
    }
    let words = common::assemble(HEAD, "vulkan1.0");
    let mut m = rspirv::dr::load_words(&words).expect("loads");
    let id = |m: &mut rspirv::dr::Module| {
        let h = m.header.as_mut().unwrap();
        h.bound += 1;
        h.bound - 1
    };
    let find = |m: &rspirv::dr::Module, op: Op| m.all_inst_iter().find(|i| i.class.opcode == op).and_then(|i| i.result_id).unwrap();
    let (void, file, const_1) = (find(&m, Op::TypeVoid), find(&m, Op::String), find(&m, Op::Constant));
    // What `-fspv-debug=vulkan` adds: the extension, the import, a name string, DebugSource,
    // DebugCompilationUnit and a DebugScope in the function.
    let set = id(&mut m);
    m.extensions.push(Instruction::new(Op::Extension, None, None, vec![Operand::from("SPV_KHR_non_semantic_info")]));
    m.ext_inst_imports.push(Instruction::new(Op::ExtInstImport, None, Some(set), vec![Operand::from("NonSemantic.Shader.DebugInfo.100")]));
    let name = id(&mut m);
    m.debug_string_source.push(Instruction::new(Op::String, None, Some(name), vec![Operand::from("main")]));
    let ext = |m: &mut rspirv::dr::Module, n: u32, ops: &[u32]| {
        let r = id(m);
        let mut o = vec![Operand::IdRef(set), Operand::LiteralExtInstInteger(n)];
        o.extend(ops.iter().map(|&x| Operand::IdRef(x)));
        (r, Instruction::new(Op::ExtInst, Some(void), Some(r), o))
    };
    let (src, i) = ext(&mut m, 35, &[file]);
    m.types_global_values.push(i);
    let (cu, i) = ext(&mut m, 1, &[const_1, const_1, src, const_1]);
    m.types_global_values.push(i);
    let (_, scope) = ext(&mut m, 23, &[cu]);
    m.functions[0].blocks[0].instructions.insert(0, scope);
    let with = m.assemble();
    common::validate(&with, "vulkan1.0", "input with debug info");

    assert!(debuginfo::strip(&mut m));
    assert!(!debuginfo::strip(&mut m));
    let out = m.assemble();
    common::validate(&out, "vulkan1.0", "output");
    let text = common::canonical(&common::disassemble(&out));
    assert_eq!(text, common::canonical(&common::disassemble(&words)), "the module without its debug info");
}

/// A module with `NonSemantic.Shader.DebugInfo.100`: a compilation unit, `main`'s
/// `DebugFunction` and a local variable `x` of `main` (and name strings for the tests); the body follows (more debug instructions,
/// then the functions).
const DEBUG_HEAD: &str = r#"OpCapability Shader
OpExtension "SPV_KHR_non_semantic_info"
%set = OpExtInstImport "NonSemantic.Shader.DebugInfo.100"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%file = OpString "a.hlsl"
%s_uint = OpString "uint"
%s_main = OpString "main"
%s_x = OpString "x"
%s_f = OpString "f"
%s_g = OpString "g"
%s_dead = OpString "dead"
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
OpDecorate %S BufferBlock
OpMemberDecorate %S 0 Offset 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%ptr_f = OpTypePointer Function %uint
%S = OpTypeStruct %uint
%ptr_S = OpTypePointer Uniform %S
%ptr_u = OpTypePointer Uniform %uint
%ptr_p = OpTypePointer Private %uint
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u3 = OpConstant %uint 3
%u4 = OpConstant %uint 4
%u5 = OpConstant %uint 5
%u6 = OpConstant %uint 6
%u32 = OpConstant %uint 32
%buf = OpVariable %ptr_S Uniform
%src = OpExtInst %void %set DebugSource %file
%cu = OpExtInst %void %set DebugCompilationUnit %u1 %u4 %src %u5
%t_uint = OpExtInst %void %set DebugTypeBasic %s_uint %u32 %u6 %u0
%t_fn = OpExtInst %void %set DebugTypeFunction %u3 %void
%d_main = OpExtInst %void %set DebugFunction %s_main %t_fn %src %u1 %u1 %cu %s_main %u3 %u1
%d_x = OpExtInst %void %set DebugLocalVariable %s_x %t_uint %src %u2 %u1 %d_main %u4
%expr = OpExtInst %void %set DebugExpression
"#;

fn debug_module(body: &str) -> String {
    format!("{DEBUG_HEAD}{body}")
}

/// `uint x = 0; x = 1; if (buf.a < 5) x = 2; buf.a = x;`: the `DebugDeclare` of `x` becomes a
/// `DebugValue` where it stood (of the initializer), after each store (of the stored value) and
/// after the `OpPhi` that joins them.
#[test]
fn mem2reg_turns_debug_declare_into_debug_values() {
    let input = debug_module(
        r#"%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpVariable %ptr_f Function %u0
%sc = OpExtInst %void %set DebugScope %d_main
%def = OpExtInst %void %set DebugFunctionDefinition %d_main %main
%decl = OpExtInst %void %set DebugDeclare %d_x %x %expr
OpStore %x %u1
%p = OpAccessChain %ptr_u %buf %u0
%in = OpLoad %uint %p
%c = OpULessThan %bool %in %u5
OpSelectionMerge %m None
OpBranchConditional %c %then %m
%then = OpLabel
OpStore %x %u2
OpBranch %m
%m = OpLabel
%xv = OpLoad %uint %x
OpStore %p %xv
OpReturn
OpFunctionEnd
"#,
    );
    let expected = debug_module(
        r#"%main = OpFunction %void None %fn
%entry = OpLabel
%sc = OpExtInst %void %set DebugScope %d_main
%def = OpExtInst %void %set DebugFunctionDefinition %d_main %main
%v0 = OpExtInst %void %set DebugValue %d_x %u0 %expr
%v1 = OpExtInst %void %set DebugValue %d_x %u1 %expr
%p = OpAccessChain %ptr_u %buf %u0
%in = OpLoad %uint %p
%c = OpULessThan %bool %in %u5
OpSelectionMerge %m None
OpBranchConditional %c %then %m
%then = OpLabel
%v2 = OpExtInst %void %set DebugValue %d_x %u2 %expr
OpBranch %m
%m = OpLabel
%phi = OpPhi %uint %u1 %entry %u2 %then
%v3 = OpExtInst %void %set DebugValue %d_x %phi %expr
OpStore %p %phi
OpReturn
OpFunctionEnd
"#,
    );
    common::check_debug("vulkan1.0", &input, &expected, |m| {
        assert!(mem2reg::run(m));
    });
}

/// A value only a `DebugValue` names is dead, and the `DebugValue` goes with it; so does a
/// variable only stored to and declared, with its `DebugDeclare`.
#[test]
fn dce_does_not_count_debug_uses() {
    let input = debug_module(
        r#"%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpVariable %ptr_f Function
%sc = OpExtInst %void %set DebugScope %d_main
%def = OpExtInst %void %set DebugFunctionDefinition %d_main %main
%decl = OpExtInst %void %set DebugDeclare %d_x %x %expr
%a = OpIAdd %uint %u1 %u2
%v = OpExtInst %void %set DebugValue %d_x %a %expr
OpStore %x %u1
OpReturn
OpFunctionEnd
"#,
    );
    let expected = debug_module(
        r#"%main = OpFunction %void None %fn
%entry = OpLabel
%sc = OpExtInst %void %set DebugScope %d_main
%def = OpExtInst %void %set DebugFunctionDefinition %d_main %main
OpReturn
OpFunctionEnd
"#,
    );
    common::check_debug("vulkan1.0", &input, &expected, |m| {
        assert!(dce::run(m));
    });
}

/// The copy of an inlined callee has no `DebugFunctionDefinition`, its `DebugScope` names a
/// `DebugInlinedAt` of the call's line (3) and scope, and the caller's scope and line start the
/// block after the call again. The callee, called only there, gave its body up: an unreachable
/// block is left until the removal of unused functions.
#[test]
fn inlining_records_debug_inlined_at() {
    const F: &str = r#"%f = OpFunction %void None %fn
%fe = OpLabel
%fs = OpExtInst %void %set DebugScope %d_f
%fd = OpExtInst %void %set DebugFunctionDefinition %d_f %f
%fl = OpExtInst %void %set DebugLine %src %u2 %u2 %u4 %u5
%fp = OpAccessChain %ptr_u %buf %u0
OpStore %fp %u1
OpReturn
OpFunctionEnd
"#;
    const F_GONE: &str = r#"%f = OpFunction %void None %fn
%stub = OpLabel
OpUnreachable
OpFunctionEnd
"#;
    let body = |main: &str, f: &str| {
        debug_module(&format!(
            r#"%d_f = OpExtInst %void %set DebugFunction %s_f %t_fn %src %u2 %u1 %cu %s_f %u3 %u2
{main}{f}"#
        ))
    };
    let input = body(
        r#"%main = OpFunction %void None %fn
%entry = OpLabel
%sc = OpExtInst %void %set DebugScope %d_main
%def = OpExtInst %void %set DebugFunctionDefinition %d_main %main
%line = OpExtInst %void %set DebugLine %src %u3 %u3 %u1 %u2
%call = OpFunctionCall %void %f
OpReturn
OpFunctionEnd
"#,
        F,
    );
    // The new DebugInlinedAt goes at the end of the module's globals, after the strings' users.
    let expected = body(
        r#"%at = OpExtInst %void %set DebugInlinedAt %u3 %d_main
%main = OpFunction %void None %fn
%entry = OpLabel
%sc = OpExtInst %void %set DebugScope %d_main
%def = OpExtInst %void %set DebugFunctionDefinition %d_main %main
%line = OpExtInst %void %set DebugLine %src %u3 %u3 %u1 %u2
OpBranch %fe2
%fe2 = OpLabel
%fs2 = OpExtInst %void %set DebugScope %d_f %at
%fl2 = OpExtInst %void %set DebugLine %src %u2 %u2 %u4 %u5
%fp2 = OpAccessChain %ptr_u %buf %u0
OpStore %fp2 %u1
OpBranch %after
%after = OpLabel
%sc2 = OpExtInst %void %set DebugScope %d_main
%line2 = OpExtInst %void %set DebugLine %src %u3 %u3 %u1 %u2
OpReturn
OpFunctionEnd
"#,
        F_GONE,
    );
    common::check_debug("vulkan1.0", &input, &expected, |m| {
        assert!(inline::run(m));
    });
}

/// Removing an unused global variable and an uncalled function: the `DebugGlobalVariable` that
/// named the variable names `DebugInfoNone` instead (it does not keep the variable), and the
/// function's `DebugFunction`, local variable and name strings go.
#[test]
fn removal_of_unused_code_keeps_debug_info_consistent() {
    let input = debug_module(
        r#"%g = OpVariable %ptr_p Private
%d_g = OpExtInst %void %set DebugGlobalVariable %s_g %t_uint %src %u1 %u1 %cu %s_g %g %u3
%d_dead = OpExtInst %void %set DebugFunction %s_dead %t_fn %src %u4 %u1 %cu %s_dead %u3 %u4
%d_y = OpExtInst %void %set DebugLocalVariable %s_x %t_uint %src %u4 %u1 %d_dead %u4
%main = OpFunction %void None %fn
%entry = OpLabel
%sc = OpExtInst %void %set DebugScope %d_main
%def = OpExtInst %void %set DebugFunctionDefinition %d_main %main
OpReturn
OpFunctionEnd
%dead = OpFunction %void None %fn
%de = OpLabel
%y = OpVariable %ptr_f Function
%ds = OpExtInst %void %set DebugScope %d_dead
%dd = OpExtInst %void %set DebugFunctionDefinition %d_dead %dead
%dy = OpExtInst %void %set DebugDeclare %d_y %y %expr
%gv = OpLoad %uint %g
OpStore %y %gv
OpReturn
OpFunctionEnd
"#,
    );
    // DebugInfoNone goes before the first debug instruction. Main's `x`, which no code names
    // any more, goes too, with the expression; so does the unused buffer.
    let expected = r#"OpCapability Shader
OpExtension "SPV_KHR_non_semantic_info"
%set = OpExtInstImport "NonSemantic.Shader.DebugInfo.100"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%file = OpString "a.hlsl"
%s_uint = OpString "uint"
%s_main = OpString "main"
%s_g = OpString "g"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u3 = OpConstant %uint 3
%u4 = OpConstant %uint 4
%u5 = OpConstant %uint 5
%u6 = OpConstant %uint 6
%u32 = OpConstant %uint 32
%none = OpExtInst %void %set DebugInfoNone
%src = OpExtInst %void %set DebugSource %file
%cu = OpExtInst %void %set DebugCompilationUnit %u1 %u4 %src %u5
%t_uint = OpExtInst %void %set DebugTypeBasic %s_uint %u32 %u6 %u0
%t_fn = OpExtInst %void %set DebugTypeFunction %u3 %void
%d_main = OpExtInst %void %set DebugFunction %s_main %t_fn %src %u1 %u1 %cu %s_main %u3 %u1
%d_g = OpExtInst %void %set DebugGlobalVariable %s_g %t_uint %src %u1 %u1 %cu %s_g %none %u3
%main = OpFunction %void None %fn
%entry = OpLabel
%sc = OpExtInst %void %set DebugScope %d_main
%def = OpExtInst %void %set DebugFunctionDefinition %d_main %main
OpReturn
OpFunctionEnd
"#;
    common::check_debug("vulkan1.0", &input, expected, |m| {
        assert!(unused::run(m, &Keep::default()));
        assert!(debuginfo::finish(m));
    });
}
