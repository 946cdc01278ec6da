//! Rasterizer-ordered views (SPIR-V.rst "Rasterizer Ordered Views"): their accesses are
//! ordered by the fragment-shader interlock of `SPV_EXT_fragment_shader_interlock`.
//!
//! Lowering records the variables of `RasterizerOrdered*` resources ([`RovVar`]); this pass,
//! run on the finished module before the capability pass, finds their accesses and
//!
//! 1. wraps each one in `OpBeginInvocationInterlockEXT` / `OpEndInvocationInterlockEXT`, in
//!    DXC's `-fcgl` shape: an image access from the `OpLoad` of the image to the
//!    `OpImageRead`/`OpImageWrite`, a byte address buffer access from its `OpAccessChain`, a
//!    structured buffer access around its `OpLoad`/`OpStore`/atomic alone; overlapping regions
//!    of one block are merged;
//! 2. below `-fcgl` (DXC runs spirv-tools' interlock placement in legalization), replaces those
//!    regions by one region per entry point that reaches an access: `Begin` at the start of the
//!    entry function and `End` before each of its returns. Each invocation then executes exactly
//!    one `Begin` and one `End`, outside any control flow of the shader's own code, and every
//!    access of every path lies between them, also for accesses in loops and called functions.
//!    This orders more than DXC's placement (which hoists to the closest common dominator of the
//!    accesses) but never less;
//! 3. gives each fragment entry point that reaches an access the execution mode
//!    `SampleInterlockOrderedEXT` when it reads `SV_SampleIndex` (`SampleId`),
//!    `ShadingRateInterlockOrderedEXT` when it reads `SV_ShadingRate`, else
//!    `PixelInterlockOrderedEXT` (its capability and the extension follow from the mode in the
//!    capability pass).
//!
//! An access reached from a non-fragment entry point is an error (DXC's validator message).

use hlslc_frontend::fxhash::{FxMap as HashMap, FxSet as HashSet};
use rspirv::dr::{Instruction, Module, Operand};
use spirv::{BuiltIn, Decoration, ExecutionMode, ExecutionModel, Op};

/// How a rasterizer-ordered resource is accessed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RovKind {
    /// A typed buffer or texture: `OpImageRead`/`OpImageWrite` of an image loaded from it, or an
    /// atomic through an `OpImageTexelPointer` into it.
    Image,
    /// A structured buffer: loads, stores and atomics through pointers into it.
    Structured,
    /// A byte address buffer: as a structured buffer, the region starting at the access chain.
    ByteAddress,
}

/// A global variable holding a rasterizer-ordered resource (or an array of them).
#[derive(Copy, Clone, Debug)]
pub struct RovVar {
    pub var: u32,
    pub kind: RovKind,
}

fn id_op(inst: &Instruction, i: usize) -> Option<u32> {
    match inst.operands.get(i) {
        Some(Operand::IdRef(id)) => Some(*id),
        _ => None,
    }
}

fn is_atomic(op: Op) -> bool {
    matches!(
        op,
        Op::AtomicLoad
            | Op::AtomicStore
            | Op::AtomicExchange
            | Op::AtomicCompareExchange
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
    )
}

/// The defining instruction's opcode and first id operand, for the ids of one function.
type Defs = HashMap<u32, (Op, Option<u32>)>;

/// The variable a pointer is derived from (through access chains and copies), and whether an
/// `OpImageTexelPointer` was passed on the way.
fn root(defs: &Defs, mut p: u32) -> (u32, bool) {
    let mut texel = false;
    for _ in 0..64 {
        match defs.get(&p) {
            Some((Op::AccessChain | Op::InBoundsAccessChain | Op::PtrAccessChain | Op::CopyObject, Some(base))) => p = *base,
            Some((Op::ImageTexelPointer, Some(image))) => {
                texel = true;
                p = *image;
            }
            _ => break,
        }
    }
    (p, texel)
}

/// If `inst` accesses a rasterizer-ordered resource: the id whose definition, when it is in
/// the same block, starts the access's region (or `None` for the access alone).
fn access(inst: &Instruction, defs: &Defs, rovs: &HashMap<u32, RovKind>) -> Option<Option<u32>> {
    let op = inst.class.opcode;
    match op {
        Op::ImageRead | Op::ImageWrite | Op::ImageSparseRead => {
            let image = id_op(inst, 0)?;
            let (Op::Load, Some(ptr)) = defs.get(&image)? else { return None };
            let (var, texel) = root(defs, *ptr);
            (!texel && rovs.get(&var) == Some(&RovKind::Image)).then_some(Some(image))
        }
        Op::Load | Op::Store => {
            let ptr = id_op(inst, 0)?;
            let (var, texel) = root(defs, ptr);
            match rovs.get(&var)? {
                RovKind::Image => None,
                RovKind::Structured => (!texel).then_some(None),
                RovKind::ByteAddress => (!texel).then_some(Some(ptr)),
            }
        }
        _ if is_atomic(op) => {
            let ptr = id_op(inst, 0)?;
            let (var, texel) = root(defs, ptr);
            match (rovs.get(&var)?, texel) {
                (RovKind::Image, true) | (RovKind::ByteAddress, false) => Some(Some(ptr)),
                (RovKind::Structured, false) => Some(None),
                _ => None,
            }
        }
        _ => None,
    }
}

fn interlock_inst(op: Op) -> Instruction {
    Instruction::new(op, None, None, Vec::new())
}

/// Wraps the accesses of every function (step 1); returns the functions that have some.
fn wrap_accesses(module: &mut Module, rovs: &HashMap<u32, RovKind>) -> HashSet<u32> {
    let mut with_access = HashSet::default();
    for f in &mut module.functions {
        let mut defs: Defs = HashMap::default();
        for b in &f.blocks {
            for inst in &b.instructions {
                if let Some(r) = inst.result_id {
                    defs.insert(r, (inst.class.opcode, id_op(inst, 0)));
                }
            }
        }
        for b in &mut f.blocks {
            let mut regions: Vec<(usize, usize)> = Vec::new();
            for (i, inst) in b.instructions.iter().enumerate() {
                let Some(from) = access(inst, &defs, rovs) else { continue };
                let start = from
                    .and_then(|id| b.instructions[..i].iter().position(|x| x.result_id == Some(id)))
                    .unwrap_or(i);
                regions.push((start, i));
            }
            if regions.is_empty() {
                continue;
            }
            regions.sort();
            let mut merged: Vec<(usize, usize)> = Vec::new();
            for (s, e) in regions {
                match merged.last_mut() {
                    Some(last) if s <= last.1 => last.1 = last.1.max(e),
                    _ => merged.push((s, e)),
                }
            }
            let old = std::mem::take(&mut b.instructions);
            let mut starts = merged.iter().map(|r| r.0).peekable();
            let mut ends = merged.iter().map(|r| r.1).peekable();
            for (i, inst) in old.into_iter().enumerate() {
                if starts.peek() == Some(&i) {
                    starts.next();
                    b.instructions.push(interlock_inst(Op::BeginInvocationInterlockEXT));
                }
                b.instructions.push(inst);
                if ends.peek() == Some(&i) {
                    ends.next();
                    b.instructions.push(interlock_inst(Op::EndInvocationInterlockEXT));
                }
            }
            if let Some(id) = f.def.as_ref().and_then(|d| d.result_id) {
                with_access.insert(id);
            }
        }
    }
    with_access
}

/// The functions that reach one of `seeds` through calls (the seeds included).
fn reaching(module: &Module, seeds: &HashSet<u32>) -> HashSet<u32> {
    let mut calls: HashMap<u32, Vec<u32>> = HashMap::default();
    for f in &module.functions {
        let Some(id) = f.def.as_ref().and_then(|d| d.result_id) else { continue };
        let callees = f
            .blocks
            .iter()
            .flat_map(|b| &b.instructions)
            .filter(|i| i.class.opcode == Op::FunctionCall)
            .filter_map(|i| id_op(i, 0))
            .collect();
        calls.insert(id, callees);
    }
    let mut reach = seeds.clone();
    loop {
        let before = reach.len();
        for (f, callees) in &calls {
            if !reach.contains(f) && callees.iter().any(|c| reach.contains(c)) {
                reach.insert(*f);
            }
        }
        if reach.len() == before {
            return reach;
        }
    }
}

/// Replaces the per-access regions by one region per entry function in `entries` (step 2).
fn place_whole_entry(module: &mut Module, entries: &HashSet<u32>) {
    for f in &mut module.functions {
        for b in &mut f.blocks {
            b.instructions
                .retain(|i| !matches!(i.class.opcode, Op::BeginInvocationInterlockEXT | Op::EndInvocationInterlockEXT));
        }
        let Some(id) = f.def.as_ref().and_then(|d| d.result_id) else { continue };
        if !entries.contains(&id) {
            continue;
        }
        for (n, b) in f.blocks.iter_mut().enumerate() {
            if n == 0 {
                let at = b
                    .instructions
                    .iter()
                    .position(|i| !matches!(i.class.opcode, Op::Variable | Op::Line | Op::NoLine | Op::ExtInst))
                    .unwrap_or(b.instructions.len());
                b.instructions.insert(at, interlock_inst(Op::BeginInvocationInterlockEXT));
            }
            if let Some(last) = b.instructions.last() {
                if matches!(last.class.opcode, Op::Return | Op::ReturnValue) {
                    let at = b.instructions.len() - 1;
                    b.instructions.insert(at, interlock_inst(Op::EndInvocationInterlockEXT));
                }
            }
        }
    }
}

/// Runs the pass; `high_level_only` is `-fcgl`. Errs (with DXC's message) when an access is
/// reached from an entry point that is not a fragment shader.
pub fn run(module: &mut Module, rovs: &[RovVar], high_level_only: bool) -> Result<(), String> {
    if rovs.is_empty() {
        return Ok(());
    }
    let rovs: HashMap<u32, RovKind> = rovs.iter().map(|r| (r.var, r.kind)).collect();
    let with_access = wrap_accesses(module, &rovs);
    if with_access.is_empty() {
        return Ok(());
    }
    let reach = reaching(module, &with_access);
    let builtins: HashMap<u32, BuiltIn> = module
        .annotations
        .iter()
        .filter_map(|i| match (i.class.opcode, i.operands.first(), i.operands.get(1), i.operands.get(2)) {
            (Op::Decorate, Some(Operand::IdRef(v)), Some(Operand::Decoration(Decoration::BuiltIn)), Some(Operand::BuiltIn(b))) => {
                Some((*v, *b))
            }
            (Op::Decorate, Some(Operand::IdRef(v)), Some(Operand::Decoration(Decoration::BuiltIn)), Some(Operand::LiteralBit32(n))) => {
                BuiltIn::from_u32(*n).map(|b| (*v, b))
            }
            _ => None,
        })
        .collect();
    let mut entries = HashSet::default();
    let mut modes = Vec::new();
    for ep in &module.entry_points {
        let (Some(Operand::ExecutionModel(model)), Some(Operand::IdRef(func))) = (ep.operands.first(), ep.operands.get(1)) else {
            continue;
        };
        if !reach.contains(func) {
            continue;
        }
        if *model != ExecutionModel::Fragment {
            return Err("RasterizerOrdered objects are only allowed in 5.0+ pixel shaders".into());
        }
        let reads = |b: BuiltIn| ep.operands[3..].iter().any(|o| matches!(o, Operand::IdRef(v) if builtins.get(v) == Some(&b)));
        let mode = if reads(BuiltIn::SampleId) {
            ExecutionMode::SampleInterlockOrderedEXT
        } else if reads(BuiltIn::ShadingRateKHR) {
            ExecutionMode::ShadingRateInterlockOrderedEXT
        } else {
            ExecutionMode::PixelInterlockOrderedEXT
        };
        entries.insert(*func);
        modes.push(Instruction::new(Op::ExecutionMode, None, None, vec![Operand::IdRef(*func), Operand::ExecutionMode(mode)]));
    }
    module.execution_modes.extend(modes);
    if !high_level_only {
        place_whole_entry(module, &entries);
    }
    Ok(())
}
