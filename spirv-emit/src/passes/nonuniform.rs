//! NonUniform: spreads the `NonUniform` decoration from the values `NonUniformResourceIndex`
//! marks (an `OpCopyObject` of the index, decorated by the emitter) to what is computed from
//! them, as dxc does: arithmetic and conversions of the index, access chains it indexes, loads
//! through those chains (the resource descriptors), `OpSampledImage`/`OpImage` of those, and
//! texel pointers. Results of image sampling and reading are not decorated (they are data, not
//! descriptors). One walk in instruction order suffices: the ops followed never take a value
//! from a later block except through `OpPhi`, which is not followed.

use rspirv::dr::{Instruction, Module, Operand};
use spirv::{Decoration, Op};
use hlslc_frontend::fxhash::FxSet as HashSet;

/// Whether the result of `op` is non-uniform when one of its id operands is.
fn follows(op: Op) -> bool {
    use Op::*;
    matches!(
        op,
        CopyObject
            | AccessChain
            | InBoundsAccessChain
            | PtrAccessChain
            | Load
            | SampledImage
            | Image
            | ImageTexelPointer
            | IAdd
            | ISub
            | IMul
            | UDiv
            | SDiv
            | UMod
            | SMod
            | SRem
            | SNegate
            | ShiftLeftLogical
            | ShiftRightLogical
            | ShiftRightArithmetic
            | BitwiseAnd
            | BitwiseOr
            | BitwiseXor
            | Not
            | UConvert
            | SConvert
            | Bitcast
            | ConvertFToU
            | ConvertFToS
            | CompositeExtract
            | Select
    )
}

pub fn run(module: &mut Module) {
    let mut marked: HashSet<u32> = module
        .annotations
        .iter()
        .filter_map(|i| match (i.class.opcode, i.operands.first(), i.operands.get(1)) {
            (Op::Decorate, Some(Operand::IdRef(t)), Some(Operand::Decoration(Decoration::NonUniform))) => Some(*t),
            _ => None,
        })
        .collect();
    if marked.is_empty() {
        return;
    }
    let mut added = Vec::new();
    for f in &module.functions {
        for block in &f.blocks {
            for inst in &block.instructions {
                let Some(r) = inst.result_id else { continue };
                if marked.contains(&r) || !follows(inst.class.opcode) {
                    continue;
                }
                let from_marked = inst.operands.iter().any(|o| matches!(o, Operand::IdRef(id) if marked.contains(id)));
                if from_marked {
                    marked.insert(r);
                    added.push(r);
                }
            }
        }
    }
    for id in added {
        module.annotations.push(Instruction::new(
            Op::Decorate,
            None,
            None,
            vec![Operand::IdRef(id), Operand::Decoration(Decoration::NonUniform)],
        ));
    }
}
