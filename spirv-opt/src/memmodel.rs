//! The Vulkan memory model (`-fspv-use-vulkan-memory-model`; SPIRV-Tools' upgrade-memory-model,
//! which dxc runs at every level, `-fcgl` included): a `Logical GLSL450` module becomes
//! `Logical Vulkan`, where coherence and volatility are properties of each access instead of
//! decorations.
//!
//! - `OpCapability VulkanMemoryModel`, and `OpExtension "SPV_KHR_vulkan_memory_model"` before
//!   SPIR-V 1.5 (where it became core); `OpMemoryModel Logical Vulkan`.
//! - A load or store through a pointer that reaches a `Coherent` variable, parameter or struct
//!   member (through access chains and what the pointer is computed from) gets
//!   `MakePointerVisible` (load) or `MakePointerAvailable` (store) with `NonPrivatePointer` at
//!   `QueueFamily` scope; `OpImageRead`/`OpImageSparseRead`/`OpImageWrite` of a coherent image get
//!   `MakeTexelVisible`/`MakeTexelAvailable` with `NonPrivateTexel`. Workgroup memory is
//!   coherent at `Workgroup` scope. A `Volatile` one gets `Volatile` (`VolatileTexel`).
//!   The flags only go on pointers whose storage class allows them (not `Function`, `Private`,
//!   `Input`, `Output`, `UniformConstant`, except `Volatile`, which any access may carry).
//! - The `Coherent` and `Volatile` decorations go (the model forbids them).
//! - Atomics and barriers at `Device` memory scope move to `QueueFamily` (`Device` scope needs
//!   the `VulkanMemoryModelDeviceScope` capability).
//!
//! Not done: `OpCopyMemory` of a coherent or volatile pointer (the emitter writes none) is an
//! error rather than a silent loss of coherence; tessellation-control barriers do not gain
//! `OutputMemory` semantics.

use crate::consts::{Consts, Value};
use crate::ids::{id_at, IdAlloc};
use rspirv::dr::{Instruction, Module, Operand};
use spirv::{Capability, Decoration, ImageOperands, MemoryAccess, MemoryModel, Op, Scope, StorageClass, Word};
use crate::hash::{HashMap, HashSet};

/// What a pointer reaches: (coherent, volatile).
type Attrs = (bool, bool);

struct Facts<'a> {
    /// Result id -> defining instruction (functions' instructions, parameters, globals).
    defs: HashMap<Word, &'a Instruction>,
    /// Pointer type -> (storage class, pointee).
    pointers: HashMap<Word, (StorageClass, Word)>,
    /// Image and sampled-image types.
    images: HashSet<Word>,
    /// Struct type -> member types; array, runtime array, vector, matrix -> element type.
    members: HashMap<Word, Vec<Word>>,
    elements: HashMap<Word, Word>,
    /// Ids decorated `Coherent` / `Volatile`; struct members so decorated.
    coherent: HashSet<Word>,
    volatile: HashSet<Word>,
    member_dec: HashMap<(Word, u32), Attrs>,
    consts: &'a Consts,
}

impl Facts<'_> {
    fn ty_of(&self, id: Word) -> Option<Word> {
        self.defs.get(&id).and_then(|i| i.result_type)
    }

    /// Member decorations anywhere inside `ty`.
    fn any_member(&self, ty: Word) -> Attrs {
        let (mut c, mut v) = (false, false);
        let mut seen = HashSet::default();
        let mut work = vec![ty];
        while let Some(t) = work.pop() {
            if !seen.insert(t) {
                continue;
            }
            if let Some(ms) = self.members.get(&t) {
                for (k, &m) in ms.iter().enumerate() {
                    let (mc, mv) = self.member_dec.get(&(t, k as u32)).copied().unwrap_or_default();
                    c |= mc;
                    v |= mv;
                    work.push(m);
                }
            } else if let Some(&e) = self.elements.get(&t) {
                work.push(e);
            } else if let Some(&(_, p)) = self.pointers.get(&t) {
                work.push(p);
            }
        }
        (c, v)
    }

    /// Walks `indices` into the pointee of `ptr_ty`, collecting member decorations on the way
    /// and inside what is reached.
    fn through(&self, ptr_ty: Word, indices: &[Word]) -> Attrs {
        let Some(&(_, mut t)) = self.pointers.get(&ptr_ty) else { return (false, false) };
        let (mut c, mut v) = (false, false);
        for &i in indices {
            if let Some(ms) = self.members.get(&t) {
                let Some(k) = self.consts.scalar(i) else { return (true, true) };
                let (mc, mv) = self.member_dec.get(&(t, k as u32)).copied().unwrap_or_default();
                c |= mc;
                v |= mv;
                match ms.get(k as usize) {
                    Some(&m) => t = m,
                    None => break,
                }
            } else if let Some(&e) = self.elements.get(&t) {
                t = e;
            } else {
                break;
            }
        }
        let (ac, av) = self.any_member(t);
        (c | ac, v | av)
    }

    /// Whether the pointer or image `id` reaches coherent or volatile memory.
    fn trace(&self, id: Word, indices: Vec<Word>, seen: &mut HashSet<Word>) -> Attrs {
        if !seen.insert(id) {
            return (false, false);
        }
        let Some(inst) = self.defs.get(&id) else { return (false, false) };
        match inst.class.opcode {
            Op::Variable | Op::FunctionParameter => {
                let c = self.coherent.contains(&id);
                let v = self.volatile.contains(&id);
                let (tc, tv) = inst.result_type.map_or((false, false), |t| self.through(t, &indices));
                return (c | tc, v | tv);
            }
            Op::AccessChain | Op::InBoundsAccessChain | Op::PtrAccessChain => {
                let skip = if inst.class.opcode == Op::PtrAccessChain { 2 } else { 1 };
                let mut all: Vec<Word> = inst.operands.iter().skip(skip).filter_map(Operand::id_ref_any).collect();
                all.extend(indices);
                return match id_at(inst, 0) {
                    Some(base) => self.trace(base, all, seen),
                    None => (false, false),
                };
            }
            _ => {}
        }
        let (mut c, mut v) = (false, false);
        for op in &inst.operands {
            let Some(o) = op.id_ref_any() else { continue };
            let Some(t) = self.ty_of(o) else { continue };
            if self.pointers.contains_key(&t) || self.images.contains(&t) {
                let (oc, ov) = self.trace(o, indices.clone(), seen);
                c |= oc;
                v |= ov;
            }
        }
        (c, v)
    }

    /// (coherent, volatile, scope) of an access through pointer `ptr`.
    fn access(&self, ptr: Word) -> (bool, bool, Scope) {
        let class = self.ty_of(ptr).and_then(|t| self.pointers.get(&t)).map(|p| p.0);
        let (c, v) = self.trace(ptr, Vec::new(), &mut HashSet::default());
        match class {
            Some(StorageClass::Workgroup) => (true, v, Scope::Workgroup),
            Some(
                StorageClass::Uniform
                | StorageClass::StorageBuffer
                | StorageClass::PhysicalStorageBuffer
                | StorageClass::CrossWorkgroup
                | StorageClass::Generic
                | StorageClass::Image,
            ) => (c, v, Scope::QueueFamily),
            _ => (false, v, Scope::QueueFamily),
        }
    }

    /// (coherent, volatile) of an image access.
    fn image(&self, image: Word) -> (bool, bool) {
        self.trace(image, Vec::new(), &mut HashSet::default())
    }
}

/// One instruction's change: the flags to add to its memory-access or image operands at
/// `at`, and the scope operand to append.
struct Edit {
    func: usize,
    block: usize,
    inst: usize,
    at: usize,
    image: bool,
    flags: u32,
    scope: Option<Scope>,
}

/// Upgrades the module; an error names what cannot be upgraded. A module whose memory model is
/// not `Logical GLSL450` is left alone.
pub fn run(m: &mut Module) -> Result<bool, String> {
    let Some(mm) = m.memory_model.as_ref() else { return Ok(false) };
    if !matches!(mm.operands.get(1), Some(Operand::MemoryModel(MemoryModel::GLSL450))) {
        return Ok(false);
    }
    // The scope constants need a 32-bit unsigned integer type.
    let uint = match m.types_global_values.iter().find(|i| {
        i.class.opcode == Op::TypeInt && matches!(i.operands[..], [Operand::LiteralBit32(32), Operand::LiteralBit32(0)])
    }) {
        Some(i) => i.result_id.unwrap_or(0),
        None => {
            let mut ids = IdAlloc::new(m);
            let id = ids.fresh();
            ids.finish(m);
            let t = Instruction::new(Op::TypeInt, None, Some(id), vec![Operand::LiteralBit32(32), Operand::LiteralBit32(0)]);
            // Before every constant: ahead of the first non-type instruction is enough, and the
            // start is before all of them.
            m.types_global_values.insert(0, t);
            id
        }
    };
    let mut consts = Consts::new(m);
    let edits = {
        let facts = facts(m, &consts);
        let mut edits = Vec::new();
        for (fi, f) in m.functions.iter().enumerate() {
            for (bi, b) in f.blocks.iter().enumerate() {
                for (ii, i) in b.instructions.iter().enumerate() {
                    let at = |ii: usize, at: usize, image: bool, flags: u32, scope: Option<Scope>| Edit {
                        func: fi,
                        block: bi,
                        inst: ii,
                        at,
                        image,
                        flags,
                        scope,
                    };
                    let ptr = id_at(i, 0).unwrap_or(0);
                    match i.class.opcode {
                        Op::Load | Op::Store => {
                            let (c, v, scope) = facts.access(ptr);
                            let mut flags = if v { MemoryAccess::VOLATILE.bits() } else { 0 };
                            if c {
                                flags |= MemoryAccess::NON_PRIVATE_POINTER.bits()
                                    | if i.class.opcode == Op::Load {
                                        MemoryAccess::MAKE_POINTER_VISIBLE.bits()
                                    } else {
                                        MemoryAccess::MAKE_POINTER_AVAILABLE.bits()
                                    };
                            }
                            if flags != 0 {
                                let pos = if i.class.opcode == Op::Load { 1 } else { 2 };
                                edits.push(at(ii, pos, false, flags, c.then_some(scope)));
                            }
                        }
                        Op::ImageRead | Op::ImageSparseRead | Op::ImageWrite => {
                            let (c, v) = facts.image(ptr);
                            let mut flags = if v { ImageOperands::VOLATILE_TEXEL.bits() } else { 0 };
                            if c {
                                flags |= ImageOperands::NON_PRIVATE_TEXEL.bits()
                                    | if i.class.opcode == Op::ImageWrite {
                                        ImageOperands::MAKE_TEXEL_AVAILABLE.bits()
                                    } else {
                                        ImageOperands::MAKE_TEXEL_VISIBLE.bits()
                                    };
                            }
                            if flags != 0 {
                                let pos = if i.class.opcode == Op::ImageWrite { 3 } else { 2 };
                                edits.push(at(ii, pos, true, flags, c.then_some(Scope::QueueFamily)));
                            }
                        }
                        Op::CopyMemory | Op::CopyMemorySized => {
                            let src = id_at(i, 1).unwrap_or(0);
                            let (dc, dv, _) = facts.access(ptr);
                            let (sc, sv, _) = facts.access(src);
                            if dc || dv || sc || sv {
                                return Err("a memory copy of coherent or volatile memory cannot be upgraded to the Vulkan memory model".into());
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        edits
    };
    let scope_id = |consts: &mut Consts, s: Scope| consts.get(uint, Value::Scalar(s as u32 as u64));
    for e in edits {
        let scope = e.scope.map(|s| scope_id(&mut consts, s));
        let inst = &mut m.functions[e.func].blocks[e.block].instructions[e.inst];
        match inst.operands.get_mut(e.at) {
            Some(Operand::MemoryAccess(a)) => *a = MemoryAccess::from_bits_retain(a.bits() | e.flags),
            Some(Operand::ImageOperands(a)) => *a = ImageOperands::from_bits_retain(a.bits() | e.flags),
            _ if e.image => inst.operands.insert(e.at, Operand::ImageOperands(ImageOperands::from_bits_retain(e.flags))),
            _ => inst.operands.insert(e.at, Operand::MemoryAccess(MemoryAccess::from_bits_retain(e.flags))),
        }
        if let Some(s) = scope {
            inst.operands.push(Operand::IdScope(s));
        }
    }
    // Device memory scope -> QueueFamily, on atomics (scope after the pointer) and barriers.
    let device: HashSet<Word> =
        consts.values.iter().filter(|(_, (_, v))| *v == Value::Scalar(Scope::Device as u64)).map(|(&id, _)| id).collect();
    if !device.is_empty() {
        let qf = scope_id(&mut consts, Scope::QueueFamily);
        for f in &mut m.functions {
            for b in &mut f.blocks {
                for i in &mut b.instructions {
                    let at = match i.class.opcode {
                        Op::ControlBarrier => 1,
                        Op::MemoryBarrier => 0,
                        op if is_atomic(op) => 1,
                        _ => continue,
                    };
                    if let Some(id) = i.operands.get_mut(at).and_then(Operand::id_ref_any_mut) {
                        if device.contains(id) {
                            *id = qf;
                        }
                    }
                }
            }
        }
    }
    consts.finish(m);
    m.annotations.retain(|a| {
        let dec = match a.class.opcode {
            Op::Decorate => a.operands.get(1),
            Op::MemberDecorate => a.operands.get(2),
            _ => None,
        };
        !matches!(dec, Some(Operand::Decoration(Decoration::Coherent | Decoration::Volatile)))
    });
    let (major, minor) = m.header.as_ref().map_or((1, 0), |h| h.version());
    if !m.capabilities.iter().any(|c| matches!(c.operands.first(), Some(Operand::Capability(Capability::VulkanMemoryModel)))) {
        m.capabilities.push(Instruction::new(Op::Capability, None, None, vec![Operand::Capability(Capability::VulkanMemoryModel)]));
    }
    const EXT: &str = "SPV_KHR_vulkan_memory_model";
    if (major, minor) < (1, 5) && !m.extensions.iter().any(|e| matches!(e.operands.first(), Some(Operand::LiteralString(s)) if s == EXT)) {
        m.extensions.push(Instruction::new(Op::Extension, None, None, vec![Operand::LiteralString(EXT.into())]));
    }
    if let Some(mm) = m.memory_model.as_mut() {
        mm.operands[1] = Operand::MemoryModel(MemoryModel::Vulkan);
    }
    Ok(true)
}

fn is_atomic(op: Op) -> bool {
    matches!(
        op,
        Op::AtomicLoad
            | Op::AtomicStore
            | Op::AtomicExchange
            | Op::AtomicCompareExchange
            | Op::AtomicCompareExchangeWeak
            | Op::AtomicIIncrement
            | Op::AtomicIDecrement
            | Op::AtomicIAdd
            | Op::AtomicISub
            | Op::AtomicSMin
            | Op::AtomicUMin
            | Op::AtomicSMax
            | Op::AtomicUMax
            | Op::AtomicAnd
            | Op::AtomicOr
            | Op::AtomicXor
            | Op::AtomicFAddEXT
            | Op::AtomicFMinEXT
            | Op::AtomicFMaxEXT
            | Op::AtomicFlagTestAndSet
            | Op::AtomicFlagClear
    )
}

fn facts<'a>(m: &'a Module, consts: &'a Consts) -> Facts<'a> {
    let mut f = Facts {
        defs: HashMap::default(),
        pointers: HashMap::default(),
        images: HashSet::default(),
        members: HashMap::default(),
        elements: HashMap::default(),
        coherent: HashSet::default(),
        volatile: HashSet::default(),
        member_dec: HashMap::default(),
        consts,
    };
    for i in &m.types_global_values {
        let Some(id) = i.result_id else { continue };
        f.defs.insert(id, i);
        match i.class.opcode {
            Op::TypePointer => {
                if let (Some(Operand::StorageClass(sc)), Some(p)) = (i.operands.first(), id_at(i, 1)) {
                    f.pointers.insert(id, (*sc, p));
                }
            }
            Op::TypeImage | Op::TypeSampledImage => {
                f.images.insert(id);
            }
            Op::TypeStruct => {
                f.members.insert(id, i.operands.iter().filter_map(Operand::id_ref_any).collect());
            }
            Op::TypeArray | Op::TypeRuntimeArray | Op::TypeVector | Op::TypeMatrix => {
                if let Some(e) = id_at(i, 0) {
                    f.elements.insert(id, e);
                }
            }
            _ => {}
        }
    }
    for func in &m.functions {
        for p in &func.parameters {
            if let Some(id) = p.result_id {
                f.defs.insert(id, p);
            }
        }
        for b in &func.blocks {
            for i in &b.instructions {
                if let Some(id) = i.result_id {
                    f.defs.insert(id, i);
                }
            }
        }
    }
    for a in &m.annotations {
        let target = id_at(a, 0).unwrap_or(0);
        match (a.class.opcode, a.operands.get(1), a.operands.get(2)) {
            (Op::Decorate, Some(Operand::Decoration(Decoration::Coherent)), _) => {
                f.coherent.insert(target);
            }
            (Op::Decorate, Some(Operand::Decoration(Decoration::Volatile)), _) => {
                f.volatile.insert(target);
            }
            (Op::MemberDecorate, Some(Operand::LiteralBit32(k)), Some(Operand::Decoration(d))) => {
                let e = f.member_dec.entry((target, *k)).or_default();
                match d {
                    Decoration::Coherent => e.0 = true,
                    Decoration::Volatile => e.1 = true,
                    _ => {}
                }
            }
            _ => {}
        }
    }
    f
}
