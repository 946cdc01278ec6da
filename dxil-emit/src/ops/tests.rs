use super::create::check;
use super::sig::{func_name, op_function_type};
use super::*;
use crate::ir::{FunctionBuilder, Module, Value};
use std::collections::HashMap;

fn v(major: u8, minor: u8) -> DxilVersion {
    DxilVersion::new(major, minor)
}

fn cs(version: DxilVersion) -> Target {
    Target { stage: Stage::Compute, version }
}

/// Every concrete overload an overload set allows (vectors as `<4 x T>`), using `udt`/`obj` as
/// stand-ins for user structs and objects.
fn overloads_of(m: &mut Module, set: OverloadSet) -> Vec<Overload> {
    let mut out = Vec::new();
    for k in ScalarKind::ALL {
        if set.allows(Overload::Scalar(k)) {
            out.push(Overload::Scalar(k));
        }
        if set.allows(Overload::Vector(k, 4)) {
            out.push(Overload::Vector(k, 4));
        }
    }
    let payload = m.types.named_struct("struct.Payload", Some(vec![]));
    let ptr = m.types.pointer(payload, 0);
    if set.allows(Overload::Udt(ptr)) {
        out.push(Overload::Udt(ptr));
    }
    let handle = m.types.named_struct("dx.types.Handle", None);
    if set.allows(Overload::Object(handle)) {
        out.push(Overload::Object(handle));
    }
    out
}

#[test]
fn opcodes_are_unique_and_contiguous_per_partition() {
    let mut next: HashMap<u32, u32> = HashMap::new();
    let mut seen = std::collections::HashSet::new();
    for (i, info) in OP_TABLE.iter().enumerate() {
        assert!(seen.insert(info.opcode), "duplicate opcode {:#x}", info.opcode);
        let partition = info.opcode >> 16;
        assert!(partition == 0 || partition == 0x8000, "{}: bad feature id", info.name);
        let expected = next.entry(partition).or_insert(0);
        assert_eq!(info.opcode & 0xffff, *expected, "{} breaks contiguity", info.name);
        *expected += 1;
        assert_eq!(info.op.table_index(), i);
        assert_eq!(DxilOp::from_opcode(info.opcode), Some(info.op));
        assert_eq!(DxilOp::from_name(info.name), Some(info.op));
        assert_eq!(info.op.opcode(), info.opcode);
        assert_eq!(info.is_experimental(), partition == 0x8000);
    }
    // DXIL 1.8 ends at opcode 257, 1.9 at 311.
    assert_eq!(next[&0], 312);
    assert!(next[&0x8000] > 0);
    assert_eq!(DxilOp::StartInstanceLocation.opcode(), 257);
    assert_eq!(DxilOp::ExperimentalNop.opcode(), 0x8000_0000);
}

#[test]
fn every_dxil_1_8_op_has_a_modelled_signature() {
    let mut count = 0;
    for info in OP_TABLE.iter().filter(|i| i.introduced <= v(1, 8)) {
        match info.signature {
            Signature::Known { .. } => count += 1,
            Signature::Reserved => assert!(info.name.starts_with("Reserved"), "{}", info.name),
            Signature::Opaque => panic!("{} is not modelled", info.name),
        }
    }
    assert_eq!(count, 258 - 12);
}

#[test]
fn names_and_signatures_are_well_formed_for_every_overload() {
    let mut m = Module::new_dxil();
    // (name) -> function type: ops sharing a class must agree on the signature per overload,
    // otherwise their declarations would clash.
    let mut by_name: HashMap<String, (crate::ir::TypeId, &'static str)> = HashMap::new();
    let mut checked = 0;
    for info in OP_TABLE.iter() {
        let Signature::Known { params, .. } = info.signature else { continue };
        let class_ok = info.class.chars().next().is_some_and(|c| c.is_ascii_lowercase())
            && info.class.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        assert!(class_ok, "{}: bad class {}", info.name, info.class);
        let mut sets: Vec<Option<OverloadSet>> = info.overloads.iter().map(|(_, s)| Some(*s)).collect();
        if sets.is_empty() {
            sets.push(None);
        }
        for set in sets {
            let list = match set {
                Some(s) => overloads_of(&mut m, s),
                None => vec![Overload::None],
            };
            assert!(!list.is_empty(), "{}: empty overload set", info.name);
            for o in list {
                let name = func_name(&m, info, o);
                match super::sig::overload_suffix(&m, o) {
                    Some(suffix) => {
                        assert!(!suffix.is_empty() && !suffix.contains(' '), "{name}");
                        assert_eq!(name, format!("dx.op.{}.{suffix}", info.class));
                    }
                    None => assert_eq!(name, format!("dx.op.{}", info.class)),
                }
                let fty = op_function_type(&mut m, info, o).unwrap_or_else(|| panic!("{}: no type for {o:?}", info.name));
                let (_, ps) = m.types.fn_parts(fty).expect("function type");
                assert_eq!(ps.len(), params.len() + 1, "{}", info.name);
                assert_eq!(m.types.int_width(ps[0]), Some(32), "{}: opcode must be i32", info.name);
                if let Some((prev, who)) = by_name.get(&name) {
                    assert_eq!(*prev, fty, "{} and {} disagree on the signature of {name}", who, info.name);
                } else {
                    by_name.insert(name, (fty, info.name));
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 600, "only {checked} signatures checked");
}

#[test]
fn dxc_spellings_of_names_and_signatures() {
    let mut m = Module::new_dxil();
    let f32o = Overload::Scalar(ScalarKind::Float);
    let cases = [
        (DxilOp::Sin, f32o, "dx.op.unary.f32", "float (i32, float)"),
        (DxilOp::ThreadId, Overload::Scalar(ScalarKind::I32), "dx.op.threadId.i32", "i32 (i32, i32)"),
        (DxilOp::BufferLoad, f32o, "dx.op.bufferLoad.f32", "%dx.types.ResRet.f32 (i32, %dx.types.Handle, i32, i32)"),
        (
            DxilOp::BufferStore,
            f32o,
            "dx.op.bufferStore.f32",
            "void (i32, %dx.types.Handle, i32, i32, float, float, float, float, i8)",
        ),
        (DxilOp::CreateHandle, Overload::None, "dx.op.createHandle", "%dx.types.Handle (i32, i8, i32, i32, i1)"),
        (DxilOp::IsNaN, Overload::Scalar(ScalarKind::Half), "dx.op.isSpecialFloat.f16", "i1 (i32, half)"),
        (DxilOp::Countbits, Overload::Scalar(ScalarKind::I64), "dx.op.unaryBits.i64", "i32 (i32, i64)"),
        (DxilOp::FMax, Overload::Vector(ScalarKind::Float, 4), "dx.op.binary.v4f32", "<4 x float> (i32, <4 x float>, <4 x float>)"),
        (DxilOp::CBufferLoadLegacy, Overload::Scalar(ScalarKind::Half), "dx.op.cbufferLoadLegacy.f16", "%dx.types.CBufRet.f16.8 (i32, %dx.types.Handle, i32)"),
        (DxilOp::FDot, Overload::Vector(ScalarKind::Float, 3), "dx.op.dot.v3f32", "float (i32, <3 x float>, <3 x float>)"),
        (DxilOp::WaveActiveAllEqual, Overload::Vector(ScalarKind::I32, 2), "dx.op.waveActiveAllEqual.v2i32", "<2 x i1> (i32, <2 x i32>)"),
        (DxilOp::RawBufferVectorLoad, Overload::Vector(ScalarKind::Float, 4), "dx.op.rawBufferVectorLoad.v4f32", "%dx.types.ResRet.v4f32 (i32, %dx.types.Handle, i32, i32, i32)"),
    ];
    for (op, o, name, ty) in cases {
        let info = op.info();
        assert_eq!(func_name(&m, info, o), name);
        let fty = op_function_type(&mut m, info, o).expect("signature");
        let printed = crate::print::type_text(&m, fty);
        assert_eq!(printed, ty, "{name}");
    }
    let payload = m.types.named_struct("struct.MeshPayload", Some(vec![]));
    let ptr = m.types.pointer(payload, 3);
    assert_eq!(func_name(&m, DxilOp::DispatchMesh.info(), Overload::Udt(ptr)), "dx.op.dispatchMesh.struct.MeshPayload");
    let handle = m.types.named_struct("dx.types.Handle", None);
    assert_eq!(func_name(&m, DxilOp::CreateHandleForLib.info(), Overload::Object(handle)), "dx.op.createHandleForLib.dx.types.Handle");
}

#[test]
fn call_comments_match_dxc() {
    assert_eq!(DxilOp::Sin.info().call_comment(), "Sin(value)");
    assert_eq!(
        DxilOp::RawBufferStore.info().call_comment(),
        "RawBufferStore(uav,index,elementOffset,value0,value1,value2,value3,mask,alignment)"
    );
    assert_eq!(DxilOp::LoadInput.info().call_comment(), "LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)");
    assert_eq!(DxilOp::FlattenedThreadIdInGroup.info().call_comment(), "FlattenedThreadIdInGroup()");
}

#[test]
fn versioned_properties_pick_the_latest_entry() {
    let sin = DxilOp::Sin.info();
    let vec4 = Overload::Vector(ScalarKind::Float, 4);
    assert!(!sin.overloads_at(v(1, 8)).expect("1.8").allows(vec4));
    assert!(sin.overloads_at(v(1, 9)).expect("1.9").allows(vec4));
    let ddx = DxilOp::DerivCoarseX.info();
    assert!(!ddx.stages_at(v(1, 5)).expect("1.5").contains(Stage::Compute));
    assert!(ddx.stages_at(v(1, 6)).expect("1.6").contains(Stage::Compute));
    assert!(ddx.flags.is_derivative && !ddx.flags.is_wave);
    assert!(DxilOp::CreateHandle.info().stages_at(v(1, 6)).expect("1.6").is_removed());
    assert!(DxilOp::AnnotateHandle.info().stages_at(v(1, 5)).is_none());
    assert!(DxilOp::Barrier.info().flags.is_barrier);
    assert!(DxilOp::WaveReadLaneAt.info().flags.is_wave);
    assert!(DxilOp::WriteSamplerFeedbackBias.info().flags.is_feedback);
    assert!(DxilOp::Sample.info().flags.is_gradient);
    assert!(DxilOp::Sin.info().attrs_at(v(1, 0)).has(MemAttrs::READ_NONE));
    assert!(DxilOp::BufferLoad.info().attrs_at(v(1, 0)).has(MemAttrs::READ_ONLY));
    assert!(DxilOp::Barrier.info().attrs_at(v(1, 0)).has(MemAttrs::NO_DUPLICATE));
    assert_eq!(DxilOp::RawBufferLoad.info().min_shader_model, (6, 2));
    assert_eq!(DxilOp::QuadVote.info().min_shader_model, (6, 7));
}

#[test]
fn intrinsic_hooks() {
    assert_eq!(ops_for_intrinsic("sin"), &[DxilOp::Sin]);
    let max = ops_for_intrinsic("max");
    for op in [DxilOp::FMax, DxilOp::IMax, DxilOp::UMax] {
        assert!(max.contains(&op));
    }
    assert!(ops_for_intrinsic("no_such_intrinsic").is_empty());
    for name in MAPPED_INTRINSICS {
        for op in ops_for_intrinsic(name) {
            assert!(op.info().intrinsics.contains(&name), "{name} -> {:?}", op);
        }
    }
}

fn refusal(op: DxilOp, o: Overload, target: Target) -> OpErrorKind {
    match check(op, o, target) {
        Err(e) => e.kind,
        Ok(()) => panic!("{op:?} {o:?} {target:?} was accepted"),
    }
}

#[test]
fn checked_builder_refuses_invalid_combinations() {
    let f32o = Overload::Scalar(ScalarKind::Float);
    let i32o = Overload::Scalar(ScalarKind::I32);
    assert!(matches!(refusal(DxilOp::Sin, Overload::Scalar(ScalarKind::Double), cs(v(1, 0))), OpErrorKind::InvalidOverload { .. }));
    assert!(matches!(refusal(DxilOp::Sin, Overload::Vector(ScalarKind::Float, 4), cs(v(1, 8))), OpErrorKind::InvalidOverload { .. }));
    assert!(check(DxilOp::Sin, Overload::Vector(ScalarKind::Float, 4), cs(v(1, 9))).is_ok());
    assert_eq!(refusal(DxilOp::Sin, Overload::None, cs(v(1, 0))), OpErrorKind::MissingOverload);
    assert!(matches!(refusal(DxilOp::CreateHandle, f32o, cs(v(1, 0))), OpErrorKind::InvalidOverload { .. }));
    assert!(matches!(refusal(DxilOp::DerivCoarseX, f32o, cs(v(1, 5))), OpErrorKind::StageNotAllowed { .. }));
    assert!(check(DxilOp::DerivCoarseX, f32o, cs(v(1, 6))).is_ok());
    let ps = Target { stage: Stage::Pixel, version: v(1, 0) };
    assert!(matches!(refusal(DxilOp::ThreadId, i32o, ps), OpErrorKind::StageNotAllowed { .. }));
    assert_eq!(refusal(DxilOp::CreateHandle, Overload::None, cs(v(1, 6))), OpErrorKind::Removed { since: v(1, 6) });
    assert!(check(DxilOp::CreateHandle, Overload::None, cs(v(1, 5))).is_ok());
    assert_eq!(refusal(DxilOp::AnnotateHandle, Overload::None, cs(v(1, 5))), OpErrorKind::NotInVersion { introduced: v(1, 6) });
    assert_eq!(refusal(DxilOp::Reserved0, Overload::None, cs(v(1, 8))), OpErrorKind::Reserved);
    assert_eq!(refusal(DxilOp::LinAlgMatrixMultiply, Overload::None, cs(v(1, 10))), OpErrorKind::Unmodelled);
    let ms = Target { stage: Stage::Mesh, version: v(1, 4) };
    assert_eq!(refusal(DxilOp::ThreadId, i32o, ms), OpErrorKind::StageNotInVersion);
    assert_eq!(refusal(DxilOp::GetGroupWaveIndex, Overload::None, cs(v(1, 9))), OpErrorKind::NotInVersion { introduced: v(1, 10) });
    let msg = check(DxilOp::ThreadId, i32o, ps).expect_err("refused").to_string();
    assert_eq!(msg, "DXIL operation ThreadId (opcode 93) is not supported in pixel shaders at DXIL 1.0 (valid in: compute, mesh, amplification, node)");
    let msg = check(DxilOp::Sin, Overload::Scalar(ScalarKind::Double), cs(v(1, 0))).expect_err("refused").to_string();
    assert_eq!(msg, "DXIL operation Sin (opcode 13) is not supported with overload Scalar(Double) at DXIL 1.0 (valid: f16, f32)");
}

#[test]
fn try_create_checks_arguments_and_emits_the_call() {
    let mut m = Module::new_dxil();
    let void = m.types.void();
    let fty = m.types.function(void, vec![]);
    let main = m.declare_function("main", fty, None);
    let target = cs(v(1, 0));
    let mut b = FunctionBuilder::new(&mut m, main);
    let entry = b.append_block(None);
    b.position_at_end(entry);
    let x = Value::Const(b.module.const_f32(0.5));
    let i32o = Overload::Scalar(ScalarKind::I32);
    let f32o = Overload::Scalar(ScalarKind::Float);
    let call = try_create(&mut b, DxilOp::Sin, f32o, &[x], target).expect("sin");
    let float = b.module.types.float();
    assert_eq!(b.type_of(call), float);
    // Wrong count, wrong type, non-constant immediate.
    let e = try_create(&mut b, DxilOp::Sin, f32o, &[x, x], target).expect_err("count");
    assert_eq!(e.kind, OpErrorKind::ArgCount { expected: 1, got: 2 });
    let zero = Value::Const(b.module.const_i32(0));
    let e = try_create(&mut b, DxilOp::Sin, f32o, &[zero], target).expect_err("type");
    assert_eq!(e.kind, OpErrorKind::ArgType { index: 0, name: "value" });
    let tid = try_create(&mut b, DxilOp::ThreadId, i32o, &[zero], target).expect("threadId");
    let e = try_create(&mut b, DxilOp::Barrier, Overload::None, &[tid], target).expect_err("immediate");
    assert_eq!(e.kind, OpErrorKind::NotImmediate { index: 0, name: "barrierMode" });
    assert!(!b.module.preview);
    assert_eq!(e.to_diagnostic().message, e.to_string());
    // Experimental ops mark the module as preview.
    try_create(&mut b, DxilOp::ExperimentalNop, Overload::None, &[], cs(v(1, 10))).expect("nop");
    assert!(b.module.preview);
    // One declaration per name, with the op's attributes.
    let sin = b.module.lookup_function("dx.op.unary.f32").expect("declared");
    let attrs = b.module.function(sin).attrs.expect("attrs");
    assert_eq!(b.module.attr_sets[attrs.0 as usize], vec![crate::ir::Attr::NoUnwind, crate::ir::Attr::ReadNone]);
}
