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
    pub preds: Adjacency,
    pub succs: Adjacency,
    /// Reachable from the entry block.
    pub reachable: Vec<bool>,
}

/// Each block's neighbours (`adj[b]` is a slice), all in one vector: the CFG is built for every
/// function by several passes, and a vector per block and direction was most of its cost.
pub struct Adjacency {
    /// `start[b]..start[b + 1]` is block `b`'s range of `all`.
    start: Vec<usize>,
    all: Vec<usize>,
}

impl std::ops::Index<usize> for Adjacency {
    type Output = [usize];
    fn index(&self, b: usize) -> &[usize] {
        &self.all[self.start[b]..self.start[b + 1]]
    }
}

/// Calls `f` with each block a terminator branches to, in operand order.
fn for_each_target(term: &rspirv::dr::Instruction, mut f: impl FnMut(Word)) {
    let (skip, take) = match term.class.opcode {
        Op::Branch => (0, 1),
        Op::BranchConditional => (1, 2),
        // Selector, default, then (literal, label) pairs.
        Op::Switch => (1, usize::MAX),
        _ => return,
    };
    term.operands.iter().skip(skip).take(take).filter_map(Operand::id_ref_any).for_each(&mut f);
}

/// The blocks a terminator branches to.
pub fn targets(term: &rspirv::dr::Instruction) -> Vec<Word> {
    let mut out = Vec::new();
    for_each_target(term, |t| out.push(t));
    out
}

impl Cfg {
    pub fn new(f: &Function) -> Cfg {
        let labels: Vec<Word> = f.blocks.iter().map(|b| b.label.as_ref().and_then(|l| l.result_id).unwrap_or(0)).collect();
        let n = labels.len();
        let mut index: HashMap<Word, usize> = HashMap::default();
        index.reserve(n);
        index.extend(labels.iter().enumerate().map(|(i, &l)| (l, i)));
        // Successors block by block (a target named twice counts once), then predecessors by a
        // counting sort of the same edges, which keeps them in block order.
        let mut succ_start = Vec::with_capacity(n + 1);
        let mut succ_all: Vec<usize> = Vec::with_capacity(n * 2);
        let mut pred_count = vec![0usize; n + 1];
        for b in &f.blocks {
            let first = succ_all.len();
            succ_start.push(first);
            let Some(term) = b.instructions.last() else { continue };
            for_each_target(term, |t| {
                if let Some(&j) = index.get(&t) {
                    if !succ_all[first..].contains(&j) {
                        succ_all.push(j);
                        pred_count[j] += 1;
                    }
                }
            });
        }
        succ_start.push(succ_all.len());
        let mut pred_start = Vec::with_capacity(n + 1);
        let mut sum = 0;
        for c in &pred_count[..n] {
            pred_start.push(sum);
            sum += c;
        }
        pred_start.push(sum);
        let mut fill = pred_start.clone();
        let mut pred_all = vec![0usize; sum];
        for i in 0..n {
            for &j in &succ_all[succ_start[i]..succ_start[i + 1]] {
                pred_all[fill[j]] = i;
                fill[j] += 1;
            }
        }
        let succs = Adjacency { start: succ_start, all: succ_all };
        let preds = Adjacency { start: pred_start, all: pred_all };
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
