//! Function blocks: `DECLAREBLOCKS`, the function's constants, one record per instruction
//! (LLVM 3.7's `WriteInstruction`), and the function's value symbol table.
//!
//! Operands are relative: an instruction numbered `N` refers to value `V` as `N - V` (32-bit
//! wrap-around for forward references, which also carry their type); `phi` operands are signed
//! VBRs; blocks, `switch` case values and the `alloca` size are absolute.

use super::enumerate::{Enumerator, FunctionIds};
use super::stream::BitWriter;
use super::{abbrev, block, signed, symbol, write_constants};
use crate::ir::{BinOp, Body, CastOp, FloatPred, Function, InstKind, IntPred, RmwOp, Type, TypeId, Value};

/// LLVM's all-flags-set fast-math word (`fast`: unsafe algebra, nnan, ninf, nsz, arcp).
const FAST_MATH: u64 = 0x1F;
const ORDERING_SEQCST: u64 = 6;
const SYNCHSCOPE_CROSSTHREAD: u64 = 1;

fn binop_code(op: BinOp) -> u64 {
    use BinOp::*;
    match op {
        Add | FAdd => 0,
        Sub | FSub => 1,
        Mul | FMul => 2,
        UDiv => 3,
        SDiv | FDiv => 4,
        URem => 5,
        SRem | FRem => 6,
        Shl => 7,
        LShr => 8,
        AShr => 9,
        And => 10,
        Or => 11,
        Xor => 12,
    }
}

fn cast_code(op: CastOp) -> u64 {
    use CastOp::*;
    match op {
        Trunc => 0,
        ZExt => 1,
        SExt => 2,
        FPToUI => 3,
        FPToSI => 4,
        UIToFP => 5,
        SIToFP => 6,
        FPTrunc => 7,
        FPExt => 8,
        BitCast => 11,
        AddrSpaceCast => 12,
    }
}

fn icmp_code(p: IntPred) -> u64 {
    use IntPred::*;
    match p {
        Eq => 32,
        Ne => 33,
        Ugt => 34,
        Uge => 35,
        Ult => 36,
        Ule => 37,
        Sgt => 38,
        Sge => 39,
        Slt => 40,
        Sle => 41,
    }
}

fn fcmp_code(p: FloatPred) -> u64 {
    use FloatPred::*;
    match p {
        False => 0,
        Oeq => 1,
        Ogt => 2,
        Oge => 3,
        Olt => 4,
        Ole => 5,
        One => 6,
        Ord => 7,
        Uno => 8,
        Ueq => 9,
        Ugt => 10,
        Uge => 11,
        Ult => 12,
        Ule => 13,
        Une => 14,
        True => 15,
    }
}

fn rmw_code(op: RmwOp) -> u64 {
    use RmwOp::*;
    match op {
        Xchg => 0,
        Add => 1,
        Sub => 2,
        And => 3,
        Nand => 4,
        Or => 5,
        Xor => 6,
        Max => 7,
        Min => 8,
        UMax => 9,
        UMin => 10,
    }
}

struct Ctx<'a, 'm> {
    e: &'a Enumerator<'m>,
    f: &'a Function,
    body: &'a Body,
    ids: FunctionIds,
}

impl Ctx<'_, '_> {
    fn id(&self, v: Value) -> u32 {
        self.e.value_id(&self.ids, v)
    }

    fn ty_of(&self, v: Value) -> TypeId {
        let e = self.e;
        match v {
            Value::Const(c) => e.consts.get(c).ty(),
            Value::Arg(n) => e.types.fn_parts(self.f.ty).and_then(|(_, p)| p.get(n as usize).copied()).unwrap_or(TypeId(0)),
            Value::Inst(i) => self.body.insts.get(i.0 as usize).map_or(TypeId(0), |x| x.ty),
            Value::Global(g) => {
                let g = &e.module.globals[g.0 as usize];
                find_type(e, &Type::Pointer { pointee: g.ty, addrspace: g.addrspace })
            }
            Value::Func(fid) => find_type(e, &Type::Pointer { pointee: e.module.function(fid).ty, addrspace: 0 }),
        }
    }

    /// Pushes `v` relative to `inst`; a forward reference also gets its type. Returns whether
    /// it was a forward reference.
    fn push_typed(&self, ops: &mut Vec<u64>, v: Value, inst: u32) -> bool {
        let id = self.id(v);
        ops.push(u64::from(inst.wrapping_sub(id)));
        if id >= inst {
            ops.push(self.e.type_id(self.ty_of(v)));
            return true;
        }
        false
    }

    fn push(&self, ops: &mut Vec<u64>, v: Value, inst: u32) {
        ops.push(u64::from(inst.wrapping_sub(self.id(v))));
    }
}

fn find_type(e: &Enumerator, t: &Type) -> TypeId {
    e.types.iter().find(|(_, x)| *x == t).map_or(TypeId(0), |(id, _)| id)
}

pub(super) fn write_function(e: &Enumerator, f: &Function, w: &mut BitWriter) {
    let Some(body) = &f.body else { return };
    w.enter_block(block::FUNCTION, 4);
    let ids = e.incorporate(f);
    w.record(1, &[body.blocks.len() as u64], 0); // DECLAREBLOCKS
    let cx = Ctx { e, f, body, ids };
    let id_of = |c| u64::from(cx.id(Value::Const(c)));
    write_constants(e, w, &cx.ids.consts, false, &id_of);
    let mut next = cx.ids.first_const + cx.ids.consts.len() as u32;
    let mut last_loc = None;
    for block in &body.blocks {
        for &i in &block.insts {
            write_instruction(&cx, w, i, next);
            if !e.types.is_void(body.inst(i).ty) {
                next += 1;
            }
            // `-Zi`: the instruction's DILocation, as FUNC_CODE_DEBUG_LOC (35) or, when it is the
            // previous one again, FUNC_CODE_DEBUG_LOC_AGAIN (33).
            if let Some(&loc) = body.dbg.get(&i) {
                if last_loc == Some(loc) {
                    w.record(33, &[], 0);
                } else if let Some(rec) = debug_loc(e, loc) {
                    w.record(35, &rec, 0);
                    last_loc = Some(loc);
                }
            }
        }
    }
    write_function_symbols(&cx, w);
    w.exit_block();
}

fn write_instruction(cx: &Ctx, w: &mut BitWriter, id: crate::ir::InstId, n: u32) {
    let e = cx.e;
    let inst = cx.body.inst(id);
    let mut ops: Vec<u64> = Vec::new();
    let mut abbrev_id = 0;
    let code: u32 = match &inst.kind {
        InstKind::Binary { op, lhs, rhs, fast } => {
            let fwd = cx.push_typed(&mut ops, *lhs, n);
            cx.push(&mut ops, *rhs, n);
            ops.push(binop_code(*op));
            if *fast && op.is_float() {
                ops.push(FAST_MATH);
                if !fwd {
                    abbrev_id = abbrev::FUNCTION_INST_BINOP_FLAGS;
                }
            } else if !fwd {
                abbrev_id = abbrev::FUNCTION_INST_BINOP;
            }
            2
        }
        InstKind::Cast { op, value } => {
            if !cx.push_typed(&mut ops, *value, n) {
                abbrev_id = abbrev::FUNCTION_INST_CAST;
            }
            ops.push(e.type_id(inst.ty));
            ops.push(cast_code(*op));
            3
        }
        InstKind::Select { cond, then_value, else_value } => {
            cx.push_typed(&mut ops, *then_value, n);
            cx.push(&mut ops, *else_value, n);
            cx.push_typed(&mut ops, *cond, n);
            29
        }
        InstKind::ExtractElement { vector, index } => {
            cx.push_typed(&mut ops, *vector, n);
            cx.push_typed(&mut ops, *index, n);
            6
        }
        InstKind::InsertElement { vector, value, index } => {
            cx.push_typed(&mut ops, *vector, n);
            cx.push(&mut ops, *value, n);
            cx.push_typed(&mut ops, *index, n);
            7
        }
        InstKind::ICmp { pred, lhs, rhs } => {
            cx.push_typed(&mut ops, *lhs, n);
            cx.push(&mut ops, *rhs, n);
            ops.push(icmp_code(*pred));
            28
        }
        InstKind::FCmp { pred, lhs, rhs, fast } => {
            cx.push_typed(&mut ops, *lhs, n);
            cx.push(&mut ops, *rhs, n);
            ops.push(fcmp_code(*pred));
            if *fast {
                ops.push(FAST_MATH);
            }
            28
        }
        InstKind::Ret { value: None } => {
            abbrev_id = abbrev::FUNCTION_INST_RET_VOID;
            10
        }
        InstKind::Ret { value: Some(v) } => {
            if !cx.push_typed(&mut ops, *v, n) {
                abbrev_id = abbrev::FUNCTION_INST_RET_VAL;
            }
            10
        }
        InstKind::Br { target } => {
            ops.push(u64::from(target.0));
            11
        }
        InstKind::CondBr { cond, then_block, else_block } => {
            ops.push(u64::from(then_block.0));
            ops.push(u64::from(else_block.0));
            cx.push(&mut ops, *cond, n);
            11
        }
        InstKind::Switch { value, default, cases } => {
            ops.push(e.type_id(cx.ty_of(*value)));
            cx.push(&mut ops, *value, n);
            ops.push(u64::from(default.0));
            for (c, b) in cases {
                ops.push(u64::from(cx.id(Value::Const(*c))));
                ops.push(u64::from(b.0));
            }
            12
        }
        InstKind::Unreachable => {
            abbrev_id = abbrev::FUNCTION_INST_UNREACHABLE;
            15
        }
        InstKind::Phi { incoming } => {
            ops.push(e.type_id(inst.ty));
            for (v, b) in incoming {
                let rel = i64::from(n as i32) - i64::from(cx.id(*v) as i32);
                ops.push(signed(rel));
                ops.push(u64::from(b.0));
            }
            16
        }
        InstKind::Alloca { allocated, align } => {
            let one = e.alloca_size();
            let size_ty = one.map_or(TypeId(0), |c| e.consts.get(c).ty());
            ops.push(e.type_id(*allocated));
            ops.push(e.type_id(size_ty));
            ops.push(u64::from(one.map_or(0, |c| cx.id(Value::Const(c)))));
            ops.push(super::encode_align(*align) | 1 << 6);
            19
        }
        InstKind::Load { ptr, align } => {
            if !cx.push_typed(&mut ops, *ptr, n) {
                abbrev_id = abbrev::FUNCTION_INST_LOAD;
            }
            ops.push(e.type_id(inst.ty));
            ops.push(super::encode_align(*align));
            ops.push(0);
            20
        }
        InstKind::Store { value, ptr, align } => {
            cx.push_typed(&mut ops, *ptr, n);
            cx.push_typed(&mut ops, *value, n);
            ops.push(super::encode_align(*align));
            ops.push(0);
            44
        }
        InstKind::Gep { inbounds, source, base, indices } => {
            abbrev_id = abbrev::FUNCTION_INST_GEP;
            ops.push(u64::from(*inbounds));
            ops.push(e.type_id(*source));
            cx.push_typed(&mut ops, *base, n);
            for i in indices {
                cx.push_typed(&mut ops, *i, n);
            }
            43
        }
        InstKind::ExtractValue { agg, indices } => {
            cx.push_typed(&mut ops, *agg, n);
            ops.extend(indices.iter().map(|&i| u64::from(i)));
            26
        }
        InstKind::InsertValue { agg, value, indices } => {
            cx.push_typed(&mut ops, *agg, n);
            cx.push_typed(&mut ops, *value, n);
            ops.extend(indices.iter().map(|&i| u64::from(i)));
            27
        }
        InstKind::AtomicRmw { op, ptr, value } => {
            cx.push_typed(&mut ops, *ptr, n);
            cx.push(&mut ops, *value, n);
            ops.extend([rmw_code(*op), 0, ORDERING_SEQCST, SYNCHSCOPE_CROSSTHREAD]);
            38
        }
        InstKind::CmpXchg { ptr, cmp, new } => {
            cx.push_typed(&mut ops, *ptr, n);
            cx.push_typed(&mut ops, *cmp, n);
            cx.push(&mut ops, *new, n);
            ops.extend([0, ORDERING_SEQCST, SYNCHSCOPE_CROSSTHREAD, ORDERING_SEQCST, 0]);
            46
        }
        InstKind::Call { callee, args } => {
            let fty = e.module.function(*callee).ty;
            ops.push(0); // call-site attributes
            ops.push(1 << 15); // C calling convention, explicit function type
            ops.push(e.type_id(fty));
            cx.push_typed(&mut ops, Value::Func(*callee), n);
            for a in args {
                cx.push(&mut ops, *a, n);
            }
            34
        }
    };
    w.record(code, &ops, abbrev_id);
}

fn write_function_symbols(cx: &Ctx, w: &mut BitWriter) {
    let mut entries: Vec<(bool, u32, &str)> = Vec::new();
    for (i, name) in cx.f.arg_names.iter().enumerate() {
        if let Some(name) = name {
            entries.push((false, cx.ids.first_arg + i as u32, name));
        }
    }
    for (bi, block) in cx.body.blocks.iter().enumerate() {
        if let Some(name) = &block.name {
            entries.push((true, bi as u32, name));
        }
        for &i in &block.insts {
            if let (Some(name), Some(id)) = (&cx.body.inst(i).name, cx.ids.inst_ids[i.0 as usize]) {
                entries.push((false, id, name));
            }
        }
    }
    if entries.is_empty() {
        return;
    }
    w.enter_block(block::VALUE_SYMTAB, 4);
    for (bb, id, name) in entries {
        symbol(w, bb, id, name);
    }
    w.exit_block();
}

/// `[line, column, scope, inlined at]` of a `DILocation` node (metadata ids 1-based, 0 = none).
fn debug_loc(e: &Enumerator, loc: crate::ir::MdId) -> Option<Vec<u64>> {
    use crate::ir::metadata::Field;
    let sp = e.module.md_nodes.get(loc.0 as usize)?.special.as_ref()?;
    let get = |name: &str| sp.fields.iter().find(|(n, _)| *n == name).map(|(_, f)| f);
    let num = |name: &str| match get(name) {
        Some(Field::Raw(s)) => s.parse::<u64>().ok(),
        _ => Some(0),
    };
    let id = |name: &str| get(name).map_or(0, |f| e.md_field_id(f));
    Some(vec![num("line")?, num("column")?, id("scope"), id("inlinedAt")])
}
