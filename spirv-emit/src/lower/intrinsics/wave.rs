//! Wave and quad intrinsics: SPIR-V 1.3's `OpGroupNonUniform*` at subgroup scope, and the
//! subgroup built-ins (`WaveGetLaneCount` reads `SubgroupSize`).
//!
//! As in DXC, every one of them needs Vulkan 1.1 (SPIR-V 1.3): with an older target the call is
//! an error at the call. Each instruction adds the capability of its class (`GroupNonUniform`,
//! `...Vote`, `...Arithmetic`, `...Ballot`, `...Shuffle`, `...Quad`, `...PartitionedNV`).

use super::super::layout::Layout;
use super::super::{LowerError, Lowerer, R};
use crate::id::SpvId;
use crate::target::TargetEnv;
use crate::types::Decoration;
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::tast::{ExprId, Stage};
use hlslc_sema::types::{ScalarKind, TypeId};
use rspirv::dr::Operand;
use spirv::{BuiltIn, Capability as C, GroupOperation as GO, Op, StorageClass};

/// `Subgroup` scope.
const SUBGROUP: u32 = 3;

impl<'m> Lowerer<'m> {
    /// A wave or quad intrinsic, or `None` when `op` is not one.
    pub(super) fn wave_intrinsic(
        &mut self,
        op: I,
        args: &[ExprId],
        ty: TypeId,
        e: ExprId,
    ) -> R<Option<SpvId>> {
        if !is_wave_op(op) {
            return Ok(None);
        }
        if op == I::WaveMultiPrefixCountBits {
            // Not in DXC's SPIR-V backend either (no partitioned ballot count exists).
            return Err(LowerError {
                fatal: false,
                message: "WaveMultiPrefixCountBits intrinsic function unimplemented".into(),
                span: self.expr_span(e),
                notes: Vec::new(),
            });
        }
        if self.opts.target < TargetEnv::Vulkan1_1 {
            return Err(LowerError {
                fatal: false,
                message: "Vulkan 1.1 is required for Wave Operation but not permitted to use"
                    .into(),
                span: self.expr_span(e),
                notes: vec![
                    "please specify your target environment via command line option -fspv-target-env="
                        .into(),
                ],
            });
        }
        let rty = self.ty(ty, Layout::Logical)?;
        let arg_kind = |l: &Self, i: usize| {
            args.get(i)
                .and_then(|&a| l.m.types.component(l.m.expr(a).ty))
                .unwrap_or(ScalarKind::UInt)
        };
        let scope = self.b.ctx.const_u32(SUBGROUP);
        let v = match op {
            I::WaveGetLaneCount => self.builtin_input(BuiltIn::SubgroupSize, "SubgroupSize")?,
            I::WaveGetLaneIndex => {
                self.builtin_input(BuiltIn::SubgroupLocalInvocationId, "SubgroupLocalInvocationId")?
            }
            I::GetGroupWaveCount => self.builtin_input(BuiltIn::NumSubgroups, "NumSubgroups")?,
            I::GetGroupWaveIndex => self.builtin_input(BuiltIn::SubgroupId, "SubgroupId")?,
            I::WaveIsFirstLane => {
                self.b.capability(C::GroupNonUniform);
                self.b.value(Op::GroupNonUniformElect, rty, vec![Operand::IdRef(scope.0)])?
            }
            I::WaveActiveAnyTrue | I::WaveActiveAllTrue => {
                self.b.capability(C::GroupNonUniformVote);
                let o = if op == I::WaveActiveAnyTrue {
                    Op::GroupNonUniformAny
                } else {
                    Op::GroupNonUniformAll
                };
                let x = self.rvalue(args[0])?;
                self.b.value(o, rty, vec![Operand::IdRef(scope.0), Operand::IdRef(x.0)])?
            }
            I::WaveActiveAllEqual => {
                self.b.capability(C::GroupNonUniformVote);
                let x = self.rvalue(args[0])?;
                self.all_equal(x, self.m.expr(args[0]).ty, rty, scope)?
            }
            I::WaveActiveBallot => {
                let x = self.rvalue(args[0])?;
                self.ballot(x, scope)?
            }
            I::WaveActiveCountBits | I::WavePrefixCountBits => {
                let x = self.rvalue(args[0])?;
                let ballot = self.ballot(x, scope)?;
                let group = if op == I::WaveActiveCountBits {
                    GO::Reduce
                } else {
                    GO::ExclusiveScan
                };
                self.b.value(
                    Op::GroupNonUniformBallotBitCount,
                    rty,
                    vec![
                        Operand::IdRef(scope.0),
                        Operand::GroupOperation(group),
                        Operand::IdRef(ballot.0),
                    ],
                )?
            }
            I::WaveReadLaneFirst => {
                self.b.capability(C::GroupNonUniformBallot);
                let x = self.rvalue(args[0])?;
                self.b.value(
                    Op::GroupNonUniformBroadcastFirst,
                    rty,
                    vec![Operand::IdRef(scope.0), Operand::IdRef(x.0)],
                )?
            }
            I::WaveReadLaneAt => {
                self.b.capability(C::GroupNonUniformShuffle);
                let x = self.rvalue(args[0])?;
                let lane = self.rvalue(args[1])?;
                self.b.value(
                    Op::GroupNonUniformShuffle,
                    rty,
                    vec![Operand::IdRef(scope.0), Operand::IdRef(x.0), Operand::IdRef(lane.0)],
                )?
            }
            I::QuadReadAcrossX | I::QuadReadAcrossY | I::QuadReadAcrossDiagonal => {
                self.b.capability(C::GroupNonUniformQuad);
                self.compute_derivative_group();
                let x = self.rvalue(args[0])?;
                let dir = match op {
                    I::QuadReadAcrossX => 0,
                    I::QuadReadAcrossY => 1,
                    _ => 2,
                };
                self.quad_swap(rty, x, dir, scope)?
            }
            I::QuadReadLaneAt => {
                self.b.capability(C::GroupNonUniformQuad);
                self.compute_derivative_group();
                let x = self.rvalue(args[0])?;
                let lane = self.rvalue(args[1])?;
                self.b.value(
                    Op::GroupNonUniformQuadBroadcast,
                    rty,
                    vec![Operand::IdRef(scope.0), Operand::IdRef(x.0), Operand::IdRef(lane.0)],
                )?
            }
            I::QuadAny | I::QuadAll => {
                // DXC's form without SPV_KHR_quad_control (which the SPIRV-Tools we validate
                // with do not know): the lane combined with the three others of its quad.
                self.b.capability(C::GroupNonUniformQuad);
                self.compute_derivative_group();
                let x = self.rvalue(args[0])?;
                let combine = if op == I::QuadAny {
                    Op::LogicalOr
                } else {
                    Op::LogicalAnd
                };
                let mut acc = x;
                for dir in 0..3 {
                    let other = self.quad_swap(rty, x, dir, scope)?;
                    acc = self.b.binary(combine, rty, acc, other)?;
                }
                acc
            }
            I::WaveMatch => {
                self.partitioned();
                let x = self.rvalue(args[0])?;
                self.b.value(
                    Op::GroupNonUniformPartitionEXT,
                    rty,
                    vec![Operand::IdRef(x.0)],
                )?
            }
            _ => {
                // Reductions and scans.
                let kind = arg_kind(self, 0);
                let (class, group) = match op {
                    I::WavePrefixSum | I::WavePrefixUSum | I::WavePrefixProduct
                    | I::WavePrefixUProduct => (C::GroupNonUniformArithmetic, GO::ExclusiveScan),
                    I::WaveMultiPrefixSum
                    | I::WaveMultiPrefixUSum
                    | I::WaveMultiPrefixProduct
                    | I::WaveMultiPrefixUProduct
                    | I::WaveMultiPrefixBitAnd
                    | I::WaveMultiPrefixBitOr
                    | I::WaveMultiPrefixBitXor => {
                        (C::GroupNonUniformPartitionedEXT, GO::PartitionedExclusiveScanEXT)
                    }
                    _ => (C::GroupNonUniformArithmetic, GO::Reduce),
                };
                let Some(o) = arith_op(op, kind) else {
                    return Ok(None);
                };
                if class == C::GroupNonUniformPartitionedEXT {
                    self.partitioned();
                } else {
                    self.b.capability(class);
                }
                let x = self.rvalue(args[0])?;
                let mut ops = vec![
                    Operand::IdRef(scope.0),
                    Operand::GroupOperation(group),
                    Operand::IdRef(x.0),
                ];
                if group == GO::PartitionedExclusiveScanEXT {
                    let mask = self.rvalue(args[1])?;
                    ops.push(Operand::IdRef(mask.0));
                }
                self.b.value(o, rty, ops)?
            }
        };
        Ok(Some(v))
    }

    /// Quad operations (and derivatives) in a compute, mesh or task shader need the threads
    /// grouped in quads: `DerivativeGroupQuadsKHR` when `numthreads` x and y are even,
    /// `DerivativeGroupLinearKHR` when the group size is a multiple of 4, as DXC chooses. Added
    /// once per module. Mesh and task shaders have them only as `MeshEXT`/`TaskEXT` and only
    /// through `SPV_KHR_compute_shader_derivatives` (the NV extension covers compute alone; the
    /// NV mesh flavour gets no derivative group, as in DXC).
    pub(crate) fn compute_derivative_group(&mut self) {
        // Functions are lowered once for all entry points: the first such entry decides.
        let grouped = |s: Stage| matches!(s, Stage::Compute | Stage::Mesh | Stage::Amplification);
        let Some(index) = self.m.entries.iter().position(|e| grouped(e.stage)) else { return };
        let ep = &self.m.entries[index];
        let mesh = ep.stage != Stage::Compute;
        if mesh && self.mesh_nv() {
            return;
        }
        if self.b.has_capability(C::ComputeDerivativeGroupLinearKHR) {
            return;
        }
        let index = Some(index);
        // With a size given by a specialization constant, the default decides (a pipeline
        // that changes it must keep the quad layout; DXC has no such sizes).
        let [x, y, z] = ep.numthreads.unwrap_or([1, 1, 1]);
        let mode = if x % 2 == 0 && y % 2 == 0 {
            spirv::ExecutionMode::DerivativeGroupQuadsKHR
        } else if (x * y * z) % 4 == 0 {
            spirv::ExecutionMode::DerivativeGroupLinearKHR
        } else {
            return;
        };
        self.b.capability(C::ComputeDerivativeGroupQuadsKHR);
        self.b.capability(C::ComputeDerivativeGroupLinearKHR);
        // The NV spelling unless the allowed list asks for the KHR one: the KHR extension is
        // newer than the SPIRV-Tools we validate with.
        if self.opts.compute_derivatives_khr || mesh {
            self.b.extension("SPV_KHR_compute_shader_derivatives");
        } else {
            self.b.extension("SPV_NV_compute_shader_derivatives");
        }
        if let Some(f) = index.and_then(|i| self.b.entry_points().get(i)).map(|e| e.function) {
            self.b.execution_mode(f, mode, &[]);
        }
    }

    fn partitioned(&mut self) {
        self.b.capability(C::GroupNonUniformPartitionedEXT);
        self.b.extension("SPV_NV_shader_subgroup_partitioned");
    }

    fn ballot(&mut self, cond: SpvId, scope: SpvId) -> R<SpvId> {
        self.b.capability(C::GroupNonUniformBallot);
        let v4 = self.vector_ty(ScalarKind::UInt, 4, Layout::Logical);
        Ok(self.b.value(
            Op::GroupNonUniformBallot,
            v4,
            vec![Operand::IdRef(scope.0), Operand::IdRef(cond.0)],
        )?)
    }

    fn quad_swap(&mut self, ty: SpvId, x: SpvId, dir: u32, scope: SpvId) -> R<SpvId> {
        let d = self.b.ctx.const_u32(dir);
        Ok(self.b.value(
            Op::GroupNonUniformQuadSwap,
            ty,
            vec![Operand::IdRef(scope.0), Operand::IdRef(x.0), Operand::IdRef(d.0)],
        )?)
    }

    /// `WaveActiveAllEqual`: `OpGroupNonUniformAllEqual` takes a scalar or vector but answers
    /// one bool, so DXC compares component by component and rebuilds the bool vector (a matrix
    /// row by row).
    fn all_equal(&mut self, x: SpvId, xty: TypeId, rty: SpvId, scope: SpvId) -> R<SpvId> {
        let Some(shape) = self.shape(xty) else {
            return super::super::unsupported("WaveActiveAllEqual on this type", None);
        };
        let bool_ty = self.scalar_ty(ScalarKind::Bool, Layout::Logical);
        let elem = self.scalar_ty(shape.kind, Layout::Logical);
        let eq = |l: &mut Self, v: SpvId| -> R<SpvId> {
            Ok(l.b.value(
                Op::GroupNonUniformAllEqual,
                bool_ty,
                vec![Operand::IdRef(scope.0), Operand::IdRef(v.0)],
            )?)
        };
        if shape.count() == 1 {
            return eq(self, x);
        }
        if !shape.is_matrix() {
            let mut parts = Vec::new();
            for i in 0..shape.count() {
                let c = self.b.composite_extract(elem, x, &[i])?;
                parts.push(eq(self, c)?);
            }
            return Ok(self.b.composite_construct(rty, &parts)?);
        }
        let row_ty = self.vector_ty(shape.kind, shape.cols, Layout::Logical);
        let brow_ty = self.vector_ty(ScalarKind::Bool, shape.cols, Layout::Logical);
        let mut rows = Vec::new();
        for r in 0..shape.rows {
            let row = self.b.composite_extract(row_ty, x, &[r])?;
            let mut parts = Vec::new();
            for c in 0..shape.cols {
                let v = self.b.composite_extract(elem, row, &[c])?;
                parts.push(eq(self, v)?);
            }
            rows.push(self.b.composite_construct(brow_ty, &parts)?);
        }
        Ok(self.b.composite_construct(rty, &rows)?)
    }

    /// The `Input` variable of a built-in, made the first time it is read and added to the entry
    /// points' interfaces; its value loaded.
    pub(crate) fn builtin_input(&mut self, b: BuiltIn, name: &str) -> R<SpvId> {
        let val_ty = match b {
            BuiltIn::HelperInvocation => self.b.ctx.type_bool(),
            _ => self.b.ctx.type_u32(),
        };
        let var = match self.builtin_vars.get(&b) {
            Some(&v) => v,
            None => {
                if matches!(
                    b,
                    BuiltIn::SubgroupSize
                        | BuiltIn::SubgroupLocalInvocationId
                        | BuiltIn::NumSubgroups
                        | BuiltIn::SubgroupId
                ) {
                    self.b.capability(C::GroupNonUniform);
                }
                let pty = self.b.ctx.type_pointer(StorageClass::Input, val_ty);
                let var = self.b.global_variable(pty, StorageClass::Input, None);
                self.b.ctx.name(var, name);
                self.b
                    .ctx
                    .decorate(var, &Decoration::with_literals(spirv::Decoration::BuiltIn, &[b as u32]));
                let pixel = self.m.entries.iter().any(|e| e.stage == Stage::Pixel);
                if pixel && b != BuiltIn::HelperInvocation {
                    self.b.ctx.decorate(var, &Decoration::new(spirv::Decoration::Flat));
                }
                if b == BuiltIn::HelperInvocation && self.opts.target.spirv_version() >= (1, 6) {
                    self.b.ctx.decorate(var, &Decoration::new(spirv::Decoration::Volatile));
                }
                // Functions are lowered once for every entry point: each lists the variable.
                for i in 0..self.b.entry_points().len() {
                    if let Some(ep) = self.b.entry_point_mut(i) {
                        ep.interface.push(var);
                    }
                }
                self.builtin_vars.insert(b, var);
                var
            }
        };
        Ok(self.b.load(val_ty, var, None)?)
    }
}

fn is_wave_op(op: I) -> bool {
    matches!(
        op,
        I::WaveGetLaneCount
            | I::WaveGetLaneIndex
            | I::GetGroupWaveCount
            | I::GetGroupWaveIndex
            | I::WaveIsFirstLane
            | I::WaveActiveAnyTrue
            | I::WaveActiveAllTrue
            | I::WaveActiveAllEqual
            | I::WaveActiveBallot
            | I::WaveActiveCountBits
            | I::WavePrefixCountBits
            | I::WaveReadLaneFirst
            | I::WaveReadLaneAt
            | I::QuadReadAcrossX
            | I::QuadReadAcrossY
            | I::QuadReadAcrossDiagonal
            | I::QuadReadLaneAt
            | I::QuadAny
            | I::QuadAll
            | I::WaveMatch
            | I::WaveMultiPrefixCountBits
            | I::WaveActiveSum
            | I::WaveActiveUSum
            | I::WaveActiveProduct
            | I::WaveActiveUProduct
            | I::WaveActiveMin
            | I::WaveActiveUMin
            | I::WaveActiveMax
            | I::WaveActiveUMax
            | I::WaveActiveBitAnd
            | I::WaveActiveBitOr
            | I::WaveActiveBitXor
            | I::WavePrefixSum
            | I::WavePrefixUSum
            | I::WavePrefixProduct
            | I::WavePrefixUProduct
            | I::WaveMultiPrefixSum
            | I::WaveMultiPrefixUSum
            | I::WaveMultiPrefixProduct
            | I::WaveMultiPrefixUProduct
            | I::WaveMultiPrefixBitAnd
            | I::WaveMultiPrefixBitOr
            | I::WaveMultiPrefixBitXor
    )
}

/// The `OpGroupNonUniform*` arithmetic instruction of a reduction or scan on `kind`.
fn arith_op(op: I, kind: ScalarKind) -> Option<Op> {
    let (f, s) = (kind.is_float(), kind.is_signed_int());
    Some(match op {
        I::WaveActiveSum | I::WaveActiveUSum | I::WavePrefixSum | I::WavePrefixUSum
        | I::WaveMultiPrefixSum | I::WaveMultiPrefixUSum => {
            if f {
                Op::GroupNonUniformFAdd
            } else {
                Op::GroupNonUniformIAdd
            }
        }
        I::WaveActiveProduct
        | I::WaveActiveUProduct
        | I::WavePrefixProduct
        | I::WavePrefixUProduct
        | I::WaveMultiPrefixProduct
        | I::WaveMultiPrefixUProduct => {
            if f {
                Op::GroupNonUniformFMul
            } else {
                Op::GroupNonUniformIMul
            }
        }
        I::WaveActiveMin if f => Op::GroupNonUniformFMin,
        I::WaveActiveMin if s => Op::GroupNonUniformSMin,
        I::WaveActiveMin | I::WaveActiveUMin => Op::GroupNonUniformUMin,
        I::WaveActiveMax if f => Op::GroupNonUniformFMax,
        I::WaveActiveMax if s => Op::GroupNonUniformSMax,
        I::WaveActiveMax | I::WaveActiveUMax => Op::GroupNonUniformUMax,
        I::WaveActiveBitAnd | I::WaveMultiPrefixBitAnd => Op::GroupNonUniformBitwiseAnd,
        I::WaveActiveBitOr | I::WaveMultiPrefixBitOr => Op::GroupNonUniformBitwiseOr,
        I::WaveActiveBitXor | I::WaveMultiPrefixBitXor => Op::GroupNonUniformBitwiseXor,
        _ => return None,
    })
}
