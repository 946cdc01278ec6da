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

/// The module's id bound: the header's, or one above the largest result id when there is no
/// header (hand-made test modules).
pub fn bound(m: &Module) -> Word {
    match m.header.as_ref() {
        Some(h) => h.bound,
        None => m.all_inst_iter().filter_map(|i| i.result_id).map(|r| r + 1).max().unwrap_or(1),
    }
}

/// A set of ids as one bit per id below the module's bound (grows for ids above it): the
/// passes' sets of live or seen ids, without hashing.
#[derive(Clone, Debug, Default)]
pub struct IdSet {
    bits: Vec<u64>,
}

impl IdSet {
    pub fn with_bound(bound: Word) -> IdSet {
        IdSet { bits: vec![0; (bound as usize).div_ceil(64)] }
    }

    /// Adds `id`; returns whether it was not there.
    #[inline]
    pub fn insert(&mut self, id: Word) -> bool {
        let (w, b) = (id as usize / 64, id % 64);
        if w >= self.bits.len() {
            self.bits.resize(w + 1, 0);
        }
        let was = self.bits[w] >> b & 1 != 0;
        self.bits[w] |= 1 << b;
        !was
    }

    #[inline]
    pub fn contains(&self, id: Word) -> bool {
        self.bits.get(id as usize / 64).is_some_and(|w| w >> (id % 64) & 1 != 0)
    }
}

/// A map from ids to ids as a table indexed by id (0, never an id, for none): the passes'
/// replacement maps, read for every operand of every instruction, without hashing.
#[derive(Clone, Debug, Default)]
pub struct IdMap {
    to: Vec<Word>,
    len: usize,
}

impl IdMap {
    pub fn with_bound(bound: Word) -> IdMap {
        IdMap { to: vec![0; bound as usize], len: 0 }
    }

    #[inline]
    pub fn insert(&mut self, from: Word, to: Word) {
        let k = from as usize;
        if k >= self.to.len() {
            self.to.resize(k + 1, 0);
        }
        if self.to[k] == 0 {
            self.len += 1;
        }
        self.to[k] = to;
    }

    #[inline]
    pub fn get(&self, from: Word) -> Option<Word> {
        self.to.get(from as usize).copied().filter(|&t| t != 0)
    }

    #[inline]
    pub fn contains(&self, from: Word) -> bool {
        self.get(from).is_some()
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Where `id` ends up after following the replacements (chains included); `None` if it is
    /// not replaced.
    #[inline]
    pub fn chase(&self, id: Word) -> Option<Word> {
        let mut to = self.get(id)?;
        while let Some(n) = self.get(to) {
            to = n;
        }
        Some(to)
    }
}
