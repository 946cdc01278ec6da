//! Which layout rule applies where, and sema's types described for [`crate::layout`], which owns
//! the rules themselves (offsets, array and matrix strides; tested against SPIR-V.rst's table).

use crate::layout::{layout_of, struct_offsets, LType, LayoutRule};
use hlslc_sema::types::{MatrixLayout, Type, TypeId, TypeTable};

/// The kind of storage a value lives in. `Logical` types (function/private/workgroup storage)
/// carry no layout decorations.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    Logical,
    /// Constant buffers.
    Std140,
    /// Structured and byte-address buffers, texture buffers.
    Std430,
}

/// The command line's layout choice (`-fvk-use-gl-layout`, `-fvk-use-dx-layout`,
/// `-fvk-use-scalar-layout`; none of them is DXC's relaxed default).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct LayoutRules {
    pub strict_gl: bool,
    pub dx: bool,
    pub scalar: bool,
}

impl LayoutRules {
    fn rule(&self, layout: Layout) -> LayoutRule {
        let cbuffer = layout == Layout::Std140;
        match (self.scalar, self.dx, self.strict_gl, cbuffer) {
            (true, ..) => LayoutRule::Scalar,
            (_, true, _, true) => LayoutRule::DxCBuffer,
            (_, true, _, false) => LayoutRule::DxSBuffer,
            (_, _, true, true) => LayoutRule::GlStd140,
            (_, _, true, false) => LayoutRule::GlStd430,
            (.., true) => LayoutRule::VkStd140,
            _ => LayoutRule::VkStd430,
        }
    }

    /// Alignment and size of `ty` under `layout`.
    pub fn align_size(&self, types: &TypeTable, ty: TypeId, layout: Layout) -> (u32, u32) {
        let rule = self.rule(layout);
        let l = layout_of(&describe(types, ty, rule), rule);
        (l.align, l.size)
    }

    /// `MatrixStride` of matrix type `ty` (also the `ArrayStride` of a non-float matrix, which
    /// is an array of its memory vectors).
    pub fn matrix_stride(&self, types: &TypeTable, ty: TypeId, layout: Layout) -> u32 {
        let rule = self.rule(layout);
        layout_of(&describe(types, ty, rule), rule).stride
    }

    /// `ArrayStride` of an array of `elem`.
    pub fn array_stride(&self, types: &TypeTable, elem: TypeId, layout: Layout) -> u32 {
        let rule = self.rule(layout);
        let arr = LType::Array { elem: Box::new(describe(types, elem, rule)), len: 1 };
        layout_of(&arr, rule).stride
    }

    /// Offsets of a sequence of struct members.
    pub fn offsets_of(&self, types: &TypeTable, members: &[TypeId], layout: Layout) -> Vec<(TypeId, u32)> {
        self.offsets_pinned(types, members, &[], layout)
    }

    /// Offsets of a sequence of struct members, some of them pinned at an offset
    /// (`[[vk::offset(n)]]`; `pinned[i]` for member `i`, missing entries are `None`).
    pub fn offsets_pinned(&self, types: &TypeTable, members: &[TypeId], pinned: &[Option<u32>], layout: Layout) -> Vec<(TypeId, u32)> {
        let rule = self.rule(layout);
        let described: Vec<LType> = members.iter().enumerate().map(|(i, &m)| pin(describe(types, m, rule), pinned.get(i).copied().flatten())).collect();
        members.iter().copied().zip(struct_offsets(&described, rule)).collect()
    }

    /// Whether matrix type `ty` is an array of scalars in memory under `layout`: fxc's cbuffer
    /// packing (`-fvk-use-dx-layout`) gives each column of a column-major `1xN` matrix (each row
    /// of a row-major `Nx1`) its own 16-byte row, where the other rules store a vector.
    pub fn scalar_rows(&self, types: &TypeTable, ty: TypeId, layout: Layout) -> bool {
        matches!(describe(types, ty, self.rule(layout)), LType::Array { .. }) && matches!(types.get(ty), Type::Matrix { .. })
    }
}

/// `ty` at a fixed offset, if it has one.
fn pin(ty: LType, offset: Option<u32>) -> LType {
    match offset {
        Some(offset) => LType::Pinned { ty: Box::new(ty), offset },
        None => ty,
    }
}

/// Sema's type as the layout rules see it (bool and enums are 4 bytes; a matrix with one row or
/// column is a vector; an unsized array counts as one element).
fn describe(types: &TypeTable, ty: TypeId, rule: LayoutRule) -> LType {
    match types.get(ty) {
        Type::Scalar(k) => LType::Scalar(k.bits() / 8),
        Type::Vector(k, 1) => LType::Scalar(k.bits() / 8),
        Type::Vector(k, n) => LType::Vector { elem: k.bits() / 8, count: *n as u32 },
        Type::Matrix { elem, rows, cols, layout } => {
            let (rows, cols, elem) = (*rows as u32, *cols as u32, elem.bits() / 8);
            let row_major = *layout == MatrixLayout::RowMajor;
            match (rows, cols) {
                (1, 1) => LType::Scalar(elem),
                // One element per memory vector: each in its own row in fxc's cbuffer packing.
                (1, n) if !row_major && rule == LayoutRule::DxCBuffer => LType::Array { elem: Box::new(LType::Scalar(elem)), len: n },
                (n, 1) if row_major && rule == LayoutRule::DxCBuffer => LType::Array { elem: Box::new(LType::Scalar(elem)), len: n },
                (1, n) | (n, 1) => LType::Vector { elem, count: n },
                _ => LType::Matrix { elem, rows, cols, row_major },
            }
        }
        Type::Array { elem, len } => LType::Array { elem: Box::new(describe(types, *elem, rule)), len: len.unwrap_or(1) },
        Type::Struct(s) => {
            let def = &types.structs[s.0 as usize];
            let bases = def.bases.iter().map(|&b| describe(types, b, rule));
            LType::Struct(bases.chain(def.fields.iter().map(|f| pin(describe(types, f.ty, rule), f.vk.offset))).collect())
        }
        // A buffer device address.
        Type::Object { kind: hlslc_sema::types::ObjectKind::VkBufferPointer, .. } => LType::Scalar(8),
        Type::InlineSpirv(hlslc_sema::types::InlineSpirvType::Inline { size_align: Some((size, align)), .. }) => {
            LType::Sized { size: *size, align: *align }
        }
        _ => LType::Scalar(4),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hlslc_sema::types::ScalarKind;

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
        let strict = LayoutRules { strict_gl: true, ..LayoutRules::default() };
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
        assert_eq!(r.matrix_stride(&t, m, Layout::Std140), 16);
    }
}
