//! Amplification shaders: compute-like entry points whose one `DispatchMesh(x, y, z, payload)`
//! launches the mesh shader groups. The payload (a user struct) goes to `dx.op.dispatchMesh`
//! by pointer: its value is copied to an `alloca` of its `%struct.<name>` type, and its size
//! is the amplification state's payload size in `dx.entryPoints` (`!{!{x, y, z}, size}`, tag
//! 10).
//!
//! dxc passes a groupshared payload by its `addrspace(3)` pointer; hlslc's groupshared
//! variables are flattened arrays, so the payload's current value is copied like a local one.

use super::{unsupported, Flat, Lowerer, R};
use crate::ops::{DxilOp, Overload};
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::tast::ExprId;
use hlslc_sema::types::ScalarKind;

/// The largest payload an amplification shader may pass (DXC's kMaxMSASPayloadBytes).
pub(crate) const MAX_PAYLOAD_BYTES: u32 = 16384;

impl Lowerer<'_> {
    /// `DispatchMesh`; `None` for other intrinsics.
    pub(crate) fn mesh_intrinsic(&mut self, op: I, args: &[ExprId], e: ExprId) -> Option<R<Flat>> {
        match op {
            I::DispatchMesh => Some(self.dispatch_mesh(args, e)),
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
