//! The order of the module-scope debug instructions (`NonSemantic.Shader.DebugInfo.100`,
//! `OpenCL.DebugInfo.100`) and of the `OpString`s they name, as dxc writes them.
//!
//! dxc creates its debug instructions as it meets declarations, then sorts them before writing:
//! the roots (instructions no other one names) are taken last-created first, and each is written
//! after the instructions it names, depth first, in a fixed order per instruction: its type, its
//! parent scope, then the others (a `DebugSource`, a `DebugInfoNone`, a vector's component type,
//! a function type's return and parameter types, ...). A `DebugTypeMember` names its composite
//! in `OpenCL.DebugInfo.100` and is named by it in the non-semantic set (which has no forward
//! references), so only the second follows composite to member. Its `OpString`s come in the order
//! of their first use by the sorted instructions (after the strings other instructions name,
//! which keep their place: the main file's name first). dxc makes a `DebugGlobalVariable` when
//! it declares the global, before the functions: those are taken as the first-made roots.
//!
//! Any order where each instruction follows those it names is valid; this one is dxc's, so that
//! tools and tests that read the text see the same sequence.

use rspirv::dr::{Instruction, Operand};
use spirv::{Op, Word};
use std::collections::{HashMap, HashSet};

/// Instruction numbers, the same in both sets.
use crate::lower::debuginfo::op;

/// The extended-instruction number of a debug `OpExtInst` (`None` for anything else).
fn ext_number(i: &Instruction) -> Option<u32> {
    match (i.class.opcode, i.operands.get(1)) {
        (Op::ExtInst, Some(Operand::LiteralExtInstInteger(n))) => Some(*n),
        _ => None,
    }
}

/// The id operand at `k` of the instruction's own operands (after the set and the number).
fn arg(i: &Instruction, k: usize) -> Option<Word> {
    i.operands.get(k + 2).and_then(|o| o.id_ref_any())
}

/// The debug instructions `i` names, in the order dxc visits them (see the module comment);
/// `is_debug` says which ids are debug instructions of the list.
fn successors(i: &Instruction, opencl: bool, is_debug: &dyn Fn(Word) -> bool) -> Vec<Word> {
    let n = ext_number(i).unwrap_or(u32::MAX);
    let count = i.operands.len().saturating_sub(2);
    // The operands dxc visits first, in its order; then any other debug operand in operand
    // order (a `DebugInfoNone` standing for a size or a function), except a composite's members
    // in `OpenCL.DebugInfo.100`.
    let first: Vec<usize> = match n {
        op::COMPILATION_UNIT => vec![2],
        op::TYPE_ARRAY | op::TYPE_VECTOR | op::TYPE_MATRIX => vec![0],
        op::TYPE_FUNCTION => (1..count).collect(),
        op::TYPE_COMPOSITE => vec![5, 2],
        op::TYPE_MEMBER if opencl => vec![1, 5, 2],
        op::TYPE_MEMBER => vec![1, 2],
        op::GLOBAL_VARIABLE | op::FUNCTION_DECLARATION | op::FUNCTION | op::LOCAL_VARIABLE => vec![1, 5, 2],
        op::LEXICAL_BLOCK => vec![3, 0],
        op::TYPE_TEMPLATE_PARAMETER => vec![1, 2, 3],
        _ => Vec::new(),
    };
    let skip_from = if n == op::TYPE_COMPOSITE && opencl { 9 } else { usize::MAX };
    let mut out: Vec<Word> = Vec::new();
    let rest = (0..count.min(skip_from)).filter(|k| !first.contains(k));
    for k in first.iter().copied().chain(rest) {
        if let Some(id) = arg(i, k) {
            if is_debug(id) && !out.contains(&id) {
                out.push(id);
            }
        }
    }
    out
}

/// Sorts `insts` (the module-scope debug instructions in creation order) as dxc does. A
/// `DebugSourceContinued` stays right after the instruction it continues.
pub(crate) fn sort(insts: Vec<Instruction>, opencl: bool) -> Vec<Instruction> {
    // Units: an instruction with the `DebugSourceContinued`s after it.
    let mut units: Vec<Vec<Instruction>> = Vec::new();
    for i in insts {
        match (ext_number(&i), units.last_mut()) {
            (Some(op::SOURCE_CONTINUED), Some(last)) => last.push(i),
            _ => units.push(vec![i]),
        }
    }
    let index: HashMap<Word, usize> = units.iter().enumerate().filter_map(|(k, u)| Some((u[0].result_id?, k))).collect();
    let is_debug = |id: Word| index.contains_key(&id);
    let succ: Vec<Vec<usize>> =
        units.iter().map(|u| successors(&u[0], opencl, &is_debug).into_iter().map(|id| index[&id]).collect()).collect();
    let named: HashSet<usize> = succ.iter().flatten().copied().collect();
    // dxc makes the `DebugGlobalVariable`s as it declares the globals, before any function:
    // they are its oldest roots (taken last), whenever we made them.
    let is_global = |k: &usize| ext_number(&units[*k][0]) == Some(op::GLOBAL_VARIABLE);
    let roots = (0..units.len()).filter(|k| !named.contains(k));
    let mut stack: Vec<usize> = roots.clone().filter(is_global).chain(roots.filter(|k| !is_global(k))).collect();
    let mut done = vec![false; units.len()];
    let mut order = Vec::with_capacity(units.len());
    // Depth first, post order; a root also named by an instruction taken earlier is written there.
    while let Some(&top) = stack.last() {
        if done[top] {
            stack.pop();
            continue;
        }
        match succ[top].iter().find(|&&s| !done[s] && !stack.contains(&s)) {
            Some(&s) => stack.push(s),
            None => {
                done[top] = true;
                order.push(top);
                stack.pop();
            }
        }
    }
    // What a cycle left (none is expected): in creation order, after the rest.
    order.extend((0..units.len()).filter(|&k| !done[k]));
    let mut slots: Vec<Option<Vec<Instruction>>> = units.into_iter().map(Some).collect();
    order.into_iter().flat_map(|k| slots[k].take().unwrap_or_default()).collect()
}

/// Puts the `OpString`s of `debug` (the debug section) in dxc's order: the first made (the
/// main file's name) first, then those that `other`
/// instructions name (`OpSource`, `OpLine`, ...) keep their order first, then those the sorted
/// debug instructions `sorted` name, by first use; the others last. Only the strings move.
pub(crate) fn order_strings(debug: &mut [Instruction], sorted: &[Instruction], other: &[&Instruction]) {
    let slots: Vec<usize> = (0..debug.len()).filter(|&k| debug[k].class.opcode == Op::String).collect();
    let mut rank: HashMap<Word, usize> = HashMap::new();
    let mut next = 0usize;
    let mut note = |id: Word, rank: &mut HashMap<Word, usize>| {
        rank.entry(id).or_insert_with(|| {
            next += 1;
            next
        });
    };
    let ids: HashSet<Word> = slots.iter().filter_map(|&k| debug[k].result_id).collect();
    // The main file's name, made first, stays first (dxc's `[[file]] = OpString` leads).
    if let Some(first) = slots.first().and_then(|&k| debug[k].result_id) {
        note(first, &mut rank);
    }
    for i in other.iter().copied().chain(debug.iter().filter(|i| i.class.opcode != Op::String)).chain(sorted) {
        for o in &i.operands {
            if let Some(id) = o.id_ref_any() {
                if ids.contains(&id) {
                    note(id, &mut rank);
                }
            }
        }
    }
    let mut strings: Vec<Instruction> = slots.iter().map(|&k| debug[k].clone()).collect();
    // Stable: unranked strings keep their relative order, last.
    strings.sort_by_key(|s| s.result_id.and_then(|id| rank.get(&id).copied()).unwrap_or(usize::MAX));
    for (slot, s) in slots.into_iter().zip(strings) {
        debug[slot] = s;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ext(id: Word, n: u32, args: &[Word]) -> Instruction {
        let mut ops = vec![Operand::IdRef(1), Operand::LiteralExtInstInteger(n)];
        ops.extend(args.iter().map(|&a| Operand::IdRef(a)));
        Instruction::new(Op::ExtInst, Some(2), Some(id), ops)
    }

    fn ids(v: &[Instruction]) -> Vec<Word> {
        v.iter().map(|i| i.result_id.unwrap()).collect()
    }

    /// dxc's order for `float4 main() { float4 c = 0; if (...) { int a; } }` (its test
    /// rich.debug.local-variable): the last local first, each after its type and scopes.
    #[test]
    fn roots_last_created_first_each_after_what_it_names() {
        // 10 source, 11 unit, 20 float, 21 float4, 22 int, 30 fn type, 31 function,
        // 40 function block, 41 if block, 50 local c (float4), 51 local a (int).
        let s = 99; // a string: not a debug instruction
        let insts = vec![
            ext(10, op::SOURCE, &[s]),
            ext(11, op::COMPILATION_UNIT, &[s, s, 10, s]),
            ext(20, op::TYPE_BASIC, &[s, s, s]),
            ext(21, op::TYPE_VECTOR, &[20, s]),
            ext(30, op::TYPE_FUNCTION, &[s, 21]),
            ext(31, op::FUNCTION, &[s, 30, 10, s, s, 11, s, s, s]),
            ext(40, op::LEXICAL_BLOCK, &[10, s, s, 31]),
            ext(41, op::LEXICAL_BLOCK, &[10, s, s, 40]),
            ext(50, op::LOCAL_VARIABLE, &[s, 21, 10, s, s, 40, s]),
            ext(22, op::TYPE_BASIC, &[s, s, s]),
            ext(51, op::LOCAL_VARIABLE, &[s, 22, 10, s, s, 41, s]),
        ];
        // a (51) first: int, then its scope chain down to the function, whose type comes
        // before its parent (the unit, after the source); then c.
        assert_eq!(ids(&sort(insts, true)), vec![22, 20, 21, 30, 10, 11, 31, 40, 41, 51, 50]);
    }

    #[test]
    fn source_continued_stays_after_its_source() {
        let insts = vec![
            ext(10, op::SOURCE, &[]),
            ext(12, op::SOURCE_CONTINUED, &[]),
            ext(20, op::TYPE_BASIC, &[]),
            ext(11, op::COMPILATION_UNIT, &[7, 7, 10, 7]),
        ];
        assert_eq!(ids(&sort(insts, false)), vec![10, 12, 11, 20], "the last root first");
    }

    #[test]
    fn strings_follow_first_use() {
        let string = |id: Word| Instruction::new(Op::String, None, Some(id), vec![Operand::from("s")]);
        let mut debug = vec![string(1), string(2), string(3), string(4), string(5)];
        let line = Instruction::new(Op::Line, None, None, vec![Operand::IdRef(4)]);
        let sorted = vec![ext(10, op::TYPE_BASIC, &[3]), ext(11, op::TYPE_BASIC, &[2, 1])];
        order_strings(&mut debug, &sorted, &[&line]);
        assert_eq!(ids(&debug), vec![1, 4, 3, 2, 5]);
    }
}
