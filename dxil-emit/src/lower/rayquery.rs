//! Inline ray tracing (shader model 6.5, any stage): a `RayQuery<flags>` object is the `i32`
//! handle `dx.op.allocateRayQuery(flags)` returns where it is declared (one per element of an
//! array of queries), and each of its methods is the `dx.op.rayQuery_*` operation of the same
//! name taking that handle: `TraceRayInline` with the `RayDesc` flattened to origin, TMin,
//! direction, TMax; the state queries as scalars, vectors (one call per component) and 3x4
//! matrices (one call per element; the 4x3 forms are the transpose).

use super::{unsupported, Flat, Lowerer, R};
use crate::ops::{ops_for_intrinsic, DxilOp, Overload};
use hlslc_frontend::Span;
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::tast::ExprId;
use hlslc_sema::types::{ObjectKind, ScalarKind, Type, TypeId};

impl Lowerer<'_> {
    /// Whether `ty` is a `RayQuery` or an array of them.
    pub(crate) fn is_ray_query(&self, ty: TypeId) -> bool {
        match self.t.types.get(ty) {
            Type::Object { kind: ObjectKind::RayQuery, .. } => true,
            Type::Array { elem, .. } => self.is_ray_query(*elem),
            _ => false,
        }
    }

    /// The declaration `RayQuery<F> q;` (or an array of them): one `allocateRayQuery(F)` per query.
    pub(crate) fn allocate_ray_queries(&mut self, ty: TypeId, span: Option<Span>) -> R<Flat> {
        let (mut t, mut n) = (ty, 1usize);
        while let Type::Array { elem, len } = self.t.types.get(t) {
            let Some(len) = len else { return unsupported("an array of RayQuery objects without a length", span) };
            n *= *len as usize;
            t = *elem;
        }
        let Type::Object { kind: ObjectKind::RayQuery, count, .. } = self.t.types.get(t) else {
            return unsupported("this RayQuery declaration", span);
        };
        let flags = count.unwrap_or(0);
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            let f = self.ci32(flags as i32);
            out.push(self.op(DxilOp::AllocateRayQuery, Overload::None, &[f], span)?);
        }
        Ok(out)
    }

    /// A method of a `RayQuery` object `obj`.
    pub(crate) fn ray_query_method(&mut self, op: I, obj: ExprId, args: &[ExprId], e: ExprId) -> R<Flat> {
        let span = self.span(e);
        let q = self.expr(obj)?[0];
        let method = op.name().strip_prefix("Method").unwrap_or(op.name());
        let Some(&dop) = ops_for_intrinsic(method).iter().find(|d| format!("{d:?}").starts_with("RayQuery_")) else {
            return unsupported(format!("the RayQuery method `{method}`"), span);
        };
        let rty = self.t.expr(e).ty;
        let rk = self.kind_of(rty);
        let ro = Self::overload(if rk == ScalarKind::Bool { ScalarKind::Bool } else { rk });
        match dop.info().class {
            "rayQuery_TraceRayInline" => {
                let [accel, flags, mask, ray] = args else { return unsupported("this TraceRayInline call", span) };
                let (h, _, _) = self.object_handle(*accel)?;
                let mut ops = vec![q, h];
                for a in [flags, mask] {
                    let k = self.kind_of(self.t.expr(*a).ty);
                    let v = self.expr(*a)?[0];
                    ops.push(self.convert_scalar(v, k, ScalarKind::UInt));
                }
                let ray_kinds = self.leaf_kinds(self.t.expr(*ray).ty);
                let ray = self.expr(*ray)?;
                if ray.len() != 8 {
                    return unsupported("a TraceRayInline ray that is not a RayDesc", span);
                }
                for (v, k) in ray.into_iter().zip(ray_kinds) {
                    ops.push(self.convert_scalar(v, k, ScalarKind::Float));
                }
                self.op(dop, Overload::None, &ops, span)?;
                Ok(Vec::new())
            }
            "rayQuery_Abort" | "rayQuery_CommitNonOpaqueTriangleHit" => {
                self.op(dop, Overload::None, &[q], span)?;
                Ok(Vec::new())
            }
            "rayQuery_CommitProceduralPrimitiveHit" => {
                let [t] = args else { return unsupported("this CommitProceduralPrimitiveHit call", span) };
                let k = self.kind_of(self.t.expr(*t).ty);
                let v = self.expr(*t)?[0];
                let v = self.convert_scalar(v, k, ScalarKind::Float);
                self.op(dop, Overload::None, &[q, v], span)?;
                Ok(Vec::new())
            }
            "rayQuery_Proceed" | "rayQuery_StateScalar" => Ok(vec![self.op(dop, ro, &[q], span)?]),
            "rayQuery_StateVector" => {
                let n = self.flat_len(rty);
                (0..n)
                    .map(|c| {
                        let c = self.ci8(c as i8);
                        self.op(dop, ro, &[q, c], span)
                    })
                    .collect()
            }
            "rayQuery_StateMatrix" => {
                // Flattened row by row: 3x4 is row r, column c; the 4x3 forms are its transpose.
                let transposed = matches!(self.t.types.get(rty), Type::Matrix { rows: 4, cols: 3, .. });
                let (rows, cols) = if transposed { (4, 3) } else { (3, 4) };
                let mut out = Vec::new();
                for r in 0..rows {
                    for c in 0..cols {
                        let (row, col) = if transposed { (c, r) } else { (r, c) };
                        let (row, col) = (self.ci32(row), self.ci8(col as i8));
                        out.push(self.op(dop, ro, &[q, row, col], span)?);
                    }
                }
                Ok(out)
            }
            other => unsupported(format!("the RayQuery method `{method}` (dx.op class {other})"), span),
        }
    }
}
