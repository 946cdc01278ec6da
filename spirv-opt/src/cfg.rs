//! A function's control-flow graph: block labels, predecessors, successors, reachability.

use rspirv::dr::{Function, Operand};
use spirv::{Op, Word};
use crate::hash::HashMap;

/// The CFG of one function. Invariant: `labels[i]` is the label of `f.blocks[i]`; `preds` and
/// `succs` are indices into `labels`, in terminator operand order (a target named twice counts
/// once).
pub struct Cfg {
    pub labels: Vec<Word>,
    pub index: HashMap<Word, usize>,
    pub preds: Vec<Vec<usize>>,
    pub succs: Vec<Vec<usize>>,
    /// Reachable from the entry block.
    pub reachable: Vec<bool>,
}

/// The blocks a terminator branches to.
pub fn targets(term: &rspirv::dr::Instruction) -> Vec<Word> {
    match term.class.opcode {
        Op::Branch => term.operands.iter().take(1).filter_map(Operand::id_ref_any).collect(),
        Op::BranchConditional => term.operands.iter().skip(1).take(2).filter_map(Operand::id_ref_any).collect(),
        // Selector, default, then (literal, label) pairs.
        Op::Switch => term.operands.iter().skip(1).filter_map(Operand::id_ref_any).collect(),
        _ => Vec::new(),
    }
}

impl Cfg {
    pub fn new(f: &Function) -> Cfg {
        let labels: Vec<Word> = f.blocks.iter().map(|b| b.label.as_ref().and_then(|l| l.result_id).unwrap_or(0)).collect();
        let index: HashMap<Word, usize> = labels.iter().enumerate().map(|(i, &l)| (l, i)).collect();
        let n = labels.len();
        let (mut preds, mut succs) = (vec![Vec::new(); n], vec![Vec::new(); n]);
        for (i, b) in f.blocks.iter().enumerate() {
            let Some(term) = b.instructions.last() else { continue };
            for t in targets(term) {
                if let Some(&j) = index.get(&t) {
                    if !succs[i].contains(&j) {
                        succs[i].push(j);
                        preds[j].push(i);
                    }
                }
            }
        }
        let mut reachable = vec![false; n];
        let mut work = if n > 0 { vec![0] } else { vec![] };
        while let Some(i) = work.pop() {
            if !std::mem::replace(&mut reachable[i], true) {
                work.extend(succs[i].iter().copied());
            }
        }
        Cfg { labels, index, preds, succs, reachable }
    }
}

/// Immediate dominators and dominance frontiers of the reachable blocks (Cooper, Harvey and
/// Kennedy's iterative algorithm over reverse postorder).
pub struct Dominators {
    /// `idom[b]`: the immediate dominator of reachable block `b` (the entry block is its own);
    /// `None` for unreachable blocks.
    pub idom: Vec<Option<usize>>,
    /// `frontier[b]`: the blocks where `b`'s dominance ends.
    pub frontier: Vec<Vec<usize>>,
}

impl Dominators {
    pub fn new(cfg: &Cfg) -> Dominators {
        let n = cfg.labels.len();
        // Reverse postorder, iteratively.
        let mut order = Vec::with_capacity(n);
        let mut seen = vec![false; n];
        if n > 0 {
            let mut stack = vec![(0usize, 0usize)];
            seen[0] = true;
            while let Some(&mut (b, ref mut next)) = stack.last_mut() {
                if let Some(&s) = cfg.succs[b].get(*next) {
                    *next += 1;
                    if !seen[s] {
                        seen[s] = true;
                        stack.push((s, 0));
                    }
                } else {
                    order.push(b);
                    stack.pop();
                }
            }
        }
        order.reverse();
        let mut rpo = vec![usize::MAX; n];
        for (k, &b) in order.iter().enumerate() {
            rpo[b] = k;
        }
        let mut idom: Vec<Option<usize>> = vec![None; n];
        if n > 0 {
            idom[0] = Some(0);
        }
        let intersect = |idom: &Vec<Option<usize>>, mut a: usize, mut b: usize| {
            while a != b {
                while rpo[a] > rpo[b] {
                    a = idom[a].unwrap();
                }
                while rpo[b] > rpo[a] {
                    b = idom[b].unwrap();
                }
            }
            a
        };
        let mut changed = true;
        while changed {
            changed = false;
            for &b in order.iter().skip(1) {
                let mut new: Option<usize> = None;
                for &p in &cfg.preds[b] {
                    if idom[p].is_none() {
                        continue;
                    }
                    new = Some(match new {
                        None => p,
                        Some(x) => intersect(&idom, p, x),
                    });
                }
                if new.is_some() && idom[b] != new {
                    idom[b] = new;
                    changed = true;
                }
            }
        }
        let mut frontier = vec![Vec::new(); n];
        for b in 0..n {
            let Some(ib) = idom[b] else { continue };
            let preds: Vec<usize> = cfg.preds[b].iter().copied().filter(|&p| idom[p].is_some()).collect();
            if preds.len() < 2 {
                continue;
            }
            for p in preds {
                let mut runner = p;
                while runner != ib {
                    if !frontier[runner].contains(&b) {
                        frontier[runner].push(b);
                    }
                    if runner == 0 {
                        break;
                    }
                    runner = idom[runner].unwrap();
                }
            }
        }
        Dominators { idom, frontier }
    }
}
