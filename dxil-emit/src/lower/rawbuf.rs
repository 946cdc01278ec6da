//! Structured and byte-address buffer access: leaves (byte offset, kind) read and written as
//! runs of up to four same-kind components (`rawBufferLoad`/`rawBufferStore` from DXIL 1.2,
//! `bufferLoad`/`bufferStore` with an offset before), in offset order as dxc merges them, and
//! 64-bit components as two 32-bit words where the target has no 64-bit raw access.

use super::{Flat, Lowerer, R};
use crate::ir::{self, Value};
use crate::ops::{DxilOp, DxilVersion, Overload, ScalarKind as OK};
use hlslc_frontend::Span;
use hlslc_sema::types::{ScalarKind, TypeId};

impl Lowerer<'_> {
    pub(super) fn raw_ops(&self) -> bool {
        self.target.version >= DxilVersion::new(1, 2)
    }

    /// Whether raw and structured buffer loads and stores have 64-bit overloads (DXIL 1.3).
    pub(super) fn native_64bit_raw(&self) -> bool {
        self.target.version >= DxilVersion::new(1, 3)
    }

    /// Element kinds and byte offsets of a structured-buffer element type.
    pub(super) fn element_layout(&self, elem: TypeId) -> Vec<(u32, ScalarKind)> {
        let mut off = 0;
        let mut v = Vec::new();
        self.struct_layout(elem, &mut off, &mut v);
        v
    }

    /// Runs of up to four consecutive components of one kind among `leaves` (byte offset, kind),
    /// each accessed by one load or store: (first leaf, count, kind as stored, component size).
    pub(super) fn raw_runs(&self, leaves: &[(u32, ScalarKind)]) -> Vec<(usize, usize, ScalarKind, u32)> {
        let mut runs = Vec::new();
        let mut i = 0;
        while i < leaves.len() {
            let (off0, k) = leaves[i];
            let lk = if k == ScalarKind::Bool { ScalarKind::UInt } else { k };
            let size = self.cb_scalar_size(lk).max(if lk.is_min_precision() { 4 } else { 0 });
            let mut n = 1;
            while n < 4 && i + n < leaves.len() && leaves[i + n].1 == k && leaves[i + n].0 == off0 + n as u32 * size {
                n += 1;
            }
            runs.push((i, n, lk, size));
            i += n;
        }
        runs
    }

    /// The (index, offset) operands addressing byte `off` of element `index`: structured buffers
    /// take the offset apart, raw buffers fold it into the byte index.
    pub(super) fn raw_address(&mut self, index: Value, off: u32, structured: bool) -> (Value, Value) {
        let base = self.ci32(off as i32);
        if structured {
            (index, base)
        } else {
            let idx = if off == 0 { index } else { self.raw_bin(ir::BinOp::Add, index, base) };
            (idx, self.undef_i32())
        }
    }

    /// Loads components (byte offset, kind) of element `index` of a structured or raw buffer.
    /// (The components are accessed in the order of their offsets, so that a column-major
    /// matrix, whose flattened components are in row order, is still read by whole runs; the
    /// result is in the components' order.)
    pub(crate) fn raw_load(&mut self, h: Value, index: Value, leaves: &[(u32, ScalarKind)], structured: bool, span: Option<Span>) -> R<Flat> {
        if !self.native_64bit_raw() && leaves.iter().any(|l| is_64bit(l.1)) {
            // Before DXIL 1.3 the raw and structured buffer ops have no 64-bit overloads: as dxc,
            // each 64-bit component is two 32-bit words (low first), joined by makeDouble or by
            // zext/shl/or.
            let words = split_64bit(leaves);
            let w = self.raw_load(h, index, &words, structured, span)?;
            let mut out = Vec::new();
            let mut at = 0;
            for &(_, k) in leaves {
                if !is_64bit(k) {
                    out.push(w[at]);
                    at += 1;
                    continue;
                }
                let (lo, hi) = (w[at], w[at + 1]);
                at += 2;
                out.push(if k == ScalarKind::Double {
                    self.op(DxilOp::MakeDouble, Overload::Scalar(OK::Double), &[lo, hi], span)?
                } else {
                    let i64t = self.b.module.types.int(64);
                    let lo = self.b.cast(ir::CastOp::ZExt, lo, i64t);
                    let hi = self.b.cast(ir::CastOp::ZExt, hi, i64t);
                    let sh = self.b.module.const_int(i64t, 32);
                    let hi = self.raw_bin(ir::BinOp::Shl, hi, Value::Const(sh));
                    self.raw_bin(ir::BinOp::Or, hi, lo)
                });
            }
            return Ok(out);
        }
        let order = by_offset(leaves);
        let sorted: Vec<(u32, ScalarKind)> = order.iter().map(|&j| leaves[j]).collect();
        let in_order = self.raw_load_sorted(h, index, &sorted, structured, span)?;
        let mut out = in_order.clone();
        for (pos, &j) in order.iter().enumerate() {
            out[j] = in_order[pos];
        }
        Ok(out)
    }

    pub(super) fn raw_load_sorted(&mut self, h: Value, index: Value, leaves: &[(u32, ScalarKind)], structured: bool, span: Option<Span>) -> R<Flat> {
        let mut out = Vec::new();
        for (i, n, lk, size) in self.raw_runs(leaves) {
            let o = Self::overload(lk);
            let (idx, off) = self.raw_address(index, leaves[i].0, structured);
            let ret = if self.raw_ops() {
                let mask = self.ci8(((1u32 << n) - 1) as i8);
                let align = self.ci32(size.min(4) as i32);
                self.op(DxilOp::RawBufferLoad, o, &[h, idx, off, mask, align], span)?
            } else {
                self.op(DxilOp::BufferLoad, o, &[h, idx, off], span)?
            };
            self.res.last_ret = Some(ret);
            for c in 0..n {
                let x = self.b.extract_value(ret, vec![c as u32]);
                out.push(self.convert_scalar(x, lk, leaves[i + c].1));
            }
        }
        Ok(out)
    }

    /// Stores components (byte offset, kind) of element `index`, in the order of their offsets
    /// (see [`Self::raw_load`]).
    pub(super) fn raw_store(&mut self, h: Value, index: Value, leaves: &[(u32, ScalarKind)], values: &[Value], structured: bool, span: Option<Span>) -> R<()> {
        if !self.native_64bit_raw() && leaves.iter().any(|l| is_64bit(l.1)) {
            // As in `raw_load`: two 32-bit words (low first), from splitDouble or trunc/lshr/trunc.
            let words = split_64bit(leaves);
            let mut w = Vec::new();
            for (&(_, k), &v) in leaves.iter().zip(values) {
                if !is_64bit(k) {
                    w.push(v);
                } else if k == ScalarKind::Double {
                    let r = self.op(DxilOp::SplitDouble, Overload::Scalar(OK::Double), &[v], span)?;
                    let lo = self.b.extract_value(r, vec![0]);
                    let hi = self.b.extract_value(r, vec![1]);
                    w.extend([lo, hi]);
                } else {
                    let i32t = self.b.module.types.i32();
                    let i64t = self.b.module.types.int(64);
                    let lo = self.b.cast(ir::CastOp::Trunc, v, i32t);
                    let sh = self.b.module.const_int(i64t, 32);
                    let hi = self.raw_bin(ir::BinOp::LShr, v, Value::Const(sh));
                    let hi = self.b.cast(ir::CastOp::Trunc, hi, i32t);
                    w.extend([lo, hi]);
                }
            }
            return self.raw_store(h, index, &words, &w, structured, span);
        }
        let order = by_offset(leaves);
        let sorted: Vec<(u32, ScalarKind)> = order.iter().map(|&j| leaves[j]).collect();
        let values: Vec<Value> = order.iter().map(|&j| values[j]).collect();
        self.raw_store_sorted(h, index, &sorted, &values, structured, span)
    }

    pub(super) fn raw_store_sorted(&mut self, h: Value, index: Value, leaves: &[(u32, ScalarKind)], values: &[Value], structured: bool, span: Option<Span>) -> R<()> {
        for (i, n, lk, size) in self.raw_runs(leaves) {
            let o = Self::overload(lk);
            let (idx, off) = self.raw_address(index, leaves[i].0, structured);
            let mut vals: Vec<Value> = (0..n).map(|c| self.convert_scalar(values[i + c], leaves[i + c].1, lk)).collect();
            while vals.len() < 4 {
                let u = self.undef_of(lk);
                vals.push(u);
            }
            let mask = self.ci8(((1u32 << n) - 1) as i8);
            let mut args = vec![h, idx, off];
            args.extend(vals);
            args.push(mask);
            if self.raw_ops() {
                args.push(self.ci32(size.min(4) as i32));
                self.op(DxilOp::RawBufferStore, o, &args, span)?;
            } else {
                self.op(DxilOp::BufferStore, o, &args, span)?;
            }
        }
        Ok(())
    }
}

/// The indices of `leaves` (byte offset, kind) in increasing offset order (stable).
fn by_offset(leaves: &[(u32, ScalarKind)]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..leaves.len()).collect();
    order.sort_by_key(|&j| leaves[j].0);
    order
}

fn is_64bit(k: ScalarKind) -> bool {
    matches!(k, ScalarKind::Double | ScalarKind::Int64 | ScalarKind::UInt64)
}

/// `leaves` (byte offset, kind) with each 64-bit component as two 32-bit words, low first.
fn split_64bit(leaves: &[(u32, ScalarKind)]) -> Vec<(u32, ScalarKind)> {
    let mut out = Vec::new();
    for &(off, k) in leaves {
        if is_64bit(k) {
            out.extend([(off, ScalarKind::UInt), (off + 4, ScalarKind::UInt)]);
        } else {
            out.push((off, k));
        }
    }
    out
}
