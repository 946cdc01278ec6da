//! Dead branch elimination (SPIRV-Tools' dead-branch-elim): a conditional branch on a constant
//! becomes an unconditional one (a selection header loses its `OpSelectionMerge`, as only its
//! taken side remains), and blocks no path from the entry reaches go, with the `OpPhi` operands
//! that named them.
//!
//! An unreachable block that a remaining header names as its merge block stays, reduced to
//! `OpUnreachable`. Loop headers keep their branches; a function where an unreachable block is the
//! continue target of a reachable loop keeps its unreachable blocks.

use crate::cfg::Cfg;
use crate::consts::Consts;
use crate::ids::id_at;
use rspirv::dr::{Function, Instruction, Module, Operand};
use spirv::{Op, Word};
use std::collections::HashSet;

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
    let mut changed = false;
    for f in &mut m.functions {
        changed |= fold_branches(f, &constant);
        changed |= remove_unreachable(f);
    }
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

fn remove_unreachable(f: &mut Function) -> bool {
    let cfg = Cfg::new(f);
    if cfg.reachable.iter().all(|&r| r) {
        return false;
    }
    let mut merges = HashSet::new();
    for (i, b) in f.blocks.iter().enumerate() {
        if !cfg.reachable[i] {
            continue;
        }
        for inst in &b.instructions {
            match inst.class.opcode {
                Op::SelectionMerge => merges.extend(id_at(inst, 0)),
                Op::LoopMerge => {
                    merges.extend(id_at(inst, 0));
                    let cont = id_at(inst, 1).and_then(|c| cfg.index.get(&c));
                    if cont.is_some_and(|&c| !cfg.reachable[c]) {
                        return false;
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
    for b in &mut f.blocks {
        if dead.contains(&label(b)) {
            if b.instructions != [unreachable.clone()] {
                b.instructions = vec![unreachable.clone()];
                changed = true;
            }
            continue;
        }
        for phi in b.instructions.iter_mut().take_while(|i| i.class.opcode == Op::Phi) {
            let pairs: Vec<Operand> =
                phi.operands.chunks(2).filter(|p| !p.get(1).and_then(Operand::id_ref_any).is_some_and(|l| dead.contains(&l))).flatten().cloned().collect();
            changed |= pairs.len() != phi.operands.len();
            phi.operands = pairs;
        }
    }
    changed
}
