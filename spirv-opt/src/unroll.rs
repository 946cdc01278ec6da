//! Full unrolling of loops marked `Unroll` (`[unroll]`, `[unroll(N)]`; spirv-opt's `--loop-unroll`,
//! which dxc's recipe runs): a loop whose trip count is a constant becomes that many copies of its
//! body, one after the other, and the passes after it fold what the constant induction values
//! make constant (access chain indices, texel offsets, branches).
//!
//! The loop must have the shape the emitter and mem2reg give a counted loop: a header whose only
//! exit is its own conditional branch to the merge block (no `break`, no `continue`), whose condition compares
//! an induction phi with a constant, the phi starting from a constant and stepped by a constant
//! `OpIAdd`/`OpISub` in the loop, and one back edge from the continue target. Anything else, a
//! trip count above [`MAX_TRIPS`] or copies above [`MAX_INSTRUCTIONS`], leaves the loop as it is
//! (the attribute is a hint). A loop that never runs is left to the other passes too.
//!
//! Iteration 0 keeps the original ids (names and decorations stay valid); each later copy gets
//! fresh ids and a copy of the `OpDecorate`s of the instructions it copies (`RelaxedPrecision`).

use crate::cfg::targets;
use crate::consts::Consts;
use crate::hash::{HashMap, HashSet};
use crate::ids::{id_at, rename_used, IdAlloc};
use rspirv::dr::{Block, Function, Instruction, Module, Operand};
use spirv::{LoopControl, Op, Word};

/// The most iterations a loop is unrolled into.
pub const MAX_TRIPS: u64 = 256;
/// The most instructions the copies of one loop may add up to.
pub const MAX_INSTRUCTIONS: usize = 16 * 1024;

/// Runs over the module; returns whether a loop was unrolled.
pub fn run(m: &mut Module) -> bool {
    let consts = Consts::new(m);
    let mut ids = IdAlloc::new(m);
    let mut decorations = Vec::new();
    let mut removed = HashSet::default();
    let mut changed = false;
    for f in &mut m.functions {
        let mut refused = HashSet::default();
        // Each unrolled loop changes the blocks: look again from the start, skipping the
        // headers already refused. Copies of a nested `[unroll]` loop are found in later rounds.
        while let Some(h) = next_loop(f, &refused) {
            match plan(f, h, &consts) {
                Some(p) => {
                    removed.extend(p.phis.iter().map(|ph| ph.0));
                    unroll(f, &p, &mut ids, &m.annotations, &mut decorations);
                    changed = true;
                }
                None => {
                    refused.insert(f.blocks[h].label.as_ref().and_then(|l| l.result_id).unwrap_or(0));
                }
            }
        }
    }
    // The header phis are gone: their names and decorations go too.
    m.annotations.retain(|a| !id_at(a, 0).is_some_and(|t| removed.contains(&t)));
    m.debug_names.retain(|a| !id_at(a, 0).is_some_and(|t| removed.contains(&t)));
    m.annotations.extend(decorations);
    ids.finish(m);
    changed
}

fn label(b: &Block) -> Word {
    b.label.as_ref().and_then(|l| l.result_id).unwrap_or(0)
}

/// The index of the first block that heads a loop marked `Unroll` and is not in `refused`.
fn next_loop(f: &Function, refused: &HashSet<Word>) -> Option<usize> {
    f.blocks.iter().position(|b| {
        let Some(merge) = b.instructions.iter().rev().nth(1) else { return false };
        merge.class.opcode == Op::LoopMerge
            && matches!(merge.operands.get(2), Some(Operand::LoopControl(c)) if c.contains(LoopControl::UNROLL))
            && !refused.contains(&label(b))
    })
}

/// What unrolling one loop needs to know.
struct Plan {
    /// Index of the header block.
    header: usize,
    merge: Word,
    /// The header's successor inside the loop.
    body: Word,
    /// Indices of the loop's other blocks, in function order.
    blocks: Vec<usize>,
    /// The header's phis: (result, value from before the loop, value from the back edge).
    phis: Vec<(Word, Word, Word)>,
    trips: u64,
}

fn plan(f: &Function, h: usize, consts: &Consts) -> Option<Plan> {
    let hb = &f.blocks[h];
    let hl = label(hb);
    let n = hb.instructions.len();
    let (merge_inst, term) = (&hb.instructions[n - 2], &hb.instructions[n - 1]);
    let (merge, cont) = (id_at(merge_inst, 0)?, id_at(merge_inst, 1)?);
    if term.class.opcode != Op::BranchConditional {
        return None;
    }
    let (cond, t, e) = (id_at(term, 0)?, id_at(term, 1)?, id_at(term, 2)?);
    // The loop goes on while the condition is `stay`.
    let (body, stay) = match (t == merge, e == merge) {
        (false, true) => (t, true),
        (true, false) => (e, false),
        _ => return None,
    };
    let index: HashMap<Word, usize> = f.blocks.iter().enumerate().map(|(i, b)| (label(b), i)).collect();
    // The loop's blocks: reachable from the body without going through the header or the merge.
    let mut inside = HashSet::default();
    let mut work = vec![body];
    while let Some(l) = work.pop() {
        if l == hl || l == merge || !inside.insert(l) {
            continue;
        }
        let b = &f.blocks[*index.get(&l)?];
        let bt = targets(b.instructions.last()?);
        // A `break`: the merge is reached from elsewhere than the header.
        if bt.contains(&merge) {
            return None;
        }
        work.extend(bt);
    }
    // One back edge, from the continue target.
    let latches: Vec<Word> =
        inside.iter().copied().filter(|&l| f.blocks[index[&l]].instructions.last().is_some_and(|t| targets(t).contains(&hl))).collect();
    if latches != [cont] {
        return None;
    }
    // A `continue` (a second way into the continue target) would, once the continue target is an
    // ordinary block, leave its selection construct other than through the merge.
    let into_continue = inside.iter().filter(|&&l| f.blocks[index[&l]].instructions.last().is_some_and(|t| targets(t).contains(&cont))).count();
    if into_continue != 1 {
        return None;
    }
    let mut phis = Vec::new();
    for i in hb.instructions.iter().filter(|i| i.class.opcode == Op::Phi) {
        let (mut from_out, mut from_in) = (None, None);
        for pair in i.operands.chunks(2) {
            let (v, p) = (pair.first()?.id_ref_any()?, pair.get(1)?.id_ref_any()?);
            if p == cont {
                from_in = Some(v);
            } else if !inside.contains(&p) && from_out.replace(v).is_some() {
                return None;
            }
        }
        phis.push((i.result_id?, from_out?, from_in?));
    }
    let trips = trip_count(f, hb, &inside, &index, &phis, cond, stay, consts)?;
    if trips == 0 {
        return None;
    }
    let mut blocks: Vec<usize> = inside.iter().map(|l| index[l]).collect();
    blocks.sort_unstable();
    let size: usize = hb.instructions.len() + blocks.iter().map(|&b| f.blocks[b].instructions.len() + 1).sum::<usize>();
    if size.saturating_mul(trips as usize + 1) > MAX_INSTRUCTIONS {
        return None;
    }
    Some(Plan { header: h, merge, body, blocks, phis, trips })
}

/// How many times the body runs: the condition read as `induction <op> constant` (or the other
/// way round), the induction phi starting from a constant and stepped by a constant.
#[allow(clippy::too_many_arguments)]
fn trip_count(
    f: &Function,
    hb: &Block,
    inside: &HashSet<Word>,
    index: &HashMap<Word, usize>,
    phis: &[(Word, Word, Word)],
    cond: Word,
    stay: bool,
    consts: &Consts,
) -> Option<u64> {
    let c = hb.instructions.iter().find(|i| i.result_id == Some(cond))?;
    let (a, b) = (id_at(c, 0)?, id_at(c, 1)?);
    let &(iv, init, next) = phis.iter().find(|p| p.0 == a || p.0 == b)?;
    let width = match consts.ty(hb.instructions.iter().find(|i| i.result_id == Some(iv))?.result_type?) {
        crate::consts::Ty::Int { width, .. } if width == 32 || width == 64 => width,
        _ => return None,
    };
    let mask = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
    let sext = |v: u64| if width == 64 { v as i64 } else { ((v << 32) as i64) >> 32 };
    let other = consts.scalar(if a == iv { b } else { a })?;
    let mut v = consts.scalar(init)?;
    // The step: `next = iv + k`, `k + iv` or `iv - k`, computed inside the loop.
    let step = inside.iter().flat_map(|l| &f.blocks[index[l]].instructions).find(|i| i.result_id == Some(next))?;
    let (s0, s1) = (id_at(step, 0)?, id_at(step, 1)?);
    let delta = match step.class.opcode {
        Op::IAdd if s0 == iv => consts.scalar(s1)?,
        Op::IAdd if s1 == iv => consts.scalar(s0)?,
        Op::ISub if s0 == iv => consts.scalar(s1)?.wrapping_neg(),
        _ => return None,
    };
    let holds = |v: u64| -> Option<bool> {
        let (x, y) = if a == iv { (v, other) } else { (other, v) };
        let (x, y) = (x & mask, y & mask);
        Some(match c.class.opcode {
            Op::SLessThan => sext(x) < sext(y),
            Op::SLessThanEqual => sext(x) <= sext(y),
            Op::SGreaterThan => sext(x) > sext(y),
            Op::SGreaterThanEqual => sext(x) >= sext(y),
            Op::ULessThan => x < y,
            Op::ULessThanEqual => x <= y,
            Op::UGreaterThan => x > y,
            Op::UGreaterThanEqual => x >= y,
            Op::IEqual => x == y,
            Op::INotEqual => x != y,
            _ => return None,
        })
    };
    let mut trips = 0;
    while holds(v)? == stay {
        trips += 1;
        if trips > MAX_TRIPS {
            return None;
        }
        v = v.wrapping_add(delta) & mask;
    }
    Some(trips)
}

fn unroll(f: &mut Function, p: &Plan, ids: &mut IdAlloc, annotations: &[Instruction], decorations: &mut Vec<Instruction>) {
    let hb = f.blocks[p.header].clone();
    let hl = label(&hb);
    let n = p.trips as usize;
    // Header copy k's label: the original for the first.
    let heads: Vec<Word> = (0..=n).map(|k| if k == 0 { hl } else { ids.fresh() }).collect();
    let header_insts: Vec<&Instruction> = hb.instructions[..hb.instructions.len() - 2].iter().filter(|i| i.class.opcode != Op::Phi).collect();
    let body_blocks: Vec<Block> = p.blocks.iter().map(|&b| f.blocks[b].clone()).collect();
    let mut copied: Vec<Word> = header_insts.iter().filter_map(|i| i.result_id).collect();
    for b in &body_blocks {
        copied.push(label(b));
        copied.extend(b.instructions.iter().filter_map(|i| i.result_id));
    }
    let copied_set: HashSet<Word> = copied.iter().copied().collect();
    let decorated: Vec<&Instruction> = annotations
        .iter()
        .filter(|a| a.class.opcode == Op::Decorate && id_at(a, 0).is_some_and(|t| copied_set.contains(&t)))
        .collect();
    let mut new_blocks = Vec::new();
    let mut prev: HashMap<Word, Word> = HashMap::default();
    for k in 0..=n {
        let mut map: HashMap<Word, Word> = HashMap::default();
        for &(phi, init, next) in &p.phis {
            let v = if k == 0 { init } else { prev.get(&next).copied().unwrap_or(next) };
            map.insert(phi, v);
        }
        if k > 0 {
            for &id in &copied {
                map.insert(id, ids.fresh());
            }
            for d in &decorated {
                let mut d = (*d).clone();
                if let Some(Operand::IdRef(t)) = d.operands.get_mut(0) {
                    *t = map[t];
                }
                decorations.push(d);
            }
        }
        if k < n {
            map.insert(hl, heads[k + 1]);
        }
        let rename = |i: &Instruction| {
            let mut i = i.clone();
            if let Some(r) = i.result_id.as_mut() {
                if let Some(&n) = map.get(r) {
                    *r = n;
                }
            }
            rename_used(&mut i, &|id| map.get(&id).copied());
            i
        };
        let mut head = Block::new();
        head.label = Some(Instruction::new(Op::Label, None, Some(heads[k]), vec![]));
        head.instructions = header_insts.iter().map(|i| rename(i)).collect();
        let to = if k < n { map.get(&p.body).copied().unwrap_or(p.body) } else { p.merge };
        head.instructions.push(Instruction::new(Op::Branch, None, None, vec![Operand::IdRef(to)]));
        new_blocks.push(head);
        if k < n {
            for b in &body_blocks {
                let mut nb = Block::new();
                nb.label = b.label.as_ref().map(&rename);
                nb.instructions = b.instructions.iter().map(&rename).collect();
                new_blocks.push(nb);
            }
        }
        prev = map;
    }
    // After the loop, its values are those of the last header copy.
    let out: HashMap<Word, Word> = p
        .phis
        .iter()
        .map(|ph| ph.0)
        .chain(header_insts.iter().filter_map(|i| i.result_id))
        .filter_map(|id| Some((id, *prev.get(&id)?)))
        .collect();
    let last = heads[n];
    let dropped: HashSet<usize> = p.blocks.iter().copied().chain([p.header]).collect();
    let at = p.header - p.blocks.iter().filter(|&&b| b < p.header).count();
    let mut kept: Vec<Block> =
        std::mem::take(&mut f.blocks).into_iter().enumerate().filter(|(i, _)| !dropped.contains(i)).map(|(_, b)| b).collect();
    for b in &mut kept {
        for i in &mut b.instructions {
            rename_used(i, &|id| out.get(&id).copied());
            if i.class.opcode == Op::Phi {
                for pair in i.operands.chunks_mut(2) {
                    if let Some(Operand::IdRef(parent)) = pair.get_mut(1) {
                        if *parent == hl {
                            *parent = last;
                        }
                    }
                }
            }
        }
    }
    kept.splice(at..at, new_blocks);
    f.blocks = kept;
}
