//! End to end through the context and builder: a small but real compute module in DXC's shape
//! (`RWStructuredBuffer<uint> buf; [numthreads(64,1,1)] void main(uint3 id : SV_DispatchThreadID)`
//! with a bounds check and a loop), serialized, validated by `spirv-val`, and disassembled by us
//! and by `spirv-dis`.

mod common;

use hlslc_spirv::disasm::disassemble;
use hlslc_spirv::passes;
use hlslc_spirv::types::{Decoration, StructMember, StructType};
use hlslc_spirv::{BuildError, ModuleBuilder, SpvId, TargetEnv};
use spirv::{
    BuiltIn, Decoration as D, ExecutionMode, ExecutionModel, FunctionControl, LoopControl, Op, SelectionControl,
    StorageClass,
};

/// Builds the module; returns its words.
fn build_compute(target: TargetEnv) -> Vec<u32> {
    let mut b = ModuleBuilder::new(target);
    b.source(spirv::SourceLanguage::HLSL, 600, None, None);
    let main = b.ctx.alloc_id();
    let uint = b.ctx.type_u32();
    let int = b.ctx.type_i32();
    let boolean = b.ctx.type_bool();
    let v3uint = b.ctx.type_vector(uint, 3);
    let rt = b.ctx.type_runtime_array(uint, Some(4));
    // SPIR-V 1.4 removed BufferBlock: storage buffers become StorageBuffer + Block there, and the
    // entry point lists every global it uses.
    let new_style = target.spirv_version() >= (1, 4);
    let (buf_sc, block) = if new_style { (StorageClass::StorageBuffer, D::Block) } else { (StorageClass::Uniform, D::BufferBlock) };
    let buf_ty = b.ctx.type_struct(StructType {
        name: "type.RWStructuredBuffer.uint".into(),
        members: vec![StructMember {
            ty: rt,
            name: String::new(),
            decorations: vec![Decoration::with_literals(D::Offset, &[0])],
        }],
        decorations: vec![Decoration::new(block)],
    });
    let buf_ptr = b.ctx.type_pointer(buf_sc, buf_ty);
    let in_ptr = b.ctx.type_pointer(StorageClass::Input, v3uint);
    let void = b.ctx.type_void();
    let fn_ty = b.ctx.type_function(void, &[]);
    let elem_ptr = b.ctx.type_pointer(buf_sc, uint);
    let int_ptr = b.ctx.type_pointer(StorageClass::Function, int);
    let buf = b.global_variable(buf_ptr, buf_sc, None);
    b.ctx.name(buf, "buf");
    b.ctx.decorate(buf, &Decoration::descriptor_set(0));
    b.ctx.decorate(buf, &Decoration::binding(0));
    let gid = b.global_variable(in_ptr, StorageClass::Input, None);
    b.ctx.decorate(gid, &Decoration::builtin(BuiltIn::GlobalInvocationId));
    let interface = if new_style { vec![gid, buf] } else { vec![gid] };
    b.entry_point(ExecutionModel::GLCompute, main, "main", interface);
    b.execution_mode(main, ExecutionMode::LocalSize, &[64, 1, 1]);
    b.ctx.name(main, "main");

    b.begin_function(main, void, fn_ty, FunctionControl::NONE).unwrap();
    let entry = b.new_block().unwrap();
    b.ctx.name(entry, "bb.entry");
    b.switch_to_block(entry).unwrap();
    let i = b.local_variable(int_ptr, None).unwrap();
    b.ctx.name(i, "i");
    let id = b.load(v3uint, gid, None).unwrap();
    let x = b.composite_extract(uint, id, &[0]).unwrap();
    let limit = b.ctx.const_u32(128);
    let in_range = b.binary(Op::ULessThan, boolean, x, limit).unwrap();
    let then_bb = b.new_block().unwrap();
    let merge_bb = b.new_block().unwrap();
    b.ctx.name(then_bb, "if.true");
    b.ctx.name(merge_bb, "if.merge");
    b.selection_merge(merge_bb, SelectionControl::NONE).unwrap();
    b.branch_conditional(in_range, then_bb, merge_bb).unwrap();
    assert!(b.is_terminated());

    b.switch_to_block(then_bb).unwrap();
    let zero = b.ctx.const_i32(0);
    let p = b.access_chain(elem_ptr, buf, &[zero, x]).unwrap();
    let v = b.load(uint, p, None).unwrap();
    let one = b.ctx.const_u32(1);
    let sum = b.binary(Op::IAdd, uint, v, one).unwrap();
    b.store(p, sum, None).unwrap();
    b.branch(merge_bb).unwrap();

    // for (int i = 0; i < 4; ++i) buf[i] = buf[i] * 2;
    b.switch_to_block(merge_bb).unwrap();
    b.store(i, zero, None).unwrap();
    let check = b.new_block().unwrap();
    let body = b.new_block().unwrap();
    let cont = b.new_block().unwrap();
    let done = b.new_block().unwrap();
    b.branch(check).unwrap();
    b.switch_to_block(check).unwrap();
    let iv = b.load(int, i, None).unwrap();
    let four = b.ctx.const_i32(4);
    let lt = b.binary(Op::SLessThan, boolean, iv, four).unwrap();
    b.loop_merge(done, cont, LoopControl::NONE).unwrap();
    b.branch_conditional(lt, body, done).unwrap();
    b.switch_to_block(body).unwrap();
    let iv2 = b.load(int, i, None).unwrap();
    let p2 = b.access_chain(elem_ptr, buf, &[zero, iv2]).unwrap();
    let v2 = b.load(uint, p2, None).unwrap();
    let two = b.ctx.const_u32(2);
    let prod = b.binary(Op::IMul, uint, v2, two).unwrap();
    b.store(p2, prod, None).unwrap();
    b.branch(cont).unwrap();
    b.switch_to_block(cont).unwrap();
    let iv3 = b.load(int, i, None).unwrap();
    let one_i = b.ctx.const_i32(1);
    let next = b.binary(Op::IAdd, int, iv3, one_i).unwrap();
    b.store(i, next, None).unwrap();
    b.branch(check).unwrap();
    b.switch_to_block(done).unwrap();
    b.ret().unwrap();
    b.end_function().unwrap();

    let mut m = b.finish().unwrap();
    passes::run_all(&mut m);
    m.to_words()
}

#[test]
fn compute_module_validates_and_disassembles() {
    for target in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_1, TargetEnv::Vulkan1_2, TargetEnv::Vulkan1_3] {
        let sc = if target.spirv_version() >= (1, 4) { "StorageBuffer" } else { "Uniform" };
        let block = if target.spirv_version() >= (1, 4) { "Block" } else { "BufferBlock" };
        let words = build_compute(target);
        assert_eq!(build_compute(target), words, "output must be deterministic");
        let text = disassemble(&words).unwrap();
        for line in [
            "; Generator: Google spiregg; 0",
            "OpCapability Shader",
            "OpEntryPoint GLCompute %main \"main\" %gl_GlobalInvocationID",
            &format!("OpDecorate %type_RWStructuredBuffer_uint {block}\n"),
            &format!("%buf = OpVariable %_ptr_{sc}_type_RWStructuredBuffer_uint {sc}"),
            &format!("OpAccessChain %_ptr_{sc}_uint %buf %int_0"),
            "OpExecutionMode %main LocalSize 64 1 1",
            "OpSource HLSL 600",
            "OpName %type_RWStructuredBuffer_uint \"type.RWStructuredBuffer.uint\"",
            "OpDecorate %_runtimearr_uint ArrayStride 4",
            "OpMemberDecorate %type_RWStructuredBuffer_uint 0 Offset 0",
            "OpDecorate %buf DescriptorSet 0",
            "%i = OpVariable %_ptr_Function_int Function",
            "OpSelectionMerge %if_merge None",
            "OpLoopMerge",
        ] {
            assert!(text.contains(line), "missing {line:?} in:\n{text}");
        }
        // Function variables come first in the entry block.
        let entry_pos = text.find("%bb_entry = OpLabel").unwrap();
        let after = &text[entry_pos..];
        assert!(after.lines().nth(1).unwrap().contains("%i = OpVariable"), "{text}");
        if common::tool("spirv-val").is_some() {
            common::spirv_val(&words, &format!("smoke{:?}", target), target.as_str()).unwrap_or_else(|e| panic!("{e}\n{text}"));
        }
        if common::tool("spirv-dis").is_some() {
            let theirs = common::spirv_dis(&words, "smoke");
            assert!(text == theirs, "{}", common::first_difference(&text, &theirs));
        }
    }
}

#[test]
fn capabilities_inferred_for_16bit_storage_and_images() {
    let mut b = ModuleBuilder::new(TargetEnv::Vulkan1_0);
    let main = b.ctx.alloc_id();
    let half = b.ctx.type_float(16);
    let float = b.ctx.type_f32();
    let rt = b.ctx.type_runtime_array(half, Some(2));
    let s = b.ctx.type_struct(StructType {
        name: "type.RWStructuredBuffer.half".into(),
        members: vec![StructMember { ty: rt, name: String::new(), decorations: vec![Decoration::with_literals(D::Offset, &[0])] }],
        decorations: vec![Decoration::new(D::BufferBlock)],
    });
    let sp = b.ctx.type_pointer(StorageClass::Uniform, s);
    let buf = b.global_variable(sp, StorageClass::Uniform, None);
    b.ctx.decorate(buf, &Decoration::with_literals(D::DescriptorSet, &[0]));
    b.ctx.decorate(buf, &Decoration::with_literals(D::Binding, &[0]));
    let img = b.ctx.type_image(
        hlslc_spirv::types::ImageType {
            sampled_type: float,
            dim: spirv::Dim::Dim1D,
            depth: 2,
            arrayed: false,
            multisampled: false,
            sampled: 2,
            format: spirv::ImageFormat::Rg16f,
            access: None,
        },
        Some("type.1d.image"),
    );
    let ip = b.ctx.type_pointer(StorageClass::UniformConstant, img);
    let tex = b.global_variable(ip, StorageClass::UniformConstant, None);
    b.ctx.decorate(tex, &Decoration::with_literals(D::DescriptorSet, &[0]));
    b.ctx.decorate(tex, &Decoration::with_literals(D::Binding, &[1]));
    let void = b.ctx.type_void();
    let fn_ty = b.ctx.type_function(void, &[]);
    let int = b.ctx.type_i32();
    let zero = b.ctx.const_i32(0);
    let hp = b.ctx.type_pointer(StorageClass::Uniform, half);
    b.entry_point(ExecutionModel::GLCompute, main, "main", vec![]);
    b.execution_mode(main, ExecutionMode::LocalSize, &[1, 1, 1]);
    b.begin_function(main, void, fn_ty, FunctionControl::NONE).unwrap();
    let e = b.new_block().unwrap();
    b.switch_to_block(e).unwrap();
    let p = b.access_chain(hp, buf, &[zero, zero]).unwrap();
    let h = b.load(half, p, None).unwrap();
    let sum = b.binary(Op::FAdd, half, h, h).unwrap();
    b.mark_relaxed_precision(sum);
    b.mark_relaxed_precision(sum);
    b.store(p, sum, None).unwrap();
    let image = b.load(img, tex, None).unwrap();
    let size = b.unary(Op::ImageQuerySize, int, image).unwrap();
    let _ = size;
    b.ret().unwrap();
    b.end_function().unwrap();
    let mut m = b.finish().unwrap();
    passes::run_all(&mut m);
    let words = m.to_words();
    let text = disassemble(&words).unwrap();
    for line in [
        "OpCapability Float16",
        "OpCapability StorageBuffer16BitAccess",
        "OpCapability Image1D",
        "OpCapability StorageImageExtendedFormats",
        "OpCapability ImageQuery",
        "OpExtension \"SPV_KHR_16bit_storage\"",
    ] {
        assert!(text.contains(line), "missing {line:?} in:\n{text}");
    }
    assert_eq!(text.matches("RelaxedPrecision").count(), 1, "{text}");
    assert!(!text.contains("OpCapability Matrix"));
    assert!(!text.contains("OpCapability Kernel"));
    if common::tool("spirv-val").is_some() {
        common::spirv_val(&words, "caps", "vulkan1.0").unwrap_or_else(|e| panic!("{e}\n{text}"));
    }
    // In Vulkan 1.1 the 16-bit storage extension is core: no OpExtension.
    let mut m2 = m.clone();
    m2.target = TargetEnv::Vulkan1_1;
    m2.module.extensions.clear();
    passes::run_all(&mut m2);
    assert!(m2.module.extensions.is_empty());
}

#[test]
fn block_invariants_are_errors_not_panics() {
    let mut b = ModuleBuilder::new(TargetEnv::Vulkan1_0);
    let void = b.ctx.type_void();
    let fn_ty = b.ctx.type_function(void, &[]);
    let boolean = b.ctx.type_bool();
    let t = b.ctx.const_bool(true);
    assert_eq!(b.ret(), Err(BuildError::NoFunction));
    let f = b.ctx.alloc_id();
    b.begin_function(f, void, fn_ty, FunctionControl::NONE).unwrap();
    assert_eq!(b.begin_function(f, void, fn_ty, FunctionControl::NONE), Err(BuildError::FunctionAlreadyOpen));
    assert_eq!(b.end_function(), Err(BuildError::EmptyFunction(f)));
    let e = b.new_block().unwrap();
    assert_eq!(b.ret(), Err(BuildError::NoCurrentBlock));
    b.switch_to_block(e).unwrap();
    let other = b.new_block().unwrap();
    b.selection_merge(other, SelectionControl::NONE).unwrap();
    assert_eq!(b.ret(), Err(BuildError::MergeWithoutBranch(e)));
    b.branch_conditional(t, other, other).unwrap();
    assert_eq!(b.binary(Op::LogicalAnd, boolean, t, t), Err(BuildError::NoCurrentBlock));
    assert_eq!(b.switch_to_block(e), Err(BuildError::BlockTerminated(e)));
    assert_eq!(b.switch_to_block(SpvId(999)), Err(BuildError::UnknownBlock(SpvId(999))));
    assert_eq!(b.end_function(), Err(BuildError::UnterminatedBlock(other)));
    b.switch_to_block(other).unwrap();
    b.ret().unwrap();
    b.end_function().unwrap();
    // An entry point naming a function that was never defined.
    let ghost = b.ctx.alloc_id();
    b.entry_point(ExecutionModel::GLCompute, ghost, "main", vec![]);
    assert_eq!(b.finish().err(), Some(BuildError::UnknownFunction(ghost)));
}
