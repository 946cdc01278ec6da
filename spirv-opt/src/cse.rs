//! Redundancy elimination (SPIRV-Tools' `redundancy-elimination`, restricted to what needs no
//! alias analysis): an instruction that computes what an instruction dominating it already
//! computed (same opcode, result type and operands) is replaced by that earlier result.
//!
//! Candidates are the instructions that only compute their result from their operands
//! (arithmetic, comparisons, conversions, composite and access-chain instructions, pure
//! `GLSL.std.450` calls) and loads from memory nothing can write ([`read_only_variables`]). Left alone: anything with a decoration on its result
//! (`NoContraction`, `RelaxedPrecision`, `NonUniform`: merging could drop one), `OpSampledImage`
//! and `OpImage` (their uses must stay in their block), derivatives and implicit-LOD sampling
//! (they depend on the quad's control flow), volatile loads, phis.
//!
//! The walk is over the dominator tree in preorder with a scoped table, so a value is reused only
//! where its definition dominates.

use crate::cfg::{Cfg, Dominators};
use crate::ids::{id_at, rename_used, IdMap};
use rspirv::dr::{Instruction, Module, Operand};
use spirv::{Decoration, Op, StorageClass, Word};
use crate::hash::{HashMap, HashSet};

/// The parts of an instruction two redundant ones share.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    op: u32,
    ty: Word,
    operands: Vec<(u8, u64)>,
}

/// Runs over every function; returns whether anything was replaced.
pub fn run(m: &mut Module) -> bool {
    let glsl = m
        .ext_inst_imports
        .iter()
        .find(|i| matches!(i.operands.first(), Some(Operand::LiteralString(s)) if s == "GLSL.std.450"))
        .and_then(|i| i.result_id);
    let decorated: HashSet<Word> = m
        .annotations
        .iter()
        .filter(|a| matches!(a.class.opcode, Op::Decorate | Op::DecorateId))
        .filter_map(|a| id_at(a, 0))
        .collect();
    let read_only = read_only_variables(m);
    let bound = crate::ids::bound(m);
    let mut changed = false;
    // Pointers (access chains, copies) to the variable they point into, and results replaced by
    // earlier ones: tables by id, shared by the functions (whose result ids are their own).
    let mut base = IdMap::with_bound(bound);
    let mut map = IdMap::with_bound(bound);
    for f in &mut m.functions {
        if f.blocks.is_empty() {
            continue;
        }
        let cfg = Cfg::new(f);
        let dom = Dominators::new(&cfg);
        let n = f.blocks.len();
        let mut children = vec![Vec::new(); n];
        for b in 1..n {
            if let Some(p) = dom.idom[b] {
                if p != b {
                    children[p].push(b);
                }
            }
        }
        // Each key's latest result and its block. An entry is usable where its block is on the
        // walk's current path (`open`), i.e. dominates the block being walked; one that is not
        // is replaced. (Entries from an ancestor are never replaced inside its subtree, since
        // every later computation there reuses them, so this is the scoped table without the
        // removals.)
        let mut table: HashMap<Key, (Word, usize)> = HashMap::default();
        let mut replaced = false;
        let mut stack: Vec<(usize, bool)> = vec![(0, false)];
        let mut visited = vec![false; f.blocks.len()];
        let mut open = vec![false; f.blocks.len()];
        while let Some((b, done)) = stack.pop() {
            if done {
                open[b] = false;
                continue;
            }
            visited[b] = true;
            open[b] = true;
            let old = std::mem::take(&mut f.blocks[b].instructions);
            let mut kept = Vec::with_capacity(old.len());
            for mut inst in old {
                if replaced {
                    rename_used(&mut inst, &|id| map.chase(id));
                }
                if let Some(r) = inst.result_id {
                    match inst.class.opcode {
                        Op::AccessChain | Op::InBoundsAccessChain | Op::PtrAccessChain | Op::CopyObject => {
                            if let Some(p) = id_at(&inst, 0) {
                                base.insert(r, base.get(p).unwrap_or(p));
                            }
                        }
                        _ => {}
                    }
                }
                if let Some(key) = key(&inst, glsl, &decorated, &read_only, &base) {
                    match table.get_mut(&key) {
                        Some(&mut (earlier, at)) if open[at] => {
                            map.insert(inst.result_id.unwrap(), earlier);
                            changed = true;
                            replaced = true;
                            continue;
                        }
                        Some(entry) => *entry = (inst.result_id.unwrap(), b),
                        None => {
                            table.insert(key, (inst.result_id.unwrap(), b));
                        }
                    }
                }
                kept.push(inst);
            }
            f.blocks[b].instructions = kept;
            stack.push((b, true));
            for &c in children[b].iter().rev() {
                stack.push((c, false));
            }
        }
        if replaced {
            // Phis, and blocks the walk did not reach, read ids replaced later in the walk (any
            // other use is dominated by its definition, so the preorder walk renamed it).
            for (b, block) in f.blocks.iter_mut().enumerate() {
                for i in &mut block.instructions {
                    if !visited[b] || i.class.opcode == Op::Phi {
                        rename_used(i, &|id| map.chase(id));
                    }
                }
            }
        }
    }
    changed
}

/// The global variables whose memory no instruction can write, as SPIRV-Tools counts them
/// (`IsReadOnlyPointer`): `UniformConstant` ones other than storage images and texel buffers,
/// uniform buffers (`Uniform` without `BufferBlock`), `PushConstant` and `Input` ones (not
/// `Volatile`), and any variable decorated `NonWritable`. A structured buffer whose members are
/// `NonWritable` does not count (dxc's output keeps its loads).
fn read_only_variables(m: &Module) -> HashSet<Word> {
    let mut non_writable: HashSet<Word> = HashSet::default();
    let mut volatile: HashSet<Word> = HashSet::default();
    let mut buffer_block: HashSet<Word> = HashSet::default();
    for a in &m.annotations {
        let Some(target) = id_at(a, 0) else { continue };
        if a.class.opcode != Op::Decorate {
            continue;
        }
        match a.operands.get(1) {
            Some(Operand::Decoration(Decoration::NonWritable)) => {
                non_writable.insert(target);
            }
            Some(Operand::Decoration(Decoration::Volatile)) => {
                volatile.insert(target);
            }
            Some(Operand::Decoration(Decoration::BufferBlock)) => {
                buffer_block.insert(target);
            }
            _ => {}
        }
    }
    let defs: HashMap<Word, &Instruction> = m.types_global_values.iter().filter_map(|i| Some((i.result_id?, i))).collect();
    let mut out = HashSet::default();
    for v in &m.types_global_values {
        if v.class.opcode != Op::Variable {
            continue;
        }
        let (Some(r), Some(ptr)) = (v.result_id, v.result_type) else { continue };
        let Some(Operand::StorageClass(sc)) = v.operands.first() else { continue };
        // The pointee, arrays of it unwrapped.
        let mut pointee = defs.get(&ptr).and_then(|p| id_at(p, 1)).and_then(|t| defs.get(&t).copied());
        while let Some(t) = pointee.filter(|t| matches!(t.class.opcode, Op::TypeArray | Op::TypeRuntimeArray)) {
            pointee = id_at(t, 0).and_then(|e| defs.get(&e).copied());
        }
        let storage_image = pointee.is_some_and(|t| t.class.opcode == Op::TypeImage && t.operands.get(5) == Some(&Operand::LiteralBit32(2)));
        let ro = match sc {
            StorageClass::UniformConstant => !storage_image,
            StorageClass::Uniform => !pointee.and_then(|t| t.result_id).is_some_and(|t| buffer_block.contains(&t)),
            StorageClass::PushConstant => true,
            StorageClass::Input => !volatile.contains(&r),
            _ => false,
        };
        if ro || non_writable.contains(&r) {
            out.insert(r);
        }
    }
    out
}

/// The instruction's key when it may be replaced by an earlier one computing the same.
fn key(
    i: &Instruction,
    glsl: Option<Word>,
    decorated: &HashSet<Word>,
    read_only: &HashSet<Word>,
    base: &IdMap,
) -> Option<Key> {
    use Op::*;
    let (r, ty) = (i.result_id?, i.result_type?);
    if decorated.contains(&r) {
        return None;
    }
    let ok = match i.class.opcode {
        Load => {
            let p = id_at(i, 0)?;
            let v = base.get(p).unwrap_or(p);
            let volatile = i.operands.get(1).is_some_and(|o| matches!(o, Operand::MemoryAccess(a) if a.contains(spirv::MemoryAccess::VOLATILE)));
            read_only.contains(&v) && !volatile
        }
        ExtInst => glsl.is_some() && id_at(i, 0) == glsl && pure_glsl(i),
        Select | AccessChain | InBoundsAccessChain | PtrAccessChain | ArrayLength | CompositeConstruct
        | CompositeExtract | CompositeInsert | VectorExtractDynamic | VectorInsertDynamic | VectorShuffle
        | Transpose | ConvertFToU | ConvertFToS | ConvertSToF | ConvertUToF | UConvert | SConvert | FConvert
        | QuantizeToF16 | Bitcast | SNegate | FNegate | IAdd | FAdd | ISub | FSub | IMul | FMul | UDiv | SDiv
        | FDiv | UMod | SRem | SMod | FRem | FMod | VectorTimesScalar | MatrixTimesScalar | VectorTimesMatrix
        | MatrixTimesVector | MatrixTimesMatrix | OuterProduct | Dot | IAddCarry | ISubBorrow | UMulExtended
        | SMulExtended | Any | All | IsNan | IsInf | LogicalEqual | LogicalNotEqual | LogicalOr | LogicalAnd
        | LogicalNot | IEqual | INotEqual | UGreaterThan | SGreaterThan | UGreaterThanEqual | SGreaterThanEqual
        | ULessThan | SLessThan | ULessThanEqual | SLessThanEqual | FOrdEqual | FUnordEqual | FOrdNotEqual
        | FUnordNotEqual | FOrdLessThan | FUnordLessThan | FOrdGreaterThan | FUnordGreaterThan
        | FOrdLessThanEqual | FUnordLessThanEqual | FOrdGreaterThanEqual | FUnordGreaterThanEqual
        | ShiftRightLogical | ShiftRightArithmetic | ShiftLeftLogical | BitwiseOr | BitwiseXor | BitwiseAnd | Not
        | BitFieldInsert | BitFieldSExtract | BitFieldUExtract | BitReverse | BitCount => true,
        _ => false,
    };
    if !ok {
        return None;
    }
    let mut operands = Vec::with_capacity(i.operands.len());
    for o in &i.operands {
        operands.push(match o {
            Operand::IdRef(id) => (0, *id as u64),
            Operand::LiteralBit32(v) => (1, *v as u64),
            Operand::LiteralBit64(v) => (2, *v),
            Operand::LiteralExtInstInteger(v) => (3, *v as u64),
            Operand::MemoryAccess(a) => (4, a.bits() as u64),
            _ => return None,
        });
    }
    Some(Key { op: i.class.opcode as u32, ty, operands })
}

/// `GLSL.std.450` instructions that only compute their result (no pointer operands, no
/// interpolation, which reads the stage input at the invocation's position).
fn pure_glsl(i: &Instruction) -> bool {
    let Some(Operand::LiteralExtInstInteger(n)) = i.operands.get(1) else { return false };
    // Modf (35), ModfStruct is fine, Frexp (51) writes through a pointer; 76..78 interpolate.
    !matches!(*n, 35 | 51 | 76 | 77 | 78)
}
