//! Functions, basic blocks and instructions.
//!
//! Invariants:
//! - A [`Function`] with `body: None` is a declaration. A body has at least one block once
//!   complete; the first block is the entry.
//! - [`InstId`] and [`BlockId`] are local to their function: they index `Body::insts` and
//!   `Body::blocks`. An instruction belongs to exactly one block, listed in `Block::insts` in
//!   execution order; a complete block ends with exactly one terminator and has none before it.
//! - `Inst::ty` is the result type (`void` for instructions without a result). Operands are
//!   [`Value`]s whose ids belong to the same module and, for `Arg`/`Inst`, the same function.
//! - Names are optional; unnamed values and blocks are numbered by the printer (`%0`, `%1`, ...)
//!   in LLVM's order: arguments, then each block followed by its instructions.

use super::constants::ConstId;
use super::types::TypeId;
use super::{AttrSetId, FuncId, GlobalId};

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InstId(pub u32);

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);

/// An operand.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Const(ConstId),
    Global(GlobalId),
    Func(FuncId),
    /// Argument `n` of the enclosing function.
    Arg(u32),
    Inst(InstId),
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    FAdd,
    Sub,
    FSub,
    Mul,
    FMul,
    UDiv,
    SDiv,
    FDiv,
    URem,
    SRem,
    FRem,
    Shl,
    LShr,
    AShr,
    And,
    Or,
    Xor,
}

impl BinOp {
    pub fn mnemonic(self) -> &'static str {
        use BinOp::*;
        match self {
            Add => "add",
            FAdd => "fadd",
            Sub => "sub",
            FSub => "fsub",
            Mul => "mul",
            FMul => "fmul",
            UDiv => "udiv",
            SDiv => "sdiv",
            FDiv => "fdiv",
            URem => "urem",
            SRem => "srem",
            FRem => "frem",
            Shl => "shl",
            LShr => "lshr",
            AShr => "ashr",
            And => "and",
            Or => "or",
            Xor => "xor",
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, BinOp::FAdd | BinOp::FSub | BinOp::FMul | BinOp::FDiv | BinOp::FRem)
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CastOp {
    Trunc,
    ZExt,
    SExt,
    FPToUI,
    FPToSI,
    UIToFP,
    SIToFP,
    FPTrunc,
    FPExt,
    BitCast,
    AddrSpaceCast,
}

impl CastOp {
    pub fn mnemonic(self) -> &'static str {
        use CastOp::*;
        match self {
            Trunc => "trunc",
            ZExt => "zext",
            SExt => "sext",
            FPToUI => "fptoui",
            FPToSI => "fptosi",
            UIToFP => "uitofp",
            SIToFP => "sitofp",
            FPTrunc => "fptrunc",
            FPExt => "fpext",
            BitCast => "bitcast",
            AddrSpaceCast => "addrspacecast",
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum IntPred {
    Eq,
    Ne,
    Ugt,
    Uge,
    Ult,
    Ule,
    Sgt,
    Sge,
    Slt,
    Sle,
}

impl IntPred {
    pub fn mnemonic(self) -> &'static str {
        use IntPred::*;
        match self {
            Eq => "eq",
            Ne => "ne",
            Ugt => "ugt",
            Uge => "uge",
            Ult => "ult",
            Ule => "ule",
            Sgt => "sgt",
            Sge => "sge",
            Slt => "slt",
            Sle => "sle",
        }
    }
}

/// Float comparison predicates (ordered `o*`, unordered `u*`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FloatPred {
    False,
    Oeq,
    Ogt,
    Oge,
    Olt,
    Ole,
    One,
    Ord,
    Uno,
    Ueq,
    Ugt,
    Uge,
    Ult,
    Ule,
    Une,
    True,
}

impl FloatPred {
    pub fn mnemonic(self) -> &'static str {
        use FloatPred::*;
        match self {
            False => "false",
            Oeq => "oeq",
            Ogt => "ogt",
            Oge => "oge",
            Olt => "olt",
            Ole => "ole",
            One => "one",
            Ord => "ord",
            Uno => "uno",
            Ueq => "ueq",
            Ugt => "ugt",
            Uge => "uge",
            Ult => "ult",
            Ule => "ule",
            Une => "une",
            True => "true",
        }
    }
}

/// `atomicrmw` operations (LLVM 3.7's set).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RmwOp {
    Xchg,
    Add,
    Sub,
    And,
    Nand,
    Or,
    Xor,
    Max,
    Min,
    UMax,
    UMin,
}

impl RmwOp {
    pub fn mnemonic(self) -> &'static str {
        use RmwOp::*;
        match self {
            Xchg => "xchg",
            Add => "add",
            Sub => "sub",
            And => "and",
            Nand => "nand",
            Or => "or",
            Xor => "xor",
            Max => "max",
            Min => "min",
            UMax => "umax",
            UMin => "umin",
        }
    }
}

/// What an instruction does. Result types live in [`Inst::ty`].
#[derive(Clone, Debug, PartialEq)]
pub enum InstKind {
    /// `fast` marks HLSL's default non-precise float math (LLVM 3.7 `fast` flag).
    Binary { op: BinOp, lhs: Value, rhs: Value, fast: bool },
    ICmp { pred: IntPred, lhs: Value, rhs: Value },
    FCmp { pred: FloatPred, lhs: Value, rhs: Value, fast: bool },
    Cast { op: CastOp, value: Value },
    Select { cond: Value, then_value: Value, else_value: Value },
    Phi { incoming: Vec<(Value, BlockId)> },
    Br { target: BlockId },
    CondBr { cond: Value, then_block: BlockId, else_block: BlockId },
    Switch { value: Value, default: BlockId, cases: Vec<(ConstId, BlockId)> },
    Ret { value: Option<Value> },
    Unreachable,
    Call { callee: FuncId, args: Vec<Value> },
    Load { ptr: Value, align: u32 },
    Store { value: Value, ptr: Value, align: u32 },
    /// `alloca <allocated>, align <align>`; the instruction's type is the pointer.
    Alloca { allocated: TypeId, align: u32 },
    /// `getelementptr [inbounds] <source elem>, <ptr>, <indices>`.
    Gep { inbounds: bool, source: TypeId, base: Value, indices: Vec<Value> },
    ExtractValue { agg: Value, indices: Vec<u32> },
    InsertValue { agg: Value, value: Value, indices: Vec<u32> },
    ExtractElement { vector: Value, index: Value },
    InsertElement { vector: Value, value: Value, index: Value },
    /// `atomicrmw <op> <ptr>, <value> seq_cst`; the result is the old value.
    AtomicRmw { op: RmwOp, ptr: Value, value: Value },
    /// `cmpxchg <ptr>, <cmp>, <new> seq_cst seq_cst`; the result is `{ T, i1 }`.
    CmpXchg { ptr: Value, cmp: Value, new: Value },
}

impl InstKind {
    pub fn is_terminator(&self) -> bool {
        matches!(
            self,
            InstKind::Br { .. } | InstKind::CondBr { .. } | InstKind::Switch { .. } | InstKind::Ret { .. } | InstKind::Unreachable
        )
    }

    /// Successor blocks of a terminator, in operand order.
    pub fn successors(&self) -> Vec<BlockId> {
        match self {
            InstKind::Br { target } => vec![*target],
            InstKind::CondBr { then_block, else_block, .. } => vec![*then_block, *else_block],
            InstKind::Switch { default, cases, .. } => {
                let mut v = vec![*default];
                v.extend(cases.iter().map(|c| c.1));
                v
            }
            _ => Vec::new(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    pub kind: InstKind,
    pub ty: TypeId,
    pub name: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Block {
    pub name: Option<String>,
    pub insts: Vec<InstId>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Body {
    pub blocks: Vec<Block>,
    pub insts: Vec<Inst>,
    /// `!dbg` attachments (`-Zi`): the `DILocation` of an instruction.
    pub dbg: std::collections::HashMap<InstId, super::MdId>,
}

impl Body {
    pub fn inst(&self, id: InstId) -> &Inst {
        &self.insts[id.0 as usize]
    }
    pub fn block(&self, id: BlockId) -> &Block {
        &self.blocks[id.0 as usize]
    }
    /// Blocks that branch to each block, one entry per edge (a switch with two cases to the same
    /// block counts twice, as LLVM's predecessor list does), in block order.
    pub fn predecessors(&self) -> Vec<Vec<BlockId>> {
        let mut preds = vec![Vec::new(); self.blocks.len()];
        for (bi, b) in self.blocks.iter().enumerate() {
            if let Some(&last) = b.insts.last() {
                for s in self.inst(last).kind.successors() {
                    if let Some(p) = preds.get_mut(s.0 as usize) {
                        p.push(BlockId(bi as u32));
                    }
                }
            }
        }
        preds
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Linkage {
    External,
    Internal,
}

/// A function definition or declaration. `ty` is a function type.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: String,
    pub ty: TypeId,
    pub linkage: Linkage,
    /// Function attributes (printed as an attribute group `#N`), if any.
    pub attrs: Option<AttrSetId>,
    /// Optional argument names, one per parameter.
    pub arg_names: Vec<Option<String>>,
    pub body: Option<Body>,
}
