//! One return per function (the part of SPIRV-Tools' `merge-return` the inliner needs): a
//! function with several returns, none of them inside a loop, gets its body wrapped in a loop
//! that runs once; each return becomes a break to the loop's merge block, which returns the
//! value an `OpPhi` picks from the block that broke out. The inliner copies only functions with a
//! single return, and an early `return` is common in HLSL helpers.
//!
//! ```text
//! entry:   variables (and the leading debug instructions); OpBranch %header
//! header:  OpLoopMerge %merge %continue None; OpBranch %body
//! body:    the rest of the entry block
//! ...      each OpReturn/OpReturnValue -> OpBranch %merge
//! merge:   %r = OpPhi ...; OpReturnValue %r
//! continue: OpBranch %header            (unreachable, as SPIRV-Tools leaves it)
//! ```
//!
//! A branch to the merge from inside a selection or switch is a loop break, valid when the
//! wrapper is the innermost loop; a return inside one of the function's own loops would break
//! out of two, so such a function is left as it is (and not inlined).

use crate::cfg::{Cfg, Dominators};
use crate::debuginfo::Sets;
use crate::ids::{id_at, IdAlloc};
use rspirv::dr::{Block, Function, Instruction, Operand};
use spirv::{Op, Word};

fn inst(op: Op, result_type: Option<Word>, result_id: Option<Word>, operands: Vec<Operand>) -> Instruction {
    Instruction::new(op, result_type, result_id, operands)
}

fn label(id: Word) -> Option<Instruction> {
    Some(inst(Op::Label, None, Some(id), vec![]))
}

/// Whether block `a` dominates block `b` (both reachable).
fn dominates(dom: &Dominators, a: usize, b: usize) -> bool {
    let mut x = b;
    loop {
        if x == a {
            return true;
        }
        match dom.idom[x] {
            Some(p) if p != x => x = p,
            _ => return false,
        }
    }
}

/// Gives `f` a single return when it has several and none is inside a loop; returns whether it
/// changed `f`.
pub fn merge(f: &mut Function, ids: &mut IdAlloc, sets: &Sets) -> bool {
    let is_return = |b: &Block| b.instructions.last().is_some_and(|i| matches!(i.class.opcode, Op::Return | Op::ReturnValue));
    let returns: Vec<usize> = f.blocks.iter().enumerate().filter(|(_, b)| is_return(b)).map(|(i, _)| i).collect();
    if returns.len() < 2 {
        return false;
    }
    let cfg = Cfg::new(f);
    let dom = Dominators::new(&cfg);
    for (h, b) in f.blocks.iter().enumerate() {
        let Some(lm) = b.instructions.iter().find(|i| i.class.opcode == Op::LoopMerge) else { continue };
        let Some(&m) = id_at(lm, 0).and_then(|l| cfg.index.get(&l)) else { return false };
        if dom.idom[h].is_none() {
            continue;
        }
        let inside = |r: usize| dom.idom[r].is_some() && dominates(&dom, h, r) && !(dom.idom[m].is_some() && dominates(&dom, m, r));
        if returns.iter().any(|&r| inside(r)) {
            return false;
        }
    }
    let ret_type = f.def.as_ref().and_then(|d| d.result_type);
    let valued = f.blocks[returns[0]].instructions.last().is_some_and(|i| i.class.opcode == Op::ReturnValue);
    let (header, merge, cont, body) = (ids.fresh(), ids.fresh(), ids.fresh(), ids.fresh());
    let entry_label = cfg.labels[0];

    // The entry block keeps its variables and leading debug instructions; the rest moves to
    // the body block after the header.
    let entry = &mut f.blocks[0].instructions;
    let keep = entry
        .iter()
        .take_while(|i| i.class.opcode == Op::Variable || sets.is_debug(i) || matches!(i.class.opcode, Op::Line | Op::NoLine))
        .count();
    let rest: Vec<Instruction> = entry.drain(keep..).collect();
    entry.push(inst(Op::Branch, None, None, vec![Operand::IdRef(header)]));
    let header_block = Block {
        label: label(header),
        instructions: vec![
            inst(Op::LoopMerge, None, None, vec![Operand::IdRef(merge), Operand::IdRef(cont), Operand::LoopControl(spirv::LoopControl::NONE)]),
            inst(Op::Branch, None, None, vec![Operand::IdRef(body)]),
        ],
    };
    let body_block = Block { label: label(body), instructions: rest };
    f.blocks.splice(1..1, [header_block, body_block]);

    // Phis naming the entry block as a parent now name the body block (it ends in the entry's
    // old terminator).
    for i in f.blocks.iter_mut().flat_map(|b| b.instructions.iter_mut()).filter(|i| i.class.opcode == Op::Phi) {
        for (k, op) in i.operands.iter_mut().enumerate() {
            if k % 2 == 1 && op.id_ref_any() == Some(entry_label) {
                *op = Operand::IdRef(body);
            }
        }
    }

    // Each return breaks to the merge block.
    let mut incoming = Vec::new();
    for b in f.blocks.iter_mut() {
        if !is_return(b) {
            continue;
        }
        let from = b.label.as_ref().and_then(|l| l.result_id).unwrap_or(0);
        let ret = b.instructions.pop().unwrap();
        if let Some(v) = id_at(&ret, 0) {
            incoming.push(Operand::IdRef(v));
            incoming.push(Operand::IdRef(from));
        }
        b.instructions.push(inst(Op::Branch, None, None, vec![Operand::IdRef(merge)]));
    }
    let mut merge_insts = Vec::new();
    match (valued, ret_type) {
        (true, Some(t)) => {
            let r = ids.fresh();
            merge_insts.push(inst(Op::Phi, Some(t), Some(r), incoming));
            merge_insts.push(inst(Op::ReturnValue, None, None, vec![Operand::IdRef(r)]));
        }
        _ => merge_insts.push(inst(Op::Return, None, None, vec![])),
    }
    f.blocks.push(Block { label: label(merge), instructions: merge_insts });
    f.blocks.push(Block { label: label(cont), instructions: vec![inst(Op::Branch, None, None, vec![Operand::IdRef(header)])] });
    true
}
