//! Removes instructions whose results nothing uses and that have no other effect, and
//! `Function` variables that are only written (with the stores and access chains into them):
//! SPIRV-Tools' aggressive dead-code elimination, restricted to what is local to a function.
//! Control flow stays as it is.
//!
//! A debug instruction's use is not a use: a value only a `DebugValue` names, a variable only a
//! `DebugDeclare` names, are removed, and the debug instructions naming them with them.

use crate::debuginfo::Sets;
use crate::ids::{for_each_used, id_at};
use rspirv::dr::{Function, Instruction, Module, Operand};
use spirv::{Op, StorageClass, Word};
use crate::hash::{HashMap, HashSet};

/// Whether an instruction only computes its result (removing it when unused changes nothing).
pub fn pure(i: &Instruction, glsl: Option<Word>) -> bool {
    use Op::*;
    match i.class.opcode {
        Load => !i.operands.get(1).is_some_and(|o| matches!(o, Operand::MemoryAccess(a) if a.contains(spirv::MemoryAccess::VOLATILE))),
        ExtInst => glsl.is_some() && id_at(i, 0) == glsl,
        Undef | Phi | Select | CopyObject | AccessChain | InBoundsAccessChain | PtrAccessChain | ArrayLength
        | CompositeConstruct | CompositeExtract | CompositeInsert | VectorExtractDynamic | VectorInsertDynamic
        | VectorShuffle | Transpose | SampledImage | Image | ImageSampleImplicitLod | ImageSampleExplicitLod
        | ImageSampleDrefImplicitLod | ImageSampleDrefExplicitLod | ImageSampleProjImplicitLod
        | ImageSampleProjExplicitLod | ImageSampleProjDrefImplicitLod | ImageSampleProjDrefExplicitLod
        | ImageFetch | ImageGather | ImageDrefGather | ImageRead | ImageQuerySizeLod | ImageQuerySize
        | ImageQueryLod | ImageQueryLevels | ImageQuerySamples | ConvertFToU | ConvertFToS | ConvertSToF
        | ConvertUToF | UConvert | SConvert | FConvert | QuantizeToF16 | Bitcast | SNegate | FNegate | IAdd
        | FAdd | ISub | FSub | IMul | FMul | UDiv | SDiv | FDiv | UMod | SRem | SMod | FRem | FMod
        | VectorTimesScalar | MatrixTimesScalar | VectorTimesMatrix | MatrixTimesVector | MatrixTimesMatrix
        | OuterProduct | Dot | IAddCarry | ISubBorrow | UMulExtended | SMulExtended | Any | All | IsNan | IsInf
        | LogicalEqual | LogicalNotEqual | LogicalOr | LogicalAnd | LogicalNot | IEqual | INotEqual
        | UGreaterThan | SGreaterThan | UGreaterThanEqual | SGreaterThanEqual | ULessThan | SLessThan
        | ULessThanEqual | SLessThanEqual | FOrdEqual | FUnordEqual | FOrdNotEqual | FUnordNotEqual
        | FOrdLessThan | FUnordLessThan | FOrdGreaterThan | FUnordGreaterThan | FOrdLessThanEqual
        | FUnordLessThanEqual | FOrdGreaterThanEqual | FUnordGreaterThanEqual | ShiftRightLogical
        | ShiftRightArithmetic | ShiftLeftLogical | BitwiseOr | BitwiseXor | BitwiseAnd | Not | BitFieldInsert
        | BitFieldSExtract | BitFieldUExtract | BitReverse | BitCount | DPdx | DPdy | Fwidth | DPdxFine
        | DPdyFine | FwidthFine | DPdxCoarse | DPdyCoarse | FwidthCoarse => true,
        _ => false,
    }
}

/// Runs over every function; returns whether anything was removed.
pub fn run(m: &mut Module) -> bool {
    let glsl = m.ext_inst_imports.iter().find(|i| matches!(i.operands.first(), Some(Operand::LiteralString(s)) if s == "GLSL.std.450")).and_then(|i| i.result_id);
    let sets = Sets::new(m);
    let bound = crate::ids::bound(m);
    let mut changed = false;
    for f in &mut m.functions {
        changed |= write_only_variables(f, &sets);
        changed |= unused_results(f, glsl, &sets, bound);
    }
    changed
}

/// Removes the debug instructions that name a removed id.
fn drop_debug_naming(f: &mut Function, sets: &Sets, removed: &HashSet<Word>) {
    if sets.is_empty() {
        return;
    }
    for b in &mut f.blocks {
        b.instructions.retain(|i| !sets.is_debug(i) || !i.operands.iter().any(|o| o.id_ref_any().is_some_and(|id| removed.contains(&id))));
    }
}

fn unused_results(f: &mut Function, glsl: Option<Word>, sets: &Sets, bound: Word) -> bool {
    // Use counts and where each result stands, as tables by id; a removed instruction releases
    // its operands, which may die in turn.
    const NONE: (u32, u32) = (u32::MAX, u32::MAX);
    let mut uses: Vec<u32> = vec![0; bound as usize];
    let mut at: Vec<(u32, u32)> = vec![NONE; bound as usize];
    let mut results: Vec<Word> = Vec::new();
    for (bi, b) in f.blocks.iter().enumerate() {
        for (ii, i) in b.instructions.iter().enumerate() {
            if sets.is_debug(i) {
                continue;
            }
            for_each_used(i, |u| {
                if u as usize >= uses.len() {
                    uses.resize(u as usize + 1, 0);
                }
                uses[u as usize] += 1;
            });
            if let Some(r) = i.result_id {
                if r as usize >= at.len() {
                    at.resize(r as usize + 1, NONE);
                }
                at[r as usize] = (bi as u32, ii as u32);
                results.push(r);
            }
        }
    }
    let count = |uses: &[u32], r: Word| uses.get(r as usize).copied().unwrap_or(0);
    let place = |r: Word| at.get(r as usize).copied().filter(|&p| p != NONE);
    let removable = |i: &Instruction| pure(i, glsl) || (i.class.opcode == Op::Variable && i.operands.len() == 1);
    let mut work: Vec<Word> = results.into_iter().filter(|&r| count(&uses, r) == 0).collect();
    let mut dead: HashSet<(usize, usize)> = HashSet::default();
    while let Some(r) = work.pop() {
        let Some((bi, ii)) = place(r) else { continue };
        let (bi, ii) = (bi as usize, ii as usize);
        let i = &f.blocks[bi].instructions[ii];
        if dead.contains(&(bi, ii)) || !removable(i) {
            continue;
        }
        dead.insert((bi, ii));
        for_each_used(i, |u| {
            if let Some(n) = uses.get_mut(u as usize).filter(|n| **n > 0) {
                *n -= 1;
                if *n == 0 && place(u).is_some() {
                    work.push(u);
                }
            }
        });
    }
    if dead.is_empty() {
        return false;
    }
    let mut removed: HashSet<Word> = HashSet::default();
    for (bi, b) in f.blocks.iter_mut().enumerate() {
        let mut ii = 0;
        b.instructions.retain(|i| {
            ii += 1;
            let gone = dead.contains(&(bi, ii - 1));
            if gone {
                removed.extend(i.result_id);
            }
            !gone
        });
    }
    drop_debug_naming(f, sets, &removed);
    true
}

/// `Function` variables that are only stored to (directly or through access chains), and those
/// stores.
fn write_only_variables(f: &mut Function, sets: &Sets) -> bool {
    let Some(entry) = f.blocks.first() else { return false };
    // Pointer id -> its variable, for variables and access chains into them.
    let mut root: HashMap<Word, Word> = HashMap::default();
    for i in entry.instructions.iter().take_while(|i| i.class.opcode == Op::Variable) {
        if matches!(i.operands.first(), Some(Operand::StorageClass(StorageClass::Function))) {
            root.insert(i.result_id.unwrap(), i.result_id.unwrap());
        }
    }
    if root.is_empty() {
        return false;
    }
    let mut read: HashSet<Word> = HashSet::default();
    for i in f.blocks.iter().flat_map(|b| &b.instructions) {
        if sets.is_debug(i) {
            continue;
        }
        let chain = matches!(i.class.opcode, Op::AccessChain | Op::InBoundsAccessChain);
        if chain {
            if let Some(&v) = id_at(i, 0).and_then(|p| root.get(&p)) {
                root.insert(i.result_id.unwrap(), v);
            }
        }
        for (k, op) in i.operands.iter().enumerate() {
            let Some(&v) = op.id_ref_any().and_then(|id| root.get(&id)) else { continue };
            let write = (i.class.opcode == Op::Store && k == 0) || (chain && k == 0);
            if !write {
                read.insert(v);
            }
        }
    }
    let dead: HashSet<Word> = root.iter().filter(|(_, v)| !read.contains(v)).map(|(&p, _)| p).collect();
    if dead.is_empty() {
        return false;
    }
    for b in &mut f.blocks {
        b.instructions.retain(|i| {
            let target = match i.class.opcode {
                Op::Store => id_at(i, 0),
                _ => i.result_id,
            };
            !target.is_some_and(|t| dead.contains(&t))
        });
    }
    drop_debug_naming(f, sets, &dead);
    true
}
