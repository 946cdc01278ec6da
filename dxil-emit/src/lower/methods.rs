//! Methods of resource objects (`Sample*`, `Load*`, `Store*`, counters) and the `Interlocked*`
//! atomics on UAV elements.

use super::expr::{Place, Root};
use super::{unsupported, Flat, Lowerer, R};
use crate::ir::{RmwOp, Value};
use crate::ops::{DxilOp, Overload};
use hlslc_frontend::Span;
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::tast::{ExprId, ExprKind};
use hlslc_sema::types::{ObjectKind, ScalarKind, TypeId};

impl Lowerer<'_> {
    fn int_args(&mut self, vals: &[crate::ir::Value], n: usize) -> Vec<crate::ir::Value> {
        let u = self.undef_i32();
        (0..n).map(|i| vals.get(i).copied().unwrap_or(u)).collect()
    }

    pub(crate) fn method(&mut self, op: I, obj: ExprId, args: &[ExprId], e: ExprId) -> R<Flat> {
        let span = self.span(e);
        let rty = self.t.expr(e).ty;
        if let hlslc_sema::types::Type::Object { kind, .. } = self.t.types.get(self.t.expr(obj).ty) {
            if super::geometry::is_stream(*kind) {
                return self.stream_method(op, obj, args, e);
            }
            if *kind == ObjectKind::RayQuery {
                return self.ray_query_method(op, obj, args, e);
            }
        }
        let (h, kind, elem) = self.object_handle(obj)?;
        let mut vals = Vec::new();
        for &a in args {
            vals.push(self.expr(a)?);
        }
        // `Load(..., out uint status)`: the status is the fifth field of the read's ResRet.
        let load = matches!(op, I::MethodLoad | I::MethodLoad2 | I::MethodLoad3 | I::MethodLoad4);
        let status_at = match kind {
            ObjectKind::Texture2DMS | ObjectKind::Texture2DMSArray => 3,
            _ if kind.is_texture() && kind.resource_class() != Some(hlslc_sema::types::ResourceClass::Uav) => 2,
            _ => 1,
        };
        let status = if load && args.len() == status_at + 1 { Some(args[status_at]) } else { None };
        if status.is_some() {
            vals.pop();
            self.res.last_ret = None;
            let r = self.method_load(h, kind, elem, &vals, rty, span)?;
            let Some(ret) = self.res.last_ret else { return unsupported(format!("`Load` with a status on `{}`", kind.name()), span) };
            let s = self.b.extract_value(ret, vec![4]);
            self.store_out(status.expect("status"), s, ScalarKind::UInt, span)?;
            return Ok(r);
        }
        let lk = self.element_kind(elem);
        match op {
            _ if Self::is_sample_method(op) => self.sample(op, h, kind, lk, args, &vals, rty, span),
            I::MethodGather
            | I::MethodGatherRed
            | I::MethodGatherGreen
            | I::MethodGatherBlue
            | I::MethodGatherAlpha
            | I::MethodGatherCmp
            | I::MethodGatherCmpRed
            | I::MethodGatherCmpGreen
            | I::MethodGatherCmpBlue
            | I::MethodGatherCmpAlpha => self.gather(op, h, kind, lk, args, &vals, rty, span),
            I::MethodCalculateLevelOfDetail | I::MethodCalculateLevelOfDetailUnclamped => self.calculate_lod(op, h, &vals, span),
            I::MethodGetDimensions => {
                let stride = elem.map(|t| {
                    let (mut off, mut v) = (0, Vec::new());
                    self.struct_layout(t, &mut off, &mut v);
                    off
                });
                self.get_dimensions(h, kind, stride, args, &vals, span)
            }
            I::MethodLoad | I::MethodLoad2 | I::MethodLoad3 | I::MethodLoad4 => self.method_load(h, kind, elem, &vals, rty, span),
            I::MethodStore | I::MethodStore2 | I::MethodStore3 | I::MethodStore4 => {
                let vty = self.t.expr(args[1]).ty;
                self.byte_address_store(h, vals[0][0], vty, &vals[1], span)?;
                Ok(Vec::new())
            }
            _ => self.method_rest(op, h, kind, elem, args, &vals, span),
        }
    }

    /// `Load*` on buffers and textures (a status argument already taken off `vals`).
    fn method_load(&mut self, h: Value, kind: ObjectKind, elem: Option<TypeId>, vals: &[Flat], rty: TypeId, span: Option<Span>) -> R<Flat> {
        let lk = self.element_kind(elem);
        let o = Self::overload(lk);
        match kind {
            ObjectKind::ByteAddressBuffer | ObjectKind::RWByteAddressBuffer | ObjectKind::RasterizerOrderedByteAddressBuffer => {
                self.byte_address_load(h, vals[0][0], rty, span)
            }
            ObjectKind::Buffer | ObjectKind::RWBuffer | ObjectKind::StructuredBuffer | ObjectKind::RWStructuredBuffer => {
                self.resource_read(h, kind, elem, vals[0].clone(), None, span)
            }
            _ if kind.is_texture() || kind.resource_class() == Some(hlslc_sema::types::ResourceClass::Uav) => {
                let mut loc = vals[0].clone();
                let is_uav = kind.resource_class() == Some(hlslc_sema::types::ResourceClass::Uav);
                let ms = matches!(kind, ObjectKind::Texture2DMS | ObjectKind::Texture2DMSArray);
                let mip = if is_uav || ms {
                    if ms {
                        vals.get(1).map(|v| v[0])
                    } else {
                        None
                    }
                } else {
                    loc.pop()
                };
                let off_at = if ms { 2 } else { 1 };
                let offset = vals.get(off_at).cloned().unwrap_or_default();
                let [c0, c1, c2] = [0, 1, 2].map(|i| loc.get(i).copied());
                let u = self.undef_i32();
                let mip = mip.unwrap_or(u);
                let offs = self.int_args(&offset, 3);
                let a = [h, mip, c0.unwrap_or(u), c1.unwrap_or(u), c2.unwrap_or(u), offs[0], offs[1], offs[2]];
                let ret = self.op(DxilOp::TextureLoad, o, &a, span)?;
                self.res.last_ret = Some(ret);
                let kinds = self.leaf_kinds(rty);
                Ok(self.unpack(ret, &kinds, lk))
            }
            _ => unsupported(format!("`Load` on `{}`", kind.name()), span),
        }
    }

    /// The kind a read of a resource with element type `elem` loads (bool as uint).
    fn element_kind(&self, elem: Option<TypeId>) -> ScalarKind {
        let elem_kinds = elem.map(|t| self.leaf_kinds(t)).unwrap_or_else(|| vec![ScalarKind::Float; 4]);
        match elem_kinds.first() {
            Some(ScalarKind::Bool) | None => ScalarKind::UInt,
            Some(k) => *k,
        }
    }

    /// Counters, `Append`/`Consume` and the `Interlocked*` methods.
    #[allow(clippy::too_many_arguments)]
    fn method_rest(&mut self, op: I, h: Value, kind: ObjectKind, elem: Option<TypeId>, args: &[ExprId], vals: &[Flat], span: Option<Span>) -> R<Flat> {
        match op {
            I::MethodIncrementCounter | I::MethodDecrementCounter => {
                let d = self.ci8(if op == I::MethodIncrementCounter { 1 } else { -1 });
                self.mark_counter(h);
                Ok(vec![self.op(DxilOp::BufferUpdateCounter, Overload::None, &[h, d], span)?])
            }
            I::MethodAppend | I::MethodConsume => {
                // As dxc: the counter gives the element (incremented before an append returns
                // the old value, decremented before a consume returns the new one), which is
                // then written or read like `buf[i]`.
                let Some(elem) = elem else { return unsupported(format!("`{}` on this resource", op.name()), span) };
                let append = op == I::MethodAppend;
                let d = self.ci8(if append { 1 } else { -1 });
                self.mark_counter(h);
                let idx = self.op(DxilOp::BufferUpdateCounter, Overload::None, &[h, d], span)?;
                if append {
                    let values = vals.first().cloned().unwrap_or_default();
                    self.structured_store(h, idx, elem, &values, span)?;
                    Ok(Vec::new())
                } else {
                    self.resource_read(h, kind, Some(elem), vec![idx], None, span)
                }
            }
            _ if method_atomic(op).is_some() => {
                // RWByteAddressBuffer.Interlocked*(address, [compare,] value[, out original]):
                // the value's type picks the overload (i64 for the SM 6.6 64-bit methods); a
                // float exchange works on the i32 bits, as dxc's does.
                let (base, cmpxchg) = method_atomic(op).expect("atomic method");
                let vi = if cmpxchg { 2 } else { 1 };
                let k = self.kind_of(self.t.expr(args[vi]).ty);
                let float = k.is_float();
                let ik = if float { ScalarKind::UInt } else { k };
                let ity = self.scalar_ir(ik);
                let bits = |l: &mut Self, x: Value| if float { l.b.cast(crate::ir::CastOp::BitCast, x, ity) } else { x };
                let v = bits(self, vals[vi][0]);
                let u = self.undef_i32();
                let o = Self::overload(ik);
                let r = if cmpxchg {
                    let c = bits(self, vals[1][0]);
                    self.op(DxilOp::AtomicCompareExchange, o, &[h, vals[0][0], u, u, c, v], span)?
                } else {
                    let code = self.ci32(atomic_code(base, k));
                    self.op(DxilOp::AtomicBinOp, o, &[h, code, vals[0][0], u, u, v], span)?
                };
                if let Some(&out) = args.get(vi + 1) {
                    let r = if float {
                        let f = self.scalar_ir(k);
                        self.b.cast(crate::ir::CastOp::BitCast, r, f)
                    } else {
                        r
                    };
                    self.store_out(out, r, k, span)?;
                }
                Ok(Vec::new())
            }
            _ => unsupported(format!("the method `{}`", op.name()), span),
        }
    }

    /// `InterlockedOp(dest, value[, original])` on a UAV element.
    pub(crate) fn interlocked(&mut self, op: I, args: &[ExprId], e: ExprId) -> R<Flat> {
        let span = self.span(e);
        let dest = match &self.t.expr(args[0]).kind {
            ExprKind::OutArg { lvalue, .. } => *lvalue,
            _ => args[0],
        };
        let k = self.kind_of(self.t.expr(dest).ty);
        let p: Place = self.place(dest)?;
        let cmpxchg = matches!(
            op,
            I::InterlockedCompareExchange | I::InterlockedCompareStore | I::InterlockedCompareExchangeFloatBitwise | I::InterlockedCompareStoreFloatBitwise
        );
        let returns = matches!(op, I::InterlockedCompareExchange | I::InterlockedCompareExchangeFloatBitwise);
        let (value_arg, out_arg) = if cmpxchg { (2, if returns { 3 } else { 9 }) } else { (1, 2) };
        if let Root::Var(v) = p.root {
            if !self.is_groupshared(v) {
                return unsupported("atomics on local variables", span);
            }
            if cmpxchg && k.is_float() {
                return unsupported("a float compare-exchange on groupshared memory", span);
            }
            let value = self.expr(args[value_arg])?[0];
            let (rmw, cmp) = if cmpxchg { (None, Some(self.expr(args[1])?[0])) } else { (Some(rmw_op(op, k)), None) };
            let r = self.shared_atomic(&p, rmw, value, cmp, span)?;
            if let Some(&out) = args.get(out_arg) {
                let p = self.place(out)?;
                self.store_place(&p, &[r], span)?;
            }
            return Ok(Vec::new());
        }
        let Root::Resource { object, coord } = p.root.clone() else {
            return unsupported("atomics on this destination", span);
        };
        let (h, kind, elem) = self.object_handle(object)?;
        let v = self.expr(args[value_arg])?[0];
        let u = self.undef_i32();
        let (c0, c1, c2) = match kind {
            ObjectKind::RWStructuredBuffer => {
                let leaves = {
                    let mut off = 0;
                    let mut v = Vec::new();
                    if let Some(el) = elem {
                        self.struct_layout(el, &mut off, &mut v);
                    }
                    v
                };
                let off = p.comps.first().and_then(|c| leaves.get(*c)).map_or(0, |l| l.0);
                (coord[0], self.ci32(off as i32), u)
            }
            _ => {
                let c: Vec<_> = (0..3).map(|i| coord.get(i).copied().unwrap_or(u)).collect();
                (c[0], c[1], c[2])
            }
        };
        // Float exchanges (SM 6.6) are bitwise: the atomic works on the i32 bits.
        let float = k == ScalarKind::Float;
        let i32t = self.b.module.types.i32();
        let bits = |l: &mut Self, x| if float { l.b.cast(crate::ir::CastOp::BitCast, x, i32t) } else { x };
        let v = bits(self, v);
        let o = if float { Self::overload(ScalarKind::UInt) } else { Self::overload(k) };
        let r = if cmpxchg {
            let cmp = self.expr(args[1])?[0];
            let cmp = bits(self, cmp);
            self.op(DxilOp::AtomicCompareExchange, o, &[h, c0, c1, c2, cmp, v], span)?
        } else {
            let code = self.ci32(atomic_code(op, k));
            self.op(DxilOp::AtomicBinOp, o, &[h, code, c0, c1, c2, v], span)?
        };
        let r = if float {
            let f = self.scalar_ir(ScalarKind::Float);
            self.b.cast(crate::ir::CastOp::BitCast, r, f)
        } else {
            r
        };
        if let Some(&out) = args.get(out_arg) {
            let p = self.place(out)?;
            self.store_place(&p, &[r], span)?;
        }
        Ok(Vec::new())
    }
}

/// A `RWByteAddressBuffer.Interlocked*` method: the free intrinsic whose operation it performs
/// (for [`atomic_code`]) and whether it is a compare-exchange.
fn method_atomic(op: I) -> Option<(I, bool)> {
    Some(match op {
        I::MethodInterlockedAdd | I::MethodInterlockedAdd64 => (I::InterlockedAdd, false),
        I::MethodInterlockedAnd | I::MethodInterlockedAnd64 => (I::InterlockedAnd, false),
        I::MethodInterlockedOr | I::MethodInterlockedOr64 => (I::InterlockedOr, false),
        I::MethodInterlockedXor | I::MethodInterlockedXor64 => (I::InterlockedXor, false),
        I::MethodInterlockedMin | I::MethodInterlockedMin64 => (I::InterlockedMin, false),
        I::MethodInterlockedMax | I::MethodInterlockedMax64 => (I::InterlockedMax, false),
        I::MethodInterlockedUMin => (I::InterlockedUMin, false),
        I::MethodInterlockedUMax => (I::InterlockedUMax, false),
        I::MethodInterlockedExchange | I::MethodInterlockedExchange64 | I::MethodInterlockedExchangeFloat => (I::InterlockedExchange, false),
        I::MethodInterlockedCompareExchange
        | I::MethodInterlockedCompareExchange64
        | I::MethodInterlockedCompareExchangeFloatBitwise
        | I::MethodInterlockedCompareStore
        | I::MethodInterlockedCompareStore64
        | I::MethodInterlockedCompareStoreFloatBitwise => (I::InterlockedCompareExchange, true),
        _ => return None,
    })
}

/// The `atomicrmw` operation of an `Interlocked*` intrinsic.
fn rmw_op(op: I, k: ScalarKind) -> RmwOp {
    let signed = k.is_signed_int();
    match op {
        I::InterlockedAdd => RmwOp::Add,
        I::InterlockedAnd => RmwOp::And,
        I::InterlockedOr => RmwOp::Or,
        I::InterlockedXor => RmwOp::Xor,
        I::InterlockedMin if signed => RmwOp::Min,
        I::InterlockedMax if signed => RmwOp::Max,
        I::InterlockedMin | I::InterlockedUMin => RmwOp::UMin,
        I::InterlockedMax | I::InterlockedUMax => RmwOp::UMax,
        _ => RmwOp::Xchg,
    }
}

/// `DXIL::AtomicBinOpCode`.
fn atomic_code(op: I, k: ScalarKind) -> i32 {
    let signed = k.is_signed_int();
    match op {
        I::InterlockedAdd | I::MethodInterlockedAdd => 0,
        I::InterlockedAnd | I::MethodInterlockedAnd => 1,
        I::InterlockedOr | I::MethodInterlockedOr => 2,
        I::InterlockedXor | I::MethodInterlockedXor => 3,
        I::InterlockedMin | I::MethodInterlockedMin if signed => 4,
        I::InterlockedMax | I::MethodInterlockedMax if signed => 5,
        I::InterlockedMin | I::InterlockedUMin | I::MethodInterlockedMin => 6,
        I::InterlockedMax | I::InterlockedUMax | I::MethodInterlockedMax => 7,
        _ => 8,
    }
}
