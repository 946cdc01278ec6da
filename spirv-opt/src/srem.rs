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

/// The operands of `i` if it is a signed remainder: `OpSRem a b`, or `OpSpecConstantOp SRem a b`
/// (a specialization constant's `%`, which the driver evaluates under the same rules).
fn srem_operands(i: &Instruction) -> Option<(Operand, Operand)> {
    match (i.class.opcode, &i.operands[..]) {
        (Op::SRem, [a, b]) => Some((a.clone(), b.clone())),
        (Op::SpecConstantOp, [Operand::LiteralSpecConstantOpInteger(Op::SRem), a, b]) => Some((a.clone(), b.clone())),
        _ => None,
    }
}

/// `i` with opcode `op` (as a specialization-constant operation when `i` is one) and operands
/// `a`, `b`.
fn like(i: &Instruction, op: Op, result: u32, a: Operand, b: Operand) -> Instruction {
    if i.class.opcode == Op::SpecConstantOp {
        Instruction::new(Op::SpecConstantOp, i.result_type, Some(result), vec![Operand::LiteralSpecConstantOpInteger(op), a, b])
    } else {
        Instruction::new(op, i.result_type, Some(result), vec![a, b])
    }
}

/// Replaces each signed remainder in `list` by its division, multiplication and subtraction.
fn rewrite(list: &mut Vec<Instruction>, ids: &mut IdAlloc) -> bool {
    if !list.iter().any(|i| srem_operands(i).is_some()) {
        return false;
    }
    let mut out = Vec::with_capacity(list.len() + 8);
    for i in std::mem::take(list) {
        let (Some((a, d)), Some(result)) = (srem_operands(&i), i.result_id) else {
            out.push(i);
            continue;
        };
        let (q, p) = (ids.fresh(), ids.fresh());
        out.push(like(&i, Op::SDiv, q, a.clone(), d.clone()));
        out.push(like(&i, Op::IMul, p, Operand::IdRef(q), d));
        out.push(like(&i, Op::ISub, result, a, Operand::IdRef(p)));
    }
    *list = out;
    true
}

/// Rewrites the module's signed remainders, in functions and in specialization constants'
/// operations; returns whether there was one.
pub fn run(m: &mut Module) -> bool {
    let mut ids = IdAlloc::new(m);
    let mut changed = rewrite(&mut m.types_global_values, &mut ids);
    for b in m.functions.iter_mut().flat_map(|f| f.blocks.iter_mut()) {
        changed |= rewrite(&mut b.instructions, &mut ids);
    }
    ids.finish(m);
    changed
}
