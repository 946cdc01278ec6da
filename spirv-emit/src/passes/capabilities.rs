//! Capability and extension inference.
//!
//! Walks the finished module in order and adds every `OpCapability` and `OpExtension` that its
//! instructions, types, decorations, entry points and execution modes need, after those the
//! emitter declared itself (new ones are appended in the order first needed, so output is
//! deterministic). Instruction requirements come from rspirv's grammar tables; enumerant-level
//! requirements from [`super::tables`]. An extension that the target has in its core is not
//! emitted (DXC's rule).

use super::tables::{self, Need};
use crate::target::TargetEnv;
use indexmap::IndexSet;
use rspirv::dr::{Instruction, Module, Operand};
use spirv::{Capability as C, Decoration, ExecutionModel, GroupOperation, ImageOperands, Op, StorageClass};
use hlslc_frontend::fxhash::{FxMap as HashMap, FxSet as HashSet};

struct Needs {
    caps: IndexSet<C>,
    exts: IndexSet<&'static str>,
    /// The extensions the emitter declared itself.
    declared_exts: HashSet<String>,
}

impl Needs {
    fn add(&mut self, (cap, ext): Need) {
        if let Some(c) = cap {
            self.cap(c);
        }
        if let Some(e) = ext {
            self.exts.insert(e);
        }
    }
    fn cap(&mut self, c: C) {
        if !tables::implied_by_shader(c) {
            self.caps.insert(c);
        }
    }
}

/// Type facts the walk needs, gathered from the type declarations.
#[derive(Default)]
struct TypeInfo<'m> {
    decls: HashMap<u32, &'m Instruction>,
    block: HashSet<u32>,
    buffer_block: HashSet<u32>,
}

impl<'m> TypeInfo<'m> {
    /// The smallest scalar width (8 or 16) that `ty` is or contains, if any is below 32.
    fn narrow_width(&self, ty: u32, depth: u32) -> Option<u32> {
        let inst = self.decls.get(&ty)?;
        if depth > 64 {
            return None;
        }
        let lit = |i: usize| match inst.operands.get(i) {
            Some(Operand::LiteralBit32(w)) => Some(*w),
            _ => None,
        };
        match inst.class.opcode {
            Op::TypeInt | Op::TypeFloat => lit(0).filter(|&w| w < 32),
            Op::TypeStruct => inst
                .operands
                .iter()
                .filter_map(|o| if let Operand::IdRef(m) = o { self.narrow_width(*m, depth + 1) } else { None })
                .min(),
            Op::TypeVector | Op::TypeMatrix | Op::TypeArray | Op::TypeRuntimeArray => match inst.operands.first() {
                Some(Operand::IdRef(e)) => self.narrow_width(*e, depth + 1),
                _ => None,
            },
            _ => None,
        }
    }

    fn is_resource(&self, ty: u32) -> bool {
        self.decls.get(&ty).is_some_and(|i| {
            matches!(
                i.class.opcode,
                Op::TypeImage | Op::TypeSampler | Op::TypeSampledImage | Op::TypeAccelerationStructureKHR
            )
        })
    }

    /// The outermost struct a pointer's pointee is, looking through arrays.
    fn struct_of(&self, ty: u32) -> Option<u32> {
        let inst = self.decls.get(&ty)?;
        match inst.class.opcode {
            Op::TypeStruct => Some(ty),
            Op::TypeArray | Op::TypeRuntimeArray => match inst.operands.first() {
                Some(Operand::IdRef(e)) => self.struct_of(*e),
                _ => None,
            },
            _ => None,
        }
    }
}

pub fn run(module: &mut Module, target: TargetEnv) {
    let seed: Vec<C> = module
        .capabilities
        .iter()
        .filter_map(|i| match i.operands.first() {
            Some(Operand::Capability(c)) => Some(*c),
            _ => None,
        })
        .collect();
    let needs = infer(module, target, &seed);
    let have_caps: HashSet<C> = seed.into_iter().collect();
    for c in needs.caps {
        if !have_caps.contains(&c) {
            module.capabilities.push(Instruction::new(Op::Capability, None, None, vec![Operand::Capability(c)]));
        }
    }
    // The extensions the emitter declared, read before the walk (this pass adds none until here).
    let have_exts = &needs.declared_exts;
    for e in needs.exts {
        if !have_exts.contains(e) && tables::extension_required(e, target) {
            module.extensions.push(Instruction::new(Op::Extension, None, None, vec![Operand::from(e)]));
        }
    }
}

/// Capabilities whose need the walk decides exactly from what the module contains (types,
/// image operands, instructions), so an optimized module that no longer contains what needed one
/// can drop it, as spirv-opt's `trim-capabilities` does in dxc's `-O` recipe. A device without
/// the feature (`shaderFloat64`, `shaderInt64`, `minLod`, …) can then run the shader.
const TRIMMABLE: &[C] = &[
    C::MinLod,
    C::Int8,
    C::Int16,
    C::Int64,
    C::Float16,
    C::Float64,
    C::Int64Atomics,
    C::StorageImageReadWithoutFormat,
    C::StorageImageWriteWithoutFormat,
    C::ImageQuery,
    C::InterpolationFunction,
    C::DerivativeControl,
    C::ImageGatherExtended,
];

/// Removes the [`TRIMMABLE`] capabilities nothing in the module needs any more (after the
/// optimizer removed the instructions and types that needed them).
pub fn trim(module: &mut Module, target: TargetEnv) {
    let seed: Vec<C> = module
        .capabilities
        .iter()
        .filter_map(|i| match i.operands.first() {
            Some(Operand::Capability(c)) if !TRIMMABLE.contains(c) => Some(*c),
            _ => None,
        })
        .collect();
    let needs = infer(module, target, &seed);
    module.capabilities.retain(|i| match i.operands.first() {
        Some(Operand::Capability(c)) => !TRIMMABLE.contains(c) || needs.caps.contains(c),
        _ => true,
    });
}

/// What the module's contents need, with `seed` taken as declared (an instruction that accepts
/// one of several capabilities is satisfied by a declared one).
fn infer(module: &Module, target: TargetEnv, seed: &[C]) -> Needs {
    let declared_exts = module
        .extensions
        .iter()
        .filter_map(|i| match i.operands.first() {
            Some(Operand::LiteralString(s)) => Some(s.clone()),
            _ => None,
        })
        .collect();
    let mut needs = Needs { caps: IndexSet::new(), exts: IndexSet::new(), declared_exts };
    // What the emitter declared satisfies an instruction that accepts one of several.
    for c in seed {
        needs.caps.insert(*c);
    }
    // `-fspv-extension=SPV_NV_ray_tracing`: the emitter declared RayTracingNV; the ray tracing
    // execution models (shared by both extensions) need nothing more.
    let ray_nv = needs.caps.contains(&C::RayTracingNV);
    let mut info = TypeInfo::default();
    for inst in &module.types_global_values {
        if let Some(r) = inst.result_id {
            info.decls.insert(r, inst);
        }
    }
    for inst in &module.annotations {
        if let (Some(Operand::IdRef(t)), Some(Operand::Decoration(d))) = (inst.operands.first(), inst.operands.get(1)) {
            match d {
                Decoration::Block => info.block.insert(*t),
                Decoration::BufferBlock => info.buffer_block.insert(*t),
                _ => false,
            };
        }
    }
    let models: Vec<ExecutionModel> = module
        .entry_points
        .iter()
        .filter_map(|e| match e.operands.first() {
            Some(Operand::ExecutionModel(m)) => Some(*m),
            _ => None,
        })
        .collect();
    for m in &models {
        let ray = matches!(
            m,
            ExecutionModel::RayGenerationKHR
                | ExecutionModel::IntersectionKHR
                | ExecutionModel::AnyHitKHR
                | ExecutionModel::ClosestHitKHR
                | ExecutionModel::MissKHR
                | ExecutionModel::CallableKHR
        );
        if ray && ray_nv {
            continue;
        }
        if let Some(n) = tables::execution_model_need(*m) {
            needs.add(n);
        }
    }
    for inst in &module.execution_modes {
        if let Some(Operand::ExecutionMode(m)) = inst.operands.get(1) {
            for n in tables::execution_mode_needs(*m) {
                needs.add(n);
            }
        }
    }
    for inst in &module.ext_inst_imports {
        if let Some(Operand::LiteralString(s)) = inst.operands.first() {
            if s.starts_with("NonSemantic.") {
                needs.exts.insert("SPV_KHR_non_semantic_info");
            }
        }
    }
    for inst in &module.annotations {
        visit_decoration(inst, &models, target, &mut needs);
    }
    for inst in &module.types_global_values {
        visit_global(inst, &info, target, &mut needs);
    }
    let value_types = ValueTypes { module, map: std::cell::OnceCell::new() };
    let nonuniform: HashSet<u32> = module
        .annotations
        .iter()
        .filter_map(|i| match (i.class.opcode, i.operands.first(), i.operands.get(1)) {
            (Op::Decorate, Some(Operand::IdRef(t)), Some(Operand::Decoration(Decoration::NonUniform))) => Some(*t),
            _ => None,
        })
        .collect();
    // GLSL.std.450's InterpolateAtCentroid/Sample/Offset (76..=78) need InterpolationFunction.
    let glsl: HashSet<u32> = module
        .ext_inst_imports
        .iter()
        .filter(|i| matches!(i.operands.first(), Some(Operand::LiteralString(s)) if s == "GLSL.std.450"))
        .filter_map(|i| i.result_id)
        .collect();
    for f in &module.functions {
        for b in &f.blocks {
            for inst in &b.instructions {
                visit_instruction(inst, &info, &value_types, &mut needs);
                if inst.class.opcode == Op::ExtInst {
                    if let (Some(Operand::IdRef(set)), Some(Operand::LiteralExtInstInteger(n))) =
                        (inst.operands.first(), inst.operands.get(1))
                    {
                        if glsl.contains(set) && (76..=78).contains(n) {
                            needs.cap(C::InterpolationFunction);
                        }
                    }
                }
                if inst.result_id.is_some_and(|r| nonuniform.contains(&r)) {
                    if let Some(c) = nonuniform_indexing(inst, &info, &value_types) {
                        needs.cap(c);
                    }
                }
            }
        }
    }
    needs
}

/// The result type of each value, gathered the first time an instruction asks (image reads and
/// writes, atomics and non-uniform access chains do; gathering it for every module was 2% of a
/// compile).
struct ValueTypes<'m> {
    module: &'m Module,
    map: std::cell::OnceCell<HashMap<u32, u32>>,
}

impl ValueTypes<'_> {
    fn get(&self, id: &u32) -> Option<&u32> {
        self.map
            .get_or_init(|| {
                let mut value_types: HashMap<u32, u32> = HashMap::default();
                for inst in self.module.all_inst_iter() {
                    if let (Some(r), Some(t)) = (inst.result_id, inst.result_type) {
                        value_types.insert(r, t);
                    }
                }
                value_types
            })
            .get(id)
    }
}

/// The `*ArrayNonUniformIndexing` capability a non-uniform access chain into an array of
/// descriptors needs, by the kind of descriptor.
fn nonuniform_indexing(inst: &Instruction, info: &TypeInfo, value_types: &ValueTypes) -> Option<C> {
    if !matches!(inst.class.opcode, Op::AccessChain | Op::InBoundsAccessChain) {
        return None;
    }
    let Some(Operand::IdRef(base)) = inst.operands.first() else { return None };
    let ptr = info.decls.get(value_types.get(base)?)?;
    let (Some(Operand::StorageClass(sc)), Some(Operand::IdRef(pointee))) = (ptr.operands.first(), ptr.operands.get(1)) else {
        return None;
    };
    let arr = info.decls.get(pointee)?;
    if !matches!(arr.class.opcode, Op::TypeArray | Op::TypeRuntimeArray) {
        return None;
    }
    let Some(Operand::IdRef(elem)) = arr.operands.first() else { return None };
    let e = info.decls.get(elem)?;
    Some(match e.class.opcode {
        Op::TypeImage => {
            let dim = e.operands.get(1);
            let storage = matches!(e.operands.get(5), Some(Operand::LiteralBit32(2)));
            match dim {
                Some(Operand::Dim(spirv::Dim::DimBuffer)) if storage => C::StorageTexelBufferArrayNonUniformIndexing,
                Some(Operand::Dim(spirv::Dim::DimBuffer)) => C::UniformTexelBufferArrayNonUniformIndexing,
                Some(Operand::Dim(spirv::Dim::DimSubpassData)) => C::InputAttachmentArrayNonUniformIndexing,
                _ if storage => C::StorageImageArrayNonUniformIndexing,
                _ => C::SampledImageArrayNonUniformIndexing,
            }
        }
        Op::TypeSampler | Op::TypeSampledImage => C::SampledImageArrayNonUniformIndexing,
        Op::TypeStruct if *sc == StorageClass::StorageBuffer || info.buffer_block.contains(elem) => {
            C::StorageBufferArrayNonUniformIndexing
        }
        Op::TypeStruct if *sc == StorageClass::Uniform => C::UniformBufferArrayNonUniformIndexing,
        _ => return None,
    })
}

fn visit_decoration(inst: &Instruction, models: &[ExecutionModel], target: TargetEnv, needs: &mut Needs) {
    let deco_at = match inst.class.opcode {
        Op::Decorate | Op::DecorateId | Op::DecorateString => 1,
        Op::MemberDecorate | Op::MemberDecorateString => 2,
        _ => return,
    };
    let Some(Operand::Decoration(d)) = inst.operands.get(deco_at) else { return };
    if let Some(n) = tables::decoration_need(*d) {
        needs.add(n);
    }
    if *d == Decoration::BuiltIn {
        // A builder may spell the built-in as its number.
        let b = match inst.operands.get(deco_at + 1) {
            Some(Operand::BuiltIn(b)) => Some(*b),
            Some(Operand::LiteralBit32(n)) => spirv::BuiltIn::from_u32(*n),
            _ => None,
        };
        if let Some(b) = &b {
            if let Some(n) = tables::builtin_need(*b) {
                needs.add(n);
            }
            for m in models {
                if let Some(n) = tables::builtin_stage_need(*b, *m, target) {
                    needs.add(n);
                }
            }
        }
    }
}

fn visit_global(inst: &Instruction, info: &TypeInfo, target: TargetEnv, needs: &mut Needs) {
    let lit = |i: usize| match inst.operands.get(i) {
        Some(Operand::LiteralBit32(w)) => *w,
        _ => 0,
    };
    match inst.class.opcode {
        Op::TypeInt => match lit(0) {
            8 => needs.cap(C::Int8),
            16 => needs.cap(C::Int16),
            64 => needs.cap(C::Int64),
            _ => {}
        },
        Op::TypeFloat => match lit(0) {
            16 => needs.cap(C::Float16),
            64 => needs.cap(C::Float64),
            _ => {}
        },
        Op::TypeImage => visit_image(inst, info, needs),
        Op::TypeRuntimeArray => {
            if let Some(Operand::IdRef(e)) = inst.operands.first() {
                // An array of descriptors: images and samplers, or buffer blocks (descriptor
                // heaps of buffers).
                if info.is_resource(*e) || info.block.contains(e) || info.buffer_block.contains(e) {
                    needs.add((Some(C::RuntimeDescriptorArray), Some("SPV_EXT_descriptor_indexing")));
                }
            }
        }
        Op::TypePointer => {
            if let (Some(Operand::StorageClass(sc)), Some(Operand::IdRef(p))) = (inst.operands.first(), inst.operands.get(1)) {
                visit_pointer(*sc, *p, info, target, needs);
            }
        }
        _ => grammar_needs(inst.class, needs),
    }
}

fn visit_image(inst: &Instruction, info: &TypeInfo, needs: &mut Needs) {
    let lit = |i: usize| match inst.operands.get(i) {
        Some(Operand::LiteralBit32(w)) => *w,
        _ => 0,
    };
    // A 64-bit integer sampled type (`RWTexture2D<uint64_t>`), as DXC's CapabilityVisitor.
    let sampled = match inst.operands.first() {
        Some(Operand::IdRef(t)) => info.decls.get(t),
        _ => None,
    };
    if sampled.is_some_and(|t| t.class.opcode == Op::TypeInt && matches!(t.operands.first(), Some(Operand::LiteralBit32(64)))) {
        needs.add((Some(C::Int64ImageEXT), Some("SPV_EXT_shader_image_int64")));
    }
    let storage = lit(5) == 2;
    let arrayed = lit(3) == 1;
    match inst.operands.get(1) {
        Some(Operand::Dim(spirv::Dim::DimBuffer)) => {
            needs.cap(C::SampledBuffer);
            if storage {
                needs.cap(C::ImageBuffer);
            }
        }
        Some(Operand::Dim(spirv::Dim::Dim1D)) => needs.cap(if storage { C::Image1D } else { C::Sampled1D }),
        Some(Operand::Dim(spirv::Dim::DimSubpassData)) => needs.cap(C::InputAttachment),
        Some(Operand::Dim(spirv::Dim::DimCube)) if arrayed => {
            needs.cap(if storage { C::ImageCubeArray } else { C::SampledCubeArray })
        }
        _ => {}
    }
    if let Some(Operand::ImageFormat(f)) = inst.operands.get(6) {
        if tables::is_extended_format(*f) {
            needs.cap(C::StorageImageExtendedFormats);
        }
    }
    if arrayed && lit(4) == 1 && storage {
        needs.cap(C::ImageMSArray);
    }
}

fn visit_pointer(sc: StorageClass, pointee: u32, info: &TypeInfo, target: TargetEnv, needs: &mut Needs) {
    match sc {
        StorageClass::PhysicalStorageBuffer => {
            needs.add((Some(C::PhysicalStorageBufferAddresses), Some("SPV_KHR_physical_storage_buffer")))
        }
        StorageClass::StorageBuffer if target.spirv_version() < (1, 3) => {
            needs.exts.insert("SPV_KHR_storage_buffer_storage_class");
        }
        _ => {}
    }
    let Some(width) = info.narrow_width(pointee, 0) else { return };
    let is_struct_block = |set: &HashSet<u32>| info.struct_of(pointee).is_some_and(|s| set.contains(&s));
    let (cap, ext) = match (width, sc) {
        (16, StorageClass::Input | StorageClass::Output) => (C::StorageInputOutput16, "SPV_KHR_16bit_storage"),
        (16, StorageClass::PushConstant) => (C::StoragePushConstant16, "SPV_KHR_16bit_storage"),
        (16, StorageClass::StorageBuffer) => (C::StorageBuffer16BitAccess, "SPV_KHR_16bit_storage"),
        (16, StorageClass::Uniform) if is_struct_block(&info.buffer_block) => {
            (C::StorageBuffer16BitAccess, "SPV_KHR_16bit_storage")
        }
        (16, StorageClass::Uniform) => (C::UniformAndStorageBuffer16BitAccess, "SPV_KHR_16bit_storage"),
        (8, StorageClass::PushConstant) => (C::StoragePushConstant8, "SPV_KHR_8bit_storage"),
        (8, StorageClass::StorageBuffer) => (C::StorageBuffer8BitAccess, "SPV_KHR_8bit_storage"),
        (8, StorageClass::Uniform) if is_struct_block(&info.buffer_block) => {
            (C::StorageBuffer8BitAccess, "SPV_KHR_8bit_storage")
        }
        (8, StorageClass::Uniform) => (C::UniformAndStorageBuffer8BitAccess, "SPV_KHR_8bit_storage"),
        _ => return,
    };
    needs.add((Some(cap), Some(ext)));
}

fn visit_instruction(inst: &Instruction, info: &TypeInfo, value_types: &ValueTypes, needs: &mut Needs) {
    let op = inst.class.opcode;
    let operand_type = |i: usize| match inst.operands.get(i) {
        Some(Operand::IdRef(v)) => value_types.get(v).and_then(|t| info.decls.get(t)).copied(),
        _ => None,
    };
    // Reading or writing a storage image whose format is Unknown.
    if matches!(op, Op::ImageRead | Op::ImageSparseRead | Op::ImageWrite) {
        if let Some(img) = operand_type(0) {
            if img.operands.get(6) == Some(&Operand::ImageFormat(spirv::ImageFormat::Unknown))
                && img.operands.get(5) == Some(&Operand::LiteralBit32(2))
            {
                needs.cap(if op == Op::ImageWrite {
                    C::StorageImageWriteWithoutFormat
                } else {
                    C::StorageImageReadWithoutFormat
                });
            }
        }
    }
    // 64-bit atomics.
    if is_atomic(inst) {
        let ty = inst.result_type.and_then(|t| info.decls.get(&t).copied()).or_else(|| operand_type(3));
        if ty.is_some_and(|t| t.class.opcode == Op::TypeInt && t.operands.first() == Some(&Operand::LiteralBit32(64))) {
            needs.cap(C::Int64Atomics);
        }
    }
    // Group operations: the clustered form needs its own capability.
    if let Some(Operand::GroupOperation(g)) = inst.operands.get(1) {
        if op != Op::GroupNonUniformBallotBitCount {
            needs.cap(if *g == GroupOperation::ClusteredReduce {
                C::GroupNonUniformClustered
            } else {
                C::GroupNonUniformArithmetic
            });
            return;
        }
    }
    for o in &inst.operands {
        if let Operand::ImageOperands(m) = o {
            if m.intersects(ImageOperands::OFFSET | ImageOperands::CONST_OFFSETS) {
                needs.cap(C::ImageGatherExtended);
            }
            if m.contains(ImageOperands::MIN_LOD) {
                needs.cap(C::MinLod);
            }
        }
    }
    if matches!(op, Op::DemoteToHelperInvocation | Op::IsHelperInvocationEXT) {
        needs.exts.insert("SPV_EXT_demote_to_helper_invocation");
    }
    grammar_needs(inst.class, needs);
}

/// Atomic instructions, by grammar name (rspirv's grammar has no instruction classes).
/// (The instruction's own grammar entry, `class`: looking an opcode up in rspirv's table is a
/// linear search.)
fn is_atomic(inst: &Instruction) -> bool {
    inst.class.opname.starts_with("Atomic")
}

/// The grammar's capability for an opcode: when it lists alternatives, the first one a Vulkan
/// shader uses; when it lists an extension, the first one.
fn grammar_needs(g: &'static rspirv::grammar::Instruction<'static>, needs: &mut Needs) {
    if !g.capabilities.is_empty() && !g.capabilities.iter().any(|c| tables::implied_by_shader(*c) || needs.caps.contains(c)) {
        if let Some(c) = g.capabilities.iter().find(|c| !tables::never_preferred(**c)) {
            needs.cap(*c);
        }
    }
    // One of several extensions: one already needed or declared (an instruction shared by
    // SPV_NV_ray_tracing and SPV_KHR_ray_tracing needs the one the module uses).
    if !g.extensions.iter().any(|e| needs.exts.contains(e) || needs.declared_exts.contains(*e)) {
        if let Some(e) = g.extensions.first() {
            needs.exts.insert(e);
        }
    }
}
