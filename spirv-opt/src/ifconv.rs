//! If-conversion (SPIRV-Tools' `--if-conversion`): an `OpPhi` that joins the two sides of a
//! selection becomes an `OpSelect` on the selection's condition.
//!
//! A phi in block `B` is converted when
//! - `B` has exactly two predecessors, and its immediate dominator `D` is a selection header
//!   (`OpSelectionMerge B`) that ends in `OpBranchConditional %c %T %F`;
//! - one predecessor lies on the true side (it is `D` with `T == B`, or `T` dominates it) and the
//!   other on the false side, so each incoming value is known to come from one side;
//! - both incoming values are available in `D` (constants, globals, parameters, or results of
//!   blocks that dominate `D`): nothing is hoisted, so nothing with effects moves;
//! - its type is a scalar or a vector (the condition is splat into a vector of booleans for a
//!   vector, as `OpSelect` needs before SPIR-V 1.4).
//!
//! The branch itself stays: dead-branch elimination and block merging clean it up when the arms
//! are left empty. The selects keep the phis' result ids and their order.

use crate::cfg::{Cfg, Dominators};
use crate::ids::{id_at, IdAlloc};
use rspirv::dr::{Function, Instruction, Module, Operand};
use spirv::{Op, Word};
use crate::hash::HashMap;

/// Converts in every function; returns whether anything changed.
pub fn run(m: &mut Module) -> bool {
    // Result type -> (opcode, vector component count) for the types a select may produce.
    let mut kinds: HashMap<Word, (Op, u32)> = HashMap::default();
    let mut bool_ty = None;
    // Component count -> vector-of-bool type.
    let mut bvecs: HashMap<u32, Word> = HashMap::default();
    for i in &m.types_global_values {
        let Some(id) = i.result_id else { continue };
        match i.class.opcode {
            Op::TypeBool => {
                bool_ty = Some(id);
                kinds.insert(id, (Op::TypeBool, 1));
            }
            Op::TypeInt | Op::TypeFloat => {
                kinds.insert(id, (i.class.opcode, 1));
            }
            Op::TypeVector => {
                let n = match i.operands.get(1) {
                    Some(Operand::LiteralBit32(n)) => *n,
                    _ => continue,
                };
                kinds.insert(id, (Op::TypeVector, n));
                if id_at(i, 0).is_some() && id_at(i, 0) == bool_ty {
                    bvecs.insert(n, id);
                }
            }
            _ => {}
        }
    }
    let Some(bool_ty) = bool_ty else { return false };
    let mut new = New { ids: IdAlloc::new(m), bool_ty, bvecs, types: Vec::new() };
    let mut changed = false;
    for f in &mut m.functions {
        changed |= convert(f, &kinds, &mut new);
    }
    m.types_global_values.extend(std::mem::take(&mut new.types));
    new.ids.finish(m);
    changed
}

/// Fresh ids, and the vector-of-bool types the splats need (created when missing).
struct New {
    ids: IdAlloc,
    bool_ty: Word,
    bvecs: HashMap<u32, Word>,
    types: Vec<Instruction>,
}

impl New {
    fn bvec(&mut self, n: u32) -> Word {
        if let Some(&t) = self.bvecs.get(&n) {
            return t;
        }
        let id = self.ids.fresh();
        self.types.push(Instruction::new(Op::TypeVector, None, Some(id), vec![Operand::IdRef(self.bool_ty), Operand::LiteralBit32(n)]));
        self.bvecs.insert(n, id);
        id
    }
}

fn dominates(dom: &Dominators, a: usize, mut b: usize) -> bool {
    loop {
        if a == b {
            return true;
        }
        match dom.idom[b] {
            Some(p) if p != b => b = p,
            _ => return false,
        }
    }
}

fn convert(f: &mut Function, kinds: &HashMap<Word, (Op, u32)>, new: &mut New) -> bool {
    let cfg = Cfg::new(f);
    let dom = Dominators::new(&cfg);
    // Result id -> the block that defines it (parameters and globals are not here: they are
    // available everywhere).
    let mut def: HashMap<Word, usize> = HashMap::default();
    for (bi, b) in f.blocks.iter().enumerate() {
        for i in &b.instructions {
            if let Some(r) = i.result_id {
                def.insert(r, bi);
            }
        }
    }
    let mut changed = false;
    for b in 0..f.blocks.len() {
        if !cfg.reachable[b] || cfg.preds[b].len() != 2 {
            continue;
        }
        let Some(d) = dom.idom[b].filter(|&d| d != b) else { continue };
        let insts = &f.blocks[d].instructions;
        let n = insts.len();
        if n < 2 || insts[n - 1].class.opcode != Op::BranchConditional || insts[n - 2].class.opcode != Op::SelectionMerge {
            continue;
        }
        if id_at(&insts[n - 2], 0) != Some(cfg.labels[b]) {
            continue;
        }
        let term = &insts[n - 1];
        let (Some(cond), Some(t), Some(e)) = (id_at(term, 0), id_at(term, 1), id_at(term, 2)) else { continue };
        if t == e {
            continue;
        }
        let side = |p: usize, target: Word| -> bool {
            if target == cfg.labels[b] {
                return p == d;
            }
            cfg.index.get(&target).is_some_and(|&ti| dominates(&dom, ti, p))
        };
        let preds = &cfg.preds[b];
        let (p_true, p_false) = if side(preds[0], t) && side(preds[1], e) {
            (cfg.labels[preds[0]], cfg.labels[preds[1]])
        } else if side(preds[1], t) && side(preds[0], e) {
            (cfg.labels[preds[1]], cfg.labels[preds[0]])
        } else {
            continue;
        };
        let available = |v: Word| def.get(&v).is_none_or(|&vb| dominates(&dom, vb, d));
        // The phis to convert, with their (true, false) values.
        let mut selects = Vec::new();
        let mut kept = Vec::new();
        let mut first_other = 0;
        for (k, i) in f.blocks[b].instructions.iter().enumerate() {
            if i.class.opcode != Op::Phi {
                if i.class.opcode != Op::Line && i.class.opcode != Op::NoLine {
                    first_other = k;
                    break;
                }
                kept.push(i.clone());
                continue;
            }
            let incoming = |label: Word| {
                i.operands.chunks(2).find(|c| c.get(1).and_then(Operand::id_ref_any) == Some(label)).and_then(|c| c[0].id_ref_any())
            };
            let ok_type = i.result_type.and_then(|ty| kinds.get(&ty)).copied();
            match (i.operands.len() == 4, incoming(p_true), incoming(p_false), ok_type) {
                (true, Some(vt), Some(vf), Some(kind)) if available(vt) && available(vf) => selects.push((i.clone(), vt, vf, kind)),
                _ => kept.push(i.clone()),
            }
        }
        if selects.is_empty() {
            continue;
        }
        let mut head = kept;
        let mut splats: HashMap<u32, Word> = HashMap::default();
        for (phi, vt, vf, (op, n)) in selects {
            let c = if op == Op::TypeVector {
                *splats.entry(n).or_insert_with(|| {
                    let ty = new.bvec(n);
                    let id = new.ids.fresh();
                    head.push(Instruction::new(
                        Op::CompositeConstruct,
                        Some(ty),
                        Some(id),
                        (0..n).map(|_| Operand::IdRef(cond)).collect(),
                    ));
                    id
                })
            } else {
                cond
            };
            head.push(Instruction::new(
                Op::Select,
                phi.result_type,
                phi.result_id,
                vec![Operand::IdRef(c), Operand::IdRef(vt), Operand::IdRef(vf)],
            ));
        }
        let block = &mut f.blocks[b];
        let rest = block.instructions.split_off(first_other);
        head.extend(rest);
        block.instructions = head;
        changed = true;
    }
    changed
}
