//! `Private` variables that only an entry-point function uses become variables of that function
//! (SPIRV-Tools' private-to-local, which dxc's recipe runs after inlining), so that
//! [`crate::chains`] and [`crate::mem2reg`] promote them and [`crate::fold`] propagates what they
//! hold: a `static const` global, which the emitter stores once at the start of the entry point,
//! then becomes the constant it was initialized with (a loop bound that `[unroll]` needs
//! constant, a texel offset that must be one).
//!
//! A variable qualifies when every use is in one function that an entry point names and no
//! `OpFunctionCall` calls, and is an `OpLoad`, an `OpStore`, or an access chain into it whose
//! results are used the same way (the chains get `Function` pointer types). An entry point runs
//! its function once per invocation, so a `Private` variable's lifetime is the function's; its
//! initializer moves with it. The variable leaves the entry points' interface lists (SPIR-V 1.4
//! lists `Private` variables there); a `DebugGlobalVariable` naming it names `DebugInfoNone`.

use crate::debuginfo::{self, Sets};
use crate::ids::{id_at, IdAlloc};
use rspirv::dr::{Instruction, Module, Operand};
use spirv::{Op, StorageClass, Word};
use crate::hash::{HashMap, HashSet};

/// Moves every qualifying variable; returns whether anything changed.
pub fn run(m: &mut Module) -> bool {
    let private: HashSet<Word> = m
        .types_global_values
        .iter()
        .filter(|i| i.class.opcode == Op::Variable && matches!(i.operands.first(), Some(Operand::StorageClass(StorageClass::Private))))
        .filter_map(|i| i.result_id)
        .collect();
    if private.is_empty() {
        return false;
    }
    let sets = Sets::new(m);
    // Entry-point functions nothing calls.
    let called: HashSet<Word> = m
        .functions
        .iter()
        .flat_map(|f| f.blocks.iter().flat_map(|b| &b.instructions))
        .filter(|i| i.class.opcode == Op::FunctionCall)
        .filter_map(|i| id_at(i, 0))
        .collect();
    let entries: HashSet<Word> = m.entry_points.iter().filter_map(|e| id_at(e, 1)).filter(|f| !called.contains(f)).collect();

    // Variable -> the function using it (index), or None once it does not qualify.
    let mut user: HashMap<Word, Option<usize>> = HashMap::default();
    for i in &m.types_global_values {
        if sets.is_debug(i) {
            continue;
        }
        for id in i.operands.iter().filter_map(Operand::id_ref_any) {
            if private.contains(&id) {
                user.insert(id, None);
            }
        }
    }
    // Access chains into a candidate: chain -> its variable.
    let mut root: HashMap<Word, Word> = HashMap::default();
    for (fi, f) in m.functions.iter().enumerate() {
        let entry = f.def.as_ref().and_then(|d| d.result_id).is_some_and(|id| entries.contains(&id));
        for i in f.blocks.iter().flat_map(|b| &b.instructions) {
            if sets.is_debug(i) {
                continue;
            }
            let chain = matches!(i.class.opcode, Op::AccessChain | Op::InBoundsAccessChain);
            for (k, op) in i.operands.iter().enumerate() {
                let Some(id) = op.id_ref_any() else { continue };
                let Some(v) = (if private.contains(&id) { Some(id) } else { root.get(&id).copied() }) else { continue };
                let pointer_use = k == 0 && (matches!(i.class.opcode, Op::Load | Op::Store) || chain);
                let ok = entry && pointer_use && user.get(&v).is_none_or(|u| *u == Some(fi));
                user.insert(v, ok.then_some(fi));
                if chain && k == 0 {
                    root.insert(i.result_id.unwrap(), v);
                }
            }
        }
    }
    let moving: HashMap<Word, usize> = user.into_iter().filter_map(|(v, u)| Some((v, u?))).collect();
    if moving.is_empty() {
        return false;
    }

    // Function pointer types, found or made.
    let mut ids = IdAlloc::new(m);
    let mut pointers: HashMap<Word, Word> = HashMap::default();
    let mut pointee: HashMap<Word, Word> = HashMap::default();
    for i in &m.types_global_values {
        if i.class.opcode == Op::TypePointer {
            if let (Some(r), Some(t)) = (i.result_id, id_at(i, 1)) {
                pointee.insert(r, t);
                if matches!(i.operands.first(), Some(Operand::StorageClass(StorageClass::Function))) {
                    pointers.insert(t, r);
                }
            }
        }
    }
    let mut new_types = Vec::new();
    let mut function_pointer = |private_pointer: Word| {
        let t = pointee[&private_pointer];
        *pointers.entry(t).or_insert_with(|| {
            let id = ids.fresh();
            new_types.push(Instruction::new(
                Op::TypePointer,
                None,
                Some(id),
                vec![Operand::StorageClass(StorageClass::Function), Operand::IdRef(t)],
            ));
            id
        })
    };

    let mut variables: Vec<(usize, Instruction)> = Vec::new();
    for i in &m.types_global_values {
        let Some(&fi) = i.result_id.and_then(|r| moving.get(&r)) else { continue };
        let mut v = i.clone();
        v.result_type = v.result_type.map(&mut function_pointer);
        v.operands[0] = Operand::StorageClass(StorageClass::Function);
        variables.push((fi, v));
    }
    for f in &mut m.functions {
        for i in f.blocks.iter_mut().flat_map(|b| b.instructions.iter_mut()) {
            if i.result_id.and_then(|r| root.get(&r)).is_some_and(|v| moving.contains_key(v)) {
                i.result_type = i.result_type.map(&mut function_pointer);
            }
        }
    }
    m.types_global_values.retain(|i| !i.result_id.is_some_and(|r| moving.contains_key(&r)));
    // The new pointer types at the end of the globals (only the moved variables use them).
    m.types_global_values.extend(new_types);
    for (fi, v) in variables {
        m.functions[fi].blocks[0].instructions.insert(0, v);
    }
    for ep in &mut m.entry_points {
        let mut k = 0;
        ep.operands.retain(|op| {
            k += 1;
            k <= 3 || !op.id_ref_any().is_some_and(|id| moving.contains_key(&id))
        });
    }
    ids.finish(m);
    // A module-level debug instruction naming a moved variable names DebugInfoNone.
    let named = m
        .types_global_values
        .iter()
        .any(|i| sets.is_debug(i) && i.operands.iter().filter_map(Operand::id_ref_any).any(|id| moving.contains_key(&id)));
    if named {
        let none = debuginfo::none_id(m, &sets);
        for i in m.types_global_values.iter_mut().filter(|i| sets.is_debug(i)) {
            for o in i.operands.iter_mut() {
                if o.id_ref_any().is_some_and(|id| moving.contains_key(&id)) {
                    *o = Operand::IdRef(none);
                }
            }
        }
    }
    true
}
