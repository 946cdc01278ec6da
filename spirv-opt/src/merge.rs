//! Control-flow simplification: a block whose only predecessor ends in an unconditional branch to
//! it joins that predecessor (SPIRV-Tools' block merging), as inlining and dead-branch removal
//! leave many such pairs.
//!
//! Not merged: when the predecessor heads a construct (its `OpSelectionMerge`/`OpLoopMerge` must
//! stay next to its own terminator), or when the block is a merge block or continue target that
//! some header names (the structure would change).

use crate::cfg::Cfg;
use crate::ids::{chase, id_at, rename_used};
use rspirv::dr::{Function, Module, Operand};
use spirv::{Op, Word};
use crate::hash::{HashMap, HashSet};

/// Merges in every function; returns whether anything changed.
pub fn run(m: &mut Module) -> bool {
    let mut changed = false;
    for f in &mut m.functions {
        while merge_one(f) {
            changed = true;
        }
    }
    changed
}

fn has_merge(insts: &[rspirv::dr::Instruction]) -> bool {
    insts.len() >= 2 && matches!(insts[insts.len() - 2].class.opcode, Op::SelectionMerge | Op::LoopMerge)
}

/// Merges every pair it can in one sweep; returns whether any was merged.
fn merge_one(f: &mut Function) -> bool {
    let cfg = Cfg::new(f);
    let named: HashSet<Word> = f
        .blocks
        .iter()
        .flat_map(|b| &b.instructions)
        .filter(|i| matches!(i.class.opcode, Op::SelectionMerge | Op::LoopMerge))
        .flat_map(|i| i.operands.iter().filter_map(Operand::id_ref_any))
        .collect();
    let mut gone = vec![false; f.blocks.len()];
    // Block index -> the block that absorbed it (itself while it stands).
    let mut owner: Vec<usize> = (0..f.blocks.len()).collect();
    // Merged block label -> the label it joined.
    let mut into: HashMap<Word, Word> = HashMap::default();
    // Phi result -> its one value, for the phis of merged blocks.
    let mut phis: HashMap<Word, Word> = HashMap::default();
    let mut any = false;
    for a in 0..f.blocks.len() {
        if gone[a] {
            continue;
        }
        loop {
            let insts = &f.blocks[a].instructions;
            let Some(term) = insts.last() else { break };
            if term.class.opcode != Op::Branch || has_merge(insts) {
                break;
            }
            let Some(&b) = id_at(term, 0).and_then(|t| cfg.index.get(&t)) else { break };
            let single = matches!(cfg.preds[b][..], [p] if owner[p] == a);
            if b == a || b == 0 || gone[b] || !single || named.contains(&cfg.labels[b]) {
                break;
            }
            let mut moved = std::mem::take(&mut f.blocks[b].instructions);
            // Phis of a single predecessor are their one value (their uses renamed once, after
            // the sweep: renaming the whole function at each merge was quadratic).
            moved.retain(|i| {
                if i.class.opcode == Op::Phi {
                    if let (Some(r), Some(v)) = (i.result_id, id_at(i, 0)) {
                        phis.insert(r, v);
                    }
                    false
                } else {
                    true
                }
            });
            let insts = &mut f.blocks[a].instructions;
            insts.pop();
            insts.extend(moved);
            gone[b] = true;
            owner[b] = a;
            into.insert(cfg.labels[b], cfg.labels[a]);
            any = true;
        }
    }
    if !any {
        return false;
    }
    if !phis.is_empty() {
        for i in f.blocks.iter_mut().flat_map(|b| b.instructions.iter_mut()) {
            rename_used(i, &|id| chase(&phis, id));
        }
    }
    // Phis name the block that now ends where the merged one did.
    let chase_label = |mut l: Word| {
        let mut moved = false;
        while let Some(&n) = into.get(&l) {
            l = n;
            moved = true;
        }
        moved.then_some(l)
    };
    for i in f.blocks.iter_mut().flat_map(|b| b.instructions.iter_mut()) {
        if i.class.opcode == Op::Phi {
            for (k, op) in i.operands.iter_mut().enumerate() {
                if k % 2 == 1 {
                    if let Some(n) = op.id_ref_any().and_then(chase_label) {
                        *op = Operand::IdRef(n);
                    }
                }
            }
        }
    }
    let mut k = 0;
    f.blocks.retain(|_| {
        k += 1;
        !gone[k - 1]
    });
    true
}
