//! Removes what no entry point reaches: functions, global variables (resources and stage
//! variables included), constants, types, `OpUndef`s, and the names and decorations of what was
//! removed; the entry points' interface lists keep only the variables that remain.
//!
//! What is live (after SPIRV-Tools' dead-function, dead-variable and dead-constant elimination and
//! the unused-interface-variable removal, which dxc runs at `-O1`..`-O3`):
//!
//! - every entry-point function, every id its execution modes name (`OpExecutionModeId`), and what
//!   a live function calls;
//! - every id a live function's instructions read, and, transitively, every id a live global
//!   instruction reads (a pointer's pointee, a struct's members, a constant's type);
//! - specialization constants (the pipeline may still set them by `SpecId`), functions and
//!   variables with `LinkageAttributes` (a library exports them), and global `OpExtInst`s
//!   (non-semantic debug information names what it describes), though a debug instruction's
//!   naming a variable or a function does not keep it ([`crate::debuginfo::finish`] puts
//!   `DebugInfoNone` in its place);
//! - with [`Keep::bindings`] (`-fspv-preserve-bindings`), every variable with a `DescriptorSet` or
//!   `Binding` decoration; with [`Keep::interface`] (`-fspv-preserve-interface`), every `Input` and
//!   `Output` variable an entry point lists;
//! - the ids a live target's decorations name (`OpDecorateId`, such as a counter buffer).
//!
//! `OpExtInstImport`s, capabilities, extensions and debug strings stay as they are.

use crate::debuginfo::Sets;
use crate::ids::{for_each_used, id_at, IdSet};
use crate::Keep;
use rspirv::dr::{Module, Operand};
use spirv::{Decoration, Op, StorageClass, Word};
use crate::hash::HashMap;

/// Removes everything unreachable; returns whether anything was removed.
pub fn run(m: &mut Module, keep: &Keep) -> bool {
    let live = live_ids(m, keep);
    let before = count(m);
    let live = |id: &Word| live.contains(*id);

    m.functions.retain(|f| f.def.as_ref().and_then(|d| d.result_id).is_some_and(|id| live(&id)));
    m.types_global_values.retain(|i| match i.result_id {
        Some(id) => live(&id),
        // OpTypeForwardPointer names its pointer type as an operand.
        None => id_at(i, 0).is_none_or(|id| live(&id)),
    });
    for ep in &mut m.entry_points {
        // Operands: execution model, function, name, interface ids...
        let mut k = 0;
        ep.operands.retain(|op| {
            k += 1;
            k <= 3 || op.id_ref_any().is_none_or(|id| live(&id))
        });
    }
    m.annotations.retain(|a| match a.class.opcode {
        Op::DecorationGroup | Op::GroupDecorate | Op::GroupMemberDecorate => true,
        _ => id_at(a, 0).is_none_or(|t| live(&t)),
    });
    m.debug_names.retain(|n| id_at(n, 0).is_none_or(|t| live(&t)));
    count(m) != before
}

/// The sizes of what [`run`] may shrink (it only removes, so a change shows in them).
fn count(m: &Module) -> [usize; 5] {
    [
        m.functions.len(),
        m.types_global_values.len(),
        m.entry_points.iter().map(|e| e.operands.len()).sum::<usize>(),
        m.annotations.len(),
        m.debug_names.len(),
    ]
}

/// For each decoration target, the other ids its decorations name: an `OpDecorateId`'s operands
/// (a counter buffer), and for decoration groups both ways (groups are rare; keeping a group and
/// what it decorates together is always correct).
fn decoration_ids(m: &Module) -> HashMap<Word, Vec<Word>> {
    // Target -> ids its decorations name besides the target (OpDecorateId operands).
    let mut out: HashMap<Word, Vec<Word>> = HashMap::default();
    for a in &m.annotations {
        let Some(target) = id_at(a, 0) else { continue };
        match a.class.opcode {
            Op::DecorateId => out.entry(target).or_default().extend(a.operands.iter().skip(2).filter_map(Operand::id_ref_any)),
            Op::GroupDecorate | Op::GroupMemberDecorate => {
                // The group is live whenever a target it decorates is; conservatively keep both.
                for id in a.operands.iter().filter_map(Operand::id_ref_any) {
                    out.entry(id).or_default().push(target);
                }
            }
            _ => {}
        }
    }
    out
}

/// What defines an id, for the walk of [`live_ids`].
#[derive(Clone, Copy)]
enum Def {
    /// `m.types_global_values[i]`.
    Global(usize),
    /// `m.functions[i]`.
    Function(usize),
    /// A function's parameter, label or instruction, or nothing.
    Other,
}

fn live_ids(m: &Module, keep: &Keep) -> IdSet {
    // What defines each id, by id (a dense table: ids are small numbers below the bound).
    let bound = crate::ids::bound(m);
    let mut def = vec![Def::Other; bound as usize];
    let mut set_def = |id: Word, d: Def| {
        if id as usize >= def.len() {
            def.resize(id as usize + 1, Def::Other);
        }
        def[id as usize] = d;
    };
    for (i, inst) in m.types_global_values.iter().enumerate() {
        if let Some(id) = inst.result_id {
            set_def(id, Def::Global(i));
        }
    }
    for (i, f) in m.functions.iter().enumerate() {
        if let Some(id) = f.def.as_ref().and_then(|d| d.result_id) {
            set_def(id, Def::Function(i));
        }
    }
    let def_of = |id: Word| def.get(id as usize).copied().unwrap_or(Def::Other);
    let global = |id: Word| match def_of(id) {
        Def::Global(i) => Some(i),
        _ => None,
    };
    let decorated = decoration_ids(m);
    let sets = Sets::new(m);
    let describes_code = |id: Word| match def_of(id) {
        Def::Function(_) => true,
        Def::Global(k) => m.types_global_values[k].class.opcode == Op::Variable,
        Def::Other => false,
    };

    let mut live = IdSet::with_bound(bound);
    let mut work: Vec<Word> = Vec::new();
    for ep in &m.entry_points {
        work.extend(id_at(ep, 1));
    }
    for em in &m.execution_modes {
        work.extend(em.operands.iter().filter_map(Operand::id_ref_any));
    }
    for inst in &m.types_global_values {
        let spec = matches!(
            inst.class.opcode,
            Op::SpecConstant | Op::SpecConstantTrue | Op::SpecConstantFalse | Op::SpecConstantComposite | Op::SpecConstantOp
        );
        if spec || inst.class.opcode == Op::ExtInst {
            work.extend(inst.result_id);
        }
    }
    for a in &m.annotations {
        if a.class.opcode == Op::Decorate && matches!(a.operands.get(1), Some(Operand::Decoration(Decoration::LinkageAttributes))) {
            work.extend(id_at(a, 0));
        }
    }
    if keep.bindings {
        for a in &m.annotations {
            if a.class.opcode == Op::Decorate
                && matches!(a.operands.get(1), Some(Operand::Decoration(Decoration::DescriptorSet | Decoration::Binding)))
            {
                work.extend(id_at(a, 0));
            }
        }
    }
    if keep.interface {
        for ep in &m.entry_points {
            for id in ep.operands.iter().skip(3).filter_map(Operand::id_ref_any) {
                let io = global(id).is_some_and(|i| {
                    matches!(
                        m.types_global_values[i].operands.first(),
                        Some(Operand::StorageClass(StorageClass::Input | StorageClass::Output))
                    )
                });
                if io {
                    work.push(id);
                }
            }
        }
    }

    while let Some(id) = work.pop() {
        if !live.insert(id) {
            continue;
        }
        if let Some(more) = decorated.get(&id) {
            work.extend(more.iter().copied());
        }
        match def_of(id) {
            Def::Global(i) => {
                let inst = &m.types_global_values[i];
                if sets.is_debug(inst) {
                    for_each_used(inst, |u| {
                        if !describes_code(u) {
                            work.push(u)
                        }
                    });
                    continue;
                }
                for_each_used(inst, |u| work.push(u));
            }
            Def::Function(i) => {
                let f = &m.functions[i];
                let all =
                    f.def.iter().chain(&f.parameters).chain(f.blocks.iter().flat_map(|b| b.label.iter().chain(&b.instructions)));
                for inst in all {
                    // Ids already live (most of what a body reads is defined in it or was seen) are
                    // not queued again.
                    for_each_used(inst, |u| {
                        if !live.contains(u) {
                            work.push(u)
                        }
                    });
                }
            }
            Def::Other => {}
        }
    }
    live
}
