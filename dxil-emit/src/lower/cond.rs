//! Short-circuit evaluation (HLSL 2021): a scalar `&&`/`||` evaluates its right side only when
//! the left side does not decide the result, and a scalar-condition `?:` only the chosen side.
//!
//! dxc's front end branches for every such operator and its optimizer (SimplifyCFG) turns the
//! branches whose skipped side has no effect back into `and`/`or`/`select`. We branch only where
//! the skipped side has an effect (an assignment, an increment, a user call, an object method,
//! an atomic, barrier or wave/quad intrinsic), which gives the same result as dxc's optimized
//! output; where it has none, evaluating both sides and selecting is the same computation.

use super::{Flat, Lowerer, R};
use hlslc_frontend::ast::UnaryOp;
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::tast::{ConstValue, ExprId, ExprKind};
use hlslc_sema::types::{ScalarKind, Type};

impl<'a> Lowerer<'a> {
    /// Whether `&&`, `||` or `?:` with this condition (or left side) short-circuit.
    pub(crate) fn short_circuits(&self, cond: ExprId) -> bool {
        self.opts.hlsl_version >= 2021
            && !matches!(self.t.types.get(self.t.expr(cond).ty), Type::Vector(_, n) if *n > 1)
            && !matches!(self.t.types.get(self.t.expr(cond).ty), Type::Matrix { .. })
    }

    /// Whether evaluating `e` may have an effect that skipping it must avoid (see the module
    /// documentation); conservative.
    pub(crate) fn has_effects(&self, e: ExprId) -> bool {
        let any = |es: &[ExprId]| es.iter().any(|&x| self.has_effects(x));
        match &self.t.expr(e).kind {
            ExprKind::Assign { .. } | ExprKind::CompoundAssign { .. } | ExprKind::Call { .. } | ExprKind::OutArg { .. } => true,
            ExprKind::Unary { op: UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec, .. } => true,
            ExprKind::Intrinsic { object: Some(_), .. } => true,
            ExprKind::Intrinsic { op, args, .. } => effect_intrinsic(*op) || any(args),
            ExprKind::Const(_) | ExprKind::Var(_) | ExprKind::This | ExprKind::Str(_) => false,
            ExprKind::Unary { operand, .. } => self.has_effects(*operand),
            ExprKind::Binary { lhs, rhs, .. } | ExprKind::Comma { lhs, rhs } => any(&[*lhs, *rhs]),
            ExprKind::Ternary { cond, then, otherwise } => any(&[*cond, *then, *otherwise]),
            ExprKind::Cast { expr, .. } => self.has_effects(*expr),
            ExprKind::Construct { args } => any(args),
            ExprKind::Field { base, .. } | ExprKind::Swizzle { base, .. } | ExprKind::MatrixSwizzle { base, .. } => self.has_effects(*base),
            ExprKind::Index { base, index } => any(&[*base, *index]),
            _ => true,
        }
    }

    /// `lhs && rhs` (`and`) or `lhs || rhs` evaluating `rhs` in its own block, reached only
    /// when `lhs` does not decide the result; the result is a phi of `lhs`'s deciding value and
    /// `rhs`.
    pub(crate) fn short_circuit(&mut self, and: bool, lhs: ExprId, rhs: ExprId) -> R<Flat> {
        let t = self.t;
        let lk = self.kind_of(t.expr(lhs).ty);
        let rk = self.kind_of(t.expr(rhs).ty);
        let a = self.expr(lhs)?[0];
        let a = self.convert_scalar(a, lk, ScalarKind::Bool);
        match self.const_of(a) {
            Some(ConstValue::Bool(v)) if v != and => return Ok(vec![a]),
            Some(ConstValue::Bool(_)) => {
                let b = self.expr(rhs)?[0];
                return Ok(vec![self.convert_scalar(b, rk, ScalarKind::Bool)]);
            }
            _ => {}
        }
        let (from, before) = (self.current(), self.vars.clone());
        let (rb, merge) = (self.new_block(), self.new_block());
        if and {
            self.b.cond_br(a, rb, merge);
        } else {
            self.b.cond_br(a, merge, rb);
        }
        self.switch_to(rb);
        let b = self.expr(rhs)?[0];
        let b = self.convert_scalar(b, rk, ScalarKind::Bool);
        let (rb_end, after) = (self.current(), self.vars.clone());
        self.b.br(merge);
        self.enter_merge(merge, vec![(from, before), (rb_end, after)]);
        let decided = self.cbool(!and);
        let ty = self.b.type_of(b);
        Ok(vec![self.b.phi(ty, vec![(decided, from), (b, rb_end)])])
    }

    /// `cond ? then : otherwise` with a scalar `cond`, evaluating each side in its own block.
    pub(crate) fn short_circuit_select(&mut self, cond: ExprId, then: ExprId, otherwise: ExprId) -> R<Flat> {
        let c = self.expr(cond)?[0];
        match self.const_of(c) {
            Some(ConstValue::Bool(true)) => return self.expr(then),
            Some(ConstValue::Bool(false)) => return self.expr(otherwise),
            _ => {}
        }
        let before = self.vars.clone();
        let (tb, eb, merge) = (self.new_block(), self.new_block(), self.new_block());
        self.b.cond_br(c, tb, eb);
        self.switch_to(tb);
        let a = self.expr(then)?;
        let (ta, tvars) = (self.current(), self.vars.clone());
        self.b.br(merge);
        self.vars = before;
        self.switch_to(eb);
        let b = self.expr(otherwise)?;
        let (ea, evars) = (self.current(), self.vars.clone());
        self.b.br(merge);
        self.enter_merge(merge, vec![(ta, tvars), (ea, evars)]);
        let mut out = Vec::new();
        for (x, y) in a.into_iter().zip(b) {
            out.push(if x == y {
                x
            } else {
                let ty = self.b.type_of(x);
                self.b.phi(ty, vec![(x, ta), (y, ea)])
            });
        }
        Ok(out)
    }
}

/// Intrinsics (not methods) whose evaluation has an effect or depends on which lanes run it.
fn effect_intrinsic(op: I) -> bool {
    matches!(
        op,
        I::Abort
            | I::Printf
            | I::Clip
            | I::AllMemoryBarrier
            | I::AllMemoryBarrierWithGroupSync
            | I::Barrier
            | I::DeviceMemoryBarrier
            | I::DeviceMemoryBarrierWithGroupSync
            | I::GroupMemoryBarrier
            | I::GroupMemoryBarrierWithGroupSync
            | I::InterlockedAdd
            | I::InterlockedAnd
            | I::InterlockedCompareExchange
            | I::InterlockedCompareExchangeFloatBitwise
            | I::InterlockedCompareStore
            | I::InterlockedCompareStoreFloatBitwise
            | I::InterlockedExchange
            | I::InterlockedMax
            | I::InterlockedMin
            | I::InterlockedOr
            | I::InterlockedUMax
            | I::InterlockedUMin
            | I::InterlockedXor
            | I::CallShader
            | I::TraceRay
            | I::ReportHit
            | I::IgnoreHit
            | I::AcceptHitAndEndSearch
            | I::DispatchMesh
            | I::SetMeshOutputCounts
            | I::VkRawBufferStore
            | I::QuadAll
            | I::QuadAny
            | I::QuadReadAcrossDiagonal
            | I::QuadReadAcrossX
            | I::QuadReadAcrossY
            | I::QuadReadLaneAt
            | I::WaveActiveAllEqual
            | I::WaveActiveAllTrue
            | I::WaveActiveAnyTrue
            | I::WaveActiveBallot
            | I::WaveActiveBitAnd
            | I::WaveActiveBitOr
            | I::WaveActiveBitXor
            | I::WaveActiveCountBits
            | I::WaveActiveMax
            | I::WaveActiveMin
            | I::WaveActiveProduct
            | I::WaveActiveSum
            | I::WaveActiveUMax
            | I::WaveActiveUMin
            | I::WaveActiveUProduct
            | I::WaveActiveUSum
            | I::WaveIsFirstLane
            | I::WaveMatch
            | I::WaveMultiPrefixBitAnd
            | I::WaveMultiPrefixBitOr
            | I::WaveMultiPrefixBitXor
            | I::WaveMultiPrefixCountBits
            | I::WaveMultiPrefixProduct
            | I::WaveMultiPrefixSum
            | I::WaveMultiPrefixUProduct
            | I::WaveMultiPrefixUSum
            | I::WavePrefixCountBits
            | I::WavePrefixProduct
            | I::WavePrefixSum
            | I::WavePrefixUProduct
            | I::WavePrefixUSum
            | I::WaveReadLaneAt
            | I::WaveReadLaneFirst
    )
}
