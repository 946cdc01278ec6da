//! Texel offsets that became constants: an image instruction's `Offset` operand whose id is now
//! a constant (after inlining and folding) becomes `ConstOffset`. Vulkan allows `Offset` only
//! on gathers, so this is what makes a `Sample(s, uv, offset)` whose offset was a parameter
//! valid once it is inlined (dxc's legalization does the same). The two operands sit in the
//! same place of the operand list: no image operand has a bit between them.

use rspirv::dr::{Module, Operand};
use spirv::{ImageOperands, Op};
use crate::hash::HashSet;

/// Whether `op` is a gather, where a non-constant `Offset` is allowed.
pub fn is_gather(op: Op) -> bool {
    matches!(op, Op::ImageGather | Op::ImageDrefGather | Op::ImageSparseGather | Op::ImageSparseDrefGather)
}

/// Runs over the module; returns whether an operand changed.
pub fn run(m: &mut Module) -> bool {
    let constants: HashSet<u32> = m
        .types_global_values
        .iter()
        .filter(|i| matches!(i.class.opcode, Op::Constant | Op::ConstantComposite | Op::ConstantNull))
        .filter_map(|i| i.result_id)
        .collect();
    let mut changed = false;
    for f in &mut m.functions {
        for b in &mut f.blocks {
            for i in &mut b.instructions {
                if is_gather(i.class.opcode) {
                    continue;
                }
                let Some(at) = i.operands.iter().position(|o| matches!(o, Operand::ImageOperands(_))) else { continue };
                let Operand::ImageOperands(mask) = i.operands[at] else { continue };
                if !mask.contains(ImageOperands::OFFSET) {
                    continue;
                }
                // Ids follow the mask in bit order; Offset's is after those of the lower bits.
                let lower = [ImageOperands::BIAS, ImageOperands::LOD, ImageOperands::CONST_OFFSET];
                let mut k = at + 1;
                for bit in lower {
                    if mask.contains(bit) {
                        k += 1;
                    }
                }
                if mask.contains(ImageOperands::GRAD) {
                    k += 2;
                }
                let Some(Operand::IdRef(id)) = i.operands.get(k) else { continue };
                if constants.contains(id) && !mask.contains(ImageOperands::CONST_OFFSET) {
                    let mut m2 = mask;
                    m2.remove(ImageOperands::OFFSET);
                    m2.insert(ImageOperands::CONST_OFFSET);
                    i.operands[at] = Operand::ImageOperands(m2);
                    changed = true;
                }
            }
        }
    }
    changed
}
