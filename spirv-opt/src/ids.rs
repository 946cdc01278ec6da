//! Small helpers over ids: which ids an instruction reads, renaming, fresh ids.

use rspirv::dr::{Instruction, Module, Operand};
use crate::hash::HashMap;
use spirv::Word;

/// Calls `f` for every id `inst` reads: its result type and every id operand.
pub fn for_each_used(inst: &Instruction, mut f: impl FnMut(Word)) {
    if let Some(t) = inst.result_type {
        f(t);
    }
    for op in &inst.operands {
        if let Some(id) = op.id_ref_any() {
            f(id);
        }
    }
}

/// Rewrites every id `inst` reads (result type and id operands, not its result id) through `map`.
pub fn rename_used(inst: &mut Instruction, map: &impl Fn(Word) -> Option<Word>) {
    if let Some(t) = inst.result_type.as_mut() {
        if let Some(n) = map(*t) {
            *t = n;
        }
    }
    for op in &mut inst.operands {
        if let Some(id) = op.id_ref_any_mut() {
            if let Some(n) = map(*id) {
                *id = n;
            }
        }
    }
}

/// Where `id` ends up after following `map`'s replacements (chains included); `None` if it
/// is not replaced.
pub fn chase(map: &HashMap<Word, Word>, id: Word) -> Option<Word> {
    let mut id = id;
    let mut moved = false;
    while let Some(&n) = map.get(&id) {
        id = n;
        moved = true;
    }
    moved.then_some(id)
}

/// The id operand at `i`, if it is one.
pub fn id_at(inst: &Instruction, i: usize) -> Option<Word> {
    inst.operands.get(i).and_then(Operand::id_ref_any)
}

/// Hands out fresh ids above the module's bound, and writes the new bound back.
pub struct IdAlloc {
    next: Word,
}

impl IdAlloc {
    /// Starts above every id the module uses (the header's bound, or the largest id seen).
    ///
    /// Every pass that makes ids writes the bound back ([`IdAlloc::finish`]), so with a header
    /// the bound is trusted: scanning the module for its largest id, four times per run, was 4%
    /// of a whole `hlslc -spirv` process. Debug builds (the tests) still check it.
    pub fn new(m: &Module) -> Self {
        let max_seen = || m.all_inst_iter().filter_map(|i| i.result_id).map(|r| r + 1).max().unwrap_or(1);
        match m.header.as_ref() {
            Some(h) => {
                debug_assert!(max_seen() <= h.bound, "an id at or above the header's bound {}", h.bound);
                IdAlloc { next: h.bound.max(1) }
            }
            None => IdAlloc { next: max_seen() },
        }
    }

    pub fn fresh(&mut self) -> Word {
        let id = self.next;
        self.next += 1;
        id
    }

    /// Records the bound in the module header.
    pub fn finish(self, m: &mut Module) {
        if let Some(h) = m.header.as_mut() {
            h.bound = h.bound.max(self.next);
        }
    }
}
