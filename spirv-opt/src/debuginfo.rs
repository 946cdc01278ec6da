//! Debug information in `NonSemantic.Shader.DebugInfo.100` (`-fspv-debug=vulkan`) and
//! `OpenCL.DebugInfo.100` (`-fspv-debug=rich`) is removed
//! before the passes run: they do not know its instructions (a `DebugDeclare` names a local
//! variable that mem2reg removes, a `DebugScope` names a function that inlining removes), and a
//! removed id still named by a debug instruction makes the module invalid. What is left is what
//! `-Zi` alone writes (`OpSource`, `OpLine`), which the passes keep valid. The `OpString`s only
//! the removed instructions named go with them, and `SPV_KHR_non_semantic_info` when no other
//! non-semantic set is imported. Keeping the set through optimization (as spirv-opt does) is
//! left to do.

use rspirv::dr::{Instruction, Module, Operand};
use spirv::Op;
use std::collections::HashSet;

/// Whether `name` is the import name of a debug info set this step removes.
fn is_debug_set(name: &str) -> bool {
    name.starts_with("NonSemantic.Shader.DebugInfo") || name == "OpenCL.DebugInfo.100"
}

/// Removes the debug info sets' instructions; returns whether there were any.
pub fn run(m: &mut Module) -> bool {
    let sets: HashSet<u32> = m
        .ext_inst_imports
        .iter()
        .filter(|i| matches!(i.operands.first(), Some(Operand::LiteralString(s)) if is_debug_set(s)))
        .filter_map(|i| i.result_id)
        .collect();
    if sets.is_empty() {
        return false;
    }
    let is_debug = |i: &Instruction| {
        i.class.opcode == Op::ExtInst && matches!(i.operands.first(), Some(Operand::IdRef(s)) if sets.contains(s))
    };
    m.types_global_values.retain(|i| !is_debug(i));
    for f in &mut m.functions {
        for b in &mut f.blocks {
            b.instructions.retain(|i| !is_debug(i));
        }
    }
    m.ext_inst_imports.retain(|i| !i.result_id.is_some_and(|r| sets.contains(&r)));
    let other_non_semantic = m
        .ext_inst_imports
        .iter()
        .any(|i| matches!(i.operands.first(), Some(Operand::LiteralString(s)) if s.starts_with("NonSemantic.")));
    if !other_non_semantic {
        m.extensions
            .retain(|i| !matches!(i.operands.first(), Some(Operand::LiteralString(s)) if s == "SPV_KHR_non_semantic_info"));
    }
    // OpStrings still named by something (OpSource, OpLine, decorations).
    let mut used = HashSet::new();
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
    true
}
