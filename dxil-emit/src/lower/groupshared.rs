//! `groupshared` variables: one `addrspace(3)` global per variable, holding its flattened
//! components as `[N x T]` (as dxc's output has them after scalarization), read and written with
//! `getelementptr` + `load`/`store`, and updated atomically with `atomicrmw`/`cmpxchg`.

use super::expr::{Place, Root};
use super::{unsupported, Flat, Lowerer, R};
use crate::ir::{Global, GlobalId, Linkage, RmwOp, Value};
use hlslc_frontend::Span;
use hlslc_sema::tast::{ConstValue, ExprId, ExprKind, Storage, VarId};
use hlslc_sema::types::ScalarKind;

/// The global holding a groupshared variable: its id, memory component kind and length.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Shared {
    pub global: GlobalId,
    pub kind: ScalarKind,
    pub len: usize,
}

impl Lowerer<'_> {
    pub(crate) fn is_groupshared(&self, v: VarId) -> bool {
        self.t.var(v).storage == Storage::GroupShared
    }

    /// True when `e` designates (part of) a groupshared variable.
    pub(crate) fn groupshared_rooted(&self, mut e: ExprId) -> bool {
        loop {
            match &self.t.expr(e).kind {
                ExprKind::Var(v) => return self.is_groupshared(*v),
                ExprKind::Field { base, .. } | ExprKind::Swizzle { base, .. } | ExprKind::MatrixSwizzle { base, .. } | ExprKind::Index { base, .. } => {
                    if self.is_object(self.t.expr(*base).ty) {
                        return false;
                    }
                    e = *base
                }
                _ => return false,
            }
        }
    }

    fn shared(&mut self, v: VarId, span: Option<Span>) -> R<Shared> {
        if let Some(s) = self.shared.get(&v) {
            return Ok(*s);
        }
        let var = self.t.var(v);
        let kinds = self.leaf_kinds(var.ty);
        let Some(&first) = kinds.first() else { return unsupported("an empty groupshared variable", span) };
        if kinds.iter().any(|k| *k != first) || self.is_object(var.ty) {
            return unsupported("groupshared structs with members of different types", span);
        }
        let kind = if first == ScalarKind::Bool { ScalarKind::UInt } else { first };
        let elem = self.scalar_ir(kind);
        let ty = if kinds.len() == 1 { elem } else { self.b.module.types.array(elem, kinds.len() as u64) };
        let undef = self.b.module.undef(ty);
        let name = var.name.clone();
        let global = self.b.module.add_global(Global {
            name,
            ty,
            addrspace: 3,
            linkage: Linkage::External,
            constant: false,
            init: Some(undef),
            align: 4,
        });
        let s = Shared { global, kind, len: kinds.len() };
        self.shared.insert(v, s);
        Ok(s)
    }

    /// The pointer to component `index` (an `i32`) of a groupshared variable.
    fn shared_ptr(&mut self, s: Shared, index: Value) -> Value {
        if s.len == 1 {
            return Value::Global(s.global);
        }
        let zero = self.ci32(0);
        self.b.gep(true, Value::Global(s.global), vec![zero, index])
    }

    /// Component indices (as `i32` values) of a place over a groupshared variable.
    fn shared_indices(&mut self, p: &Place, span: Option<Span>) -> R<Vec<Value>> {
        let mut out = Vec::new();
        for &c in &p.comps {
            let mut v = self.ci32(c as i32);
            for &(idx, stride, _) in &p.dynamic {
                v = {
                    let it = self.b.type_of(idx);
                    let idx = match self.b.module.types.int_width(it) {
                        Some(32) => idx,
                        Some(64) => self.convert_scalar(idx, ScalarKind::UInt64, ScalarKind::UInt),
                        _ => self.convert_scalar(idx, ScalarKind::UInt16, ScalarKind::UInt),
                    };
                    let st = self.const_scalar(ScalarKind::UInt, ConstValue::Int(stride as i64));
                    let scaled = self.binop(hlslc_frontend::ast::BinaryOp::Mul, ScalarKind::UInt, idx, st, span)?;
                    self.binop(hlslc_frontend::ast::BinaryOp::Add, ScalarKind::UInt, scaled, v, span)?
                };
            }
            out.push(v);
        }
        Ok(out)
    }

    fn root_shared(&mut self, p: &Place, span: Option<Span>) -> R<Shared> {
        match p.root {
            Root::Var(v) => self.shared(v, span),
            _ => unsupported("this groupshared access", span),
        }
    }

    /// Reads the components of a place over a groupshared variable.
    pub(crate) fn load_shared(&mut self, e: ExprId) -> R<Flat> {
        let span = self.span(e);
        let p = self.place(e)?;
        let s = self.root_shared(&p, span)?;
        let kinds = self.leaf_kinds(self.t.expr(e).ty);
        let idx = self.shared_indices(&p, span)?;
        let mut out = Vec::new();
        for (i, index) in idx.into_iter().enumerate() {
            let ptr = self.shared_ptr(s, index);
            let v = self.b.load(ptr, 4);
            let k = kinds.get(i).copied().unwrap_or(s.kind);
            out.push(self.convert_scalar(v, s.kind, k));
        }
        Ok(out)
    }

    /// Writes `values` to a place over a groupshared variable.
    pub(crate) fn store_shared(&mut self, p: &Place, values: &[Value], span: Option<Span>) -> R<()> {
        let s = self.root_shared(p, span)?;
        let idx = self.shared_indices(p, span)?;
        for (index, &v) in idx.into_iter().zip(values) {
            let ptr = self.shared_ptr(s, index);
            let vt = self.b.type_of(v);
            let from = if self.b.module.types.int_width(vt) == Some(1) { ScalarKind::Bool } else { s.kind };
            let v = self.convert_scalar(v, from, s.kind);
            self.b.store(v, ptr, 4);
        }
        Ok(())
    }

    /// An `Interlocked*` on a groupshared place: `atomicrmw` (or `cmpxchg`); returns the
    /// original value.
    pub(crate) fn shared_atomic(&mut self, p: &Place, op: Option<RmwOp>, value: Value, cmp: Option<Value>, span: Option<Span>) -> R<Value> {
        let s = self.root_shared(p, span)?;
        let idx = self.shared_indices(p, span)?;
        let Some(&index) = idx.first() else { return unsupported("this atomic destination", span) };
        let ptr = self.shared_ptr(s, index);
        Ok(match (op, cmp) {
            (Some(op), _) => self.b.atomic_rmw(op, ptr, value),
            (None, Some(c)) => {
                let pair = self.b.cmpxchg(ptr, c, value);
                self.b.extract_value(pair, vec![0])
            }
            (None, None) => return unsupported("this atomic operation", span),
        })
    }
}
