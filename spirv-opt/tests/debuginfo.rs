//! `debuginfo`: the debug info sets' instructions go before the passes run, with the strings
//! only they named and `SPV_KHR_non_semantic_info`; `OpSource`/`OpLine` and their strings stay.
//! (rspirv's loader refuses module-scope `OpExtInst`s, so the input's debug instructions are
//! added to the loaded module here, as the emitter builds them.)

mod common;
use hlslc_spirv_opt::debuginfo;
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

    assert!(debuginfo::run(&mut m));
    assert!(!debuginfo::run(&mut m));
    let out = m.assemble();
    common::validate(&out, "vulkan1.0", "output");
    let text = common::canonical(&common::disassemble(&out));
    assert_eq!(text, common::canonical(&common::disassemble(&words)), "the module without its debug info");
}
