//! RelaxedPrecision: decorates every id the emitter flagged as holding a min-precision value
//! (`min16float`, `min16int`...), once each, in the order flagged.

use crate::id::SpvId;
use rspirv::dr::{Instruction, Module, Operand};
use spirv::{Decoration, Op};
use hlslc_frontend::fxhash::FxSet as HashSet;

pub fn run(module: &mut Module, flagged: &[SpvId]) {
    let already: HashSet<u32> = module
        .annotations
        .iter()
        .filter_map(|i| match (i.class.opcode, i.operands.first(), i.operands.get(1)) {
            (Op::Decorate, Some(Operand::IdRef(t)), Some(Operand::Decoration(Decoration::RelaxedPrecision))) => Some(*t),
            _ => None,
        })
        .collect();
    let mut done = HashSet::default();
    for id in flagged {
        if already.contains(&id.0) || !done.insert(id.0) {
            continue;
        }
        module.annotations.push(Instruction::new(
            Op::Decorate,
            None,
            None,
            vec![Operand::IdRef(id.0), Operand::Decoration(Decoration::RelaxedPrecision)],
        ));
    }
}
