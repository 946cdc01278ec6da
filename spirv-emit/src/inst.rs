//! Instruction helpers over [`ModuleBuilder::push`]: one small method per instruction shape the
//! emitter needs, all going through the block invariants of [`crate::function`].

use crate::builder::ModuleBuilder;
use crate::error::Result;
use crate::id::SpvId;
use rspirv::dr::{Instruction, Operand};
use spirv::{GlslStd450Op, LoopControl, MemoryAccess, Op, SelectionControl};

fn ids(v: &[SpvId]) -> impl Iterator<Item = Operand> + '_ {
    v.iter().map(|i| Operand::IdRef(i.0))
}

impl ModuleBuilder {
    /// Any instruction with a result: `%r = op ty operands...`.
    pub fn value(&mut self, op: Op, ty: SpvId, operands: Vec<Operand>) -> Result<SpvId> {
        self.current_block_or_err()?;
        let id = self.ctx.alloc_id();
        self.push(Instruction::new(op, Some(ty.0), Some(id.0), operands))?;
        Ok(id)
    }

    /// Any instruction without a result.
    pub fn void(&mut self, op: Op, operands: Vec<Operand>) -> Result<()> {
        self.push(Instruction::new(op, None, None, operands))
    }

    fn current_block_or_err(&self) -> Result<()> {
        if self.current.is_none() {
            return Err(crate::error::BuildError::NoFunction);
        }
        if self.is_terminated() {
            return Err(crate::error::BuildError::NoCurrentBlock);
        }
        Ok(())
    }

    pub fn load(&mut self, ty: SpvId, ptr: SpvId, access: Option<MemoryAccess>) -> Result<SpvId> {
        let mut ops = vec![Operand::IdRef(ptr.0)];
        if let Some(a) = access {
            ops.push(Operand::MemoryAccess(a));
        }
        self.value(Op::Load, ty, ops)
    }
    pub fn store(&mut self, ptr: SpvId, value: SpvId, access: Option<MemoryAccess>) -> Result<()> {
        let mut ops = vec![Operand::IdRef(ptr.0), Operand::IdRef(value.0)];
        if let Some(a) = access {
            ops.push(Operand::MemoryAccess(a));
        }
        self.void(Op::Store, ops)
    }
    pub fn access_chain(&mut self, ptr_ty: SpvId, base: SpvId, indices: &[SpvId]) -> Result<SpvId> {
        self.value(Op::AccessChain, ptr_ty, std::iter::once(Operand::IdRef(base.0)).chain(ids(indices)).collect())
    }
    /// A two-operand arithmetic, bitwise, logical or comparison instruction.
    pub fn binary(&mut self, op: Op, ty: SpvId, a: SpvId, b: SpvId) -> Result<SpvId> {
        self.value(op, ty, vec![Operand::IdRef(a.0), Operand::IdRef(b.0)])
    }
    /// A one-operand instruction (negation, conversion, bitcast, derivative...).
    pub fn unary(&mut self, op: Op, ty: SpvId, a: SpvId) -> Result<SpvId> {
        self.value(op, ty, vec![Operand::IdRef(a.0)])
    }
    pub fn composite_construct(&mut self, ty: SpvId, parts: &[SpvId]) -> Result<SpvId> {
        self.value(Op::CompositeConstruct, ty, ids(parts).collect())
    }
    pub fn composite_extract(&mut self, ty: SpvId, composite: SpvId, indices: &[u32]) -> Result<SpvId> {
        let mut ops = vec![Operand::IdRef(composite.0)];
        ops.extend(indices.iter().map(|&i| Operand::LiteralBit32(i)));
        self.value(Op::CompositeExtract, ty, ops)
    }
    pub fn composite_insert(&mut self, ty: SpvId, object: SpvId, composite: SpvId, indices: &[u32]) -> Result<SpvId> {
        let mut ops = vec![Operand::IdRef(object.0), Operand::IdRef(composite.0)];
        ops.extend(indices.iter().map(|&i| Operand::LiteralBit32(i)));
        self.value(Op::CompositeInsert, ty, ops)
    }
    pub fn vector_shuffle(&mut self, ty: SpvId, a: SpvId, b: SpvId, components: &[u32]) -> Result<SpvId> {
        let mut ops = vec![Operand::IdRef(a.0), Operand::IdRef(b.0)];
        ops.extend(components.iter().map(|&i| Operand::LiteralBit32(i)));
        self.value(Op::VectorShuffle, ty, ops)
    }
    pub fn select(&mut self, ty: SpvId, cond: SpvId, a: SpvId, b: SpvId) -> Result<SpvId> {
        self.value(Op::Select, ty, vec![Operand::IdRef(cond.0), Operand::IdRef(a.0), Operand::IdRef(b.0)])
    }
    /// `OpExtInst ty %GLSL.std.450 op args...`.
    pub fn glsl(&mut self, ty: SpvId, op: GlslStd450Op, args: &[SpvId]) -> Result<SpvId> {
        let set = self.glsl_std_450();
        let mut ops = vec![Operand::IdRef(set.0), Operand::LiteralExtInstInteger(op as u32)];
        ops.extend(ids(args));
        self.value(Op::ExtInst, ty, ops)
    }
    pub fn function_call(&mut self, ty: SpvId, function: SpvId, args: &[SpvId]) -> Result<SpvId> {
        self.value(Op::FunctionCall, ty, std::iter::once(Operand::IdRef(function.0)).chain(ids(args)).collect())
    }
    /// `OpPhi ty (value, parent-block)...`.
    pub fn phi(&mut self, ty: SpvId, incoming: &[(SpvId, SpvId)]) -> Result<SpvId> {
        let ops = incoming.iter().flat_map(|(v, b)| [Operand::IdRef(v.0), Operand::IdRef(b.0)]).collect();
        self.value(Op::Phi, ty, ops)
    }

    // ---- structured control flow -------------------------------------------------------------

    /// `OpSelectionMerge merge control`; the next instruction must be a conditional branch or switch.
    pub fn selection_merge(&mut self, merge: SpvId, control: SelectionControl) -> Result<()> {
        self.void(Op::SelectionMerge, vec![Operand::IdRef(merge.0), Operand::SelectionControl(control)])
    }
    /// `OpLoopMerge merge continue control`; the next instruction must be a branch.
    pub fn loop_merge(&mut self, merge: SpvId, continue_target: SpvId, control: LoopControl) -> Result<()> {
        self.void(
            Op::LoopMerge,
            vec![Operand::IdRef(merge.0), Operand::IdRef(continue_target.0), Operand::LoopControl(control)],
        )
    }
    pub fn branch(&mut self, target: SpvId) -> Result<()> {
        self.void(Op::Branch, vec![Operand::IdRef(target.0)])
    }
    pub fn branch_conditional(&mut self, cond: SpvId, t: SpvId, f: SpvId) -> Result<()> {
        self.void(Op::BranchConditional, vec![Operand::IdRef(cond.0), Operand::IdRef(t.0), Operand::IdRef(f.0)])
    }
    /// `OpSwitch selector default (literal, target)...`. The case literals take the selector's
    /// width: one word each for a selector of up to 32 bits, two for a 64-bit one (`wide`).
    pub fn switch(&mut self, selector: SpvId, default: SpvId, cases: &[(u64, SpvId)], wide: bool) -> Result<()> {
        let mut ops = vec![Operand::IdRef(selector.0), Operand::IdRef(default.0)];
        for &(lit, target) in cases {
            ops.push(if wide { Operand::LiteralBit64(lit) } else { Operand::LiteralBit32(lit as u32) });
            ops.push(Operand::IdRef(target.0));
        }
        self.void(Op::Switch, ops)
    }
    pub fn ret(&mut self) -> Result<()> {
        self.void(Op::Return, vec![])
    }
    pub fn ret_value(&mut self, value: SpvId) -> Result<()> {
        self.void(Op::ReturnValue, vec![Operand::IdRef(value.0)])
    }
    pub fn kill(&mut self) -> Result<()> {
        self.void(Op::Kill, vec![])
    }
    pub fn unreachable(&mut self) -> Result<()> {
        self.void(Op::Unreachable, vec![])
    }
}
