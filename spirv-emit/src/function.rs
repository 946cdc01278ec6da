//! Functions and structured blocks.
//!
//! One function is open at a time. Blocks are laid out in creation order ([`ModuleBuilder::new_block`]),
//! which is the order the emitter creates them in for each construct (header, then, else, merge),
//! so that every block comes after its dominator. A cursor names the current block; instructions go
//! there. Invariants checked here, each a [`BuildError`] rather than a panic:
//!
//! - nothing is emitted after a block's terminator (the cursor is cleared by a terminator);
//! - `OpSelectionMerge` is followed by `OpBranchConditional`/`OpSwitch`, `OpLoopMerge` by
//!   `OpBranch`/`OpBranchConditional`;
//! - a function ends only when every block has a terminator;
//! - function-scope `OpVariable`s are hoisted to the start of the first block, as SPIR-V requires.

use crate::builder::ModuleBuilder;
use crate::error::{BuildError, Result};
use crate::id::SpvId;
use rspirv::dr::{self, Instruction, Operand};
use rspirv::grammar::reflect::is_block_terminator;
use spirv::{FunctionControl, Op, StorageClass};
use hlslc_frontend::fxhash::FxMap as HashMap;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum PendingMerge {
    Selection,
    Loop,
}

#[derive(Debug)]
struct BlockState {
    label: SpvId,
    insts: Vec<Instruction>,
    terminated: bool,
    pending: Option<PendingMerge>,
}

/// A function being built.
#[derive(Debug)]
pub(crate) struct FunctionState {
    id: SpvId,
    def: Instruction,
    params: Vec<Instruction>,
    locals: Vec<Instruction>,
    blocks: Vec<BlockState>,
    index: HashMap<SpvId, usize>,
    cursor: Option<usize>,
}

impl ModuleBuilder {
    /// Opens function `id` (allocate it first with `ctx.alloc_id()` when it is referenced before
    /// its definition, as entry points and calls do).
    pub fn begin_function(&mut self, id: SpvId, ret: SpvId, fn_type: SpvId, control: FunctionControl) -> Result<()> {
        if self.current.is_some() {
            return Err(BuildError::FunctionAlreadyOpen);
        }
        let def = Instruction::new(
            Op::Function,
            Some(ret.0),
            Some(id.0),
            vec![Operand::FunctionControl(control), Operand::IdRef(fn_type.0)],
        );
        self.current = Some(FunctionState {
            id,
            def,
            params: Vec::new(),
            locals: Vec::new(),
            blocks: Vec::new(),
            index: HashMap::default(),
            cursor: None,
        });
        self.register_function(id);
        Ok(())
    }

    pub fn current_function(&self) -> Option<SpvId> {
        self.current.as_ref().map(|f| f.id)
    }

    fn func(&mut self) -> Result<&mut FunctionState> {
        self.current.as_mut().ok_or(BuildError::NoFunction)
    }

    /// `OpFunctionParameter` of type `ty`.
    pub fn parameter(&mut self, ty: SpvId) -> Result<SpvId> {
        self.func()?;
        let id = self.ctx.alloc_id();
        let f = self.func()?;
        f.params.push(Instruction::new(Op::FunctionParameter, Some(ty.0), Some(id.0), vec![]));
        Ok(id)
    }

    /// A new empty block with a label id allocated earlier (`ctx.alloc_id()`), placed after the
    /// blocks created so far: merge and continue targets are named by branches before their
    /// code exists, yet must be laid out after the blocks they are dominated by.
    pub fn new_block_with_label(&mut self, label: SpvId) -> Result<()> {
        let f = self.func()?;
        f.index.insert(label, f.blocks.len());
        f.blocks.push(BlockState { label, insts: Vec::new(), terminated: false, pending: None });
        Ok(())
    }

    /// A new empty block, placed after the blocks created so far. The cursor does not move.
    pub fn new_block(&mut self) -> Result<SpvId> {
        self.func()?;
        let label = self.ctx.alloc_id();
        let f = self.func()?;
        f.index.insert(label, f.blocks.len());
        f.blocks.push(BlockState { label, insts: Vec::new(), terminated: false, pending: None });
        Ok(label)
    }

    /// Makes `label` the current block. It must not be terminated yet.
    pub fn switch_to_block(&mut self, label: SpvId) -> Result<()> {
        let f = self.func()?;
        let &i = f.index.get(&label).ok_or(BuildError::UnknownBlock(label))?;
        if f.blocks[i].terminated {
            return Err(BuildError::BlockTerminated(label));
        }
        f.cursor = Some(i);
        Ok(())
    }

    /// The current block, if there is one (none after a terminator).
    pub fn current_block(&self) -> Option<SpvId> {
        let f = self.current.as_ref()?;
        f.cursor.map(|i| f.blocks[i].label)
    }

    /// True when there is no block to emit into: the emitter skips dead code after `return`,
    /// `break` or `discard` when this holds.
    pub fn is_terminated(&self) -> bool {
        self.current_block().is_none()
    }

    /// A function-scope `OpVariable` (pointer type `ptr_ty`), hoisted to the first block.
    pub fn local_variable(&mut self, ptr_ty: SpvId, init: Option<SpvId>) -> Result<SpvId> {
        self.func()?;
        let id = self.ctx.alloc_id();
        let mut ops = vec![Operand::StorageClass(StorageClass::Function)];
        if let Some(i) = init {
            ops.push(Operand::IdRef(i.0));
        }
        self.func()?.locals.push(Instruction::new(Op::Variable, Some(ptr_ty.0), Some(id.0), ops));
        Ok(id)
    }

    /// Appends `inst` to the current block, enforcing the block invariants.
    pub fn push(&mut self, inst: Instruction) -> Result<()> {
        let f = self.func()?;
        let i = f.cursor.ok_or(BuildError::NoCurrentBlock)?;
        let block = &mut f.blocks[i];
        let op = inst.class.opcode;
        if let Some(p) = block.pending {
            let ok = match p {
                PendingMerge::Selection => matches!(op, Op::BranchConditional | Op::Switch),
                PendingMerge::Loop => matches!(op, Op::Branch | Op::BranchConditional),
            };
            if !ok {
                return Err(BuildError::MergeWithoutBranch(block.label));
            }
        }
        block.pending = match op {
            Op::SelectionMerge => Some(PendingMerge::Selection),
            Op::LoopMerge => Some(PendingMerge::Loop),
            _ => None,
        };
        block.insts.push(inst);
        if is_block_terminator(op) {
            block.terminated = true;
            f.cursor = None;
        }
        Ok(())
    }

    /// Closes the open function. Every block must be terminated.
    pub fn end_function(&mut self) -> Result<()> {
        let f = self.current.take().ok_or(BuildError::NoFunction)?;
        if f.blocks.is_empty() {
            let id = f.id;
            self.current = Some(f);
            return Err(BuildError::EmptyFunction(id));
        }
        if let Some(b) = f.blocks.iter().find(|b| !b.terminated) {
            let label = b.label;
            self.current = Some(f);
            return Err(BuildError::UnterminatedBlock(label));
        }
        let mut locals = Some(f.locals);
        let blocks = f
            .blocks
            .into_iter()
            .map(|b| {
                let mut instructions = locals.take().unwrap_or_default();
                instructions.extend(b.insts);
                dr::Block { label: Some(Instruction::new(Op::Label, None, Some(b.label.0), vec![])), instructions }
            })
            .collect();
        self.functions.push(dr::Function {
            def: Some(f.def),
            end: Some(Instruction::new(Op::FunctionEnd, None, None, vec![])),
            parameters: f.params,
            blocks,
        });
        Ok(())
    }
}
