//! Dead branch elimination (SPIRV-Tools' dead-branch-elim): a conditional branch on a constant
//! becomes an unconditional one (a selection header loses its `OpSelectionMerge`, as only its
//! taken side remains), and blocks no path from the entry reaches go, with the `OpPhi` operands
//! that named them.
//!
//! An unreachable block that a remaining header names as its merge block stays, reduced to
//! `OpUnreachable`; one it names as its continue target stays as a branch back to the header
//! (the header's `OpPhi`s get `OpUndef` for it), as SPIRV-Tools does. Loop headers keep their
//! branches.

use crate::cfg::Cfg;
use crate::consts::Consts;
use crate::ids::{id_at, IdAlloc};
use rspirv::dr::{Function, Instruction, Module, Operand};
use spirv::{Op, Word};
use crate::hash::{HashMap, HashSet};

/// Runs over every function; returns whether anything changed.
pub fn run(m: &mut Module) -> bool {
    let cs = Consts::new(m);
    let bools: HashSet<Word> = m
        .types_global_values
        .iter()
        .filter(|i| i.class.opcode == Op::TypeBool)
        .filter_map(|i| i.result_id)
        .collect();
    let constant = |id: Word| cs.values.get(&id).filter(|(t, _)| bools.contains(t)).and_then(|_| cs.scalar(id));
    let mut undefs: HashMap<Word, Word> = m
        .types_global_values
        .iter()
        .filter(|i| i.class.opcode == Op::Undef)
        .filter_map(|i| Some((i.result_type?, i.result_id?)))
        .collect();
    let mut ids = IdAlloc::new(m);
    let mut new_undefs = Vec::new();
    let mut undef = |ty: Word| {
        *undefs.entry(ty).or_insert_with(|| {
            let id = ids.fresh();
            new_undefs.push(Instruction::new(Op::Undef, Some(ty), Some(id), vec![]));
            id
        })
    };
    let mut changed = false;
    for f in &mut m.functions {
        changed |= fold_branches(f, &constant);
        changed |= remove_unreachable(f, &mut undef);
    }
    m.types_global_values.extend(new_undefs);
    ids.finish(m);
    changed
}

fn label(b: &rspirv::dr::Block) -> Word {
    b.label.as_ref().and_then(|l| l.result_id).unwrap_or(0)
}

fn fold_branches(f: &mut Function, constant: &impl Fn(Word) -> Option<u64>) -> bool {
    let mut changed = false;
    // (block label, target that lost it as a predecessor)
    let mut lost: Vec<(Word, Word)> = Vec::new();
    for b in &mut f.blocks {
        let n = b.instructions.len();
        let Some(term) = b.instructions.last() else { continue };
        if term.class.opcode != Op::BranchConditional {
            continue;
        }
        let (Some(c), Some(t), Some(e)) = (id_at(term, 0), id_at(term, 1), id_at(term, 2)) else { continue };
        let header = n >= 2 && matches!(b.instructions[n - 2].class.opcode, Op::SelectionMerge | Op::LoopMerge);
        if header && b.instructions[n - 2].class.opcode == Op::LoopMerge {
            continue;
        }
        let taken = if t == e {
            t
        } else {
            match constant(c) {
                Some(v) => {
                    let (taken, other) = if v != 0 { (t, e) } else { (e, t) };
                    lost.push((label(b), other));
                    taken
                }
                None => continue,
            }
        };
        b.instructions.truncate(if header { n - 2 } else { n - 1 });
        b.instructions.push(Instruction::new(Op::Branch, None, None, vec![Operand::IdRef(taken)]));
        changed = true;
    }
    for (from, target) in lost {
        for b in f.blocks.iter_mut().filter(|b| label(b) == target) {
            for phi in b.instructions.iter_mut().take_while(|i| i.class.opcode == Op::Phi) {
                let pairs: Vec<Operand> = phi.operands.chunks(2).filter(|p| p.get(1) != Some(&Operand::IdRef(from))).flatten().cloned().collect();
                phi.operands = pairs;
            }
        }
    }
    changed
}

fn remove_unreachable(f: &mut Function, undef: &mut impl FnMut(Word) -> Word) -> bool {
    let cfg = Cfg::new(f);
    if cfg.reachable.iter().all(|&r| r) {
        return false;
    }
    let mut merges = HashSet::default();
    // Unreachable continue target -> its loop header.
    let mut continues: HashMap<Word, Word> = HashMap::default();
    for (i, b) in f.blocks.iter().enumerate() {
        if !cfg.reachable[i] {
            continue;
        }
        for inst in &b.instructions {
            match inst.class.opcode {
                Op::SelectionMerge => merges.extend(id_at(inst, 0)),
                Op::LoopMerge => {
                    merges.extend(id_at(inst, 0));
                    if let Some(c) = id_at(inst, 1).filter(|c| cfg.index.get(c).is_some_and(|&k| !cfg.reachable[k])) {
                        merges.insert(c);
                        continues.insert(c, cfg.labels[i]);
                    }
                }
                _ => {}
            }
        }
    }
    let dead: HashSet<Word> = (0..f.blocks.len()).filter(|&i| !cfg.reachable[i]).map(|i| cfg.labels[i]).collect();
    let before = f.blocks.len();
    let mut k = 0;
    f.blocks.retain(|b| {
        k += 1;
        cfg.reachable[k - 1] || merges.contains(&label(b))
    });
    let mut changed = f.blocks.len() != before;
    let unreachable = Instruction::new(Op::Unreachable, None, None, vec![]);
    // Headers whose kept continue target branches back: their phis take OpUndef from it.
    let back: HashMap<Word, Word> = continues.iter().map(|(&c, &h)| (h, c)).collect();
    for b in &mut f.blocks {
        let l = label(b);
        if dead.contains(&l) {
            let body = match continues.get(&l) {
                Some(&h) => Instruction::new(Op::Branch, None, None, vec![Operand::IdRef(h)]),
                None => unreachable.clone(),
            };
            if b.instructions != [body.clone()] {
                b.instructions = vec![body];
                changed = true;
            }
            continue;
        }
        let from_back = back.get(&l).copied();
        for phi in b.instructions.iter_mut().take_while(|i| i.class.opcode == Op::Phi) {
            let mut pairs: Vec<Operand> =
                phi.operands.chunks(2).filter(|p| !p.get(1).and_then(Operand::id_ref_any).is_some_and(|l| dead.contains(&l))).flatten().cloned().collect();
            if let (Some(c), Some(ty)) = (from_back, phi.result_type) {
                pairs.extend([Operand::IdRef(undef(ty)), Operand::IdRef(c)]);
            }
            changed |= pairs != phi.operands;
            phi.operands = pairs;
        }
    }
    changed
}
