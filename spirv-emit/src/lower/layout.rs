//! Memory layouts of buffer contents: offsets, array strides and matrix strides.
//!
//! DXC's Vulkan default is the "relaxed" variant of std140 (constant buffers) and std430
//! (structured and byte-address buffers): a vector is aligned to its component size as long as
//! it does not straddle a 16-byte boundary. `-fvk-use-gl-layout` turns the relaxation off,
//! `-fvk-use-scalar-layout` aligns everything to its component, `-fvk-use-dx-layout` packs like
//! D3D (not yet implemented; treated as relaxed).

use hlslc_sema::types::{MatrixLayout, ScalarKind, Type, TypeId, TypeTable};

/// Which rules lay out a type in memory. `Logical` types (function/private/workgroup storage)
/// carry no layout decorations.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    Logical,
    /// Relaxed std140 (constant buffers).
    Std140,
    /// Relaxed std430 (structured buffers, push constants).
    Std430,
    Scalar,
}

/// Options that pick the layout variant.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct LayoutRules {
    /// `-fvk-use-gl-layout`: strict std140/std430 vector alignment.
    pub strict_gl: bool,
    /// `-fvk-use-scalar-layout`.
    pub scalar: bool,
}

/// Size in bytes of one scalar component as stored in a buffer (bool is stored as a 32-bit uint).
pub fn scalar_size(k: ScalarKind) -> u32 {
    k.bits() / 8
}

fn round_up(v: u32, a: u32) -> u32 {
    if a <= 1 {
        v
    } else {
        v.div_ceil(a) * a
    }
}

/// The number of vectors and the components per vector of a matrix as SPIR-V stores it: HLSL
/// rows become SPIR-V columns, so the memory vectors of a `column_major` matrix are its HLSL
/// columns.
pub fn matrix_memory_shape(rows: u32, cols: u32, layout: MatrixLayout) -> (u32, u32) {
    match layout {
        MatrixLayout::ColumnMajor => (cols, rows),
        MatrixLayout::RowMajor => (rows, cols),
    }
}

impl LayoutRules {
    /// Alignment and size of `ty` under `layout`.
    pub fn align_size(&self, types: &TypeTable, ty: TypeId, layout: Layout) -> (u32, u32) {
        match types.get(ty) {
            Type::Scalar(k) => {
                let s = scalar_size(*k);
                (s, s)
            }
            Type::Enum(_) => (4, 4),
            Type::Vector(k, n) => self.vector_align_size(*k, *n as u32, layout),
            Type::Matrix { elem, rows, cols, layout: ml } => {
                let (vectors, comps) = matrix_memory_shape(*rows as u32, *cols as u32, *ml);
                let stride = self.matrix_stride(*elem, comps, layout);
                let (va, _) = self.vector_align_size(*elem, comps, layout);
                let align = if layout == Layout::Std140 { 16.max(va) } else { va };
                (align, stride * vectors)
            }
            Type::Array { elem, len } => {
                let stride = self.array_stride(types, *elem, layout);
                let (ea, _) = self.align_size(types, *elem, layout);
                let align = if layout == Layout::Std140 { round_up(ea, 16) } else { ea };
                (align, stride * len.unwrap_or(0))
            }
            Type::Struct(_) => {
                let offsets = self.struct_offsets(types, ty, layout);
                let mut align = 1;
                let mut end = 0;
                for (fty, off) in offsets {
                    let (a, s) = self.align_size(types, fty, layout);
                    align = align.max(a);
                    end = end.max(off + s);
                }
                if layout == Layout::Std140 {
                    align = round_up(align, 16);
                }
                (align, round_up(end, align))
            }
            _ => (4, 4),
        }
    }

    fn vector_align_size(&self, k: ScalarKind, n: u32, layout: Layout) -> (u32, u32) {
        let s = scalar_size(k);
        let size = s * n;
        if layout == Layout::Scalar || self.scalar {
            return (s, size);
        }
        let align = match n {
            1 => s,
            2 => 2 * s,
            _ => 4 * s,
        };
        (align, size)
    }

    /// `MatrixStride`: the distance between the matrix's memory vectors.
    pub fn matrix_stride(&self, elem: ScalarKind, comps: u32, layout: Layout) -> u32 {
        let (a, s) = self.vector_align_size(elem, comps, layout);
        match layout {
            Layout::Std140 => round_up(s.max(a), 16),
            _ => round_up(s, a),
        }
    }

    /// `ArrayStride` of an array of `elem`.
    pub fn array_stride(&self, types: &TypeTable, elem: TypeId, layout: Layout) -> u32 {
        let (a, s) = self.align_size(types, elem, layout);
        let stride = round_up(s, a);
        if layout == Layout::Std140 {
            round_up(stride, 16)
        } else {
            stride
        }
    }

    /// Offsets of the flattened members of a struct (base struct first, as one member).
    pub fn struct_offsets(&self, types: &TypeTable, ty: TypeId, layout: Layout) -> Vec<(TypeId, u32)> {
        let Type::Struct(sid) = types.get(ty) else { return Vec::new() };
        let def = &types.structs[sid.0 as usize];
        let members: Vec<TypeId> = def.bases.iter().copied().chain(def.fields.iter().map(|f| f.ty)).collect();
        self.offsets_of(types, &members, layout)
    }

    /// Offsets of a sequence of members laid out one after another.
    pub fn offsets_of(&self, types: &TypeTable, members: &[TypeId], layout: Layout) -> Vec<(TypeId, u32)> {
        let mut out = Vec::with_capacity(members.len());
        let mut offset = 0u32;
        for &m in members {
            let (align, size) = self.align_size(types, m, layout);
            let mut off = round_up(offset, align);
            let is_vector = matches!(types.get(m), Type::Vector(..));
            // The relaxed rule: a vector may be aligned to its component, but must not straddle a
            // 16-byte boundary (when it fits in 16 bytes).
            if is_vector && !self.strict_gl && layout != Layout::Scalar && !self.scalar {
                let comp = types.component(m).map(scalar_size).unwrap_or(4);
                off = round_up(offset, comp);
                if size <= 16 && (off % 16) + size > 16 {
                    off = round_up(off, 16);
                }
            }
            // std140: a member following a struct or an array starts at a 16-byte boundary.
            if layout == Layout::Std140 {
                if let Some(&(prev, _)) = out.last() {
                    if matches!(types.get(prev), Type::Struct(_) | Type::Array { .. }) {
                        off = round_up(off, 16);
                    }
                }
            }
            out.push((m, off));
            offset = off + size;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relaxed_std140_packs_a_vector_after_a_scalar_but_not_across_16_bytes() {
        let mut t = TypeTable::new();
        let f = t.float();
        let v3 = t.vector(ScalarKind::Float, 3);
        let v2 = t.vector(ScalarKind::Float, 2);
        let r = LayoutRules::default();
        let offs: Vec<u32> = r.offsets_of(&t, &[f, v3, f, v2, v3], Layout::Std140).into_iter().map(|x| x.1).collect();
        // float@0, float3@4 (fits in 4..16), float@16, float2@20, float3@32 (28+12 would straddle 32)
        assert_eq!(offs, vec![0, 4, 16, 20, 32]);
        let strict = LayoutRules { strict_gl: true, scalar: false };
        let offs: Vec<u32> = strict.offsets_of(&t, &[f, v3], Layout::Std140).into_iter().map(|x| x.1).collect();
        assert_eq!(offs, vec![0, 16]);
    }

    #[test]
    fn array_and_matrix_strides() {
        let mut t = TypeTable::new();
        let f = t.float();
        let r = LayoutRules::default();
        assert_eq!(r.array_stride(&t, f, Layout::Std140), 16);
        assert_eq!(r.array_stride(&t, f, Layout::Std430), 4);
        let m = t.matrix(ScalarKind::Float, 2, 3, MatrixLayout::ColumnMajor);
        // column_major float2x3 is stored as 3 columns of float2.
        assert_eq!(r.align_size(&t, m, Layout::Std430), (8, 24));
        assert_eq!(r.align_size(&t, m, Layout::Std140), (16, 48));
    }
}
