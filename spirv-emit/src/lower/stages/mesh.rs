//! Amplification shaders (SPIR-V `TaskEXT`, SPV_EXT_mesh_shader): the `groupshared` payload
//! that `DispatchMesh` passes on lives in `TaskPayloadWorkgroupEXT` storage, and
//! `DispatchMesh(x, y, z, payload)` is a workgroup barrier followed by `OpEmitMeshTasksEXT`,
//! which ends the block. The NV flavour (SPIR-V before 1.4) and mesh shaders are not done yet.

use super::super::{unsupported, Lowerer, R};
use crate::id::SpvId;
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::tast::{ExprId, ExprKind, Module, Stage, VarId};
use hlslc_sema::types::TypeId;
use rspirv::dr::Operand;
use spirv::Op;

/// The `groupshared` variables an amplification shader passes to `DispatchMesh`.
pub(crate) fn task_payloads(m: &Module) -> Vec<VarId> {
    if !m.entries.iter().any(|e| e.stage == Stage::Amplification) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for e in &m.exprs {
        if let ExprKind::Intrinsic { op: I::DispatchMesh, args, .. } = &e.kind {
            if let Some(&a) = args.get(3) {
                if let Some(v) = var_of(m, a) {
                    if !out.contains(&v) {
                        out.push(v);
                    }
                }
            }
        }
    }
    out
}

/// The variable an argument names, through implicit casts.
fn var_of(m: &Module, e: ExprId) -> Option<VarId> {
    match &m.expr(e).kind {
        ExprKind::Var(v) => Some(*v),
        ExprKind::Cast { expr, .. } | ExprKind::OutArg { lvalue: expr, .. } => var_of(m, *expr),
        _ => None,
    }
}

impl<'m> Lowerer<'m> {
    /// `DispatchMesh` and `SetMeshOutputCounts`.
    pub(crate) fn mesh_intrinsic(&mut self, op: I, args: &[ExprId], _ty: TypeId, e: ExprId) -> R<Option<SpvId>> {
        match op {
            I::DispatchMesh => {
                if self.stage != Some(Stage::Amplification) {
                    return unsupported("DispatchMesh outside an amplification shader", self.expr_span(e));
                }
                // Execution and memory scope Workgroup; AcquireRelease | WorkgroupMemory.
                let (wg, sem) = (self.b.ctx.const_u32(2), self.b.ctx.const_u32(0x108));
                self.b.void(Op::ControlBarrier, vec![Operand::IdRef(wg.0), Operand::IdRef(wg.0), Operand::IdRef(sem.0)])?;
                self.rvalue(args[3])?;
                let counts = [self.rvalue(args[0])?, self.rvalue(args[1])?, self.rvalue(args[2])?];
                let place = self.lvalue(args[3])?;
                let Some((payload, _, _)) = Self::place_ptr(&place) else {
                    return unsupported("this DispatchMesh payload", self.expr_span(e));
                };
                let mut ops: Vec<Operand> = counts.iter().map(|c| Operand::IdRef(c.0)).collect();
                ops.push(Operand::IdRef(payload.0));
                self.b.void(Op::EmitMeshTasksEXT, ops)?;
                // What follows is unreachable, in a block of its own.
                let bb = self.b.new_block()?;
                self.b.switch_to_block(bb)?;
                Ok(Some(SpvId(0)))
            }
            I::SetMeshOutputCounts => unsupported("mesh shaders", self.expr_span(e)),
            _ => Ok(None),
        }
    }
}
