//! Access chains with constant indices into a local variable become whole loads and stores with
//! `OpCompositeExtract`/`OpCompositeInsert` (SPIRV-Tools' local-access-chain-convert), so that
//! [`crate::mem2reg`] can promote structs, arrays and vectors written member by member and
//! [`crate::fold`] can forward each member:
//!
//! - `%p = OpAccessChain %V i j; %x = OpLoad %p` becomes `%w = OpLoad %V; %x = OpCompositeExtract %w i j`;
//! - `OpStore %p %v` becomes `%w = OpLoad %V; %n = OpCompositeInsert %v %w i j; OpStore %V %n`.
//!
//! Only variables all of whose uses are such chains (used only by loads and stores) or whole loads
//! and stores are converted; a dynamic index or a chain passed on keeps the variable as it is.
//! A debug instruction naming the variable (a `DebugDeclare`) is not a use.

use crate::consts::Consts;
use crate::debuginfo::Sets;
use crate::ids::id_at;
use rspirv::dr::{Function, Instruction, Module, Operand};
use spirv::{Op, StorageClass, Word};
use crate::hash::{HashMap, HashSet};

/// Converts every variable it can; returns whether anything changed.
pub fn run(m: &mut Module) -> bool {
    let pointee: HashMap<Word, Word> = m
        .types_global_values
        .iter()
        .filter(|i| i.class.opcode == Op::TypePointer)
        .filter_map(|i| Some((i.result_id?, id_at(i, 1)?)))
        .collect();
    let types: HashMap<Word, Instruction> = m
        .types_global_values
        .iter()
        .filter(|i| matches!(i.class.opcode, Op::TypeStruct | Op::TypeArray | Op::TypeVector | Op::TypeMatrix))
        .filter_map(|i| Some((i.result_id?, i.clone())))
        .collect();
    let mut cs = Consts::new(m);
    let sets = Sets::new(m);
    let mut changed = false;
    for f in &mut m.functions {
        changed |= convert(f, &pointee, &types, &mut cs, &sets);
    }
    cs.finish(m);
    changed
}

fn volatile(i: &Instruction, from: usize) -> bool {
    i.operands.get(from).is_some_and(|o| matches!(o, Operand::MemoryAccess(a) if a.contains(spirv::MemoryAccess::VOLATILE)))
}

/// Whether `path` names an element of `ty` (an out-of-range constant index is not an error in
/// an access chain, but is one in `OpCompositeExtract`).
fn in_range(types: &HashMap<Word, Instruction>, cs: &Consts, mut ty: Word, path: &[u32]) -> bool {
    for &k in path {
        let Some(t) = types.get(&ty) else { return false };
        let lit = |n: usize| match t.operands.get(n) {
            Some(Operand::LiteralBit32(v)) => Some(*v),
            _ => None,
        };
        let (len, elem) = match t.class.opcode {
            Op::TypeStruct => (t.operands.len() as u64, id_at(t, k as usize)),
            Op::TypeArray => (id_at(t, 1).and_then(|c| cs.scalar(c)).unwrap_or(0), id_at(t, 0)),
            Op::TypeVector | Op::TypeMatrix => (u64::from(lit(1).unwrap_or(0)), id_at(t, 0)),
            _ => return false,
        };
        match elem {
            Some(e) if u64::from(k) < len => ty = e,
            _ => return false,
        }
    }
    true
}

fn convert(f: &mut Function, pointee: &HashMap<Word, Word>, types: &HashMap<Word, Instruction>, cs: &mut Consts, sets: &Sets) -> bool {
    let Some(entry) = f.blocks.first() else { return false };
    // Variable -> its pointee type.
    let mut vars: HashMap<Word, Word> = HashMap::default();
    for i in entry.instructions.iter().take_while(|i| i.class.opcode == Op::Variable) {
        if matches!(i.operands.first(), Some(Operand::StorageClass(StorageClass::Function))) {
            if let Some(t) = i.result_type.and_then(|t| pointee.get(&t)) {
                vars.insert(i.result_id.unwrap(), *t);
            }
        }
    }
    // Chain -> (variable, literal indices).
    let mut chains: HashMap<Word, (Word, Vec<u32>)> = HashMap::default();
    let mut bad: HashSet<Word> = HashSet::default();
    for i in f.blocks.iter().flat_map(|b| &b.instructions) {
        if matches!(i.class.opcode, Op::AccessChain | Op::InBoundsAccessChain) {
            if let Some(v) = id_at(i, 0).filter(|v| vars.contains_key(v)) {
                let idx: Option<Vec<u32>> =
                    i.operands[1..].iter().map(|o| o.id_ref_any().and_then(|c| cs.scalar(c)).and_then(|x| u32::try_from(x).ok())).collect();
                match idx {
                    Some(idx) if !idx.is_empty() && in_range(types, cs, vars[&v], &idx) => {
                        chains.insert(i.result_id.unwrap(), (v, idx));
                    }
                    _ => {
                        bad.insert(v);
                    }
                }
                continue;
            }
        }
        let pointer_use = match i.class.opcode {
            Op::Load => !volatile(i, 1),
            Op::Store => !volatile(i, 2),
            _ => false,
        };
        if sets.is_debug(i) && !i.operands.iter().any(|o| o.id_ref_any().is_some_and(|id| chains.contains_key(&id))) {
            continue;
        }
        for (k, op) in i.operands.iter().enumerate() {
            let Some(id) = op.id_ref_any() else { continue };
            let var = if vars.contains_key(&id) { Some(id) } else { chains.get(&id).map(|c| c.0) };
            if let Some(v) = var {
                if !(pointer_use && k == 0) {
                    bad.insert(v);
                }
            }
        }
    }
    chains.retain(|_, (v, _)| !bad.contains(v));
    if chains.is_empty() {
        return false;
    }
    for b in &mut f.blocks {
        let old = std::mem::take(&mut b.instructions);
        for i in old {
            if i.result_id.is_some_and(|r| chains.contains_key(&r)) {
                continue;
            }
            let Some((var, idx)) = id_at(&i, 0).and_then(|p| chains.get(&p)) else {
                b.instructions.push(i);
                continue;
            };
            let vt = vars[var];
            let whole = cs.ids.fresh();
            b.instructions.push(Instruction::new(Op::Load, Some(vt), Some(whole), vec![Operand::IdRef(*var)]));
            let lits = idx.iter().map(|&k| Operand::LiteralBit32(k));
            if i.class.opcode == Op::Load {
                let mut ops = vec![Operand::IdRef(whole)];
                ops.extend(lits);
                b.instructions.push(Instruction::new(Op::CompositeExtract, i.result_type, i.result_id, ops));
            } else {
                let value = id_at(&i, 1).unwrap();
                let new = cs.ids.fresh();
                let mut ops = vec![Operand::IdRef(value), Operand::IdRef(whole)];
                ops.extend(lits);
                b.instructions.push(Instruction::new(Op::CompositeInsert, Some(vt), Some(new), ops));
                b.instructions.push(Instruction::new(Op::Store, None, None, vec![Operand::IdRef(*var), Operand::IdRef(new)]));
            }
        }
    }
    true
}
