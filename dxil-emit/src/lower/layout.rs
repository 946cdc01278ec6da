//! Constant-buffer layout (HLSL's legacy packing into 16-byte rows): the byte offset of every
//! flattened component, and sizes.
//!
//! Rules: a scalar or vector never straddles a 16-byte row and is aligned to its component size;
//! arrays, structs and matrices of more than one register start on a row (a one-register matrix
//! packs as a vector); array elements are `round_up(size, 16)` apart; a column-major matrix (the default)
//! stores each column in its own row, a row-major one each row.

use super::Lowerer;
use hlslc_sema::types::{MatrixLayout, ScalarKind, Type, TypeId};

fn round_up(x: u32, a: u32) -> u32 {
    x.div_ceil(a) * a
}

impl Lowerer<'_> {
    /// Bytes one component of `k` takes in a constant buffer.
    pub fn cb_scalar_size(&self, k: ScalarKind) -> u32 {
        use ScalarKind::*;
        match k {
            Double | Int64 | UInt64 => 8,
            Half | Int16 | UInt16 => 2,
            Min16Float | Min10Float | Min16Int | Min12Int | Min16UInt if self.opts.enable_16bit => 2,
            _ => 4,
        }
    }

    /// Appends `(offset, kind)` for each component of `ty` placed at `*off` (updated to the end
    /// of the value), applying the packing rules.
    pub fn cb_layout(&self, ty: TypeId, off: &mut u32, out: &mut Vec<(u32, ScalarKind)>) {
        let types = &self.t.types;
        match types.get(ty).clone() {
            Type::Scalar(_) | Type::Enum(_) | Type::Vector(..) => {
                let k = types.component(ty).unwrap_or(ScalarKind::Int);
                let n = match types.get(ty) {
                    Type::Vector(_, n) => u32::from(*n),
                    _ => 1,
                };
                let s = self.cb_scalar_size(k);
                if (*off % 16) + n * s > 16 {
                    *off = round_up(*off, 16);
                } else {
                    *off = round_up(*off, s);
                }
                for i in 0..n {
                    out.push((*off + i * s, k));
                }
                *off += n * s;
            }
            Type::Matrix { elem, rows, cols, layout } => {
                let s = self.cb_scalar_size(elem);
                let (rows, cols) = (u32::from(rows), u32::from(cols));
                let (regs, comps) = match layout {
                    MatrixLayout::ColumnMajor => (cols, rows),
                    MatrixLayout::RowMajor => (rows, cols),
                };
                // A matrix held in one register (a column-major Nx1, a row-major 1xN) packs as a
                // vector (dxc's AlignBaseOffset: a new row only for more than one register).
                if regs > 1 || (*off % 16) + comps * s > 16 {
                    *off = round_up(*off, 16);
                } else {
                    *off = round_up(*off, s);
                }
                for r in 0..rows {
                    for c in 0..cols {
                        let o = match layout {
                            MatrixLayout::ColumnMajor => c * 16 + r * s,
                            MatrixLayout::RowMajor => r * 16 + c * s,
                        };
                        out.push((*off + o, elem));
                    }
                }
                *off += (regs - 1) * 16 + comps * s;
            }
            Type::Array { elem, len } => {
                *off = round_up(*off, 16);
                let start = *off;
                let size = self.cb_size(elem);
                let stride = round_up(size, 16);
                for i in 0..len.unwrap_or(0) {
                    let mut o = start + i * stride;
                    self.cb_layout(elem, &mut o, out);
                }
                if let Some(n) = len.filter(|n| *n > 0) {
                    *off = start + (n - 1) * stride + size;
                }
            }
            Type::Struct(s) => {
                *off = round_up(*off, 16);
                let def = types.structs[s.0 as usize].clone();
                for b in &def.bases {
                    self.cb_layout(*b, off, out);
                }
                for f in &def.fields {
                    self.cb_layout(f.ty, off, out);
                }
            }
            _ => {}
        }
    }

    /// Size in bytes of `ty` in a constant buffer (not rounded up to a whole row).
    pub fn cb_size(&self, ty: TypeId) -> u32 {
        let mut off = 0;
        let mut v = Vec::new();
        self.cb_layout(ty, &mut off, &mut v);
        off
    }

    /// Natural (C-like) layout used by structured buffers: `(offset, kind)` of every component
    /// and the total size (the element stride).
    pub fn struct_layout(&self, ty: TypeId, off: &mut u32, out: &mut Vec<(u32, ScalarKind)>) {
        let types = &self.t.types;
        let size_of = |k: ScalarKind| -> u32 {
            use ScalarKind::*;
            match k {
                Double | Int64 | UInt64 => 8,
                Half | Int16 | UInt16 => 2,
                _ => 4,
            }
        };
        match types.get(ty).clone() {
            // Components in row order (as the flattened value lists them); a column-major
            // matrix (the default) is stored column by column, as in a constant buffer.
            Type::Matrix { elem, rows, cols, layout } => {
                let s = size_of(elem);
                *off = round_up(*off, s);
                let (rows, cols) = (u32::from(rows), u32::from(cols));
                for r in 0..rows {
                    for c in 0..cols {
                        let i = match layout {
                            MatrixLayout::ColumnMajor => c * rows + r,
                            MatrixLayout::RowMajor => r * cols + c,
                        };
                        out.push((*off + i * s, elem));
                    }
                }
                *off += rows * cols * s;
            }
            Type::Scalar(_) | Type::Enum(_) | Type::Vector(..) => {
                let k = types.component(ty).unwrap_or(ScalarKind::Int);
                let s = size_of(k);
                *off = round_up(*off, s);
                for _ in 0..self.flat_len(ty) {
                    out.push((*off, k));
                    *off += s;
                }
            }
            Type::Array { elem, len } => {
                for _ in 0..len.unwrap_or(0) {
                    self.struct_layout(elem, off, out);
                }
            }
            Type::Struct(s) => {
                let def = types.structs[s.0 as usize].clone();
                for b in &def.bases {
                    self.struct_layout(*b, off, out);
                }
                for f in &def.fields {
                    self.struct_layout(f.ty, off, out);
                }
                let align = out.iter().map(|(_, k)| size_of(*k)).max().unwrap_or(4);
                *off = round_up(*off, align);
            }
            _ => {}
        }
    }
}
