//! Intrinsics dxc expands into instruction sequences (`atan2`, `fmod`, `frexp`, `faceforward`,
//! `refract`, `lit`), the packed 8-bit conversions of SM 6.6 (`pack_*`, `unpack_*`), the
//! pixel-shader attribute evaluation (`EvaluateAttribute*`, `GetAttributeAtVertex`) and
//! `GetRenderTargetSampleCount`. Each sequence follows dxc's HLOperationLower, operand for
//! operand, so the CHECK lines of dxc's tests see the same instructions.

use super::{unsupported, Flat, LowerError, Lowerer, R};
use crate::ir::{BinOp, CastOp, InstKind, Value};
use crate::ops::{DxilOp, Overload};
use hlslc_frontend::ast::BinaryOp;
use hlslc_frontend::Span;
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::tast::{ConstValue, ExprId};
use hlslc_sema::types::ScalarKind;

impl Lowerer<'_> {
    fn fc(&mut self, k: ScalarKind, v: f64) -> Value {
        self.const_scalar(k, ConstValue::Float(v))
    }

    /// `-x` as LLVM 3.7 writes a float negation (`fsub -0.0, x`).
    fn fneg(&mut self, k: ScalarKind, x: Value, span: Option<Span>) -> R<Value> {
        let z = self.fc(k, -0.0);
        self.binop(BinaryOp::Sub, k, z, x, span)
    }

    /// Lowers the intrinsics [`Lowerer::intrinsic_ext`] leaves to this file.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn intrinsic_compound(&mut self, op: I, args: &[ExprId], vals: &[Flat], k: ScalarKind, rk: ScalarKind, span: Option<Span>) -> R<Flat> {
        match op {
            I::Atan2 => self.per_comp(vals, |l, x| l.atan2(k, x[0], x[1], span)),
            I::Fmod => self.per_comp(vals, |l, x| l.fmod(k, x[0], x[1], span)),
            I::Frexp => {
                let mut exps = Vec::new();
                let mut out = Vec::new();
                for &x in &vals[0] {
                    let (m, e) = self.frexp(k, x, span)?;
                    out.push(m);
                    exps.push(e);
                }
                self.store_out_arg(args[1], exps, span)?;
                Ok(out)
            }
            I::Faceforward => {
                // n if dot(i, ng) < 0, else -n.
                let d = self.dot(k, &vals[1], &vals[2], span)?;
                let z = self.fc(k, 0.0);
                let lt = self.binop(BinaryOp::Lt, k, d, z, span)?;
                let n = vals[0].clone();
                n.into_iter()
                    .map(|x| {
                        let neg = self.fneg(k, x, span)?;
                        Ok(self.select(lt, x, neg))
                    })
                    .collect()
            }
            I::Refract => self.refract(k, &vals[0], &vals[1], vals[2][0], span),
            I::Msad4 => {
                // dxc's expansion: the source bytes at each of the four byte alignments of
                // (src.x, src.y), src.y's low bytes inserted above src.x's shifted bytes
                // (`bfi(8 * i, 32 - 8 * i, src.y, src.x >> 8 * i)`), then one Msad per component.
                let (reference, sx, sy) = (vals[0][0], vals[1][0], vals[1][1]);
                let ov = Self::overload(ScalarKind::UInt);
                let mut out = Vec::new();
                for i in 0..4usize {
                    let shifted = if i == 0 {
                        sx
                    } else {
                        let sh = self.ci32(8 * i as i32);
                        let x = self.binop(BinaryOp::Shr, ScalarKind::UInt, sx, sh, span)?;
                        let (w, o) = (self.ci32(8 * i as i32), self.ci32(32 - 8 * i as i32));
                        self.op(DxilOp::Bfi, ov, &[w, o, sy, x], span)?
                    };
                    let acc = vals[2][if vals[2].len() == 1 { 0 } else { i }];
                    out.push(self.op(DxilOp::Msad, ov, &[reference, shifted, acc], span)?);
                }
                Ok(out)
            }
            I::Lit => {
                let (nl, nh, m) = (vals[0][0], vals[1][0], vals[2][0]);
                let k = self.arg_kind_at(args, 2);
                let (one, zero) = (self.fc(k, 1.0), self.fc(k, 0.0));
                let nl_lt = self.binop(BinaryOp::Lt, k, nl, zero, span)?;
                let diffuse = self.select(nl_lt, zero, nl);
                let nh_lt = self.binop(BinaryOp::Lt, k, nh, zero, span)?;
                let cond = self.raw_bin(BinOp::Or, nl_lt, nh_lt);
                let lg = self.unary_op(DxilOp::Log, k, nh, span)?;
                let mul = self.binop(BinaryOp::Mul, k, lg, m, span)?;
                let pow = self.unary_op(DxilOp::Exp, k, mul, span)?;
                let spec = self.select(cond, zero, pow);
                Ok(vec![one, diffuse, spec, one])
            }
            I::PackS8 | I::PackU8 | I::PackClampU8 | I::PackClampS8 => {
                // DXIL::PackMode: Trunc 0, UClamp 1, SClamp 2.
                let mode = match op {
                    I::PackClampU8 => 1,
                    I::PackClampS8 => 2,
                    _ => 0,
                };
                let m = self.ci8(mode);
                let v = &vals[0];
                let r = self.op(DxilOp::Pack4x8, Self::overload(k), &[m, v[0], v[1], v[2], v[3]], span)?;
                Ok(vec![self.convert_scalar(r, ScalarKind::UInt, rk)])
            }
            I::UnpackS8s16 | I::UnpackS8s32 | I::UnpackU8u16 | I::UnpackU8u32 => {
                // DXIL::UnpackMode: Unsigned 0, Signed 1.
                let signed = matches!(op, I::UnpackS8s16 | I::UnpackS8s32);
                let m = self.ci8(i8::from(signed));
                let pk = self.convert_scalar(vals[0][0], k, ScalarKind::UInt);
                let r = self.op(DxilOp::Unpack4x8, Self::overload(rk), &[m, pk], span)?;
                Ok((0..4).map(|i| self.b.extract_value(r, vec![i])).collect())
            }
            I::CheckAccessFullyMapped => {
                let st = self.convert_scalar(vals[0][0], k, ScalarKind::UInt);
                let r = self.op(DxilOp::CheckAccessFullyMapped, Overload::Scalar(crate::ops::ScalarKind::I32), &[st], span)?;
                Ok(vec![self.convert_scalar(r, ScalarKind::Bool, rk)])
            }
            I::GetRenderTargetSampleCount => {
                let r = self.op(DxilOp::RenderTargetGetSampleCount, Overload::None, &[], span)?;
                Ok(vec![self.convert_scalar(r, ScalarKind::UInt, rk)])
            }
            I::EvaluateAttributeCentroid | I::EvaluateAttributeAtSample | I::EvaluateAttributeSnapped | I::GetAttributeAtVertex => {
                self.evaluate_attribute(op, &vals[0], vals.get(1).cloned().unwrap_or_default(), k, span)
            }
            _ => unsupported(format!("the intrinsic `{}`", op.name()), span),
        }
    }

    fn arg_kind_at(&self, args: &[ExprId], i: usize) -> ScalarKind {
        args.get(i).map_or(ScalarKind::Float, |a| self.kind_of(self.t.expr(*a).ty))
    }

    /// `atan(y / x)` corrected by quadrant with selects; folded for constant operands.
    fn atan2(&mut self, k: ScalarKind, y: Value, x: Value, span: Option<Span>) -> R<Value> {
        if let (Some(ConstValue::Float(a)), Some(ConstValue::Float(b))) = (self.const_of(y), self.const_of(x)) {
            return Ok(self.fc(k, a.atan2(b)));
        }
        let q = self.binop(BinaryOp::Div, k, y, x, span)?;
        let at = self.unary_op(DxilOp::Atan, k, q, span)?;
        let pi = self.fc(k, std::f64::consts::PI);
        let add_pi = self.binop(BinaryOp::Add, k, at, pi, span)?;
        let sub_pi = self.binop(BinaryOp::Sub, k, at, pi, span)?;
        let zero = self.fc(k, 0.0);
        let x_lt0 = self.binop(BinaryOp::Lt, k, x, zero, span)?;
        let x_eq0 = self.binop(BinaryOp::Eq, k, x, zero, span)?;
        let y_ge0 = self.binop(BinaryOp::Ge, k, y, zero, span)?;
        let y_lt0 = self.binop(BinaryOp::Lt, k, y, zero, span)?;
        let c = self.raw_bin(BinOp::And, x_lt0, y_ge0);
        let r = self.select(c, add_pi, at);
        let c = self.raw_bin(BinOp::And, x_lt0, y_lt0);
        let r = self.select(c, sub_pi, r);
        let c = self.raw_bin(BinOp::And, x_eq0, y_lt0);
        let neg_half_pi = self.fc(k, -std::f64::consts::FRAC_PI_2);
        let r = self.select(c, neg_half_pi, r);
        let c = self.raw_bin(BinOp::And, x_eq0, y_ge0);
        let half_pi = self.fc(k, std::f64::consts::FRAC_PI_2);
        Ok(self.select(c, half_pi, r))
    }

    /// `fmod(a, b)`: `frac(|a / b|)` with the sign of `a / b`, times `b`.
    fn fmod(&mut self, k: ScalarKind, a: Value, b: Value, span: Option<Span>) -> R<Value> {
        let div = self.binop(BinaryOp::Div, k, a, b, span)?;
        let neg_div = self.fneg(k, div, span)?;
        let ge = self.binop(BinaryOp::Ge, k, div, neg_div, span)?;
        let abs = self.unary_op(DxilOp::FAbs, k, div, span)?;
        let frc = self.unary_op(DxilOp::Frc, k, abs, span)?;
        let neg_frc = self.fneg(k, frc, span)?;
        let real = self.select(ge, frc, neg_frc);
        self.binop(BinaryOp::Mul, k, real, b, span)
    }

    /// `frexp(x)` on the bits of a 32-bit float: (mantissa in [0.5, 1), exponent as a float).
    fn frexp(&mut self, k: ScalarKind, x: Value, span: Option<Span>) -> R<(Value, Value)> {
        let fty = self.scalar_ir(k);
        if !matches!(self.b.module.types.get(fty), crate::ir::Type::Float) {
            return unsupported("`frexp` on a type other than 32-bit float", span);
        }
        let i32t = self.b.module.types.i32();
        let zero = self.fc(k, 0.0);
        let ne = self.binop(BinaryOp::Ne, k, x, zero, span)?;
        let ne = self.b.cast(CastOp::SExt, ne, i32t);
        let bits = self.b.cast(CastOp::BitCast, x, i32t);
        let c = |l: &mut Self, v: i32| l.ci32(v);
        let m = c(self, 0x7f80_0000);
        let t = self.raw_bin(BinOp::And, bits, m);
        let bias = c(self, -0x3f00_0000);
        let t = self.raw_bin(BinOp::Add, t, bias);
        let t = self.raw_bin(BinOp::And, t, ne);
        let sh = c(self, 23);
        let t = self.raw_bin(BinOp::AShr, t, sh);
        let e = self.b.cast(CastOp::SIToFP, t, fty);
        let mm = c(self, 0x007f_ffff);
        let t = self.raw_bin(BinOp::And, bits, mm);
        let half = c(self, 0x3f00_0000);
        let t = self.raw_bin(BinOp::Or, t, half);
        let t = self.raw_bin(BinOp::And, t, ne);
        let mant = self.b.cast(CastOp::BitCast, t, fty);
        Ok((mant, e))
    }

    /// `refract(i, n, eta)`: `eta*i - (eta*d + sqrt(t))*n` where `t = 1 - eta²(1 - d²)` is not
    /// negative, else 0 (`d = dot(i, n)`).
    fn refract(&mut self, k: ScalarKind, i: &[Value], n: &[Value], eta: Value, span: Option<Span>) -> R<Flat> {
        let d = self.dot(k, i, n, span)?;
        let eta2 = self.binop(BinaryOp::Mul, k, eta, eta, span)?;
        let d2 = self.binop(BinaryOp::Mul, k, d, d, span)?;
        let (one, zero) = (self.fc(k, 1.0), self.fc(k, 0.0));
        let d2 = self.binop(BinaryOp::Sub, k, one, d2, span)?;
        let eta2 = self.binop(BinaryOp::Mul, k, d2, eta2, span)?;
        let t = self.binop(BinaryOp::Sub, k, one, eta2, span)?;
        let cond = self.binop(BinaryOp::Ge, k, t, zero, span)?;
        let eta_i: Vec<Value> = i.iter().map(|&x| self.binop(BinaryOp::Mul, k, x, eta, span)).collect::<R<_>>()?;
        let sqrt = self.unary_op(DxilOp::Sqrt, k, t, span)?;
        let eta_d = self.binop(BinaryOp::Mul, k, eta, d, span)?;
        let s = self.binop(BinaryOp::Add, k, eta_d, sqrt, span)?;
        let mut out = Vec::new();
        for (ei, &nc) in eta_i.into_iter().zip(n) {
            let r = self.binop(BinaryOp::Mul, k, s, nc, span)?;
            let r = self.binop(BinaryOp::Sub, k, ei, r, span)?;
            out.push(self.select(cond, r, zero));
        }
        Ok(out)
    }

    /// The (input signature id, row, column) a value read straight from `loadInput` comes from.
    fn input_source(&self, v: Value) -> Option<[Value; 3]> {
        let Value::Inst(id) = v else { return None };
        let body = self.b.module.function(self.b.func).body.as_ref()?;
        let InstKind::Call { callee, args } = &body.inst(id).kind else { return None };
        if !self.b.module.function(*callee).name.starts_with("dx.op.loadInput.") || args.len() < 4 {
            return None;
        }
        Some([args[1], args[2], args[3]])
    }

    /// `EvaluateAttribute{Centroid,AtSample,Snapped}` and `GetAttributeAtVertex`: each component
    /// must be an input read as is; the op re-reads that element at the new location.
    fn evaluate_attribute(&mut self, op: I, value: &[Value], extra: Flat, k: ScalarKind, span: Option<Span>) -> R<Flat> {
        let dop = match op {
            I::EvaluateAttributeCentroid => DxilOp::EvalCentroid,
            I::EvaluateAttributeAtSample => DxilOp::EvalSampleIndex,
            I::EvaluateAttributeSnapped => DxilOp::EvalSnapped,
            _ => DxilOp::AttributeAtVertex,
        };
        let mut out = Vec::new();
        for &v in value {
            let Some([sig, row, col]) = self.input_source(v) else {
                return Err(LowerError { message: "attribute evaluation can only be done on values taken directly from inputs.".into(), span });
            };
            if dop != DxilOp::AttributeAtVertex {
                let id = self.const_of(sig).and_then(|c| if let ConstValue::Int(i) = c { Some(i) } else { None });
                let is_position = id.and_then(|i| self.sigs.inputs.iter().find(|e| i64::from(e.id) == i)).is_some_and(|e| e.system_value == 3);
                if is_position {
                    let profile = format!("{}_{}_{}", crate::ops::profile_prefix(self.target.stage), 6, self.target.version.minor);
                    return Err(LowerError { message: format!("{profile} does not support pull-model evaluation of position"), span });
                }
            }
            let mut a = vec![sig, row, col];
            match dop {
                DxilOp::EvalSampleIndex => a.push(extra[0]),
                DxilOp::EvalSnapped => a.extend([extra[0], extra[1]]),
                DxilOp::AttributeAtVertex => {
                    let Some(ConstValue::Int(vid)) = self.const_of(extra[0]) else {
                        return unsupported("`GetAttributeAtVertex` with a vertex index that is not a constant", span);
                    };
                    a.push(self.ci8(vid as i8));
                }
                _ => {}
            }
            let lk = if k == ScalarKind::Bool { ScalarKind::UInt } else { k };
            let r = self.op(dop, Self::overload(lk), &a, span)?;
            out.push(self.convert_scalar(r, lk, k));
        }
        Ok(out)
    }
}
