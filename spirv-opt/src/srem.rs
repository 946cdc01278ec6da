//! Signed remainders a Vulkan driver computes as written: every `OpSRem a b` becomes
//! `a - (a / b) * b` (`OpSDiv`, `OpIMul`, `OpISub`).
//!
//! The Vulkan environment leaves `OpSRem` (and `OpSMod`) undefined when either operand is
//! negative, unless the device enables `VK_KHR_maintenance8`; HLSL's `%` on signed integers is
//! the truncating remainder, whose sign is the dividend's, for every operand but a zero divisor
//! (and `INT_MIN % -1`, which overflows `OpSDiv` as it does the remainder). NVIDIA's driver takes
//! the license: `-7 % 2` is 1 there (the unsigned remainder), -1 on lavapipe; the random programs
//! and the exec cases showed it on an H200 (`testsuite/scripts/gpu-check.sh`). `OpSDiv` is
//! defined for negative operands, so the reconstruction computes HLSL's value everywhere; it
//! costs nothing a GPU does not do anyway (none divides in hardware).
//!
//! The driver runs this on every module but `-fcgl`'s, which keeps dxc's `OpSRem` for the CHECK
//! lines that read the high-level form. `OpSMod` (floored) is left alone: HLSL never asks for
//! it, only inline SPIR-V does, and that says exactly what it wants.

use crate::ids::IdAlloc;
use rspirv::dr::{Instruction, Module, Operand};
use spirv::Op;

/// Whether `i` is `OpSpecConstantOp ... SRem` (a specialization constant's `%`).
fn spec_srem(i: &Instruction) -> bool {
    i.class.opcode == Op::SpecConstantOp && matches!(i.operands.first(), Some(Operand::LiteralSpecConstantOpInteger(Op::SRem)))
}

/// Rewrites the module's `OpSRem`s, in functions and in specialization constants' operations
/// (the driver evaluates those with the same rules); returns whether there was one.
pub fn run(m: &mut Module) -> bool {
    let any = m.functions.iter().flat_map(|f| &f.blocks).flat_map(|b| &b.instructions).any(|i| i.class.opcode == Op::SRem);
    let any_spec = m.types_global_values.iter().any(spec_srem);
    if !any && !any_spec {
        return false;
    }
    let mut ids = IdAlloc::new(m);
    if any_spec {
        let spec = |op: Op, ty: u32, r: u32, a: Operand, b: Operand| {
            Instruction::new(Op::SpecConstantOp, Some(ty), Some(r), vec![Operand::LiteralSpecConstantOpInteger(op), a, b])
        };
        let mut out = Vec::with_capacity(m.types_global_values.len() + 4);
        for i in std::mem::take(&mut m.types_global_values) {
            if !spec_srem(&i) || i.operands.len() != 3 {
                out.push(i);
                continue;
            }
            let (Some(ty), Some(result)) = (i.result_type, i.result_id) else {
                out.push(i);
                continue;
            };
            let (a, d) = (i.operands[1].clone(), i.operands[2].clone());
            let (q, p) = (ids.fresh(), ids.fresh());
            out.push(spec(Op::SDiv, ty, q, a.clone(), d.clone()));
            out.push(spec(Op::IMul, ty, p, Operand::IdRef(q), d));
            out.push(spec(Op::ISub, ty, result, a, Operand::IdRef(p)));
        }
        m.types_global_values = out;
    }
    for f in &mut m.functions {
        for b in &mut f.blocks {
            if !b.instructions.iter().any(|i| i.class.opcode == Op::SRem) {
                continue;
            }
            let mut out = Vec::with_capacity(b.instructions.len() + 8);
            for i in std::mem::take(&mut b.instructions) {
                if i.class.opcode != Op::SRem {
                    out.push(i);
                    continue;
                }
                let (Some(ty), Some(result)) = (i.result_type, i.result_id) else {
                    out.push(i);
                    continue;
                };
                let (a, d) = (i.operands[0].clone(), i.operands[1].clone());
                let (q, p) = (ids.fresh(), ids.fresh());
                out.push(Instruction::new(Op::SDiv, Some(ty), Some(q), vec![a.clone(), d.clone()]));
                out.push(Instruction::new(Op::IMul, Some(ty), Some(p), vec![Operand::IdRef(q), d]));
                out.push(Instruction::new(Op::ISub, Some(ty), Some(result), vec![a, Operand::IdRef(p)]));
            }
            b.instructions = out;
        }
    }
    ids.finish(m);
    true
}
