//! [`FunctionBuilder`]: appends blocks and instructions to a function and computes result types.
//!
//! Preconditions (the lowering guarantees them; breaking one gives a module that does not
//! verify, never a panic): operands have the types the instruction needs (same-typed operands
//! for binary ops and compares, a pointer for `load`/`store`/`getelementptr`, an aggregate for
//! `extractvalue`), and instructions are appended only while a block is current.

use super::function::{BinOp, BlockId, Body, CastOp, FloatPred, Inst, InstId, InstKind, IntPred, RmwOp, Value};
use super::types::{Type, TypeId};
use super::{ConstId, FuncId, Module};

pub struct FunctionBuilder<'m> {
    pub module: &'m mut Module,
    pub func: FuncId,
    current: Option<BlockId>,
    /// The `DILocation` attached (`!dbg`) to each instruction appended while it is set (`-Zi`).
    pub loc: Option<super::MdId>,
}

impl<'m> FunctionBuilder<'m> {
    /// Starts building `func`, giving it an empty body if it is a declaration.
    pub fn new(module: &'m mut Module, func: FuncId) -> FunctionBuilder<'m> {
        let f = module.function_mut(func);
        if f.body.is_none() {
            f.body = Some(Body::default());
        }
        FunctionBuilder { module, func, current: None, loc: None }
    }

    fn body(&mut self) -> &mut Body {
        self.module.function_mut(self.func).body.get_or_insert_with(Body::default)
    }

    pub fn append_block(&mut self, name: Option<&str>) -> BlockId {
        let body = self.body();
        body.blocks.push(super::Block { name: name.map(str::to_string), insts: Vec::new() });
        BlockId(body.blocks.len() as u32 - 1)
    }

    pub fn position_at_end(&mut self, block: BlockId) {
        self.current = Some(block);
    }

    pub fn current_block(&self) -> Option<BlockId> {
        self.current
    }

    pub fn type_of(&mut self, v: Value) -> TypeId {
        self.module.value_type(self.func, v)
    }

    /// Appends an instruction with result type `ty` to the current block.
    pub fn push(&mut self, kind: InstKind, ty: TypeId, name: Option<&str>) -> Value {
        let current = self.current;
        // LLVM leaves phis without a location.
        let loc = if matches!(kind, InstKind::Phi { .. }) { None } else { self.loc };
        let body = self.body();
        let id = InstId(body.insts.len() as u32);
        body.insts.push(Inst { kind, ty, name: name.map(str::to_string) });
        if let Some(l) = loc {
            body.dbg.insert(id, l);
        }
        if let Some(b) = current.and_then(|b| body.blocks.get_mut(b.0 as usize)) {
            b.insts.push(id);
        }
        Value::Inst(id)
    }

    pub fn set_name(&mut self, v: Value, name: &str) {
        if let Value::Inst(id) = v {
            if let Some(inst) = self.body().insts.get_mut(id.0 as usize) {
                inst.name = Some(name.to_string());
            }
        }
    }

    pub fn binary(&mut self, op: BinOp, lhs: Value, rhs: Value) -> Value {
        let ty = self.type_of(lhs);
        self.push(InstKind::Binary { op, lhs, rhs, fast: op.is_float() }, ty, None)
    }

    /// `i1` (or `<N x i1>` for vector operands).
    fn bool_like(&mut self, operand: Value) -> TypeId {
        let ty = self.type_of(operand);
        let i1 = self.module.types.i1();
        match self.module.types.get(ty) {
            Type::Vector { len, .. } => {
                let len = *len;
                self.module.types.vector(i1, len)
            }
            _ => i1,
        }
    }

    pub fn icmp(&mut self, pred: IntPred, lhs: Value, rhs: Value) -> Value {
        let ty = self.bool_like(lhs);
        self.push(InstKind::ICmp { pred, lhs, rhs }, ty, None)
    }

    pub fn fcmp(&mut self, pred: FloatPred, lhs: Value, rhs: Value) -> Value {
        let ty = self.bool_like(lhs);
        self.push(InstKind::FCmp { pred, lhs, rhs, fast: true }, ty, None)
    }

    pub fn cast(&mut self, op: CastOp, value: Value, to: TypeId) -> Value {
        self.push(InstKind::Cast { op, value }, to, None)
    }

    pub fn select(&mut self, cond: Value, then_value: Value, else_value: Value) -> Value {
        let ty = self.type_of(then_value);
        self.push(InstKind::Select { cond, then_value, else_value }, ty, None)
    }

    pub fn phi(&mut self, ty: TypeId, incoming: Vec<(Value, BlockId)>) -> Value {
        self.push(InstKind::Phi { incoming }, ty, None)
    }

    /// Adds an incoming edge to a phi created earlier (for loops).
    pub fn add_incoming(&mut self, phi: Value, value: Value, block: BlockId) {
        if let Value::Inst(id) = phi {
            if let Some(Inst { kind: InstKind::Phi { incoming }, .. }) = self.body().insts.get_mut(id.0 as usize) {
                incoming.push((value, block));
            }
        }
    }

    fn void(&mut self) -> TypeId {
        self.module.types.void()
    }

    pub fn br(&mut self, target: BlockId) {
        let v = self.void();
        self.push(InstKind::Br { target }, v, None);
    }

    pub fn cond_br(&mut self, cond: Value, then_block: BlockId, else_block: BlockId) {
        let v = self.void();
        self.push(InstKind::CondBr { cond, then_block, else_block }, v, None);
    }

    pub fn switch(&mut self, value: Value, default: BlockId, cases: Vec<(ConstId, BlockId)>) {
        let v = self.void();
        self.push(InstKind::Switch { value, default, cases }, v, None);
    }

    pub fn ret(&mut self, value: Option<Value>) {
        let v = self.void();
        self.push(InstKind::Ret { value }, v, None);
    }

    pub fn unreachable(&mut self) {
        let v = self.void();
        self.push(InstKind::Unreachable, v, None);
    }

    /// A call; the result has the callee's return type (`void` gives an unnamed, unnumbered
    /// instruction).
    pub fn call(&mut self, callee: FuncId, args: Vec<Value>) -> Value {
        let fty = self.module.function(callee).ty;
        let ret = match self.module.types.fn_parts(fty) {
            Some((ret, _)) => ret,
            None => self.void(),
        };
        self.push(InstKind::Call { callee, args }, ret, None)
    }

    pub fn load(&mut self, ptr: Value, align: u32) -> Value {
        let pty = self.type_of(ptr);
        let ty = match self.module.types.pointee(pty) {
            Some(t) => t,
            None => self.void(),
        };
        self.push(InstKind::Load { ptr, align }, ty, None)
    }

    pub fn store(&mut self, value: Value, ptr: Value, align: u32) {
        let v = self.void();
        self.push(InstKind::Store { value, ptr, align }, v, None);
    }

    pub fn alloca(&mut self, allocated: TypeId, align: u32) -> Value {
        let ty = self.module.types.pointer(allocated, 0);
        self.push(InstKind::Alloca { allocated, align }, ty, None)
    }

    /// `getelementptr`: the first index steps over the pointer, the rest into the aggregate;
    /// struct indices must be constants.
    pub fn gep(&mut self, inbounds: bool, base: Value, indices: Vec<Value>) -> Value {
        let pty = self.type_of(base);
        let (source, space) = match self.module.types.get(pty) {
            Type::Pointer { pointee, addrspace } => (*pointee, *addrspace),
            _ => (pty, 0),
        };
        let mut cur = source;
        for idx in indices.iter().skip(1) {
            let index = match idx {
                Value::Const(c) => match self.module.consts.get(*c) {
                    super::Const::Int { bits, .. } => *bits,
                    _ => 0,
                },
                _ => 0,
            };
            cur = self.module.types.member(cur, index).unwrap_or(cur);
        }
        let ty = self.module.types.pointer(cur, space);
        self.push(InstKind::Gep { inbounds, source, base, indices }, ty, None)
    }

    pub fn extract_value(&mut self, agg: Value, indices: Vec<u32>) -> Value {
        let mut ty = self.type_of(agg);
        for &i in &indices {
            ty = self.module.types.member(ty, u64::from(i)).unwrap_or(ty);
        }
        self.push(InstKind::ExtractValue { agg, indices }, ty, None)
    }

    pub fn insert_value(&mut self, agg: Value, value: Value, indices: Vec<u32>) -> Value {
        let ty = self.type_of(agg);
        self.push(InstKind::InsertValue { agg, value, indices }, ty, None)
    }

    pub fn extract_element(&mut self, vector: Value, index: Value) -> Value {
        let vty = self.type_of(vector);
        let ty = self.module.types.scalar_of(vty);
        self.push(InstKind::ExtractElement { vector, index }, ty, None)
    }

    pub fn insert_element(&mut self, vector: Value, value: Value, index: Value) -> Value {
        let ty = self.type_of(vector);
        self.push(InstKind::InsertElement { vector, value, index }, ty, None)
    }

    /// `atomicrmw`: the result has the pointee type (the value before the operation).
    pub fn atomic_rmw(&mut self, op: RmwOp, ptr: Value, value: Value) -> Value {
        let ty = self.type_of(value);
        self.push(InstKind::AtomicRmw { op, ptr, value }, ty, None)
    }

    /// `cmpxchg`: the result is `{ T, i1 }` (old value, success).
    pub fn cmpxchg(&mut self, ptr: Value, cmp: Value, new: Value) -> Value {
        let t = self.type_of(cmp);
        let i1 = self.module.types.i1();
        let ty = self.module.types.literal_struct(vec![t, i1]);
        self.push(InstKind::CmpXchg { ptr, cmp, new }, ty, None)
    }
}
