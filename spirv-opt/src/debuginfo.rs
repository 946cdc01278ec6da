//! Debug information in `NonSemantic.Shader.DebugInfo.100` (`-fspv-debug=vulkan`) and
//! `OpenCL.DebugInfo.100` (`-fspv-debug=rich`) kept through the passes, as spirv-opt keeps it:
//!
//! - the passes do not count a debug instruction's use of an id as a use: a `DebugDeclare`
//!   does not keep [`crate::mem2reg`] from promoting its variable (which turns it into a
//!   `DebugValue` after each store and each `OpPhi`), a `DebugValue` keeps no value alive in
//!   [`crate::dce`], and a `DebugGlobalVariable` or a `DebugFunction` keeps no variable or
//!   function in [`crate::unused`];
//! - [`crate::inline`] drops the callee's `DebugFunctionDefinition` from the copy, gives the
//!   copied `DebugScope`s a `DebugInlinedAt` naming the line and scope of the call, and restores
//!   the caller's scope and line after it;
//! - [`finish`], after the passes: a `DebugValue` or `DebugDeclare` naming a removed id goes; a
//!   module-level debug instruction naming a removed variable or function names `DebugInfoNone`
//!   instead; the scopes, local variables and inlining records no remaining code names go (a
//!   removed function's `DebugFunction` with them), and the `OpString`s only they named.
//!
//! [`strip`] removes the sets altogether.

use crate::hash::{HashMap, HashSet};
use rspirv::dr::{Instruction, Module, Operand};
use spirv::{Op, Word};

/// The instruction numbers of the two sets this module knows (both sets number them alike).
pub mod ops {
    pub const INFO_NONE: u32 = 0;
    pub const GLOBAL_VARIABLE: u32 = 18;
    pub const FUNCTION_DECLARATION: u32 = 19;
    pub const FUNCTION: u32 = 20;
    pub const LEXICAL_BLOCK: u32 = 21;
    pub const LEXICAL_BLOCK_DISCRIMINATOR: u32 = 22;
    pub const SCOPE: u32 = 23;
    pub const NO_SCOPE: u32 = 24;
    pub const INLINED_AT: u32 = 25;
    pub const LOCAL_VARIABLE: u32 = 26;
    pub const INLINED_VARIABLE: u32 = 27;
    pub const DECLARE: u32 = 28;
    pub const VALUE: u32 = 29;
    pub const OPERATION: u32 = 30;
    pub const EXPRESSION: u32 = 31;
    pub const FUNCTION_DEFINITION: u32 = 101;
    pub const LINE: u32 = 103;
    pub const NO_LINE: u32 = 104;
}

/// Whether `name` is the import name of a debug info set.
fn is_debug_set(name: &str) -> bool {
    name.starts_with("NonSemantic.Shader.DebugInfo") || name == "OpenCL.DebugInfo.100"
}

/// The debug info sets a module imports.
#[derive(Clone, Debug, Default)]
pub struct Sets {
    ids: HashSet<Word>,
    /// `NonSemantic.Shader.DebugInfo.100`'s import (its `DebugInlinedAt` takes a line id, and it
    /// has `DebugLine` and `DebugFunctionDefinition`).
    pub shader: Option<Word>,
}

impl Sets {
    pub fn new(m: &Module) -> Sets {
        let mut s = Sets::default();
        for i in &m.ext_inst_imports {
            if let (Some(Operand::LiteralString(name)), Some(r)) = (i.operands.first(), i.result_id) {
                if is_debug_set(name) {
                    s.ids.insert(r);
                    if name.starts_with("NonSemantic.Shader.DebugInfo") {
                        s.shader = Some(r);
                    }
                }
            }
        }
        s
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The instruction number of `i` when it is an instruction of a debug set.
    pub fn op(&self, i: &Instruction) -> Option<u32> {
        if self.ids.is_empty() || i.class.opcode != Op::ExtInst {
            return None;
        }
        match (i.operands.first(), i.operands.get(1)) {
            (Some(Operand::IdRef(s)), Some(Operand::LiteralExtInstInteger(n) | Operand::LiteralBit32(n))) if self.ids.contains(s) => Some(*n),
            _ => None,
        }
    }

    pub fn is_debug(&self, i: &Instruction) -> bool {
        self.op(i).is_some()
    }
}

/// The id operand `k` of a debug instruction, counted after the set and the instruction number.
pub fn arg(i: &Instruction, k: usize) -> Option<Word> {
    i.operands.get(k + 2).and_then(Operand::id_ref_any)
}

/// A new instruction of `set` with id operands.
pub fn inst(void: Word, set: Word, result: Word, op: u32, args: &[Word]) -> Instruction {
    let mut ops = vec![Operand::IdRef(set), Operand::LiteralExtInstInteger(op)];
    ops.extend(args.iter().map(|&a| Operand::IdRef(a)));
    Instruction::new(Op::ExtInst, Some(void), Some(result), ops)
}

/// Removes the debug info sets' instructions; returns whether there were any. What is left is
/// what `-Zi` alone writes (`OpSource`, `OpLine`).
pub fn strip(m: &mut Module) -> bool {
    let sets = Sets::new(m);
    if sets.is_empty() {
        return false;
    }
    m.types_global_values.retain(|i| !sets.is_debug(i));
    for f in &mut m.functions {
        for b in &mut f.blocks {
            b.instructions.retain(|i| !sets.is_debug(i));
        }
    }
    m.ext_inst_imports.retain(|i| !i.result_id.is_some_and(|r| sets.ids.contains(&r)));
    let other_non_semantic = m
        .ext_inst_imports
        .iter()
        .any(|i| matches!(i.operands.first(), Some(Operand::LiteralString(s)) if s.starts_with("NonSemantic.")));
    if !other_non_semantic {
        m.extensions
            .retain(|i| !matches!(i.operands.first(), Some(Operand::LiteralString(s)) if s == "SPV_KHR_non_semantic_info"));
    }
    unused_strings(m);
    true
}

/// Removes the `OpString`s nothing names any more (`OpSource`, `OpLine`, decorations and the
/// debug instructions name theirs).
fn unused_strings(m: &mut Module) {
    let mut used = HashSet::default();
    for i in m.all_inst_iter() {
        if i.class.opcode == Op::String {
            continue;
        }
        for o in &i.operands {
            if let Operand::IdRef(id) = o {
                used.insert(*id);
            }
        }
    }
    m.debug_string_source.retain(|i| i.class.opcode != Op::String || i.result_id.is_some_and(|r| used.contains(&r)));
}

/// Module-level debug instructions that are kept only while something names them: the scopes,
/// local variables and inlining records of code that may go away.
fn kept_when_named(op: u32) -> bool {
    use ops::*;
    matches!(
        op,
        INFO_NONE
            | FUNCTION
            | FUNCTION_DECLARATION
            | LEXICAL_BLOCK
            | LEXICAL_BLOCK_DISCRIMINATOR
            | LOCAL_VARIABLE
            | INLINED_AT
            | INLINED_VARIABLE
            | EXPRESSION
            | OPERATION
    )
}

/// Makes the debug information consistent with what the passes left; returns whether anything
/// changed. See the module documentation.
pub fn finish(m: &mut Module) -> bool {
    let sets = Sets::new(m);
    if sets.is_empty() {
        return false;
    }
    let mut changed = false;
    let mut defined: HashSet<Word> = HashSet::default();
    for i in m.all_inst_iter() {
        defined.extend(i.result_id);
    }
    for f in &m.functions {
        for p in &f.parameters {
            defined.extend(p.result_id);
        }
        for b in &f.blocks {
            defined.extend(b.label.as_ref().and_then(|l| l.result_id));
        }
    }
    // In functions: what names a removed id goes.
    for f in &mut m.functions {
        for b in &mut f.blocks {
            let before = b.instructions.len();
            b.instructions.retain(|i| {
                !sets.is_debug(i) || i.operands.iter().skip(2).filter_map(Operand::id_ref_any).all(|id| defined.contains(&id))
            });
            changed |= b.instructions.len() != before;
        }
    }
    // At module level: a removed variable or function becomes DebugInfoNone.
    let dangling = m
        .types_global_values
        .iter()
        .any(|i| sets.is_debug(i) && i.operands.iter().skip(2).filter_map(Operand::id_ref_any).any(|id| !defined.contains(&id)));
    if dangling {
        let none = none_id(m, &sets);
        for i in m.types_global_values.iter_mut() {
            if sets.op(i).is_some() {
                for o in i.operands.iter_mut().skip(2) {
                    if let Operand::IdRef(id) = o {
                        if !defined.contains(id) && *id != none {
                            *o = Operand::IdRef(none);
                        }
                    }
                }
            }
        }
        changed = true;
    }
    // Scopes, local variables and inlining records nothing names any more.
    let mut named: HashSet<Word> = HashSet::default();
    let mut by_id: HashMap<Word, usize> = HashMap::default();
    let mut work: Vec<Word> = Vec::new();
    for (k, i) in m.types_global_values.iter().enumerate() {
        if let Some(r) = i.result_id {
            by_id.insert(r, k);
        }
        let root = match sets.op(i) {
            Some(op) => !kept_when_named(op),
            None => true,
        };
        if root {
            work.extend(i.operands.iter().filter_map(Operand::id_ref_any));
        }
    }
    for i in m.functions.iter().flat_map(|f| f.blocks.iter().flat_map(|b| &b.instructions)) {
        if sets.is_debug(i) {
            work.extend(i.operands.iter().filter_map(Operand::id_ref_any));
        }
    }
    while let Some(id) = work.pop() {
        if !named.insert(id) {
            continue;
        }
        if let Some(&k) = by_id.get(&id) {
            let i = &m.types_global_values[k];
            if sets.op(i).is_some_and(kept_when_named) {
                work.extend(i.operands.iter().filter_map(Operand::id_ref_any));
            }
        }
    }
    let before = m.types_global_values.len();
    m.types_global_values
        .retain(|i| !sets.op(i).is_some_and(kept_when_named) || i.result_id.is_some_and(|r| named.contains(&r)));
    if m.types_global_values.len() != before {
        unused_strings(m);
        changed = true;
    }
    changed
}

/// The id of a `DebugInfoNone` of the module's debug set, first among the debug instructions
/// (one the emitter placed later, where nothing named it yet, moves there).
pub(crate) fn none_id(m: &mut Module, sets: &Sets) -> Word {
    let at = m.types_global_values.iter().position(|i| sets.is_debug(i)).unwrap_or(m.types_global_values.len());
    if let Some(k) = m.types_global_values.iter().position(|i| sets.op(i) == Some(ops::INFO_NONE)) {
        let none = m.types_global_values.remove(k);
        let id = none.result_id.unwrap();
        m.types_global_values.insert(at.min(k), none);
        return id;
    }
    let first = &m.types_global_values[at.min(m.types_global_values.len() - 1)];
    let (void, set) = (first.result_type.unwrap_or(0), first.operands.first().and_then(Operand::id_ref_any).unwrap_or(0));
    let h = m.header.as_mut().expect("a module header");
    let id = h.bound;
    h.bound += 1;
    m.types_global_values.insert(at, inst(void, set, id, ops::INFO_NONE, &[]));
    id
}
