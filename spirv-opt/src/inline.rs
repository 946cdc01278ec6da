//! Inlines function calls (SPIRV-Tools' exhaustive inlining, which dxc runs first): every call
//! to a function with exactly one `OpReturn`/`OpReturnValue` is replaced by a copy of the
//! callee's body, so that what the emitter passes through pointer parameters becomes plain
//! loads and stores of the caller's variables for [`crate::mem2reg`]. The functions left
//! uncalled are removed by [`crate::unused`].
//!
//! The block holding the call is split: the part before the call branches to the copied entry
//! block, and the callee's return branches to a new block holding the rest (with the split
//! block's merge instruction and terminator, and the name successors' `OpPhi`s now give as their
//! parent). The callee's `OpVariable`s move to the caller's entry block; an initializer becomes a
//! store where the body starts, so a call in a loop still sees it each time. Decorations of the
//! callee's results (`NoContraction`, `RelaxedPrecision`) are copied to the new ids.
//!
//! Not inlined: callees with several returns or none, callees marked `DontInline` (HLSL's
//! `[noinline]`, as SPIRV-Tools' inliner leaves them), and calls in a loop header (the header must
//! keep its `OpLoopMerge` next to its terminator).

use crate::ids::{chase, id_at, rename_used, IdAlloc};
use rspirv::dr::{Block, Function, Instruction, Module, Operand};
use spirv::{Op, Word};
use crate::hash::HashMap;

/// Most calls inlined in one module (a guard against a blow-up; HLSL has no recursion).
const BUDGET: usize = 20_000;

/// Inlines every call it can; returns whether anything changed.
pub fn run(m: &mut Module) -> bool {
    let index: HashMap<Word, usize> =
        m.functions.iter().enumerate().filter_map(|(i, f)| Some((f.def.as_ref()?.result_id?, i))).collect();
    let inlinable: Vec<bool> = m.functions.iter().map(|f| single_return(f) && !dont_inline(f)).collect();
    let mut decorations: HashMap<Word, Vec<Instruction>> = HashMap::default();
    for a in &m.annotations {
        if a.class.opcode == Op::Decorate {
            if let Some(t) = id_at(a, 0) {
                decorations.entry(t).or_default().push(a.clone());
            }
        }
    }
    let mut ids = IdAlloc::new(m);
    let mut new_decorations = Vec::new();
    let mut count = 0;
    for fi in 0..m.functions.len() {
        let (mut parents, mut results) = (HashMap::default(), HashMap::default());
        let mut bi = 0;
        while bi < m.functions[fi].blocks.len() && count < BUDGET {
            let block = &m.functions[fi].blocks[bi];
            if block.instructions.iter().any(|i| i.class.opcode == Op::LoopMerge) {
                bi += 1;
                continue;
            }
            let call = block.instructions.iter().position(|i| {
                i.class.opcode == Op::FunctionCall
                    && id_at(i, 0).and_then(|c| index.get(&c)).is_some_and(|&ci| ci != fi && inlinable[ci])
            });
            let Some(at) = call else {
                bi += 1;
                continue;
            };
            let callee_index = index[&id_at(&block.instructions[at], 0).unwrap()];
            // The caller mutably and the callee shared, without cloning the callee (they differ).
            let (caller, callee) = if callee_index < fi {
                let (lo, hi) = m.functions.split_at_mut(fi);
                (&mut hi[0], &lo[callee_index])
            } else {
                let (lo, hi) = m.functions.split_at_mut(callee_index);
                (&mut lo[fi], &hi[0])
            };
            let r = inline_call(caller, bi, at, callee, &mut ids, &decorations, &mut new_decorations);
            parents.insert(r.parent.0, r.parent.1);
            if let Some((from, to)) = r.result {
                results.insert(from, to);
            }
            count += 1;
            // Go on with the block that now ends in the branch to the copied body: the copy
            // follows it and may hold calls of its own.
        }
        apply(&mut m.functions[fi], &parents, &results);
    }
    m.annotations.extend(new_decorations);
    ids.finish(m);
    count > 0
}

/// Whether `f` has a body with exactly one return.
fn single_return(f: &Function) -> bool {
    let returns = f
        .blocks
        .iter()
        .filter_map(|b| b.instructions.last())
        .filter(|i| matches!(i.class.opcode, Op::Return | Op::ReturnValue))
        .count();
    !f.blocks.is_empty() && returns == 1
}

fn inst(op: Op, result_type: Option<Word>, result_id: Option<Word>, operands: Vec<Operand>) -> Instruction {
    Instruction::new(op, result_type, result_id, operands)
}

fn inline_call(
    caller: &mut Function,
    bi: usize,
    at: usize,
    callee: &Function,
    ids: &mut IdAlloc,
    decorations: &HashMap<Word, Vec<Instruction>>,
    new_decorations: &mut Vec<Instruction>,
) -> Renames {
    let call = caller.blocks[bi].instructions[at].clone();
    let split_label = caller.blocks[bi].label.as_ref().and_then(|l| l.result_id).expect("a block has a label");
    // Ids of the copy: parameters become the arguments, every result gets a fresh id.
    let mut map: HashMap<Word, Word> = HashMap::default();
    for (p, arg) in callee.parameters.iter().zip(call.operands.iter().skip(1)) {
        if let (Some(p), Some(a)) = (p.result_id, arg.id_ref_any()) {
            map.insert(p, a);
        }
    }
    for b in &callee.blocks {
        for i in b.label.iter().chain(&b.instructions) {
            if let Some(r) = i.result_id {
                let fresh = ids.fresh();
                map.insert(r, fresh);
                for d in decorations.get(&r).into_iter().flatten() {
                    let mut d = d.clone();
                    d.operands[0] = Operand::IdRef(fresh);
                    new_decorations.push(d);
                }
            }
        }
    }
    let rename = |id: Word| map.get(&id).copied();
    let after_label = ids.fresh();

    // The copied blocks; variables collected for the caller's entry block.
    let mut variables = Vec::new();
    let mut initial_stores = Vec::new();
    let mut body: Vec<Block> = Vec::new();
    let mut result = None;
    for b in &callee.blocks {
        let mut nb = Block { label: b.label.clone(), instructions: Vec::new() };
        if let Some(l) = nb.label.as_mut() {
            l.result_id = l.result_id.and_then(rename);
        }
        for i in &b.instructions {
            let mut c = i.clone();
            c.result_id = c.result_id.and_then(rename);
            rename_used(&mut c, &rename);
            match c.class.opcode {
                Op::Variable => {
                    if c.operands.len() > 1 {
                        let init = c.operands.pop().unwrap();
                        initial_stores.push(inst(Op::Store, None, None, vec![Operand::IdRef(c.result_id.unwrap()), init]));
                    }
                    variables.push(c);
                }
                Op::Return => nb.instructions.push(inst(Op::Branch, None, None, vec![Operand::IdRef(after_label)])),
                Op::ReturnValue => {
                    result = id_at(&c, 0);
                    nb.instructions.push(inst(Op::Branch, None, None, vec![Operand::IdRef(after_label)]));
                }
                _ => nb.instructions.push(c),
            }
        }
        body.push(nb);
    }
    let entry_label = body[0].label.as_ref().and_then(|l| l.result_id).unwrap();

    // Split the caller's block around the call.
    let block = &mut caller.blocks[bi];
    let rest: Vec<Instruction> = block.instructions.drain(at..).skip(1).collect();
    block.instructions.extend(initial_stores);
    block.instructions.push(inst(Op::Branch, None, None, vec![Operand::IdRef(entry_label)]));
    let after = Block { label: Some(inst(Op::Label, None, Some(after_label), vec![])), instructions: rest };
    let at_block = bi + 1;
    caller.blocks.splice(at_block..at_block, body.into_iter().chain(std::iter::once(after)));

    // Variables first in the caller's entry block.
    let entry = &mut caller.blocks[0].instructions;
    let n = entry.iter().take_while(|i| i.class.opcode == Op::Variable).count();
    entry.splice(n..n, variables);
    Renames { parent: (split_label, after_label), result: call.result_id.zip(result) }
}

/// What an inlined call leaves to rename in its caller: the split block, as the parent named by
/// the successors' `OpPhi`s, becomes the block after the call; the call's result becomes the
/// returned value.
struct Renames {
    parent: (Word, Word),
    result: Option<(Word, Word)>,
}


/// Applies the renames of every call inlined into `f`.
fn apply(f: &mut Function, parents: &HashMap<Word, Word>, results: &HashMap<Word, Word>) {
    for i in f.blocks.iter_mut().flat_map(|b| b.instructions.iter_mut()) {
        if !results.is_empty() {
            rename_used(i, &|id| chase(results, id));
        }
        if i.class.opcode == Op::Phi && !parents.is_empty() {
            for (k, op) in i.operands.iter_mut().enumerate() {
                if k % 2 == 1 {
                    if let Some(n) = op.id_ref_any().and_then(|l| chase(parents, l)) {
                        *op = Operand::IdRef(n);
                    }
                }
            }
        }
    }
}

/// Whether the function's control mask asks not to inline it.
fn dont_inline(f: &Function) -> bool {
    f.def.as_ref().is_some_and(|d| {
        d.operands.iter().any(|o| matches!(o, Operand::FunctionControl(c) if c.contains(spirv::FunctionControl::DONT_INLINE)))
    })
}
