//! Function-local variables to SSA values (SPIRV-Tools' local-single-block/single-store
//! elimination and SSA rewriting, in one step): a `Function` variable whose only uses are
//! whole `OpLoad`s and `OpStore`s through its own pointer is removed; each load becomes the value
//! last stored on the way to it, with `OpPhi`s where paths meet.
//!
//! Method (Cytron et al.): a variable gets an `OpPhi` in the iterated dominance frontier of the
//! blocks that store to it; any other block starts with the value its immediate dominator ends
//! with (SPIR-V orders blocks so that a dominator comes first); the entry block starts with the
//! initializer or `OpUndef`; unreachable blocks start with `OpUndef`. Then `OpPhi`s whose operands
//! are all one value (or the `OpPhi` itself) are replaced by that value until none is left.
//!
//! Variables reached through `OpAccessChain`, passed to a call or copied with `OpCopyMemory` stay
//! (after inlining few remain). Volatile accesses keep their variable.
//!
//! Debug information (as SPIRV-Tools' SSA rewriter keeps it): a `DebugDeclare` of a promoted
//! variable becomes a `DebugValue` of the variable's value after each store and after each
//! `OpPhi` placed for it (and one where the declaration stood, when a value was stored before
//! it); other debug instructions naming the variable go.

use crate::cfg::{Cfg, Dominators};
use crate::debuginfo::{self, ops, Sets};
use crate::ids::{id_at, rename_used, IdAlloc, IdMap};
use rspirv::dr::{Function, Instruction, Module, Operand};
use spirv::{MemoryAccess, Op, StorageClass, Word};
use crate::hash::HashMap;

struct Ctx {
    pointee: HashMap<Word, Word>,
    undefs: HashMap<Word, Word>,
    new_undefs: Vec<Instruction>,
    ids: IdAlloc,
    sets: Sets,
    /// Loads and trivial phis replaced by values (chased when read): a table by id, shared by
    /// the functions (whose ids are their own).
    replace: IdMap,
}

impl Ctx {
    fn undef(&mut self, ty: Word) -> Word {
        if let Some(&u) = self.undefs.get(&ty) {
            return u;
        }
        let id = self.ids.fresh();
        self.new_undefs.push(Instruction::new(Op::Undef, Some(ty), Some(id), vec![]));
        self.undefs.insert(ty, id);
        id
    }
}

/// Promotes what it can in every function; returns whether anything changed.
pub fn run(m: &mut Module) -> bool {
    let pointee = m
        .types_global_values
        .iter()
        .filter(|i| i.class.opcode == Op::TypePointer)
        .filter_map(|i| Some((i.result_id?, id_at(i, 1)?)))
        .collect();
    let undefs = m
        .types_global_values
        .iter()
        .filter(|i| i.class.opcode == Op::Undef)
        .filter_map(|i| Some((i.result_type?, i.result_id?)))
        .collect();
    let sets = Sets::new(m);
    let replace = IdMap::with_bound(crate::ids::bound(m));
    let mut cx = Ctx { pointee, undefs, new_undefs: Vec::new(), ids: IdAlloc::new(m), sets, replace };
    let mut changed = false;
    for f in &mut m.functions {
        changed |= promote(f, &mut cx);
    }
    m.types_global_values.extend(cx.new_undefs);
    cx.ids.finish(m);
    changed
}

fn volatile(i: &Instruction, from: usize) -> bool {
    i.operands.get(from).is_some_and(|o| matches!(o, Operand::MemoryAccess(a) if a.contains(MemoryAccess::VOLATILE)))
}

/// The variables of `f` that can be promoted: index by id.
fn candidates(f: &Function, sets: &Sets) -> HashMap<Word, usize> {
    let Some(entry) = f.blocks.first() else { return HashMap::default() };
    let mut vars: HashMap<Word, usize> = HashMap::default();
    for i in entry.instructions.iter().take_while(|i| i.class.opcode == Op::Variable) {
        if matches!(i.operands.first(), Some(Operand::StorageClass(StorageClass::Function))) {
            let n = vars.len();
            vars.insert(i.result_id.unwrap(), n);
        }
    }
    let mut bad = Vec::new();
    for i in f.blocks.iter().flat_map(|b| &b.instructions) {
        let ok_pointer = match i.class.opcode {
            Op::Load => !volatile(i, 1),
            Op::Store => !volatile(i, 2),
            Op::Variable => true,
            _ => false,
        };
        if sets.is_debug(i) {
            continue;
        }
        for (k, op) in i.operands.iter().enumerate() {
            let Some(id) = op.id_ref_any() else { continue };
            if vars.contains_key(&id) && !(ok_pointer && k == 0) {
                bad.push(id);
            }
        }
    }
    for b in bad {
        vars.remove(&b);
    }
    // Dense indices again.
    let mut ids: Vec<Word> = vars.keys().copied().collect();
    ids.sort();
    ids.into_iter().enumerate().map(|(n, id)| (id, n)).collect()
}

fn promote(f: &mut Function, cx: &mut Ctx) -> bool {
    let vars = candidates(f, &cx.sets);
    if vars.is_empty() {
        return false;
    }
    let nv = vars.len();
    let mut types = vec![0; nv];
    let mut initial = vec![None; nv];
    for i in &f.blocks[0].instructions {
        if let Some(&v) = i.result_id.and_then(|r| vars.get(&r)) {
            types[v] = i.result_type.and_then(|t| cx.pointee.get(&t).copied()).unwrap_or(0);
            initial[v] = id_at(i, 1);
        }
    }
    if types.contains(&0) {
        return false;
    }
    // Each variable's DebugDeclares: (void type, debug set, local variable, expression).
    let mut declares: Vec<Vec<[Word; 4]>> = vec![Vec::new(); nv];
    for i in f.blocks.iter().flat_map(|b| &b.instructions) {
        if cx.sets.op(i) == Some(ops::DECLARE) {
            let v = debuginfo::arg(i, 1).and_then(|p| vars.get(&p));
            let parts = (i.result_type, id_at(i, 0), debuginfo::arg(i, 0), debuginfo::arg(i, 2));
            if let (Some(&v), (Some(void), Some(set), Some(local), Some(expr))) = (v, parts) {
                declares[v].push([void, set, local, expr]);
            }
        }
    }
    let value = |cx: &mut Ctx, d: &[Word; 4], val: Word| debuginfo::inst(d[0], d[1], cx.ids.fresh(), ops::VALUE, &[d[2], val, d[3]]);
    let cfg = Cfg::new(f);
    let dom = Dominators::new(&cfg);
    let nb = f.blocks.len();
    // Phis go where the stores' dominance ends (the iterated dominance frontier of the blocks
    // that store, the entry block counting as one).
    let mut needs_phi = vec![vec![false; nv]; nb];
    {
        let mut stores: Vec<Vec<usize>> = vec![vec![0]; nv];
        for (b, block) in f.blocks.iter().enumerate() {
            for i in &block.instructions {
                if i.class.opcode == Op::Store {
                    if let Some(&v) = id_at(i, 0).and_then(|p| vars.get(&p)) {
                        if stores[v].last() != Some(&b) {
                            stores[v].push(b);
                        }
                    }
                }
            }
        }
        for (v, mut work) in stores.into_iter().enumerate() {
            while let Some(b) = work.pop() {
                for &d in &dom.frontier[b] {
                    if !needs_phi[d][v] {
                        needs_phi[d][v] = true;
                        work.push(d);
                    }
                }
            }
        }
    }
    let mut replace = std::mem::take(&mut cx.replace);
    let mut end: Vec<Option<Vec<Word>>> = vec![None; nb];
    // (block, var, phi id)
    let mut phis: Vec<(usize, usize, Word)> = Vec::new();
    for b in 0..nb {
        let mut cur: Vec<Word> = if b == 0 {
            (0..nv).map(|v| initial[v].unwrap_or_else(|| cx.undef(types[v]))).collect()
        } else if !cfg.reachable[b] {
            (0..nv).map(|v| cx.undef(types[v])).collect()
        } else {
            // Without a phi, a block starts with what its immediate dominator ends with (a
            // dominator comes first in SPIR-V's block order; if not, a phi is always right).
            let from = dom.idom[b].and_then(|d| end[d].clone());
            (0..nv)
                .map(|v| match &from {
                    Some(e) if !needs_phi[b][v] => e[v],
                    _ => {
                        let id = cx.ids.fresh();
                        phis.push((b, v, id));
                        id
                    }
                })
                .collect()
        };
        let old = std::mem::take(&mut f.blocks[b].instructions);
        let mut kept = Vec::with_capacity(old.len());
        for i in old {
            let var = id_at(&i, 0).and_then(|p| vars.get(&p).copied());
            match (i.class.opcode, var) {
                (Op::Load, Some(v)) => {
                    replace.insert(i.result_id.unwrap(), cur[v]);
                }
                (Op::Store, Some(v)) => {
                    let mut val = id_at(&i, 1).unwrap();
                    while let Some(n) = replace.get(val) {
                        val = n;
                    }
                    cur[v] = val;
                    for d in &declares[v] {
                        kept.push(value(cx, d, val));
                    }
                }
                (Op::Variable, _) if i.result_id.is_some_and(|r| vars.contains_key(&r)) => {}
                (Op::ExtInst, _) if cx.sets.is_debug(&i) => {
                    let named = i.operands.iter().skip(2).filter_map(|o| o.id_ref_any()).find_map(|id| vars.get(&id).copied());
                    match named {
                        // Where the declaration stood, the value it has there (if one was stored).
                        Some(v) if cx.sets.op(&i) == Some(ops::DECLARE) => {
                            if !cx.undefs.values().any(|&u| u == cur[v]) {
                                let parts = (i.result_type, id_at(&i, 0), debuginfo::arg(&i, 0), debuginfo::arg(&i, 2));
                                if let (Some(void), Some(set), Some(local), Some(expr)) = parts {
                                    kept.push(value(cx, &[void, set, local, expr], cur[v]));
                                }
                            }
                        }
                        Some(_) => {}
                        None => kept.push(i),
                    }
                }
                _ => kept.push(i),
            }
        }
        f.blocks[b].instructions = kept;
        end[b] = Some(cur);
    }

    // Phi operands, then trivial phis out until none is left.
    let mut operands: HashMap<Word, Vec<(Word, Word)>> = HashMap::default();
    for &(b, v, id) in &phis {
        let ops = cfg.preds[b]
            .iter()
            .map(|&p| {
                let val = match &end[p] {
                    Some(e) if cfg.reachable[p] => e[v],
                    _ => cx.undef(types[v]),
                };
                (val, cfg.labels[p])
            })
            .collect();
        operands.insert(id, ops);
    }
    let chase = |replace: &IdMap, mut id: Word| {
        while let Some(n) = replace.get(id) {
            id = n;
        }
        id
    };
    loop {
        let mut progress = false;
        for &(_, v, id) in &phis {
            if replace.contains(id) {
                continue;
            }
            let mut same = None;
            let mut trivial = true;
            for &(val, _) in &operands[&id] {
                let val = chase(&replace, val);
                if val == id || Some(val) == same {
                    continue;
                }
                if same.is_some() {
                    trivial = false;
                    break;
                }
                same = Some(val);
            }
            if trivial {
                let to = same.unwrap_or_else(|| cx.undef(types[v]));
                replace.insert(id, to);
                progress = true;
            }
        }
        if !progress {
            break;
        }
    }

    // Place the phis that stay, then rename every use.
    let mut by_block: Vec<Vec<Instruction>> = vec![Vec::new(); nb];
    let mut values: Vec<Vec<Instruction>> = vec![Vec::new(); nb];
    for &(b, v, id) in &phis {
        if replace.contains(id) {
            continue;
        }
        let ops = operands[&id].iter().flat_map(|&(val, parent)| [Operand::IdRef(val), Operand::IdRef(parent)]).collect();
        by_block[b].push(Instruction::new(Op::Phi, Some(types[v]), Some(id), ops));
        for d in &declares[v] {
            values[b].push(value(cx, d, id));
        }
    }
    for (b, (new, vals)) in by_block.into_iter().zip(values).enumerate() {
        if !new.is_empty() {
            let insts = &mut f.blocks[b].instructions;
            let n = insts.iter().take_while(|i| i.class.opcode == Op::Phi).count();
            let k = n + new.len();
            insts.splice(n..n, new);
            insts.splice(k..k, vals);
        }
    }
    let map = |id: Word| replace.contains(id).then(|| chase(&replace, id));
    for i in f.blocks.iter_mut().flat_map(|b| b.instructions.iter_mut()) {
        rename_used(i, &map);
    }
    cx.replace = replace;
    true
}
