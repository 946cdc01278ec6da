//! Pixel-shader intrinsics: `clip`, the derivatives and `IsHelperLane`.

use super::super::layout::Layout;
use super::super::{Lowerer, R};
use crate::id::SpvId;
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::tast::{ConstValue, ExprId};
use hlslc_sema::types::{ScalarKind, TypeId};
use spirv::Op;

impl<'m> Lowerer<'m> {
    /// `clip` or a derivative, or `None` when `op` is not one.
    pub(super) fn pixel_intrinsic(
        &mut self,
        op: I,
        args: &[ExprId],
        ty: TypeId,
        _e: ExprId,
    ) -> R<Option<SpvId>> {
        let rty = self.ty(ty, Layout::Logical)?;
        let arg_ty = |l: &Self, i: usize| args.get(i).map(|&a| l.m.expr(a).ty).unwrap_or(ty);
        let v = match op {
            I::Clip => {
                let x = self.rvalue(args[0])?;
                let at = arg_ty(self, 0);
                let bool_ty = self.scalar_ty(ScalarKind::Bool, Layout::Logical);
                let c = match self.shape(at) {
                    // A matrix row by row (a SPIR-V vector has at most four components).
                    Some(s) if s.is_matrix() => {
                        let row_ty = self.vector_ty(s.kind, s.cols, Layout::Logical);
                        let zero = self.scalar_const(s.kind, ConstValue::Float(0.0))?;
                        let zero = self.b.ctx.const_composite(row_ty, &vec![zero; s.cols as usize]);
                        let bt = self.vector_ty(ScalarKind::Bool, s.cols, Layout::Logical);
                        let mut rows = Vec::new();
                        for r in 0..s.rows {
                            let row = self.b.composite_extract(row_ty, x, &[r])?;
                            let lt = self.b.binary(Op::FOrdLessThan, bt, row, zero)?;
                            rows.push(self.b.unary(Op::Any, bool_ty, lt)?);
                        }
                        let bv = self.vector_ty(ScalarKind::Bool, s.rows, Layout::Logical);
                        let any_rows = self.b.composite_construct(bv, &rows)?;
                        self.b.unary(Op::Any, bool_ty, any_rows)?
                    }
                    shape => {
                        let n = shape.map_or(1, |s| s.count());
                        let zero = self.constant(at, ConstValue::Float(0.0))?;
                        let bt = self.vector_ty(ScalarKind::Bool, n, Layout::Logical);
                        let lt = self.b.binary(Op::FOrdLessThan, bt, x, zero)?;
                        if n > 1 {
                            self.b.unary(Op::Any, bool_ty, lt)?
                        } else {
                            lt
                        }
                    }
                };
                let (kill, merge) = (self.label("if.true"), self.label("if.merge"));
                self.b
                    .selection_merge(merge, spirv::SelectionControl::NONE)?;
                self.b.branch_conditional(c, kill, merge)?;
                self.start_block(kill)?;
                self.b.kill()?;
                self.start_block(merge)?;
                Ok(self.no_value(rty))
            }
            I::Ddx | I::Ddy | I::DdxFine | I::DdyFine | I::DdxCoarse | I::DdyCoarse | I::Fwidth => {
                let x = self.rvalue(args[0])?;
                let o = match op {
                    I::Ddx => Op::DPdx,
                    I::Ddy => Op::DPdy,
                    I::DdxFine => Op::DPdxFine,
                    I::DdyFine => Op::DPdyFine,
                    I::DdxCoarse => Op::DPdxCoarse,
                    I::DdyCoarse => Op::DPdyCoarse,
                    _ => Op::Fwidth,
                };
                if matches!(
                    o,
                    Op::DPdxFine | Op::DPdyFine | Op::DPdxCoarse | Op::DPdyCoarse
                ) {
                    self.b.capability(spirv::Capability::DerivativeControl);
                }
                self.compute_derivative_group();
                // A matrix row by row: the derivative instructions take scalars and vectors.
                let at = arg_ty(self, 0);
                self.per_row(ty, &[(x, at)], |l, rt, p| Ok(l.b.unary(o, rt, p[0])?))
            }
            I::IsHelperLane => {
                // SPIR-V 1.6 (Vulkan 1.3) reads the built-in; earlier targets use the
                // demote-to-helper extension's instruction, as DXC does.
                if self.opts.target.spirv_version() >= (1, 6) {
                    self.builtin_input(spirv::BuiltIn::HelperInvocation, "gl_HelperInvocation")
                } else {
                    self.b.capability(spirv::Capability::DemoteToHelperInvocation);
                    self.b.extension("SPV_EXT_demote_to_helper_invocation");
                    Ok(self.b.value(Op::IsHelperInvocationEXT, rty, vec![])?)
                }
            }
            I::EvaluateAttributeAtSample | I::EvaluateAttributeCentroid | I::EvaluateAttributeSnapped => {
                self.evaluate_attribute(op, args, ty)
            }
            _ => return Ok(None),
        };
        v.map(Some)
    }

    /// `EvaluateAttribute{AtSample,Centroid,Snapped}`: GLSL.std.450's `InterpolateAt{Sample,
    /// Centroid,Offset}`, in dxc's `-fcgl` shape: the value goes through a function-scope
    /// temporary (`%temp_var_v4float`) whose pointer is the interpolant, a matrix row by row;
    /// the snapped offset is converted to floats. The interpolant must be an `Input` pointer:
    /// the optimizer's interpolant fix-up (spirv-opt's `interp`, run by the driver's legalizer
    /// at every level but `-fcgl`) traces the temporary back to the stage input it was loaded
    /// from, and the driver refuses a module where that fails.
    fn evaluate_attribute(&mut self, op: I, args: &[ExprId], ty: TypeId) -> R<SpvId> {
        use spirv::GlslStd450Op as G;
        let x = self.rvalue(args[0])?;
        let g = match op {
            I::EvaluateAttributeAtSample => G::InterpolateAtSample,
            I::EvaluateAttributeSnapped => G::InterpolateAtOffset,
            _ => G::InterpolateAtCentroid,
        };
        let name = match self.shape(ty) {
            Some(s) if s.is_matrix() => {
                let kind = match s.kind {
                    ScalarKind::Half => "half",
                    ScalarKind::Double => "double",
                    _ => "float",
                };
                format!("temp.var.v{}{kind}", s.cols)
            }
            _ => format!("temp.var.{}", self.spirv_type_name(ty)),
        };
        let mut extra: Option<Option<SpvId>> = None;
        self.per_row(ty, &[(x, ty)], |l, rt, p| {
            let pty = l.b.ctx.type_pointer(spirv::StorageClass::Function, rt);
            let tmp = l.b.local_variable(pty, None)?;
            l.b.ctx.name(tmp, &name);
            l.b.store(tmp, p[0], None)?;
            // The second argument after the store, as dxc evaluates it (once for a matrix).
            if extra.is_none() {
                extra = Some(match op {
                    I::EvaluateAttributeAtSample => Some(l.rvalue(args[1])?),
                    I::EvaluateAttributeSnapped => {
                        let off = l.rvalue(args[1])?;
                        let v2f = l.vector_ty(ScalarKind::Float, 2, Layout::Logical);
                        Some(l.b.unary(Op::ConvertSToF, v2f, off)?)
                    }
                    _ => None,
                });
            }
            let mut ops = vec![tmp];
            ops.extend(extra.flatten());
            Ok(l.b.glsl(rt, g, &ops)?)
        })
    }
}
