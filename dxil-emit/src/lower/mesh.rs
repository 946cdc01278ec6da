//! Amplification shaders: compute-like entry points whose one `DispatchMesh(x, y, z, payload)`
//! launches the mesh shader groups. The payload (a user struct) goes to `dx.op.dispatchMesh`
//! by pointer: its value is copied to an `alloca` of its `%struct.<name>` type, and its size
//! is the amplification state's payload size in `dx.entryPoints` (`!{!{x, y, z}, size}`, tag
//! 10).
//!
//! dxc passes a groupshared payload by its `addrspace(3)` pointer; hlslc's groupshared
//! variables are flattened arrays, so the payload's current value is copied like a local one.
//!
//! Mesh shaders: the `in payload` struct is read through the pointer `dx.op.getMeshPayload`
//! returns; the `out vertices` and `out primitives` arrays are never held as values, each write
//! to them is a `storeVertexOutput`/`storePrimitiveOutput` per component (vertices go to the
//! output signature, primitives to the third, primitive signature), and a write of a whole
//! element of `out indices` is an `emitIndices`. Reading an output array back is refused, as
//! dxc refuses it. The entry's mesh state (tag 9) is `!{!{x, y, z}, max vertices, max
//! primitives, topology, payload size}`.

use super::entry::{IoPiece, SigKind};
use super::expr::{Place, Root};
use super::{unsupported, Flat, Lowerer, R};
use crate::ir::Value;
use crate::ops::{DxilOp, Overload};
use hlslc_frontend::ast::Modifier;
use hlslc_frontend::Span;
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::tast::{self, ExprId, VarId};
use hlslc_sema::types::{ScalarKind, Type};

/// The largest payload an amplification shader may pass (DXC's kMaxMSASPayloadBytes).
pub(crate) const MAX_PAYLOAD_BYTES: u32 = 16384;

impl Lowerer<'_> {
    /// `DispatchMesh`; `None` for other intrinsics.
    pub(crate) fn mesh_intrinsic(&mut self, op: I, args: &[ExprId], e: ExprId) -> Option<R<Flat>> {
        match op {
            I::DispatchMesh => Some(self.dispatch_mesh(args, e)),
            I::SetMeshOutputCounts => Some(self.set_mesh_output_counts(args, e)),
            _ => None,
        }
    }

    /// `DispatchMesh(x, y, z, payload)`.
    fn dispatch_mesh(&mut self, args: &[ExprId], e: ExprId) -> R<Flat> {
        let span = self.span(e);
        let [x, y, z, payload] = args else { return unsupported("this DispatchMesh call", span) };
        let mut ops = Vec::new();
        for &a in [x, y, z] {
            let k = self.kind_of(self.t.expr(a).ty);
            let v = self.expr(a)?[0];
            ops.push(self.convert_scalar(v, k, ScalarKind::UInt));
        }
        let (temp, ty) = self.udt_arg(*payload)?;
        let size = self.udt_size(ty);
        if size > MAX_PAYLOAD_BYTES {
            let entry = &self.opts.entry_name;
            return Err(super::LowerError {
                message: format!("For amplification shader with entry '{entry}', payload size {size} is greater than maximum size of {MAX_PAYLOAD_BYTES} bytes."),
                span,
            });
        }
        self.sigs.mesh_payload_size = Some(size);
        self.sigs.dispatch_mesh_calls += 1;
        ops.push(temp);
        let pty = self.b.type_of(temp);
        self.op(DxilOp::DispatchMesh, Overload::Udt(pty), &ops, span)?;
        Ok(Vec::new())
    }
}

/// A mesh shader's `out vertices` or `out primitives` array: the signature elements of one
/// element of the array.
#[derive(Clone, Debug)]
pub(crate) struct MeshOut {
    pub var: VarId,
    /// `out primitives` (primitive signature, `storePrimitiveOutput`), else `out vertices`.
    pub primitive: bool,
    /// Flattened components of one array element.
    pub elem_len: usize,
    /// The pieces of one element: the piece, its signature element id, its first component.
    pub pieces: Vec<(IoPiece, u32, usize)>,
}

/// A mesh shader's outputs, set up before its body is lowered.
#[derive(Clone, Debug, Default)]
pub(crate) struct MeshIo {
    pub outputs: Vec<MeshOut>,
    /// The `out indices` array and the indices per primitive (2 for lines, 3 for triangles).
    pub indices: Option<(VarId, usize)>,
}

impl Lowerer<'_> {
    /// Whether `v` is one of a mesh shader's output arrays (written with `dx.op` calls only).
    pub(crate) fn is_mesh_output(&self, v: VarId) -> bool {
        self.mesh.outputs.iter().any(|o| o.var == v) || self.mesh.indices.is_some_and(|(i, _)| i == v)
    }

    /// Sets up a mesh shader's parameters: the signature elements of the `out vertices` and
    /// `out primitives` arrays (every element, in parameter and field order, as dxc adds them),
    /// and the `in payload` read through `getMeshPayload`. Returns the parameters handled.
    pub(crate) fn begin_mesh(&mut self, f: &tast::Function) -> R<Vec<VarId>> {
        let t = self.t;
        let mut handled = Vec::new();
        for &p in &f.params {
            let var = t.var(p);
            let Some(m) = var.primitive else { continue };
            let span = Some(var.span);
            match m {
                Modifier::Vertices | Modifier::Primitives => {
                    let primitive = m == Modifier::Primitives;
                    let Type::Array { elem, len: Some(_) } = t.types.get(var.ty).clone() else {
                        return unsupported("a mesh shader output that is not a constant-length array", span);
                    };
                    let mut pieces = Vec::new();
                    self.io_pieces(elem, var.semantic.as_ref(), var.interpolation, var.span, &mut pieces)?;
                    let mut out = MeshOut { var: p, primitive, elem_len: self.flat_len(elem), pieces: Vec::new() };
                    let mut at = 0;
                    for piece in pieces {
                        let sig = if primitive { SigKind::PatchConstant } else { SigKind::Output };
                        let id = self.add_element_to(&piece, sig)?;
                        let n = self.flat_len(piece.ty);
                        out.pieces.push((piece, id, at));
                        at += n;
                    }
                    self.mesh.outputs.push(out);
                }
                Modifier::Indices => {
                    let per = match t.types.get(var.ty) {
                        Type::Array { elem, .. } => match t.types.get(*elem) {
                            Type::Vector(_, n) => *n as usize,
                            _ => 1,
                        },
                        _ => 1,
                    };
                    if !(2..=3).contains(&per) {
                        return unsupported("an `out indices` array whose elements are not uint2 or uint3", span);
                    }
                    self.mesh.indices = Some((p, per));
                }
                Modifier::Payload => {
                    let span = var.span;
                    if !matches!(t.types.get(var.ty), Type::Struct(_)) {
                        return unsupported(format!("a mesh payload of type `{}` (a user struct is expected)", t.types.name(var.ty)), Some(span));
                    }
                    let sty = super::raytracing::memory_type(t, self.b.module, var.ty, span)?;
                    let pty = self.b.module.types.pointer(sty, 0);
                    let size = self.udt_size(var.ty);
                    if size > MAX_PAYLOAD_BYTES {
                        let entry = &self.opts.entry_name;
                        return Err(super::LowerError {
                            message: format!("For mesh shader with entry '{entry}', payload size {size} is greater than maximum size of {MAX_PAYLOAD_BYTES} bytes."),
                            span: Some(span),
                        });
                    }
                    self.sigs.mesh_payload_size = Some(size);
                    let ptr = self.op(DxilOp::GetMeshPayload, Overload::Udt(pty), &[], Some(span))?;
                    let vals = self.load_memory(ptr, var.ty);
                    self.vars.insert(p, vals);
                }
                _ => continue,
            }
            handled.push(p);
        }
        Ok(handled)
    }

    /// `SetMeshOutputCounts(vertices, primitives)`.
    fn set_mesh_output_counts(&mut self, args: &[ExprId], e: ExprId) -> R<Flat> {
        let span = self.span(e);
        let mut ops = Vec::new();
        for &a in args {
            let k = self.kind_of(self.t.expr(a).ty);
            let v = self.expr(a)?[0];
            ops.push(self.convert_scalar(v, k, ScalarKind::UInt));
        }
        self.op(DxilOp::SetMeshOutputCounts, Overload::None, &ops, span)?;
        Ok(Vec::new())
    }

    /// A write to a mesh shader output array: `storeVertexOutput`/`storePrimitiveOutput` per
    /// component written, or `emitIndices` for a whole element of the `out indices` array.
    pub(crate) fn store_mesh_output(&mut self, p: &Place, values: &[Value], span: Option<Span>) -> R<()> {
        let Root::Var(v) = p.root else { return unsupported("this mesh shader output write", span) };
        let i32t = self.b.module.types.i32();
        // The array index of component `c` (relative to the place's first element).
        let (index, comps): (Option<Value>, Vec<usize>) = match p.dynamic.as_slice() {
            [] => (None, p.comps.clone()),
            [(idx, _, _)] => {
                let it = self.b.type_of(*idx);
                let idx = if it == i32t { *idx } else { self.b.cast(crate::ir::CastOp::ZExt, *idx, i32t) };
                (Some(idx), p.comps.clone())
            }
            _ => return unsupported("indexing by a run-time value inside an element of a mesh shader output", span),
        };
        if let Some((iv, per)) = self.mesh.indices.filter(|(i, _)| *i == v) {
            let whole = comps.len() == per && comps[0] % per == 0 && comps.windows(2).all(|w| w[1] == w[0] + 1);
            if !whole || (index.is_some() && comps[0] != 0) {
                return Err(super::LowerError { message: "a vector in out indices array must be accessed as a whole".into(), span });
            }
            let _ = iv;
            let prim = match index {
                Some(i) => i,
                None => self.ci32((comps[0] / per) as i32),
            };
            let mut ops = vec![prim];
            for &x in values.iter().take(per) {
                ops.push(self.convert_scalar(x, ScalarKind::UInt, ScalarKind::UInt));
            }
            while ops.len() < 4 {
                let u = self.undef_i32();
                ops.push(u);
            }
            self.op(DxilOp::EmitIndices, Overload::None, &ops, span)?;
            return Ok(());
        }
        let Some(out) = self.mesh.outputs.iter().find(|o| o.var == v).cloned() else {
            return unsupported("this mesh shader output write", span);
        };
        let op = if out.primitive { DxilOp::StorePrimitiveOutput } else { DxilOp::StoreVertexOutput };
        // dxc writes each element's components in signature order (row, then column), which
        // differs from the flattened order for column-major matrices.
        let mut stores = Vec::new();
        for (&c, &val) in comps.iter().zip(values) {
            if self.is_undef(val) {
                continue;
            }
            let (elem_index, w) = match index {
                Some(i) => (i, c),
                None => (self.ci32((c / out.elem_len) as i32), c % out.elem_len),
            };
            if w >= out.elem_len {
                return unsupported("this mesh shader output write", span);
            }
            let Some(at) = out.pieces.iter().rposition(|(_, _, s)| *s <= w) else {
                return unsupported("this mesh shader output write", span);
            };
            let (piece, id, start) = out.pieces[at].clone();
            let kinds = self.leaf_kinds(piece.ty);
            let k = kinds[w - start];
            let store_kind = if k == ScalarKind::Bool { ScalarKind::UInt } else { k };
            let x = self.convert_scalar(val, k, store_kind);
            let (row, col) = self.sig_position(piece.ty, w - start);
            stores.push((elem_index, at, row, col, id, x, store_kind));
        }
        stores.sort_by_key(|s| (s.1, s.2, s.3));
        for (elem_index, _, row, col, id, x, store_kind) in stores {
            let args = [self.ci32(id as i32), self.ci32(row), self.ci8(col), x, elem_index];
            self.op(op, Self::overload(store_kind), &args, span)?;
        }
        Ok(())
    }
}
