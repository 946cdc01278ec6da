//! Math, bit, derivative, synchronization and wave intrinsics: per component, to `dx.op`
//! unary/binary/tertiary ops or to the instruction sequences dxc expands them into; constants
//! are folded where dxc folds them.

use super::{Flat, Lowerer, R};
use crate::ir::{BinOp, FloatPred, IntPred, Value};
use crate::ops::{DxilOp, Overload};
use hlslc_frontend::ast::BinaryOp;
use hlslc_frontend::Span;
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::tast::{ConstValue, ExprId};
use hlslc_sema::types::{ScalarKind, Type, TypeId};

/// Constant folding of a unary float op, as dxc folds it (in double, rounded to float).
fn fold_unary(op: DxilOp, x: f64) -> Option<f64> {
    Some(match op {
        DxilOp::Cos => x.cos(),
        DxilOp::Sin => x.sin(),
        DxilOp::Tan => x.tan(),
        DxilOp::Acos => x.acos(),
        DxilOp::Asin => x.asin(),
        DxilOp::Atan => x.atan(),
        DxilOp::Hcos => x.cosh(),
        DxilOp::Hsin => x.sinh(),
        DxilOp::Htan => x.tanh(),
        DxilOp::Exp => x.exp2(),
        DxilOp::Log => x.log2(),
        DxilOp::Sqrt => x.sqrt(),
        DxilOp::Rsqrt => 1.0 / x.sqrt(),
        DxilOp::FAbs => x.abs(),
        DxilOp::Saturate => x.clamp(0.0, 1.0),
        DxilOp::Round_ni => x.floor(),
        DxilOp::Round_pi => x.ceil(),
        DxilOp::Round_z => x.trunc(),
        DxilOp::Round_ne => {
            let r = x.round();
            if (x - x.trunc()).abs() == 0.5 {
                2.0 * (x / 2.0).round()
            } else {
                r
            }
        }
        DxilOp::Frc => x - x.floor(),
        _ => return None,
    })
}

impl Lowerer<'_> {
    /// A one-operand float op (folded for constants).
    pub(crate) fn unary_op(&mut self, op: DxilOp, k: ScalarKind, x: Value, span: Option<Span>) -> R<Value> {
        if let Some(ConstValue::Float(c)) = self.const_of(x) {
            if let Some(r) = fold_unary(op, c) {
                return Ok(self.const_scalar(k, ConstValue::Float(r)));
            }
        }
        self.op(op, Self::overload(k), &[x], span)
    }

    fn fconst(&mut self, k: ScalarKind, v: f64) -> Value {
        self.const_scalar(k, ConstValue::Float(v))
    }

    fn arith(&mut self, op: BinaryOp, k: ScalarKind, a: Value, b: Value) -> R<Value> {
        self.binop(op, k, a, b, None)
    }

    fn arg_kind(&self, args: &[ExprId], i: usize) -> ScalarKind {
        args.get(i).map_or(ScalarKind::Float, |a| self.kind_of(self.t.expr(*a).ty))
    }

    /// Applies `f` to the components of the arguments (scalar arguments are splatted).
    pub(crate) fn per_comp(&mut self, vals: &[Flat], mut f: impl FnMut(&mut Self, &[Value]) -> R<Value>) -> R<Flat> {
        let n = vals.iter().map(Vec::len).max().unwrap_or(0);
        let mut out = Vec::new();
        for i in 0..n {
            let xs: Vec<Value> = vals.iter().map(|v| if v.len() == 1 { v[0] } else { v[i] }).collect();
            out.push(f(self, &xs)?);
        }
        Ok(out)
    }

    fn min_max(&mut self, k: ScalarKind, max: bool, a: Value, b: Value, span: Option<Span>) -> R<Value> {
        let op = match (k.is_float(), k.is_signed_int(), max) {
            (true, _, true) => DxilOp::FMax,
            (true, _, false) => DxilOp::FMin,
            (false, true, true) => DxilOp::IMax,
            (false, true, false) => DxilOp::IMin,
            (false, false, true) => DxilOp::UMax,
            (false, false, false) => DxilOp::UMin,
        };
        if let (Some(x), Some(y)) = (self.const_of(a), self.const_of(b)) {
            let pick_a = match (x, y) {
                (ConstValue::Float(x), ConstValue::Float(y)) => (x >= y) == max,
                (ConstValue::Int(x), ConstValue::Int(y)) if k.is_signed_int() => (x >= y) == max,
                (ConstValue::Int(x), ConstValue::Int(y)) => ((x as u64) >= (y as u64)) == max,
                _ => true,
            };
            return Ok(if pick_a { a } else { b });
        }
        self.op(op, Self::overload(k), &[a, b], span)
    }

    /// `dot` of two component lists of kind `k`.
    pub(crate) fn dot(&mut self, k: ScalarKind, a: &[Value], b: &[Value], span: Option<Span>) -> R<Value> {
        if k.is_float() && (2..=4).contains(&a.len()) {
            let op = [DxilOp::Dot2, DxilOp::Dot3, DxilOp::Dot4][a.len() - 2];
            let mut args = a.to_vec();
            args.extend_from_slice(b);
            return self.op(op, Self::overload(k), &args, span);
        }
        let mut acc = self.arith(BinaryOp::Mul, k, a[0], b[0])?;
        for i in 1..a.len() {
            if k.is_float() {
                let m = self.arith(BinaryOp::Mul, k, a[i], b[i])?;
                acc = self.arith(BinaryOp::Add, k, acc, m)?;
            } else {
                let mad = if k.is_unsigned() { DxilOp::UMad } else { DxilOp::IMad };
                acc = self.op(mad, Self::overload(k), &[a[i], b[i], acc], span)?;
            }
        }
        Ok(acc)
    }

    pub(crate) fn shape(&self, ty: TypeId) -> (usize, usize) {
        match self.t.types.get(ty) {
            Type::Vector(_, n) => (1, *n as usize),
            Type::Matrix { rows, cols, .. } => (*rows as usize, *cols as usize),
            _ => (1, 1),
        }
    }

    /// `mul(a, b)` with HLSL's rules (vectors are rows on the left, columns on the right).
    fn mul(&mut self, args: &[ExprId], k: ScalarKind, span: Option<Span>) -> R<Flat> {
        let (ta, tb) = (self.t.expr(args[0]).ty, self.t.expr(args[1]).ty);
        let (a, b) = (self.expr(args[0])?, self.expr(args[1])?);
        let (ma, mb) = (matches!(self.t.types.get(ta), Type::Matrix { .. }), matches!(self.t.types.get(tb), Type::Matrix { .. }));
        if a.len() == 1 || b.len() == 1 {
            let vals = [a, b];
            return self.per_comp(&vals, |l, x| l.arith(BinaryOp::Mul, k, x[0], x[1]));
        }
        if !ma && !mb {
            return Ok(vec![self.dot(k, &a, &b, span)?]);
        }
        // a: r×n, b: n×c (a vector on the left is 1×n, on the right n×1).
        let (r, n) = if ma { self.shape(ta) } else { (1, a.len()) };
        let c = if mb { self.shape(tb).1 } else { 1 };
        let mut out = Vec::new();
        for i in 0..r {
            for j in 0..c {
                let mut acc = None;
                for x in 0..n {
                    let bv = if mb { b[x * c + j] } else { b[x] };
                    let m = self.arith(BinaryOp::Mul, k, a[i * n + x], bv)?;
                    acc = Some(match acc {
                        None => m,
                        Some(s) => {
                            if k.is_float() {
                                self.arith(BinaryOp::Add, k, s, m)?
                            } else {
                                self.arith(BinaryOp::Add, k, s, m)?
                            }
                        }
                    });
                }
                out.push(acc.expect("non-empty"));
            }
        }
        Ok(out)
    }

    /// Lowers an intrinsic call.
    pub(crate) fn intrinsic(&mut self, op: I, object: Option<ExprId>, args: &[ExprId], e: ExprId) -> R<Flat> {
        let span = self.span(e);
        if let Some(obj) = object {
            return self.method(op, obj, args, e);
        }
        if let Some(r) = self.ray_intrinsic(op, args, e) {
            return r;
        }
        if let Some(r) = self.mesh_intrinsic(op, args, e) {
            return r;
        }
        let rty = self.t.expr(e).ty;
        let k = self.arg_kind(args, 0);
        let rk = self.kind_of(rty);
        let unary_map = |op: I| -> Option<DxilOp> {
            Some(match op {
                I::Sin => DxilOp::Sin,
                I::Cos => DxilOp::Cos,
                I::Tan => DxilOp::Tan,
                I::Asin => DxilOp::Asin,
                I::Acos => DxilOp::Acos,
                I::Atan => DxilOp::Atan,
                I::Sinh => DxilOp::Hsin,
                I::Cosh => DxilOp::Hcos,
                I::Tanh => DxilOp::Htan,
                I::Exp2 => DxilOp::Exp,
                I::Log2 => DxilOp::Log,
                I::Sqrt => DxilOp::Sqrt,
                I::Rsqrt => DxilOp::Rsqrt,
                I::Frac => DxilOp::Frc,
                I::Floor => DxilOp::Round_ni,
                I::Ceil => DxilOp::Round_pi,
                I::Trunc => DxilOp::Round_z,
                I::Round => DxilOp::Round_ne,
                I::Saturate => DxilOp::Saturate,
                I::Ddx | I::DdxCoarse => DxilOp::DerivCoarseX,
                I::Ddy | I::DdyCoarse => DxilOp::DerivCoarseY,
                I::DdxFine => DxilOp::DerivFineX,
                I::DdyFine => DxilOp::DerivFineY,
                _ => return None,
            })
        };
        if let Some(dop) = unary_map(op) {
            let v = self.expr(args[0])?;
            return self.per_comp(&[v], |l, x| l.unary_op(dop, k, x[0], span));
        }
        let mut vals = Vec::new();
        for &a in args {
            vals.push(self.expr(a)?);
        }
        match op {
            I::Abs => self.per_comp(&vals, |l, x| {
                if k.is_float() {
                    l.unary_op(DxilOp::FAbs, k, x[0], span)
                } else if k.is_unsigned() {
                    Ok(x[0])
                } else {
                    let z = l.const_scalar(k, ConstValue::Int(0));
                    let neg = l.arith(BinaryOp::Sub, k, z, x[0])?;
                    l.min_max(k, true, x[0], neg, span)
                }
            }),
            I::Max | I::Umax => self.per_comp(&vals, |l, x| l.min_max(k, true, x[0], x[1], span)),
            I::Min | I::Umin => self.per_comp(&vals, |l, x| l.min_max(k, false, x[0], x[1], span)),
            I::Clamp | I::Uclamp => self.per_comp(&vals, |l, x| {
                let m = l.min_max(k, true, x[0], x[1], span)?;
                l.min_max(k, false, m, x[2], span)
            }),
            I::Mad | I::Umad => self.per_comp(&vals, |l, x| {
                // Constant operands fold as dxc's simplifier folds them: all three, or a
                // multiplicand of 0 (fast math) or 1 leaves a plain add.
                let is = |l: &Self, v: Value, c: f64| match l.const_of(v) {
                    Some(ConstValue::Float(f)) => f == c,
                    Some(ConstValue::Int(i)) => i as f64 == c,
                    _ => false,
                };
                let all_const = l.const_of(x[0]).is_some() && l.const_of(x[1]).is_some() && l.const_of(x[2]).is_some();
                if !l.precise && (is(l, x[0], 0.0) || is(l, x[1], 0.0)) {
                    return Ok(x[2]);
                }
                if all_const || (!l.precise && (is(l, x[0], 1.0) || is(l, x[1], 1.0))) {
                    let m = l.arith(BinaryOp::Mul, k, x[0], x[1])?;
                    return l.arith(BinaryOp::Add, k, m, x[2]);
                }
                let dop = if k.is_float() { DxilOp::FMad } else if k.is_signed_int() { DxilOp::IMad } else { DxilOp::UMad };
                l.op(dop, Self::overload(k), x, span)
            }),
            I::Fma => self.per_comp(&vals, |l, x| l.op(DxilOp::Fma, Self::overload(k), x, span)),
            // HLSL 2021 `select(cond, a, b)`: per component, both sides evaluated (a function,
            // not an operator), as dxc lowers it to `select`.
            I::Select => self.per_comp(&vals, |l, x| {
                let c = l.convert_scalar(x[0], k, ScalarKind::Bool);
                Ok(l.select(c, x[1], x[2]))
            }),
            I::Lerp => self.per_comp(&vals, |l, x| {
                let d = l.arith(BinaryOp::Sub, k, x[1], x[0])?;
                let m = l.arith(BinaryOp::Mul, k, x[2], d)?;
                l.arith(BinaryOp::Add, k, x[0], m)
            }),
            I::Exp => self.per_comp(&vals, |l, x| {
                let c = l.fconst(k, std::f64::consts::LOG2_E);
                let m = l.arith(BinaryOp::Mul, k, x[0], c)?;
                l.unary_op(DxilOp::Exp, k, m, span)
            }),
            I::Log | I::Log10 => {
                let scale = if op == I::Log { std::f64::consts::LN_2 } else { std::f64::consts::LOG10_2 };
                self.per_comp(&vals, |l, x| {
                    let lg = l.unary_op(DxilOp::Log, k, x[0], span)?;
                    let c = l.fconst(k, scale);
                    l.arith(BinaryOp::Mul, k, lg, c)
                })
            }
            I::Pow => self.per_comp(&vals, |l, x| {
                if let (Some(ConstValue::Float(a)), Some(ConstValue::Float(b))) = (l.const_of(x[0]), l.const_of(x[1])) {
                    return Ok(l.fconst(k, a.powf(b)));
                }
                let lg = l.unary_op(DxilOp::Log, k, x[0], span)?;
                let m = l.arith(BinaryOp::Mul, k, lg, x[1])?;
                l.unary_op(DxilOp::Exp, k, m, span)
            }),
            I::Rcp => self.per_comp(&vals, |l, x| {
                let one = l.fconst(k, 1.0);
                l.arith(BinaryOp::Div, k, one, x[0])
            }),
            I::Degrees | I::Radians => {
                let c = if op == I::Degrees { 180.0 / std::f64::consts::PI } else { std::f64::consts::PI / 180.0 };
                self.per_comp(&vals, |l, x| {
                    let c = l.fconst(k, c);
                    l.arith(BinaryOp::Mul, k, x[0], c)
                })
            }
            I::Step => self.per_comp(&vals, |l, x| {
                let lt = l.arith(BinaryOp::Lt, k, x[1], x[0])?;
                let (z, o) = (l.fconst(k, 0.0), l.fconst(k, 1.0));
                Ok(l.select(lt, z, o))
            }),
            I::Smoothstep => self.per_comp(&vals, |l, x| {
                let num = l.arith(BinaryOp::Sub, k, x[2], x[0])?;
                let den = l.arith(BinaryOp::Sub, k, x[1], x[0])?;
                let q = l.arith(BinaryOp::Div, k, num, den)?;
                let t = l.unary_op(DxilOp::Saturate, k, q, span)?;
                let (two, three) = (l.fconst(k, 2.0), l.fconst(k, 3.0));
                let t2 = l.arith(BinaryOp::Mul, k, t, t)?;
                let m = l.arith(BinaryOp::Mul, k, t, two)?;
                let s = l.arith(BinaryOp::Sub, k, three, m)?;
                l.arith(BinaryOp::Mul, k, t2, s)
            }),
            I::Sign => self.per_comp(&vals, |l, x| {
                let z = l.const_scalar(k, ConstValue::Int(0));
                let gt = l.arith(BinaryOp::Lt, k, z, x[0])?;
                let lt = l.arith(BinaryOp::Lt, k, x[0], z)?;
                let (a, b) = (l.convert_scalar(gt, ScalarKind::Bool, ScalarKind::Int), l.convert_scalar(lt, ScalarKind::Bool, ScalarKind::Int));
                l.arith(BinaryOp::Sub, ScalarKind::Int, a, b)
            }),
            I::Dot | I::Udot => Ok(vec![self.dot(k, &vals[0], &vals[1], span)?]),
            I::Length => {
                let d = self.dot(k, &vals[0], &vals[0], span)?;
                if vals[0].len() == 1 {
                    return Ok(vec![self.unary_op(DxilOp::FAbs, k, vals[0][0], span)?]);
                }
                Ok(vec![self.unary_op(DxilOp::Sqrt, k, d, span)?])
            }
            I::Distance => {
                let diff = self.per_comp(&vals, |l, x| l.arith(BinaryOp::Sub, k, x[0], x[1]))?;
                let d = self.dot(k, &diff, &diff, span)?;
                Ok(vec![self.unary_op(DxilOp::Sqrt, k, d, span)?])
            }
            I::Normalize => {
                let d = self.dot(k, &vals[0], &vals[0], span)?;
                let r = self.unary_op(DxilOp::Rsqrt, k, d, span)?;
                let v = vals[0].clone();
                v.into_iter().map(|x| self.arith(BinaryOp::Mul, k, x, r)).collect()
            }
            I::Cross => {
                let (a, b) = (&vals[0], &vals[1]);
                let mut out = Vec::new();
                for (i, j) in [(1, 2), (2, 0), (0, 1)] {
                    let p = self.arith(BinaryOp::Mul, k, a[i], b[j])?;
                    let q = self.arith(BinaryOp::Mul, k, a[j], b[i])?;
                    out.push(self.arith(BinaryOp::Sub, k, p, q)?);
                }
                Ok(out)
            }
            I::Reflect => {
                let d = self.dot(k, &vals[0], &vals[1], span)?;
                let two = self.fconst(k, 2.0);
                let d2 = self.arith(BinaryOp::Mul, k, d, two)?;
                let (i, n) = (vals[0].clone(), vals[1].clone());
                let mut out = Vec::new();
                for (x, y) in i.into_iter().zip(n) {
                    let m = self.arith(BinaryOp::Mul, k, y, d2)?;
                    out.push(self.arith(BinaryOp::Sub, k, x, m)?);
                }
                Ok(out)
            }
            I::Mul => self.mul(args, rk, span),
            I::Any | I::All => {
                let mut acc = None;
                for x in vals[0].clone() {
                    let b = self.convert_scalar(x, k, ScalarKind::Bool);
                    acc = Some(match acc {
                        None => b,
                        Some(a) => self.raw_bin(if op == I::Any { BinOp::Or } else { BinOp::And }, a, b),
                    });
                }
                Ok(vec![acc.unwrap_or_else(|| self.cbool(op == I::All))])
            }
            I::Asfloat | I::Asuint | I::Asint => self.per_comp(&vals, |l, x| {
                let to = l.scalar_ir(rk);
                if l.b.type_of(x[0]) == to {
                    return Ok(x[0]);
                }
                Ok(l.b.cast(crate::ir::CastOp::BitCast, x[0], to))
            }),
            I::Countbits | I::Reversebits | I::Firstbitlow | I::Firstbithigh | I::Ufirstbithigh => {
                let dop = match op {
                    I::Countbits => DxilOp::Countbits,
                    I::Reversebits => DxilOp::Bfrev,
                    I::Firstbitlow => DxilOp::FirstbitLo,
                    I::Firstbithigh if k.is_signed_int() => DxilOp::FirstbitSHi,
                    _ => DxilOp::FirstbitHi,
                };
                if !matches!(dop, DxilOp::FirstbitHi | DxilOp::FirstbitSHi) {
                    return self.per_comp(&vals, |l, x| l.op(dop, Self::overload(k), &[x[0]], span));
                }
                // DXIL's FirstbitHi/FirstbitSHi count from the most significant bit; HLSL's
                // firstbithigh counts from the least: `width - 1 - r`, keeping -1 (no bit found),
                // as dxc lowers it (`sub i32 31`, `icmp eq -1`, `select`).
                let t = self.scalar_ir(k);
                let top = self.b.module.types.int_width(t).unwrap_or(32) as i32 - 1;
                self.per_comp(&vals, |l, x| {
                    let r = l.op(dop, Self::overload(k), &[x[0]], span)?;
                    let top = l.ci32(top);
                    let d = l.b.binary(BinOp::Sub, top, r);
                    let none = l.ci32(-1);
                    let c = l.b.icmp(IntPred::Eq, r, none);
                    Ok(l.b.select(c, none, d))
                })
            }
            I::Isnan | I::Isinf | I::Isfinite | I::Isnormal => {
                let dop = match op {
                    I::Isnan => DxilOp::IsNaN,
                    I::Isinf => DxilOp::IsInf,
                    I::Isfinite => DxilOp::IsFinite,
                    _ => DxilOp::IsNormal,
                };
                self.per_comp(&vals, |l, x| l.op(dop, Self::overload(k), &[x[0]], span))
            }
            I::Clip => {
                let mut acc = None;
                for x in vals[0].clone() {
                    let z = self.fconst(k, 0.0);
                    let lt = self.b.fcmp(FloatPred::Olt, x, z);
                    acc = Some(match acc {
                        None => lt,
                        Some(a) => self.raw_bin(BinOp::Or, a, lt),
                    });
                }
                if let Some(c) = acc {
                    self.op(DxilOp::Discard, Overload::None, &[c], span)?;
                }
                Ok(Vec::new())
            }
            I::GroupMemoryBarrierWithGroupSync
            | I::GroupMemoryBarrier
            | I::DeviceMemoryBarrier
            | I::DeviceMemoryBarrierWithGroupSync
            | I::AllMemoryBarrier
            | I::AllMemoryBarrierWithGroupSync => {
                let flags = match op {
                    I::GroupMemoryBarrierWithGroupSync => 9,
                    I::GroupMemoryBarrier => 8,
                    I::DeviceMemoryBarrier => 2,
                    I::DeviceMemoryBarrierWithGroupSync => 3,
                    I::AllMemoryBarrier => 10,
                    _ => 11,
                };
                let f = self.ci32(flags);
                self.op(DxilOp::Barrier, Overload::None, &[f], span)?;
                Ok(Vec::new())
            }
            I::WaveGetLaneIndex => Ok(vec![self.op(DxilOp::WaveGetLaneIndex, Overload::None, &[], span)?]),
            I::WaveGetLaneCount => Ok(vec![self.op(DxilOp::WaveGetLaneCount, Overload::None, &[], span)?]),
            I::WaveIsFirstLane => Ok(vec![self.op(DxilOp::WaveIsFirstLane, Overload::None, &[], span)?]),
            I::WaveActiveAnyTrue => Ok(vec![self.op(DxilOp::WaveAnyTrue, Overload::None, &[vals[0][0]], span)?]),
            I::WaveActiveAllTrue => Ok(vec![self.op(DxilOp::WaveAllTrue, Overload::None, &[vals[0][0]], span)?]),
            I::WaveReadLaneFirst => self.per_comp(&vals, |l, x| l.op(DxilOp::WaveReadLaneFirst, Self::overload(k), &[x[0]], span)),
            I::WaveReadLaneAt => {
                let lane = vals[1][0];
                let v = vals[0].clone();
                v.into_iter().map(|x| self.op(DxilOp::WaveReadLaneAt, Self::overload(k), &[x, lane], span)).collect()
            }
            I::NonUniformResourceIndex => Ok(vals[0].clone()),
            I::InterlockedAdd
            | I::InterlockedAnd
            | I::InterlockedOr
            | I::InterlockedXor
            | I::InterlockedMin
            | I::InterlockedMax
            | I::InterlockedUMin
            | I::InterlockedUMax
            | I::InterlockedExchange
            | I::InterlockedCompareExchange
            | I::InterlockedCompareStore
            | I::InterlockedCompareExchangeFloatBitwise
            | I::InterlockedCompareStoreFloatBitwise => self.interlocked(op, args, e),
            _ => self.intrinsic_ext(op, args, &vals, k, rk, span),
        }
    }

    /// `tex[i]`-style relational compares (`fcmp`/`icmp`) used by intrinsics.
    #[allow(dead_code)]
    pub(crate) fn icmp_const(&mut self, pred: IntPred, a: Value, c: i64, k: ScalarKind) -> Value {
        let cv = self.const_scalar(k, ConstValue::Int(c));
        self.b.icmp(pred, a, cv)
    }
}
