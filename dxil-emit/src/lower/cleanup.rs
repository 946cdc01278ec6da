//! Clean-up after lowering, the part of dxc's optimization pipeline whose effect shows in its
//! output: unreachable blocks dropped, straight-line block chains merged, single-entry phis
//! replaced by their value, and side-effect-free instructions without uses removed (unused
//! `loadInput`s and handles included, as their ops are `readnone`/`readonly`).

use crate::ir::{Attr, BlockId, Body, FuncId, InstId, InstKind, Module, Value};
use std::collections::HashMap;

fn operands_mut(kind: &mut InstKind) -> Vec<&mut Value> {
    match kind {
        InstKind::Binary { lhs, rhs, .. } | InstKind::ICmp { lhs, rhs, .. } | InstKind::FCmp { lhs, rhs, .. } => vec![lhs, rhs],
        InstKind::Cast { value, .. } => vec![value],
        InstKind::Select { cond, then_value, else_value } => vec![cond, then_value, else_value],
        InstKind::Phi { incoming } => incoming.iter_mut().map(|(v, _)| v).collect(),
        InstKind::CondBr { cond, .. } => vec![cond],
        InstKind::Switch { value, .. } => vec![value],
        InstKind::Ret { value } => value.iter_mut().collect(),
        InstKind::Call { args, .. } => args.iter_mut().collect(),
        InstKind::Load { ptr, .. } => vec![ptr],
        InstKind::Store { value, ptr, .. } => vec![value, ptr],
        InstKind::Gep { base, indices, .. } => {
            let mut v = vec![base];
            v.extend(indices.iter_mut());
            v
        }
        InstKind::ExtractValue { agg, .. } => vec![agg],
        InstKind::InsertValue { agg, value, .. } => vec![agg, value],
        InstKind::ExtractElement { vector, index } => vec![vector, index],
        InstKind::InsertElement { vector, value, index } => vec![vector, value, index],
        InstKind::AtomicRmw { ptr, value, .. } => vec![ptr, value],
        InstKind::CmpXchg { ptr, cmp, new } => vec![ptr, cmp, new],
        InstKind::Br { .. } | InstKind::Unreachable | InstKind::Alloca { .. } => Vec::new(),
    }
}

fn block_refs_mut(kind: &mut InstKind) -> Vec<&mut BlockId> {
    match kind {
        InstKind::Br { target } => vec![target],
        InstKind::CondBr { then_block, else_block, .. } => vec![then_block, else_block],
        InstKind::Switch { default, cases, .. } => {
            let mut v = vec![default];
            v.extend(cases.iter_mut().map(|c| &mut c.1));
            v
        }
        InstKind::Phi { incoming } => incoming.iter_mut().map(|(_, b)| b).collect(),
        _ => Vec::new(),
    }
}

fn replace_uses(body: &mut Body, from: Value, to: Value) {
    let mut map = HashMap::new();
    if let Value::Inst(id) = from {
        map.insert(id, to);
    }
    replace_all(body, &map);
}

/// Rewrites every operand that names an instruction in `map` (following chains).
fn replace_all(body: &mut Body, map: &HashMap<InstId, Value>) {
    if map.is_empty() {
        return;
    }
    let resolve = |mut v: Value| {
        let mut steps = 0;
        while let Value::Inst(id) = v {
            match map.get(&id) {
                Some(&n) if steps < 1000 && n != v => {
                    v = n;
                    steps += 1;
                }
                _ => break,
            }
        }
        v
    };
    for inst in &mut body.insts {
        for op in operands_mut(&mut inst.kind) {
            *op = resolve(*op);
        }
    }
}

/// Lays the blocks out in `order` (blocks not listed keep their relative order, after it).
pub(crate) fn reorder_blocks(m: &mut Module, func: FuncId, order: &[BlockId]) {
    let Some(body) = m.functions[func.0 as usize].body.as_mut() else { return };
    let n = body.blocks.len();
    let mut seq: Vec<usize> = order.iter().map(|b| b.0 as usize).filter(|b| *b < n).collect();
    for b in 0..n {
        if !seq.contains(&b) {
            seq.push(b);
        }
    }
    let map: HashMap<BlockId, BlockId> = seq.iter().enumerate().map(|(new, old)| (BlockId(*old as u32), BlockId(new as u32))).collect();
    let mut old = std::mem::take(&mut body.blocks);
    body.blocks = seq.iter().map(|&i| std::mem::take(&mut old[i])).collect();
    for inst in &mut body.insts {
        for b in block_refs_mut(&mut inst.kind) {
            if let Some(nb) = map.get(b) {
                *b = *nb;
            }
        }
    }
}

/// Runs the clean-ups on `func` until nothing changes.
pub(crate) fn remove_dead_code(m: &mut Module, func: FuncId, gvn: bool) {
    let pure_calls: Vec<bool> = m
        .functions
        .iter()
        .map(|f| f.attrs.is_some_and(|a| m.attr_sets[a.0 as usize].iter().any(|x| matches!(x, Attr::ReadNone | Attr::ReadOnly))))
        .collect();
    let readnone_calls: Vec<bool> =
        m.functions.iter().map(|f| f.attrs.is_some_and(|a| m.attr_sets[a.0 as usize].contains(&Attr::ReadNone))).collect();
    let Some(body) = m.functions[func.0 as usize].body.as_mut() else { return };
    drop_unreachable(body);
    merge_chains(body);
    if gvn {
        common_subexpressions(body, &readnone_calls);
    }
    loop {
        let mut changed = simplify_phis(body);
        changed |= remove_unused(body, &pure_calls);
        if !changed {
            break;
        }
    }
}

fn reachable(body: &Body) -> Vec<bool> {
    let mut seen = vec![false; body.blocks.len()];
    let mut stack = vec![0usize];
    while let Some(b) = stack.pop() {
        if b >= seen.len() || seen[b] {
            continue;
        }
        seen[b] = true;
        if let Some(&last) = body.blocks[b].insts.last() {
            for s in body.inst(last).kind.successors() {
                stack.push(s.0 as usize);
            }
        }
    }
    seen
}

/// Removes blocks not reachable from the entry, renumbering the rest.
fn drop_unreachable(body: &mut Body) {
    let live = reachable(body);
    if live.iter().all(|x| *x) {
        return;
    }
    let mut map = HashMap::new();
    let mut n = 0;
    for (i, l) in live.iter().enumerate() {
        if *l {
            map.insert(BlockId(i as u32), BlockId(n));
            n += 1;
        }
    }
    let blocks = std::mem::take(&mut body.blocks);
    body.blocks = blocks.into_iter().enumerate().filter(|(i, _)| live[*i]).map(|(_, b)| b).collect();
    let live_insts: Vec<InstId> = body.blocks.iter().flat_map(|b| b.insts.iter().copied()).collect();
    for id in live_insts {
        let inst = &mut body.insts[id.0 as usize];
        if let InstKind::Phi { incoming } = &mut inst.kind {
            incoming.retain(|(_, b)| map.contains_key(b));
        }
        for b in block_refs_mut(&mut inst.kind) {
            if let Some(nb) = map.get(b) {
                *b = *nb;
            }
        }
    }
}

/// Merges a block into its predecessor when that predecessor ends with `br` to it and it has no
/// other predecessor.
fn merge_chains(body: &mut Body) {
    loop {
        let preds = body.predecessors();
        let mut done = true;
        for b in 1..body.blocks.len() {
            if preds[b].len() != 1 {
                continue;
            }
            let p = preds[b][0].0 as usize;
            if p == b {
                continue;
            }
            let Some(&last) = body.blocks[p].insts.last() else { continue };
            if !matches!(body.inst(last).kind, InstKind::Br { .. }) {
                continue;
            }
            // Phis in `b` have one incoming value: use it directly.
            let insts = std::mem::take(&mut body.blocks[b].insts);
            let mut moved = Vec::new();
            for id in insts {
                if let InstKind::Phi { incoming } = &body.inst(id).kind {
                    let v = incoming[0].0;
                    replace_uses(body, Value::Inst(id), v);
                } else {
                    moved.push(id);
                }
            }
            body.blocks[p].insts.pop();
            body.blocks[p].insts.extend(moved);
            // Successors' phis now come from `p`.
            let (from, to) = (BlockId(b as u32), BlockId(p as u32));
            for inst in &mut body.insts {
                if let InstKind::Phi { incoming } = &mut inst.kind {
                    for (_, blk) in incoming.iter_mut() {
                        if *blk == from {
                            *blk = to;
                        }
                    }
                }
            }
            // `b` is now empty and unreachable.
            body.blocks[b].insts.clear();
            let u = body.insts.len() as u32;
            body.insts.push(crate::ir::Inst { kind: InstKind::Unreachable, ty: body.insts[last.0 as usize].ty, name: None });
            body.blocks[b].insts.push(InstId(u));
            done = false;
            break;
        }
        if done {
            break;
        }
        drop_unreachable(body);
    }
    drop_unreachable(body);
}

/// Removes recomputations of a value already computed in the same block or in the entry block
/// (which dominates every block): side-effect-free instructions and `readnone` calls.
fn common_subexpressions(body: &mut Body, readnone: &[bool]) {
    let mut entry_seen: HashMap<String, Value> = HashMap::new();
    let mut replaced: HashMap<InstId, Value> = HashMap::new();
    for b in 0..body.blocks.len() {
        let mut seen = entry_seen.clone();
        let ids = body.blocks[b].insts.clone();
        let mut keep = Vec::new();
        for id in ids {
            let inst = body.inst(id);
            let cse = match &inst.kind {
                InstKind::Call { callee, .. } => readnone.get(callee.0 as usize).copied().unwrap_or(false),
                // A member address of a ray tracing shader's parameter is recomputed where it is
                // stored to, as dxc's output has it.
                InstKind::Gep { base: Value::Arg(_), .. } => false,
                InstKind::Binary { .. }
                | InstKind::ICmp { .. }
                | InstKind::FCmp { .. }
                | InstKind::Cast { .. }
                | InstKind::Select { .. }
                | InstKind::Gep { .. }
                | InstKind::ExtractValue { .. }
                | InstKind::ExtractElement { .. } => true,
                _ => false,
            };
            if !cse {
                keep.push(id);
                continue;
            }
            // Operands are keyed after earlier replacements so chains collapse in one pass.
            let mut kind = inst.kind.clone();
            for op in operands_mut(&mut kind) {
                while let Value::Inst(i) = *op {
                    match replaced.get(&i) {
                        Some(&n) => *op = n,
                        None => break,
                    }
                }
            }
            let key = format!("{:?}|{:?}", kind, inst.ty);
            match seen.get(&key) {
                Some(&v) => {
                    replaced.insert(id, v);
                }
                None => {
                    seen.insert(key, Value::Inst(id));
                    keep.push(id);
                }
            }
        }
        body.blocks[b].insts = keep;
        if b == 0 {
            entry_seen = seen;
        }
    }
    replace_all(body, &replaced);
}

/// Replaces phis whose incoming values are all the same value (or the phi itself).
fn simplify_phis(body: &mut Body) -> bool {
    let ids: Vec<InstId> = body.blocks.iter().flat_map(|b| b.insts.iter().copied()).collect();
    let mut map = HashMap::new();
    for id in ids {
        let InstKind::Phi { incoming } = &body.inst(id).kind else { continue };
        let me = Value::Inst(id);
        let mut vals = incoming.iter().map(|x| x.0).filter(|v| *v != me);
        let Some(first) = vals.next() else { continue };
        if vals.all(|v| v == first) {
            map.insert(id, first);
        }
    }
    if map.is_empty() {
        return false;
    }
    replace_all(body, &map);
    for b in &mut body.blocks {
        b.insts.retain(|x| !map.contains_key(x));
    }
    true
}

fn remove_unused(body: &mut Body, pure_calls: &[bool]) -> bool {
    let mut uses = vec![0u32; body.insts.len()];
    let live: Vec<InstId> = body.blocks.iter().flat_map(|b| b.insts.iter().copied()).collect();
    for &id in &live {
        let mut kind = body.insts[id.0 as usize].kind.clone();
        for op in operands_mut(&mut kind) {
            if let Value::Inst(i) = op {
                if let Some(u) = uses.get_mut(i.0 as usize) {
                    *u += 1;
                }
            }
        }
    }
    let mut changed = false;
    for b in &mut body.blocks {
        b.insts.retain(|id| {
            let inst = &body.insts[id.0 as usize];
            let pure = match &inst.kind {
                InstKind::Call { callee, .. } => pure_calls.get(callee.0 as usize).copied().unwrap_or(false),
                InstKind::Binary { .. }
                | InstKind::ICmp { .. }
                | InstKind::FCmp { .. }
                | InstKind::Cast { .. }
                | InstKind::Select { .. }
                | InstKind::Phi { .. }
                | InstKind::Gep { .. }
                | InstKind::ExtractValue { .. }
                | InstKind::InsertValue { .. }
                | InstKind::ExtractElement { .. }
                | InstKind::InsertElement { .. }
                | InstKind::Load { .. }
                | InstKind::Alloca { .. } => true,
                _ => false,
            };
            let keep = !pure || uses[id.0 as usize] > 0;
            if !keep {
                changed = true;
            }
            keep
        });
    }
    changed
}
