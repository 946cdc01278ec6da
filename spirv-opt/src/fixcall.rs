//! `-fspv-fix-func-call-arguments` (spirv-opt's `fix-for-funcall-param`): a function call may only
//! take pointers to whole memory objects (variables and parameters) in logical addressing, so an
//! argument that is an access chain (`foo(buf[0].x, s.y)`, which the emitter passes as it is
//! under this option) goes through a new function-scope variable instead: its value is loaded
//! into the variable just before the call and stored back just after it.
//!
//! The shape is dxc's: the new variables are placed at the very start of the function, the one
//! made last first; the copies in go in argument order right before the call, the copies back in
//! the reverse order right after it.

use crate::hash::HashMap;
use crate::ids::{id_at, IdAlloc};
use rspirv::dr::{Instruction, Module, Operand};
use spirv::{Op, StorageClass, Word};

/// Runs over the module; returns whether a call changed.
pub fn run(m: &mut Module) -> bool {
    // A module with one function has no call to fix.
    if m.functions.len() < 2 {
        return false;
    }
    // Pointer types: id -> pointee; and the function-scope pointer type of each pointee.
    let mut pointee: HashMap<Word, Word> = HashMap::default();
    let mut function_ptr: HashMap<Word, Word> = HashMap::default();
    for i in &m.types_global_values {
        if i.class.opcode != Op::TypePointer {
            continue;
        }
        let (Some(id), Some(&Operand::StorageClass(sc)), Some(to)) = (i.result_id, i.operands.first(), id_at(i, 1)) else { continue };
        pointee.insert(id, to);
        if sc == StorageClass::Function {
            function_ptr.entry(to).or_insert(id);
        }
    }
    let mut ids = IdAlloc::new(m);
    let mut new_types = Vec::new();
    let mut changed = false;
    for f in &mut m.functions {
        let chains: HashMap<Word, Word> = f
            .blocks
            .iter()
            .flat_map(|b| &b.instructions)
            .filter(|i| matches!(i.class.opcode, Op::AccessChain | Op::InBoundsAccessChain))
            .filter_map(|i| Some((i.result_id?, i.result_type?)))
            .collect();
        if chains.is_empty() {
            continue;
        }
        let mut vars = Vec::new();
        for b in &mut f.blocks {
            if !b.instructions.iter().any(|i| i.class.opcode == Op::FunctionCall) {
                continue;
            }
            for mut inst in std::mem::take(&mut b.instructions) {
                if inst.class.opcode != Op::FunctionCall {
                    b.instructions.push(inst);
                    continue;
                }
                let mut back = Vec::new();
                // Operand 0 is the callee.
                for k in 1..inst.operands.len() {
                    let Some(arg) = id_at(&inst, k) else { continue };
                    let Some(&ty) = chains.get(&arg).and_then(|pty| pointee.get(pty)) else { continue };
                    let pty = *function_ptr.entry(ty).or_insert_with(|| {
                        let id = ids.fresh();
                        new_types.push(Instruction::new(
                            Op::TypePointer,
                            None,
                            Some(id),
                            vec![Operand::StorageClass(StorageClass::Function), Operand::IdRef(ty)],
                        ));
                        id
                    });
                    let var = ids.fresh();
                    vars.push(Instruction::new(Op::Variable, Some(pty), Some(var), vec![Operand::StorageClass(StorageClass::Function)]));
                    let (v_in, v_out) = (ids.fresh(), ids.fresh());
                    b.instructions.push(Instruction::new(Op::Load, Some(ty), Some(v_in), vec![Operand::IdRef(arg)]));
                    b.instructions.push(Instruction::new(Op::Store, None, None, vec![Operand::IdRef(var), Operand::IdRef(v_in)]));
                    back.push([
                        Instruction::new(Op::Load, Some(ty), Some(v_out), vec![Operand::IdRef(var)]),
                        Instruction::new(Op::Store, None, None, vec![Operand::IdRef(arg), Operand::IdRef(v_out)]),
                    ]);
                    inst.operands[k] = Operand::IdRef(var);
                    changed = true;
                }
                b.instructions.push(inst);
                b.instructions.extend(back.into_iter().rev().flatten());
            }
        }
        if let Some(entry) = f.blocks.first_mut() {
            for v in vars {
                entry.instructions.insert(0, v);
            }
        }
    }
    m.types_global_values.extend(new_types);
    ids.finish(m);
    changed
}
