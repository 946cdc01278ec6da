//! Conversions (sema's named [`CastKind`]s) and aggregate construction (constructors,
//! initializer lists and flattening casts, which all build a value from a sequence of parts).

use super::layout::Layout;
use super::{unsupported, Lowerer, R};
use crate::id::SpvId;
use hlslc_sema::tast::{CastKind, ConstValue, ExprId};
use hlslc_sema::types::{ScalarKind, Type, TypeId};
use spirv::Op;

/// One pending part while building an aggregate: a whole value of an HLSL type, or one scalar
/// component split off a vector or matrix.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Part {
    Value(SpvId, TypeId),
    Scalar(SpvId, ScalarKind),
}

impl<'m> Lowerer<'m> {
    pub(crate) fn cast(&mut self, kind: CastKind, v: SpvId, from: TypeId, to: TypeId, e: ExprId) -> R<SpvId> {
        let span = self.expr_span(e);
        let tyid = self.ty(to, Layout::Logical)?;
        match kind {
            CastKind::NoOp | CastKind::EnumConvert | CastKind::IntToInt | CastKind::FloatToFloat | CastKind::IntToFloat
            | CastKind::FloatToInt | CastKind::IntToBool | CastKind::FloatToBool | CastKind::BoolToInt
            | CastKind::BoolToFloat => {
                if self.ty(from, Layout::Logical)? == tyid {
                    return Ok(v);
                }
                let (Some(fs), Some(ts)) = (self.shape(from), self.shape(to)) else {
                    return unsupported("this conversion", span);
                };
                if !fs.is_matrix() {
                    return self.convert_kind(v, fs.kind, ts.kind, fs.count());
                }
                let frow = self.vector_ty(fs.kind, fs.cols, Layout::Logical);
                let mut rows = Vec::new();
                for r in 0..fs.rows {
                    let x = self.b.composite_extract(frow, v, &[r])?;
                    rows.push(self.convert_kind(x, fs.kind, ts.kind, fs.cols)?);
                }
                Ok(self.b.composite_construct(tyid, &rows)?)
            }
            CastKind::Splat => {
                let Some(ts) = self.shape(to) else { return unsupported("this splat", span) };
                if ts.count() == 1 {
                    return Ok(v);
                }
                if ts.is_matrix() {
                    let row = self.vector_ty(ts.kind, ts.cols, Layout::Logical);
                    let r = self.b.composite_construct(row, &vec![v; ts.cols as usize])?;
                    return Ok(self.b.composite_construct(tyid, &vec![r; ts.rows as usize])?);
                }
                Ok(self.b.composite_construct(tyid, &vec![v; ts.count() as usize])?)
            }
            CastKind::VectorTruncate | CastKind::ToScalar | CastKind::MatrixTruncate | CastKind::VectorToMatrix
            | CastKind::MatrixToVector => {
                let (Some(fs), Some(ts)) = (self.shape(from), self.shape(to)) else {
                    return unsupported("this conversion", span);
                };
                if fs.count() == 1 {
                    return Ok(v);
                }
                // `float1x3` and `float3` (or `float3x1`) are the same SPIR-V vector.
                if fs.count() == ts.count() && fs.kind == ts.kind && self.ty(from, Layout::Logical)? == tyid {
                    return Ok(v);
                }
                // Pick the elements the target keeps, then reassemble.
                let comp = self.scalar_ty(fs.kind, Layout::Logical);
                let mut scalars = Vec::new();
                let keep: Vec<(u32, u32)> = match kind {
                    CastKind::MatrixTruncate => (0..ts.rows.max(1))
                        .flat_map(|r| (0..ts.cols).map(move |c| (r, c)))
                        .collect(),
                    _ => (0..ts.count()).map(|i| (i / fs.cols, i % fs.cols)).collect(),
                };
                // Shapes here are (rows, cols) in HLSL terms; a vector is one row.
                let fs_rows = if fs.is_matrix() { fs.rows } else { 1 };
                for (r, c) in keep {
                    let (r, c) = if fs.is_matrix() { (r, c) } else { (0, r * fs.cols + c) };
                    let path: Vec<u32> = if fs_rows > 1 { vec![r, c] } else { vec![c] };
                    scalars.push(Part::Scalar(self.b.composite_extract(comp, v, &path)?, fs.kind));
                }
                scalars.reverse();
                self.build_from(to, &mut scalars, e)
            }
            CastKind::AddressToPointer => self.address_to_pointer(v, from, tyid),
            CastKind::PointerToAddress => self.pointer_to_address(v),
            CastKind::FromBuffer => {
                // `v` is the whole buffer block (laid out); rebuild the logical struct member by
                // member.
                let Type::Object { kind: ok, .. } = self.m.types.get(from).clone() else {
                    return unsupported("this buffer conversion", span);
                };
                let layout = match self.m.expr(e).kind {
                    hlslc_sema::tast::ExprKind::Cast { expr: inner, .. } => self.buffer_layout(inner, ok),
                    _ => self.buffer_layout(e, ok),
                };
                if !matches!(self.m.types.get(to), Type::Struct(_)) {
                    return unsupported("a buffer of a non-struct type", span);
                }
                self.block_to_logical(v, to, layout)
            }
            CastKind::Flatten => {
                let mut parts = vec![Part::Value(v, from)];
                let mut scalars = Vec::new();
                while let Some(p) = parts.pop() {
                    match p {
                        Part::Scalar(..) => scalars.push(p),
                        Part::Value(v, t) => {
                            if matches!(self.m.types.get(t), Type::Scalar(_) | Type::Enum(_)) {
                                let k = self.m.types.component(t).unwrap_or(ScalarKind::Int);
                                scalars.push(Part::Scalar(v, k));
                            } else {
                                let mut split = self.split(v, t)?;
                                split.reverse();
                                parts.extend(split);
                            }
                        }
                    }
                }
                // A scalar source fills every component (`(S)0`).
                if scalars.len() == 1 {
                    let only = scalars[0];
                    let n = self.scalar_count(to);
                    scalars = vec![only; n as usize];
                }
                scalars.reverse();
                self.build_from(to, &mut scalars, e)
            }
        }
    }

    fn scalar_count(&self, t: TypeId) -> u32 {
        match self.m.types.get(t) {
            Type::Scalar(_) | Type::Enum(_) => 1,
            Type::Vector(_, n) => *n as u32,
            Type::Matrix { rows, cols, .. } => *rows as u32 * *cols as u32,
            Type::Array { elem, len } => len.unwrap_or(0) * self.scalar_count(*elem),
            Type::Struct(s) => {
                let def = &self.m.types.structs[s.0 as usize];
                def.bases.iter().map(|&b| self.scalar_count(b)).sum::<u32>()
                    + def.fields.iter().map(|f| self.scalar_count(f.ty)).sum::<u32>()
            }
            _ => 0,
        }
    }

    /// Converts a scalar or `n`-vector between component kinds.
    pub(crate) fn convert_kind(&mut self, v: SpvId, fk: ScalarKind, tk: ScalarKind, n: u32) -> R<SpvId> {
        let fty = self.vector_ty(fk, n, Layout::Logical);
        let tty = self.vector_ty(tk, n, Layout::Logical);
        if fty == tty {
            return Ok(v);
        }
        let splat = |l: &mut Self, k: ScalarKind, c: ConstValue| -> R<SpvId> {
            let s = l.scalar_const(k, c)?;
            if n <= 1 {
                return Ok(s);
            }
            let t = l.vector_ty(k, n, Layout::Logical);
            Ok(l.b.ctx.const_composite(t, &vec![s; n as usize]))
        };
        let r = if fk.is_bool() {
            let (one, zero) = if tk.is_float() {
                (splat(self, tk, ConstValue::Float(1.0))?, splat(self, tk, ConstValue::Float(0.0))?)
            } else {
                (splat(self, tk, ConstValue::Int(1))?, splat(self, tk, ConstValue::Int(0))?)
            };
            self.b.select(tty, v, one, zero)?
        } else if tk.is_bool() {
            if fk.is_float() {
                let zero = splat(self, fk, ConstValue::Float(0.0))?;
                self.b.binary(Op::FOrdNotEqual, tty, v, zero)?
            } else {
                let zero = splat(self, fk, ConstValue::Int(0))?;
                self.b.binary(Op::INotEqual, tty, v, zero)?
            }
        } else if fk.is_float() && tk.is_float() {
            self.b.unary(Op::FConvert, tty, v)?
        } else if fk.is_float() {
            self.b.unary(if tk.is_signed_int() { Op::ConvertFToS } else { Op::ConvertFToU }, tty, v)?
        } else if tk.is_float() {
            self.b.unary(if fk.is_signed_int() { Op::ConvertSToF } else { Op::ConvertUToF }, tty, v)?
        } else if fk.bits() == tk.bits() {
            self.b.unary(Op::Bitcast, tty, v)?
        } else if fk.is_signed_int() {
            self.b.unary(Op::SConvert, tty, v)?
        } else if tk.is_signed_int() {
            // OpUConvert yields an unsigned type: widen (or narrow) unsigned, then reinterpret.
            let uk = match tk.bits() {
                16 => ScalarKind::UInt16,
                64 => ScalarKind::UInt64,
                _ => ScalarKind::UInt,
            };
            let uty = self.vector_ty(uk, n, Layout::Logical);
            let u = self.b.unary(Op::UConvert, uty, v)?;
            self.b.unary(Op::Bitcast, tty, u)?
        } else {
            self.b.unary(Op::UConvert, tty, v)?
        };
        Ok(r)
    }

    /// The immediate parts of a composite value: components of a vector, elements of a matrix,
    /// elements of an array, members of a struct.
    fn split(&mut self, v: SpvId, t: TypeId) -> R<Vec<Part>> {
        let mut out = Vec::new();
        match self.m.types.get(t).clone() {
            // One component is a SPIR-V scalar: nothing to extract.
            Type::Vector(k, 1) | Type::Matrix { elem: k, rows: 1, cols: 1, .. } => out.push(Part::Scalar(v, k)),
            Type::Vector(k, n) => {
                let c = self.scalar_ty(k, Layout::Logical);
                for i in 0..n as u32 {
                    out.push(Part::Scalar(self.b.composite_extract(c, v, &[i])?, k));
                }
            }
            Type::Matrix { elem, rows, cols, .. } => {
                let c = self.scalar_ty(elem, Layout::Logical);
                let two_level = rows > 1 && cols > 1;
                for r in 0..rows as u32 {
                    for col in 0..cols as u32 {
                        let path = if two_level { vec![r, col] } else { vec![r.max(col)] };
                        out.push(Part::Scalar(self.b.composite_extract(c, v, &path)?, elem));
                    }
                }
            }
            Type::Array { elem, len: Some(n) } => {
                let et = self.ty(elem, Layout::Logical)?;
                for i in 0..n {
                    out.push(Part::Value(self.b.composite_extract(et, v, &[i])?, elem));
                }
            }
            Type::Struct(s) => {
                let def = self.m.types.structs[s.0 as usize].clone();
                let members: Vec<TypeId> = def.bases.iter().copied().chain(def.fields.iter().map(|f| f.ty)).collect();
                for (i, mt) in members.into_iter().enumerate() {
                    let st = self.ty(mt, Layout::Logical)?;
                    out.push(Part::Value(self.b.composite_extract(st, v, &[i as u32])?, mt));
                }
            }
            _ => return unsupported(format!("splitting a value of type '{}'", self.type_name(t)), None),
        }
        Ok(out)
    }

    /// Builds a value of type `ty` from the parts on `q` (a stack: the next part is last),
    /// taking whole values where their type matches and splitting them otherwise.
    pub(crate) fn build_from(&mut self, ty: TypeId, q: &mut Vec<Part>, e: ExprId) -> R<SpvId> {
        if let Some(&Part::Value(v, t)) = q.last() {
            if t == ty || self.same_logical(t, ty)? {
                q.pop();
                return Ok(v);
            }
        }
        let tyid = self.ty(ty, Layout::Logical)?;
        match self.m.types.get(ty).clone() {
            Type::Scalar(k) => self.next_scalar(k, q, e),
            Type::Enum(_) => {
                let k = self.m.types.component(ty).unwrap_or(ScalarKind::Int);
                self.next_scalar(k, q, e)
            }
            Type::Vector(k, n) => {
                let mut comps = Vec::new();
                for _ in 0..n {
                    comps.push(self.next_scalar(k, q, e)?);
                }
                if n == 1 {
                    return Ok(comps[0]);
                }
                Ok(self.b.composite_construct(tyid, &comps)?)
            }
            Type::Matrix { elem, rows, cols, .. } => {
                let mut scalars = Vec::new();
                for _ in 0..rows as u32 * cols as u32 {
                    scalars.push(self.next_scalar(elem, q, e)?);
                }
                if rows == 1 || cols == 1 {
                    if scalars.len() == 1 {
                        return Ok(scalars[0]);
                    }
                    return Ok(self.b.composite_construct(tyid, &scalars)?);
                }
                let row = self.vector_ty(elem, cols as u32, Layout::Logical);
                let mut rs = Vec::new();
                for r in scalars.chunks(cols as usize) {
                    rs.push(self.b.composite_construct(row, r)?);
                }
                Ok(self.b.composite_construct(tyid, &rs)?)
            }
            Type::Array { elem, len: Some(n) } => {
                let mut parts = Vec::new();
                for _ in 0..n {
                    parts.push(self.build_from(elem, q, e)?);
                }
                Ok(self.b.composite_construct(tyid, &parts)?)
            }
            Type::Struct(s) => {
                let def = self.m.types.structs[s.0 as usize].clone();
                let members: Vec<TypeId> = def.bases.iter().copied().chain(def.fields.iter().map(|f| f.ty)).collect();
                let mut parts = Vec::new();
                for mt in members {
                    parts.push(self.build_from(mt, q, e)?);
                }
                Ok(self.b.composite_construct(tyid, &parts)?)
            }
            _ => unsupported(format!("constructing a value of type '{}'", self.type_name(ty)), self.expr_span(e)),
        }
    }

    fn same_logical(&mut self, a: TypeId, b: TypeId) -> R<bool> {
        let both_numeric = self.shape(a).is_some() && self.shape(b).is_some();
        Ok(!both_numeric && self.ty(a, Layout::Logical)? == self.ty(b, Layout::Logical)?)
    }

    fn next_scalar(&mut self, k: ScalarKind, q: &mut Vec<Part>, e: ExprId) -> R<SpvId> {
        loop {
            match q.pop() {
                None => return unsupported("an initializer with too few components", self.expr_span(e)),
                Some(Part::Scalar(v, fk)) => return self.convert_kind(v, fk, k, 1),
                Some(Part::Value(v, t)) => match self.m.types.get(t) {
                    Type::Scalar(fk) => {
                        let fk = *fk;
                        return self.convert_kind(v, fk, k, 1);
                    }
                    Type::Enum(_) => {
                        let fk = self.m.types.component(t).unwrap_or(ScalarKind::Int);
                        return self.convert_kind(v, fk, k, 1);
                    }
                    _ => {
                        let mut parts = self.split(v, t)?;
                        parts.reverse();
                        q.extend(parts);
                    }
                },
            }
        }
    }
}
