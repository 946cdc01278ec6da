//! Expressions: every value flattened to scalars; operators and conversions per component with
//! constants folded; places (lvalues) for assignment.

use super::{unsupported, Flat, Lowerer, R};
use crate::ir::{BinOp, CastOp, Const, FloatPred, IntPred, Value};
use hlslc_frontend::ast::{BinaryOp, UnaryOp};
use hlslc_sema::tast::{CastKind, ConstValue, ExprId, ExprKind, ParamDir, Storage, VarId};
use hlslc_sema::types::{ScalarKind, Type, TypeId};

/// Where an lvalue's components live.
#[derive(Clone, Debug)]
pub(crate) enum Root {
    Var(VarId),
    This,
    /// An element of a writable resource (`buf[i]`, `tex[uint2(x, y)]`).
    Resource { object: ExprId, coord: Flat },
}

/// An lvalue: components `comps` of the root's flattening, shifted by `index * stride` for each
/// non-constant index in `dynamic` (`(index, stride, count)`, `count` candidate elements).
#[derive(Clone, Debug)]
pub(crate) struct Place {
    pub root: Root,
    pub root_ty: TypeId,
    pub comps: Vec<usize>,
    pub dynamic: Vec<(Value, usize, usize)>,
}

impl Lowerer<'_> {
    pub(crate) fn kind_of(&self, ty: TypeId) -> ScalarKind {
        self.t.types.component(ty).unwrap_or(ScalarKind::Int)
    }

    pub(crate) fn const_scalar(&mut self, k: ScalarKind, c: ConstValue) -> Value {
        let t = self.scalar_ir(k);
        let m = &mut self.b.module;
        Value::Const(match (k.is_float(), c) {
            (_, ConstValue::Bool(b)) if k.is_bool() => m.const_bool(b),
            (true, ConstValue::Float(f)) => m.const_float(t, f),
            (true, ConstValue::Int(i)) => m.const_float(t, i as f64),
            (true, ConstValue::Bool(b)) => m.const_float(t, if b { 1.0 } else { 0.0 }),
            (false, ConstValue::Int(i)) if k.is_bool() => m.const_bool(i != 0),
            (false, ConstValue::Float(f)) if k.is_bool() => m.const_bool(f != 0.0),
            (false, ConstValue::Int(i)) => m.const_int(t, i),
            (false, ConstValue::Float(f)) => m.const_int(t, f as i64),
            (false, ConstValue::Bool(b)) => m.const_int(t, i64::from(b)),
        })
    }

    pub(crate) fn zero_of(&mut self, ty: TypeId) -> Flat {
        let kinds = self.leaf_kinds(ty);
        kinds.into_iter().map(|k| self.const_scalar(k, ConstValue::Int(0))).collect()
    }

    /// The constant value of `v`, if it is a numeric constant (floats as f64, ints sign-extended
    /// from their width).
    pub(crate) fn const_of(&self, v: Value) -> Option<ConstValue> {
        let Value::Const(c) = v else { return None };
        let m = &self.b.module;
        match m.consts.get(c) {
            Const::Int { ty, bits } => {
                let w = m.types.int_width(*ty).unwrap_or(64);
                if w == 1 {
                    return Some(ConstValue::Bool(*bits != 0));
                }
                let sh = 64 - w;
                Some(ConstValue::Int(((*bits << sh) as i64) >> sh))
            }
            Const::Float { ty, bits } => Some(ConstValue::Float(match m.types.get(*ty) {
                crate::ir::Type::Float => f64::from(f32::from_bits(*bits as u32)),
                crate::ir::Type::Double => f64::from_bits(*bits),
                _ => return None,
            })),
            _ => None,
        }
    }

    fn cf(&self, v: Value) -> Option<f64> {
        match self.const_of(v)? {
            ConstValue::Float(f) => Some(f),
            _ => None,
        }
    }
    fn ci(&self, v: Value) -> Option<i64> {
        match self.const_of(v)? {
            ConstValue::Int(i) => Some(i),
            ConstValue::Bool(b) => Some(i64::from(b)),
            _ => None,
        }
    }

    /// Converts one scalar between component kinds.
    pub(crate) fn convert_scalar(&mut self, v: Value, from: ScalarKind, to: ScalarKind) -> Value {
        let (ft, tt) = (self.scalar_ir(from), self.scalar_ir(to));
        if from.is_bool() && to.is_bool() {
            return v;
        }
        if to.is_bool() {
            if let Some(c) = self.const_of(v) {
                let b = match c {
                    ConstValue::Int(i) => i != 0,
                    ConstValue::Float(f) => f != 0.0,
                    ConstValue::Bool(b) => b,
                };
                return self.cbool(b);
            }
            let zero = self.const_scalar(from, ConstValue::Int(0));
            return if from.is_float() { self.b.fcmp(FloatPred::Une, v, zero) } else { self.b.icmp(IntPred::Ne, v, zero) };
        }
        if let Some(c) = self.const_of(v) {
            let c = match c {
                ConstValue::Float(f) if to.is_int() => {
                    if to.is_unsigned() {
                        ConstValue::Int(f as u64 as i64)
                    } else {
                        ConstValue::Int(f as i64)
                    }
                }
                ConstValue::Int(i) if to.is_float() && from.is_unsigned() => {
                    let w = self.b.module.types.int_width(ft).unwrap_or(32);
                    let u = if w >= 64 { i as u64 } else { (i as u64) & ((1u64 << w) - 1) };
                    ConstValue::Float(u as f64)
                }
                ConstValue::Int(i) if to.is_int() && from.is_unsigned() => {
                    let w = self.b.module.types.int_width(ft).unwrap_or(32);
                    ConstValue::Int(if w >= 64 { i } else { ((i as u64) & ((1u64 << w) - 1)) as i64 })
                }
                other => other,
            };
            return self.const_scalar(to, c);
        }
        if ft == tt {
            return v;
        }
        let op = if from.is_bool() {
            if to.is_float() {
                CastOp::UIToFP
            } else {
                CastOp::ZExt
            }
        } else if from.is_float() && to.is_float() {
            if self.fbits(to) > self.fbits(from) {
                CastOp::FPExt
            } else {
                CastOp::FPTrunc
            }
        } else if from.is_float() {
            if to.is_unsigned() {
                CastOp::FPToUI
            } else {
                CastOp::FPToSI
            }
        } else if to.is_float() {
            if from.is_unsigned() {
                CastOp::UIToFP
            } else {
                CastOp::SIToFP
            }
        } else {
            let (fw, tw) = (self.b.module.types.int_width(ft).unwrap_or(32), self.b.module.types.int_width(tt).unwrap_or(32));
            if tw < fw {
                CastOp::Trunc
            } else if from.is_unsigned() {
                CastOp::ZExt
            } else {
                CastOp::SExt
            }
        };
        self.b.cast(op, v, tt)
    }

    fn fbits(&mut self, k: ScalarKind) -> u32 {
        let t = self.scalar_ir(k);
        match self.b.module.types.get(t) {
            crate::ir::Type::Half => 16,
            crate::ir::Type::Double => 64,
            _ => 32,
        }
    }

    /// Lowers an expression to its flattened components (with `-Zi`, its instructions get its
    /// location).
    pub(crate) fn expr(&mut self, e: ExprId) -> R<Flat> {
        if self.debug_scope.is_none() {
            return self.expr_here(e);
        }
        let saved = self.set_location(Some(self.expr_location(e)));
        let r = self.expr_here(e);
        self.restore_location(saved);
        r
    }

    fn expr_here(&mut self, e: ExprId) -> R<Flat> {
        let t = self.t;
        let ex = t.expr(e);
        let span = self.span(e);
        match &ex.kind {
            ExprKind::Const(c) => {
                let kinds = self.leaf_kinds(ex.ty);
                Ok(kinds.into_iter().map(|k| self.const_scalar(k, *c)).collect())
            }
            ExprKind::Var(v) if self.is_groupshared(*v) => self.load_shared(e),
            ExprKind::Var(v) => self.load_var(*v, e),
            ExprKind::Field { .. } | ExprKind::Swizzle { .. } | ExprKind::MatrixSwizzle { .. } | ExprKind::Index { .. }
                if self.groupshared_rooted(e) =>
            {
                self.load_shared(e)
            }
            ExprKind::Field { .. } | ExprKind::Swizzle { .. } | ExprKind::MatrixSwizzle { .. } | ExprKind::Index { .. }
                if self.cbuffer_rooted(e) =>
            {
                self.load_cb_place(e)
            }
            ExprKind::This => match self.this_stack.last().and_then(|v| self.vars.get(v)) {
                Some(f) => Ok(f.clone()),
                None => unsupported("`this` outside a method", span),
            },
            ExprKind::Unary { op, operand } => self.unary(*op, *operand, e),
            ExprKind::Binary { op, lhs, rhs } => {
                if *op == BinaryOp::Comma {
                    self.expr(*lhs)?;
                    return self.expr(*rhs);
                }
                if matches!(op, BinaryOp::LogAnd | BinaryOp::LogOr) && self.short_circuits(*lhs) && self.has_effects(*rhs) {
                    return self.short_circuit(*op == BinaryOp::LogAnd, *lhs, *rhs);
                }
                let kind = self.kind_of(t.expr(*lhs).ty);
                let (a, b) = (self.expr(*lhs)?, self.expr(*rhs)?);
                let mut out = Vec::new();
                for (x, y) in a.into_iter().zip(b) {
                    out.push(self.binop(*op, kind, x, y, span)?);
                }
                Ok(out)
            }
            ExprKind::Assign { op, lhs, rhs } => {
                let value = self.expr(*rhs)?;
                let value = match op {
                    None => value,
                    Some(op) => {
                        let cur = self.expr(*lhs)?;
                        let kind = self.kind_of(t.expr(*lhs).ty);
                        let mut out = Vec::new();
                        for (x, y) in cur.into_iter().zip(value) {
                            out.push(self.binop(*op, kind, x, y, span)?);
                        }
                        out
                    }
                };
                let place = self.place(self.written_target(*lhs))?;
                self.store_place(&place, &value, span)?;
                Ok(value)
            }
            ExprKind::CompoundAssign { op, lhs, rhs, to_op, from_op } => {
                let value = self.expr(*rhs)?;
                let (lty, op_ty) = (t.expr(*lhs).ty, t.expr(*rhs).ty);
                let cur = self.expr(*lhs)?;
                let cur = self.cast_values(*to_op, cur, lty, op_ty, span)?;
                let kind = self.kind_of(op_ty);
                let mut out = Vec::new();
                for (x, y) in cur.into_iter().zip(value) {
                    out.push(self.binop(*op, kind, x, y, span)?);
                }
                let value = self.cast_values(*from_op, out, op_ty, lty, span)?;
                let place = self.place(self.written_target(*lhs))?;
                self.store_place(&place, &value, span)?;
                Ok(value)
            }
            ExprKind::Ternary { cond, then, otherwise }
                if self.short_circuits(*cond) && (self.has_effects(*then) || self.has_effects(*otherwise)) =>
            {
                self.short_circuit_select(*cond, *then, *otherwise)
            }
            ExprKind::Ternary { cond, then, otherwise } => {
                let c = self.expr(*cond)?;
                let (a, b) = (self.expr(*then)?, self.expr(*otherwise)?);
                let mut out = Vec::new();
                for (i, (x, y)) in a.into_iter().zip(b).enumerate() {
                    let ci = if c.len() == 1 { c[0] } else { c[i.min(c.len() - 1)] };
                    out.push(self.select(ci, x, y));
                }
                Ok(out)
            }
            ExprKind::Cast { kind, expr, .. } => self.cast(*kind, *expr, ex.ty, span),
            ExprKind::Construct { args } => {
                let mut out = Vec::new();
                for &a in args {
                    out.extend(self.expr(a)?);
                }
                Ok(out)
            }
            ExprKind::Call { func, this_arg, args } => self.inline_call(*func, *this_arg, args, e),
            ExprKind::Intrinsic { op, object, args } => self.intrinsic(*op, *object, args, e),
            ExprKind::Field { base, .. } | ExprKind::Swizzle { base, .. } | ExprKind::MatrixSwizzle { base, .. } => {
                if self.is_object(t.expr(*base).ty) {
                    return self.resource_member(e);
                }
                if let Some(handles) = self.resource_field(e)? {
                    return Ok(handles);
                }
                let b = self.expr(*base)?;
                let comps = self.sub_comps(e)?;
                match comps.into_iter().map(|i| b.get(i).copied()).collect::<Option<Flat>>() {
                    Some(v) => Ok(v),
                    None => unsupported("this member access (resources inside aggregates)", span),
                }
            }
            ExprKind::Index { base, index } => {
                let bty = t.expr(*base).ty;
                if self.patch_parts(bty).is_some() {
                    return self.patch_index(*base, *index, e);
                }
                if self.is_object(bty) && !matches!(t.types.get(bty), Type::Array { .. }) {
                    return self.resource_index(*base, *index, e);
                }
                if self.is_object(bty) {
                    if let Some(h) = self.resource_array_element(e)? {
                        return Ok(vec![h]);
                    }
                }
                let b = self.expr(*base)?;
                let idx = self.expr(*index)?[0];
                let (stride, count) = self.index_stride(bty);
                let n = self.flat_len(ex.ty);
                if let Some(i) = self.ci(idx) {
                    let start = (i.max(0) as usize).min(count.saturating_sub(1)) * stride;
                    return match b.get(start..start + n) {
                        Some(v) => Ok(v.to_vec()),
                        None => unsupported("this indexing (resources inside aggregates)", span),
                    };
                }
                if b.len() < count * stride || n > stride {
                    return unsupported("this indexing (resources inside aggregates)", span);
                }
                // Dynamic index: a select chain over the candidates.
                if count * n > 1024 {
                    return unsupported("dynamic indexing of a large local array", span);
                }
                let mut out: Flat = b[..n].to_vec();
                let ik = self.kind_of(t.expr(*index).ty);
                for k in 1..count {
                    let kc = self.const_scalar(ik, ConstValue::Int(k as i64));
                    let is_k = self.b.icmp(IntPred::Eq, idx, kc);
                    for j in 0..n {
                        out[j] = self.select(is_k, b[k * stride + j], out[j]);
                    }
                }
                Ok(out)
            }
            ExprKind::OutArg { lvalue, to_param, .. } => {
                let v = self.expr(*lvalue)?;
                match to_param {
                    Some(k) => self.cast_values(*k, v, t.expr(*lvalue).ty, ex.ty, span),
                    None => Ok(v),
                }
            }
            ExprKind::Comma { lhs, rhs } => {
                self.expr(*lhs)?;
                self.expr(*rhs)
            }
            ExprKind::Str(_) => unsupported("a string literal", span),
            ExprKind::TexelAt { texture, level, coord, .. } => {
                // The mip level or the sample index goes in textureLoad's level operand.
                let (h, kind, elem) = self.object_handle(*texture)?;
                let l = self.expr(*level)?;
                let c = self.expr(*coord)?;
                let Some(&l) = l.first() else { return unsupported("this texel access", span) };
                self.resource_read(h, kind, elem, c, Some(l), span)
            }
            ExprKind::HeapIndex { sampler, index } => self.heap_handle(e, *sampler, *index),
        }
    }

    pub(crate) fn is_object(&self, ty: TypeId) -> bool {
        matches!(self.t.types.get(ty), Type::Object { .. })
            || matches!(self.t.types.get(ty), Type::Array { elem, .. } if self.is_object(*elem))
    }

    /// Components per element and element count of an indexable type.
    fn index_stride(&self, ty: TypeId) -> (usize, usize) {
        match self.t.types.get(ty) {
            Type::Array { elem, len } => (self.flat_len(*elem), len.unwrap_or(0) as usize),
            Type::Vector(_, n) => (1, *n as usize),
            Type::Matrix { rows, cols, .. } => (*cols as usize, *rows as usize),
            _ => (1, 1),
        }
    }

    /// Component indices that a field/swizzle expression selects from its base's flattening.
    fn sub_comps(&self, e: ExprId) -> R<Vec<usize>> {
        let t = self.t;
        Ok(match &t.expr(e).kind {
            ExprKind::Field { base, index, via_base } => {
                let mut ty = t.expr(*base).ty;
                let mut start = 0;
                for &step in via_base {
                    let Type::Struct(s) = t.types.get(ty) else { break };
                    let def = &t.types.structs[s.0 as usize];
                    for b in &def.bases[..step as usize] {
                        start += self.flat_len(*b);
                    }
                    ty = def.bases[step as usize];
                }
                let Type::Struct(s) = t.types.get(ty) else { return unsupported("a field of a non-struct", self.span(e)) };
                let def = &t.types.structs[s.0 as usize];
                for b in &def.bases {
                    start += self.flat_len(*b);
                }
                for f in &def.fields[..*index as usize] {
                    start += self.flat_len(f.ty);
                }
                let n = self.flat_len(def.fields[*index as usize].ty);
                (start..start + n).collect()
            }
            ExprKind::Swizzle { components, .. } => components.iter().map(|c| *c as usize).collect(),
            ExprKind::MatrixSwizzle { base, elements } => {
                let cols = match t.types.get(t.expr(*base).ty) {
                    Type::Matrix { cols, .. } => *cols as usize,
                    _ => 1,
                };
                elements.iter().map(|(r, c)| *r as usize * cols + *c as usize).collect()
            }
            _ => Vec::new(),
        })
    }

    fn load_var(&mut self, v: VarId, e: ExprId) -> R<Flat> {
        if self.is_mesh_output(v) {
            return Err(super::LowerError { message: "output arrays of a mesh shader can not be read from".into(), span: self.span(e) });
        }
        self.check_kept_static(v, e)?;
        if let Some(f) = self.vars.get(&v) {
            return Ok(f.clone());
        }
        let var = self.t.var(v);
        if let Some(c) = var.const_value {
            let kinds = self.leaf_kinds(var.ty);
            return Ok(kinds.into_iter().map(|k| self.const_scalar(k, c)).collect());
        }
        match var.storage {
            Storage::CBufferMember { cbuffer, index } => self.load_cbuffer_member(Some(cbuffer), v, index, e),
            Storage::Uniform if self.is_object(var.ty) => self.load_resource_var(v, self.span(e)),
            Storage::Uniform => self.load_cbuffer_member(None, v, 0, e),
            _ => {
                // A variable read before any assignment (or a static without initializer).
                let z = self.zero_of(var.ty);
                Ok(z)
            }
        }
    }

    fn unary(&mut self, op: UnaryOp, operand: ExprId, e: ExprId) -> R<Flat> {
        let ty = self.t.expr(operand).ty;
        let kind = self.kind_of(ty);
        let span = self.span(e);
        let v = self.expr(operand)?;
        let mut out = Vec::new();
        match op {
            UnaryOp::Plus => return Ok(v),
            UnaryOp::Neg => {
                for x in v {
                    let z = if kind.is_float() { self.const_scalar(kind, ConstValue::Float(-0.0)) } else { self.const_scalar(kind, ConstValue::Int(0)) };
                    out.push(self.binop(BinaryOp::Sub, kind, z, x, span)?);
                }
            }
            UnaryOp::Not => {
                for x in v {
                    let b = self.convert_scalar(x, kind, ScalarKind::Bool);
                    let t = self.cbool(true);
                    out.push(self.raw_bin(BinOp::Xor, b, t));
                }
            }
            UnaryOp::BitNot => {
                for x in v {
                    let m1 = self.const_scalar(kind, ConstValue::Int(-1));
                    out.push(self.raw_bin(BinOp::Xor, x, m1));
                }
            }
            UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec => {
                let bop = if matches!(op, UnaryOp::PreInc | UnaryOp::PostInc) { BinaryOp::Add } else { BinaryOp::Sub };
                let mut new = Vec::new();
                for &x in &v {
                    let one = self.const_scalar(kind, ConstValue::Int(1));
                    new.push(self.binop(bop, kind, x, one, span)?);
                }
                let place = self.place(self.written_target(operand))?;
                self.store_place(&place, &new, span)?;
                return Ok(if matches!(op, UnaryOp::PreInc | UnaryOp::PreDec) { new } else { v });
            }
        }
        Ok(out)
    }

    pub(crate) fn select(&mut self, c: Value, a: Value, b: Value) -> Value {
        if a == b {
            return a;
        }
        match self.const_of(c) {
            Some(ConstValue::Bool(true)) => a,
            Some(ConstValue::Bool(false)) => b,
            _ => self.b.select(c, a, b),
        }
    }

    /// An IR binary instruction, folded when both operands are integer constants.
    pub(crate) fn raw_bin(&mut self, op: BinOp, a: Value, b: Value) -> Value {
        if let (Some(x), Some(y)) = (self.ci(a), self.ci(b)) {
            let r = match op {
                BinOp::And => Some(x & y),
                BinOp::Or => Some(x | y),
                BinOp::Xor => Some(x ^ y),
                BinOp::Add => Some(x.wrapping_add(y)),
                BinOp::Sub => Some(x.wrapping_sub(y)),
                BinOp::Mul => Some(x.wrapping_mul(y)),
                _ => None,
            };
            if let Some(r) = r {
                let ty = self.b.type_of(a);
                return Value::Const(if self.b.module.types.int_width(ty) == Some(1) {
                    self.b.module.const_bool(r & 1 != 0)
                } else {
                    self.b.module.const_int(ty, r)
                });
            }
        }
        self.b.binary(op, a, b)
    }

    /// One scalar operation of an HLSL binary operator on components of `kind`.
    pub(crate) fn binop(&mut self, op: BinaryOp, kind: ScalarKind, a: Value, b: Value, span: Option<hlslc_frontend::Span>) -> R<Value> {
        use BinaryOp::*;
        let f = kind.is_float();
        let s = kind.is_signed_int();
        if let Some(v) = self.fold_binop(op, kind, a, b) {
            return Ok(v);
        }
        if let Some(v) = self.identity(op, kind, a, b) {
            return Ok(v);
        }
        // `x * 2^n` is a shift, as LLVM's instcombine leaves it.
        if op == Mul && !f {
            if let Some(c) = self.ci(b).filter(|c| *c > 1 && (*c as u64).is_power_of_two()) {
                let ty = self.b.type_of(a);
                let sh = Value::Const(self.b.module.const_int(ty, i64::from((c as u64).trailing_zeros())));
                return Ok(self.raw_bin(BinOp::Shl, a, sh));
            }
        }
        let arith = |o: BinOp| Some(o);
        let bop = match op {
            Add => arith(if f { BinOp::FAdd } else { BinOp::Add }),
            Sub => arith(if f { BinOp::FSub } else { BinOp::Sub }),
            Mul => arith(if f { BinOp::FMul } else { BinOp::Mul }),
            Div => arith(if f { BinOp::FDiv } else if s { BinOp::SDiv } else { BinOp::UDiv }),
            Rem => arith(if f { BinOp::FRem } else if s { BinOp::SRem } else { BinOp::URem }),
            Shl | Shr => {
                let ty = self.b.type_of(a);
                let w = self.b.module.types.int_width(ty).unwrap_or(32);
                let mask = Value::Const(self.b.module.const_int(ty, i64::from(w - 1)));
                let amount = self.raw_bin(BinOp::And, b, mask);
                let o = if op == Shl { BinOp::Shl } else if s { BinOp::AShr } else { BinOp::LShr };
                return Ok(self.raw_bin(o, a, amount));
            }
            BitAnd | LogAnd => arith(BinOp::And),
            BitOr | LogOr => arith(BinOp::Or),
            BitXor => arith(BinOp::Xor),
            _ => None,
        };
        if let Some(o) = bop {
            return Ok(self.raw_bin(o, a, b));
        }
        let pred = |fp: FloatPred, sp: IntPred, up: IntPred| (fp, if s { sp } else { up });
        let (fp, ip) = match op {
            Lt => pred(FloatPred::Olt, IntPred::Slt, IntPred::Ult),
            Gt => pred(FloatPred::Ogt, IntPred::Sgt, IntPred::Ugt),
            Le => pred(FloatPred::Ole, IntPred::Sle, IntPred::Ule),
            Ge => pred(FloatPred::Oge, IntPred::Sge, IntPred::Uge),
            Eq => (FloatPred::Oeq, IntPred::Eq),
            Ne => (FloatPred::Une, IntPred::Ne),
            _ => return unsupported(format!("the operator `{}`", op.symbol()), span),
        };
        Ok(if f { self.b.fcmp(fp, a, b) } else { self.b.icmp(ip, a, b) })
    }

    /// `x + 0`, `x * 1`, `x - 0`, `x | 0`, ... (fast-math allows the float ones).
    fn identity(&self, op: BinaryOp, kind: ScalarKind, a: Value, b: Value) -> Option<Value> {
        use BinaryOp::*;
        let is = |v: Value, x: f64| match self.const_of(v) {
            Some(ConstValue::Float(f)) => f == x,
            Some(ConstValue::Int(i)) => i as f64 == x,
            _ => false,
        };
        if kind.is_bool() {
            return None;
        }
        match op {
            Add | BitOr | BitXor if is(b, 0.0) => Some(a),
            Add | BitOr | BitXor if is(a, 0.0) => Some(b),
            Sub | Shl | Shr if is(b, 0.0) => Some(a),
            Mul if is(b, 1.0) => Some(a),
            Mul if is(a, 1.0) => Some(b),
            Div if is(b, 1.0) => Some(a),
            _ => None,
        }
    }

    fn fold_binop(&mut self, op: BinaryOp, kind: ScalarKind, a: Value, b: Value) -> Option<Value> {
        use BinaryOp::*;
        if kind.is_float() {
            let (x, y) = (self.cf(a)?, self.cf(b)?);
            let single = self.fbits(kind) == 32;
            let r = |v: f64| if single { f64::from(v as f32) } else { v };
            let v = match op {
                Add => ConstValue::Float(r(x + y)),
                Sub => ConstValue::Float(r(x - y)),
                Mul => ConstValue::Float(r(x * y)),
                Div => ConstValue::Float(r(x / y)),
                Rem => ConstValue::Float(r(x % y)),
                Lt => ConstValue::Bool(x < y),
                Gt => ConstValue::Bool(x > y),
                Le => ConstValue::Bool(x <= y),
                Ge => ConstValue::Bool(x >= y),
                Eq => ConstValue::Bool(x == y),
                Ne => ConstValue::Bool(x != y),
                _ => return None,
            };
            let k = if matches!(v, ConstValue::Bool(_)) { ScalarKind::Bool } else { kind };
            return Some(self.const_scalar(k, v));
        }
        let (x, y) = (self.ci(a)?, self.ci(b)?);
        let unsigned = kind.is_unsigned() || kind.is_bool();
        let (ux, uy) = (x as u64 & self.width_mask(kind), y as u64 & self.width_mask(kind));
        // A shift count wraps at the width of the shifted type, as the masked run-time shift.
        let shift_mask = u64::from(self.width_mask(kind).count_ones().max(1) - 1);
        let v = match op {
            Add => ConstValue::Int(x.wrapping_add(y)),
            Sub => ConstValue::Int(x.wrapping_sub(y)),
            Mul => ConstValue::Int(x.wrapping_mul(y)),
            Div if y != 0 => ConstValue::Int(if unsigned { (ux / uy) as i64 } else { x.wrapping_div(y) }),
            Rem if y != 0 => ConstValue::Int(if unsigned { (ux % uy) as i64 } else { x.wrapping_rem(y) }),
            BitAnd | LogAnd => ConstValue::Int(x & y),
            BitOr | LogOr => ConstValue::Int(x | y),
            BitXor => ConstValue::Int(x ^ y),
            Shl => ConstValue::Int(x.wrapping_shl((uy & shift_mask) as u32)),
            Shr if unsigned => ConstValue::Int((ux >> (uy & shift_mask)) as i64),
            Shr => ConstValue::Int(x >> (uy & shift_mask)),
            Lt => ConstValue::Bool(if unsigned { ux < uy } else { x < y }),
            Gt => ConstValue::Bool(if unsigned { ux > uy } else { x > y }),
            Le => ConstValue::Bool(if unsigned { ux <= uy } else { x <= y }),
            Ge => ConstValue::Bool(if unsigned { ux >= uy } else { x >= y }),
            Eq => ConstValue::Bool(ux == uy),
            Ne => ConstValue::Bool(ux != uy),
            _ => return None,
        };
        let k = if matches!(v, ConstValue::Bool(_)) { ScalarKind::Bool } else { kind };
        Some(self.const_scalar(k, v))
    }

    fn width_mask(&mut self, k: ScalarKind) -> u64 {
        let t = self.scalar_ir(k);
        match self.b.module.types.int_width(t).unwrap_or(64) {
            w if w >= 64 => u64::MAX,
            w => (1u64 << w) - 1,
        }
    }

    fn cast(&mut self, kind: CastKind, inner: ExprId, to: TypeId, span: Option<hlslc_frontend::Span>) -> R<Flat> {
        let from = self.t.expr(inner).ty;
        if kind == CastKind::FromBuffer {
            return self.load_whole_buffer(inner, to, span);
        }
        let v = self.expr(inner)?;
        self.cast_values(kind, v, from, to, span)
    }

    pub(crate) fn cast_values(&mut self, kind: CastKind, v: Flat, from: TypeId, to: TypeId, _span: Option<hlslc_frontend::Span>) -> R<Flat> {
        let types = &self.t.types;
        Ok(match kind {
            CastKind::NoOp | CastKind::EnumConvert | CastKind::VectorToMatrix | CastKind::MatrixToVector | CastKind::FromBuffer => v,
            CastKind::AddressToPointer | CastKind::PointerToAddress => return unsupported("vk::BufferPointer (a SPIR-V feature)", _span),
            CastKind::Splat => {
                let n = self.flat_len(to);
                vec![v[0]; n]
            }
            CastKind::VectorTruncate | CastKind::ToScalar => {
                let n = self.flat_len(to);
                v[..n.min(v.len())].to_vec()
            }
            CastKind::MatrixTruncate => {
                let (Type::Matrix { cols: fc, .. }, Type::Matrix { rows, cols, .. }) = (types.get(from), types.get(to)) else {
                    return Ok(v);
                };
                let (fc, rows, cols) = (*fc as usize, *rows as usize, *cols as usize);
                (0..rows).flat_map(|r| (0..cols).map(move |c| r * fc + c)).map(|i| v[i]).collect()
            }
            CastKind::Flatten => {
                let (fk, tk) = (self.leaf_kinds(from), self.leaf_kinds(to));
                let mut out = Vec::new();
                for (i, k) in tk.iter().enumerate() {
                    let j = if v.len() == 1 { 0 } else { i.min(v.len() - 1) };
                    out.push(self.convert_scalar(v[j], fk[j], *k));
                }
                out
            }
            _ => {
                let (fk, tk) = (self.kind_of(from), self.kind_of(to));
                v.into_iter().map(|x| self.convert_scalar(x, fk, tk)).collect()
            }
        })
    }

    /// The variable (or other lvalue) that `e` writes when `e` is an assignment used as an lvalue
    /// (`++x`, `x = y`, `x op= y`, nested): after `e` is evaluated, its place is `x`'s. Other
    /// expressions are their own target; so is an assignment whose target has effects of its own.
    /// One walk down the chain (`++++x` is `++(++x)`): the target of each level is computed once,
    /// not again for every level above it, which took time exponential in the chain's length.
    pub(crate) fn written_target(&self, e: ExprId) -> ExprId {
        match &self.t.expr(e).kind {
            ExprKind::Unary { op: UnaryOp::PreInc | UnaryOp::PreDec, operand: x } | ExprKind::Assign { lhs: x, .. } | ExprKind::CompoundAssign { lhs: x, .. } => {
                let inner = self.written_target(*x);
                if self.has_effects(inner) {
                    e
                } else {
                    inner
                }
            }
            _ => e,
        }
    }

    /// The place an lvalue expression designates.
    pub(crate) fn place(&mut self, e: ExprId) -> R<Place> {
        let t = self.t;
        let ex = t.expr(e);
        let all = |l: &Self, ty| (0..l.flat_len(ty)).collect::<Vec<_>>();
        match &ex.kind {
            ExprKind::Var(v) => {
                self.check_kept_static(*v, e)?;
                let var = t.var(*v);
                Ok(Place { root: Root::Var(*v), root_ty: var.ty, comps: all(self, var.ty), dynamic: Vec::new() })
            }
            ExprKind::This => Ok(Place { root: Root::This, root_ty: ex.ty, comps: all(self, ex.ty), dynamic: Vec::new() }),
            ExprKind::OutArg { lvalue, .. } => self.place(*lvalue),
            // An lvalue cast (sema's `narrows_in_place`) designates the leading components;
            // a matrix narrowed in both dimensions is not a prefix of the flattened list.
            ExprKind::Cast { expr, kind, .. } if ex.lvalue && *kind != CastKind::MatrixTruncate => {
                let mut p = self.place(*expr)?;
                p.comps.truncate(self.flat_len(ex.ty));
                Ok(p)
            }
            ExprKind::Field { base, .. } | ExprKind::Swizzle { base, .. } | ExprKind::MatrixSwizzle { base, .. } => {
                let mut p = self.place(*base)?;
                let sub = self.sub_comps(e)?;
                p.comps = match sub.into_iter().map(|i| p.comps.get(i).copied()).collect::<Option<Vec<_>>>() {
                    Some(c) => c,
                    None => return unsupported("this member access (resources inside aggregates)", self.span(e)),
                };
                Ok(p)
            }
            ExprKind::Index { base, index } => {
                let bty = t.expr(*base).ty;
                if self.is_object(bty) && !matches!(t.types.get(bty), Type::Array { .. }) {
                    let coord = self.expr(*index)?;
                    return Ok(Place { root: Root::Resource { object: *base, coord }, root_ty: ex.ty, comps: all(self, ex.ty), dynamic: Vec::new() });
                }
                let mut p = self.place(*base)?;
                let idx = self.expr(*index)?[0];
                let (stride, count) = self.index_stride(bty);
                let n = self.flat_len(ex.ty);
                if let Some(i) = self.ci(idx) {
                    let start = (i.max(0) as usize).min(count.saturating_sub(1)) * stride;
                    p.comps = match p.comps.get(start..start + n) {
                        Some(c) => c.to_vec(),
                        None => return unsupported("this indexing (resources inside aggregates)", self.span(e)),
                    };
                    return Ok(p);
                }
                if p.comps.len() != stride * count || n > p.comps.len() {
                    return unsupported("this dynamic indexing", self.span(e));
                }
                p.comps = p.comps[..n].to_vec();
                p.dynamic.push((idx, stride, count));
                Ok(p)
            }
            // `++x`, `--x`, `x = y` and `x op= y` are lvalues (C++): do the write, then designate
            // `x` (whose place is evaluated again, so it must have no effects of its own; see
            // `written_target`).
            ExprKind::Unary { op: UnaryOp::PreInc | UnaryOp::PreDec, .. } | ExprKind::Assign { .. } | ExprKind::CompoundAssign { .. }
                if self.written_target(e) != e =>
            {
                self.expr(e)?;
                self.place(self.written_target(e))
            }
            _ => unsupported("this kind of assignment target", self.span(e)),
        }
    }

    /// Writes `values` (one per place component) to `p`.
    /// Stores `v` (of the parameter's type) into the `out` argument `arg` of an intrinsic,
    /// converting it to the lvalue's type where the argument is an [`ExprKind::OutArg`].
    pub(crate) fn store_out_arg(&mut self, arg: ExprId, v: Flat, span: Option<hlslc_frontend::Span>) -> R<()> {
        let t = self.t;
        let (target, v) = match &t.expr(arg).kind {
            ExprKind::OutArg { lvalue, from_param, .. } => (*lvalue, self.cast_values(*from_param, v, t.expr(arg).ty, t.expr(*lvalue).ty, span)?),
            _ => (arg, v),
        };
        let place = self.place(target)?;
        self.store_place(&place, &v, span)
    }

    pub(crate) fn store_place(&mut self, p: &Place, values: &[Value], span: Option<hlslc_frontend::Span>) -> R<()> {
        match &p.root {
            Root::Resource { object, coord } => self.store_resource(*object, coord.clone(), p, values, span),
            Root::Var(v) if self.is_groupshared(*v) => self.store_shared(p, values, span),
            Root::Var(v) if self.is_mesh_output(*v) => self.store_mesh_output(p, values, span),
            Root::Var(v) if matches!(self.t.var(*v).storage, Storage::CBufferMember { .. } | Storage::Uniform) => {
                unsupported("assignment to a constant-buffer value", span)
            }
            root => {
                let mut cur = match root {
                    Root::Var(v) => match self.vars.get(v) {
                        Some(f) => f.clone(),
                        None => self.zero_of(p.root_ty),
                    },
                    Root::This => self.this_stack.last().and_then(|v| self.vars.get(v)).cloned().unwrap_or_default(),
                    Root::Resource { .. } => unreachable!(),
                };
                if p.dynamic.is_empty() {
                    for (i, &c) in p.comps.iter().enumerate() {
                        if c < cur.len() && i < values.len() {
                            cur[c] = values[i];
                        }
                    }
                } else {
                    let combos: usize = p.dynamic.iter().map(|d| d.2.max(1)).product();
                    if combos * p.comps.len() > 1024 {
                        return unsupported("dynamic indexing of a large local array", span);
                    }
                    // Every combination of candidate indices: select the new value where all
                    // indices match.
                    for combo in 0..combos {
                        let mut rest = combo;
                        let mut offset = 0;
                        let mut cond: Option<Value> = None;
                        for &(idx, stride, count) in &p.dynamic {
                            let k = rest % count.max(1);
                            rest /= count.max(1);
                            offset += k * stride;
                            let it = self.b.type_of(idx);
                            let kc = Value::Const(self.b.module.const_int(it, k as i64));
                            let is_k = self.b.icmp(IntPred::Eq, idx, kc);
                            cond = Some(match cond {
                                None => is_k,
                                Some(c) => self.raw_bin(BinOp::And, c, is_k),
                            });
                        }
                        let Some(cond) = cond else { continue };
                        for (i, &c) in p.comps.iter().enumerate() {
                            let slot = c + offset;
                            if slot < cur.len() && i < values.len() {
                                cur[slot] = self.select(cond, values[i], cur[slot]);
                            }
                        }
                    }
                }
                match root {
                    Root::Var(v) => {
                        self.vars.insert(*v, cur);
                    }
                    _ => {
                        if let Some(&t) = self.this_stack.last() {
                            self.vars.insert(t, cur);
                        }
                    }
                }
                Ok(())
            }
        }
    }

    /// Inlines a call to a user function.
    fn inline_call(&mut self, func: hlslc_sema::tast::FuncId, this_arg: Option<ExprId>, args: &[ExprId], e: ExprId) -> R<Flat> {
        let t = self.t;
        let f = t.func(func);
        let span = self.span(e);
        let Some(body) = f.body else {
            if self.opts.library && this_arg.is_none() {
                // A library calls a function it only declares; the linker resolves it.
                return self.external_call(func, args, e);
            }
            return unsupported(format!("a call to `{}`, which has no body", f.name), span);
        };
        if super::calls::is_noinline(f) {
            return self.kept_call(func, this_arg, args, e);
        }
        if self.depth > 64 {
            return unsupported("calls nested this deeply", span);
        }
        let mut params = Vec::new();
        for (&p, &a) in f.params.iter().zip(args) {
            let dir = match t.var(p).storage {
                Storage::Param(d) => d,
                _ => ParamDir::In,
            };
            let v = if dir == ParamDir::Out {
                let kinds = self.leaf_kinds(t.var(p).ty);
                kinds.into_iter().map(|k| self.undef_of(k)).collect()
            } else {
                self.expr(a)?
            };
            params.push((p, v, dir, a));
        }
        for (p, v, _, _) in &params {
            self.vars.insert(*p, v.clone());
        }
        let this = match this_arg {
            Some(a) => Some(self.expr(a)?),
            None => None,
        };
        if let Some(th) = this.clone() {
            let v = super::this_var(self.this_stack.len());
            self.this_stack.push(v);
            self.vars.insert(v, th);
        }
        let ret_block = self.new_block();
        self.returns.push(super::ReturnCtx { block: ret_block, edges: Vec::new() });
        self.depth += 1;
        let r = self.stmt(body);
        self.depth -= 1;
        r?;
        let n = self.flat_len(f.ret);
        let ret = self.finish_returns(f.ret, n)?;
        if this.is_some() {
            let th = self.this_stack.pop().and_then(|v| self.vars.remove(&v)).unwrap_or_default();
            if let Some(a) = this_arg.filter(|a| t.expr(*a).lvalue && !self.cbuffer_rooted(*a)) {
                if let Ok(p) = self.place(a) {
                    self.store_place(&p, &th, span)?;
                }
            }
        }
        for (p, _, dir, a) in params {
            if dir == ParamDir::In {
                continue;
            }
            let v = self.vars.get(&p).cloned().unwrap_or_default();
            let (target, v) = match &t.expr(a).kind {
                ExprKind::OutArg { lvalue, from_param, .. } => {
                    let conv = self.cast_values(*from_param, v, t.var(p).ty, t.expr(*lvalue).ty, span)?;
                    (*lvalue, conv)
                }
                _ => (a, v),
            };
            let place = self.place(target)?;
            self.store_place(&place, &v, span)?;
        }
        Ok(ret)
    }
}
