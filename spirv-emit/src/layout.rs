//! Buffer memory layouts (offsets, array strides, matrix strides) over a small type description of
//! its own, so that it is independent of sema's types and testable on its own.
//!
//! The rules, as `SPIR-V.rst` ("Memory layout rules") describes DXC's:
//!
//! - [`LayoutRule::VkStd140`] / [`LayoutRule::VkStd430`]: DXC's default; GL std140 / std430 with
//!   *relaxed* vectors: a vector aligns to its component, unless that makes it straddle a 16-byte
//!   boundary improperly, in which case it aligns to 16.
//! - [`LayoutRule::GlStd140`] / [`LayoutRule::GlStd430`] (`-fvk-use-gl-layout`): strict GL.
//! - [`LayoutRule::DxCBuffer`] / [`LayoutRule::DxSBuffer`] (`-fvk-use-dx-layout`): fxc's packing
//!   of constant buffers (16-byte rows; structs, arrays and matrices start a row; nothing crosses a
//!   row) and of structured buffers (tight, component-aligned).
//! - [`LayoutRule::Scalar`] (`-fvk-use-scalar-layout`): everything aligned to its component.
//!
//! Matrices are described as HLSL declares them (`rows` x `cols`, row- or column-major); a matrix
//! with one row or column is a vector in SPIR-V and should be described as one.

/// A type as far as layout is concerned. Scalars are given by their size in bytes (bool is
/// stored as 4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LType {
    Scalar(u32),
    Vector { elem: u32, count: u32 },
    Matrix { elem: u32, rows: u32, cols: u32, row_major: bool },
    Array { elem: Box<LType>, len: u32 },
    Struct(Vec<LType>),
    /// A struct member placed at a fixed offset (`[[vk::offset(n)]]`, which overrules the rule);
    /// the members after it follow the rule from its end.
    Pinned { ty: Box<LType>, offset: u32 },
    /// A type whose size and alignment are declared (`vk::SpirvType<Opcode, Size, Alignment,
    /// ...>`): the same under every rule.
    Sized { size: u32, align: u32 },
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LayoutRule {
    VkStd140,
    VkStd430,
    GlStd140,
    GlStd430,
    DxCBuffer,
    DxSBuffer,
    Scalar,
}

impl LayoutRule {
    fn uniform(self) -> bool {
        matches!(self, LayoutRule::VkStd140 | LayoutRule::GlStd140)
    }
    fn relaxed(self) -> bool {
        matches!(self, LayoutRule::VkStd140 | LayoutRule::VkStd430)
    }
    fn tight(self) -> bool {
        matches!(self, LayoutRule::Scalar | LayoutRule::DxSBuffer)
    }
}

/// Alignment and size of a type, plus the strides SPIR-V decorations need.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub align: u32,
    pub size: u32,
    /// `ArrayStride` for arrays, `MatrixStride` for matrices; 0 otherwise.
    pub stride: u32,
}

pub fn round_up(v: u32, a: u32) -> u32 {
    if a <= 1 {
        v
    } else {
        v.div_ceil(a).saturating_mul(a)
    }
}

/// Alignment and size of `ty` under `rule`. Depth is bounded by the type itself (no recursion
/// through pointers), so deep nesting costs stack only as deep as the type.
pub fn layout_of(ty: &LType, rule: LayoutRule) -> Layout {
    match ty {
        LType::Pinned { ty, .. } => layout_of(ty, rule),
        LType::Scalar(b) => Layout { align: *b, size: *b, stride: 0 },
        LType::Sized { size, align } => Layout { align: *align, size: *size, stride: 0 },
        LType::Vector { elem, count } => {
            let size = elem * count;
            // Relaxed rules relax a vector only where it is a struct member (see `place_members`):
            // array elements and struct alignment keep the GL alignment, as DXC computes them.
            let align = if rule.tight() || rule == LayoutRule::DxCBuffer {
                *elem
            } else {
                elem * if *count == 2 { 2 } else { 4 }
            };
            Layout { align, size, stride: 0 }
        }
        LType::Matrix { elem, rows, cols, row_major } => {
            let (vectors, vec_len) = if *row_major { (*rows, *cols) } else { (*cols, *rows) };
            if rule.tight() {
                return Layout { align: *elem, size: elem * rows * cols, stride: elem * vec_len };
            }
            if rule == LayoutRule::DxCBuffer {
                let size = 16 * vectors.saturating_sub(1) + elem * vec_len;
                return Layout { align: 16, size, stride: 16 };
            }
            let mut align = elem * if vec_len == 3 { 4 } else { vec_len };
            if rule.uniform() {
                align = round_up(align, 16);
            }
            Layout { align, size: vectors * align, stride: align }
        }
        LType::Array { elem, len } => {
            let mut e = layout_of(elem, rule);
            // Under the cbuffer rules an element of size 0 (an empty struct) takes its rounded
            // alignment, so the stride is 16, never 0 (DXC's AlignmentSizeCalculator does the same).
            if e.size == 0 && (rule.uniform() || rule == LayoutRule::DxCBuffer) {
                e.size = round_up(e.align, 16);
            }
            match rule {
                LayoutRule::DxCBuffer => {
                    let stride = round_up(e.size, 16);
                    Layout { align: 16, size: stride * len.saturating_sub(1) + e.size, stride }
                }
                _ => {
                    let align = if rule.uniform() { round_up(e.align, 16) } else { e.align };
                    let stride = round_up(e.size, align);
                    Layout { align, size: stride * len, stride }
                }
            }
        }
        LType::Struct(members) => {
            let (_, end, max_align) = place_members(members, rule);
            let align = match rule {
                LayoutRule::DxCBuffer => 16,
                r if r.uniform() => round_up(max_align, 16),
                _ => max_align,
            };
            let size = if rule == LayoutRule::DxCBuffer { end } else { round_up(end, align) };
            Layout { align, size, stride: 0 }
        }
    }
}

/// True when a vector of `size` bytes at `offset` crosses a 16-byte row the way the relaxed and
/// fxc rules forbid.
fn straddles(offset: u32, size: u32) -> bool {
    if size <= 16 {
        offset % 16 + size > 16
    } else {
        !offset.is_multiple_of(16)
    }
}

/// Offsets of each member, the end of the last one, and the largest member alignment (the
/// unrelaxed one, as DXC keeps it).
fn place_members(members: &[LType], rule: LayoutRule) -> (Vec<u32>, u32, u32) {
    let mut offsets = Vec::with_capacity(members.len());
    let mut cur = 0u32;
    let mut max_align = 1u32;
    for m in members {
        let l = layout_of(m, rule);
        if let LType::Pinned { offset, .. } = m {
            offsets.push(*offset);
            cur = offset.saturating_add(l.size);
            max_align = max_align.max(l.align);
            continue;
        }
        let mut off = match m {
            // (Relaxed rules: only vectors of components of at most 4 bytes; a 64-bit vector
            // keeps its alignment, as DXC's alignUsingHLSLRelaxedLayout does. fxc's packing:
            // every vector, so a `double3` that would cross a row starts the next one.)
            LType::Vector { elem, .. } if rule == LayoutRule::DxCBuffer || rule.relaxed() && *elem <= 4 => {
                let off = round_up(cur, *elem);
                if straddles(off, l.size) {
                    round_up(off, 16)
                } else {
                    off
                }
            }
            _ => round_up(cur, l.align),
        };
        if rule == LayoutRule::DxCBuffer && matches!(m, LType::Scalar(_)) && straddles(off, l.size) {
            off = round_up(off, 16);
        }
        offsets.push(off);
        cur = off.saturating_add(l.size);
        max_align = max_align.max(l.align);
    }
    (offsets, cur, max_align)
}

/// The `Offset` of each member of a struct with these members.
pub fn struct_offsets(members: &[LType], rule: LayoutRule) -> Vec<u32> {
    place_members(members, rule).0
}

#[cfg(test)]
mod tests {
    use super::*;
    use LayoutRule::*;

    #[test]
    fn fxc_packing_starts_a_row_for_a_64_bit_vector_that_would_cross_one() {
        // fxc's reflection of `float scalar1; double scalar2; float3 vector1; float3 vector2;
        // double3 vector3; double3 vector4; float x;` (dxc's vk.layout.cbuffer.fxc test): a
        // double3 at 72 would cross the row at 80, so it starts there.
        let d3 = LType::Vector { elem: 8, count: 3 };
        let m = vec![LType::Scalar(4), LType::Scalar(8), f3(), f3(), d3.clone(), d3, LType::Scalar(4)];
        assert_eq!(struct_offsets(&m, DxCBuffer), [0, 8, 16, 32, 48, 80, 104]);
        // The relaxed rule keeps the 64-bit vector's own alignment (32).
        assert_eq!(struct_offsets(&m, VkStd140), [0, 8, 16, 32, 64, 96, 120]);
    }

    #[test]
    fn a_pinned_member_sits_at_its_offset_and_the_next_ones_follow_it() {
        // SPIR-V.rst: [[vk::offset]] overrules the rule; DXC continues from the pinned member's end.
        let pin = |ty: LType, offset| LType::Pinned { ty: Box::new(ty), offset };
        let m = vec![LType::Scalar(4), pin(LType::Vector { elem: 4, count: 2 }, 32), pin(f3(), 64), LType::Array { elem: Box::new(LType::Scalar(4)), len: 2 }];
        // float d[2] after float3@64 (ends at 76): a cbuffer array starts a 16-byte row, a
        // structured buffer's aligns to 4.
        assert_eq!(struct_offsets(&m, DxCBuffer), [0, 32, 64, 80]);
        assert_eq!(struct_offsets(&m, DxSBuffer), [0, 32, 64, 76]);
        assert_eq!(layout_of(&LType::Struct(m.clone()), DxCBuffer).size, 100);
        assert_eq!(layout_of(&LType::Struct(m), DxSBuffer).size, 84);
    }

    #[test]
    fn relaxed_rules_relax_only_vectors_of_32_bit_or_smaller_components() {
        // vk.layout.64bit-types.std140/std430: an int64_t3 after a float keeps its 32-byte
        // alignment; a float3 after a float packs at 4.
        let m64 = vec![LType::Scalar(4), LType::Vector { elem: 8, count: 3 }];
        assert_eq!(struct_offsets(&m64, VkStd140), [0, 32]);
        assert_eq!(struct_offsets(&m64, VkStd430), [0, 32]);
        assert_eq!(struct_offsets(&[LType::Scalar(4), f3()], VkStd430), [0, 4]);
    }

    #[test]
    fn an_array_of_empty_structs_in_a_cbuffer_has_a_stride_of_16() {
        // type.struct.empty-struct.array-stride: `cbuffer foo { struct {} bar[2]; }` gives
        // `ArrayStride 16` (a stride of 0 fails spirv-val's uniform layout rules).
        let arr = LType::Array { elem: Box::new(LType::Struct(vec![])), len: 2 };
        for rule in [VkStd140, GlStd140, DxCBuffer] {
            assert_eq!(layout_of(&arr, rule).stride, 16, "{rule:?}");
        }
        assert_eq!(layout_of(&arr, VkStd140).size, 32);
        // The storage-buffer rules keep DXC's size 0.
        assert_eq!(layout_of(&arr, VkStd430).stride, 0);
    }

    fn f3() -> LType {
        LType::Vector { elem: 4, count: 3 }
    }

    /// `struct T` of SPIR-V.rst's layout example.
    fn t() -> Vec<LType> {
        vec![
            LType::Scalar(4),
            f3(),
            LType::Struct(vec![f3()]),
            LType::Matrix { elem: 4, rows: 2, cols: 3, row_major: false },
            LType::Matrix { elem: 4, rows: 2, cols: 3, row_major: true },
            LType::Array { elem: Box::new(LType::Scalar(4)), len: 3 },
            LType::Array { elem: Box::new(LType::Vector { elem: 4, count: 2 }), len: 2 },
        ]
    }

    #[test]
    fn offsets_match_the_documented_table() {
        let cases: [(LayoutRule, [u32; 7]); 7] = [
            (VkStd140, [0, 4, 16, 32, 80, 112, 160]),
            (DxCBuffer, [0, 4, 16, 32, 80, 112, 160]),
            (GlStd140, [0, 16, 32, 48, 96, 128, 176]),
            (Scalar, [0, 4, 16, 28, 52, 76, 88]),
            (VkStd430, [0, 4, 16, 32, 64, 96, 112]),
            (DxSBuffer, [0, 4, 16, 28, 52, 76, 88]),
            (GlStd430, [0, 16, 32, 48, 80, 112, 128]),
        ];
        for (rule, want) in cases {
            assert_eq!(struct_offsets(&t(), rule), want, "{rule:?}");
        }
    }

    #[test]
    fn strides() {
        let fa = LType::Array { elem: Box::new(LType::Scalar(4)), len: 4 };
        assert_eq!(layout_of(&fa, VkStd140).stride, 16);
        assert_eq!(layout_of(&fa, VkStd430).stride, 4);
        assert_eq!(layout_of(&fa, DxCBuffer), Layout { align: 16, size: 52, stride: 16 });
        let m = LType::Matrix { elem: 4, rows: 4, cols: 4, row_major: false };
        assert_eq!(layout_of(&m, VkStd140), Layout { align: 16, size: 64, stride: 16 });
        let m23 = LType::Matrix { elem: 4, rows: 2, cols: 3, row_major: false };
        assert_eq!(layout_of(&m23, VkStd430), Layout { align: 8, size: 24, stride: 8 });
        assert_eq!(layout_of(&m23, VkStd140), Layout { align: 16, size: 48, stride: 16 });
        assert_eq!(layout_of(&m23, Scalar), Layout { align: 4, size: 24, stride: 8 });
        let h3 = LType::Matrix { elem: 2, rows: 3, cols: 3, row_major: true };
        assert_eq!(layout_of(&h3, VkStd430), Layout { align: 8, size: 24, stride: 8 });
        // Arrays of structs: std140 rounds the struct to 16.
        let s = LType::Array { elem: Box::new(LType::Struct(vec![LType::Scalar(4)])), len: 2 };
        assert_eq!(layout_of(&s, VkStd140), Layout { align: 16, size: 32, stride: 16 });
        assert_eq!(layout_of(&s, VkStd430), Layout { align: 4, size: 8, stride: 4 });
    }

    #[test]
    fn relaxed_vectors_straddle_to_next_row() {
        // float, float2, float3: the float3 at 12 would cross a row, so it moves to 16.
        let m = [LType::Scalar(4), LType::Vector { elem: 4, count: 2 }, f3()];
        assert_eq!(struct_offsets(&m, VkStd140), [0, 4, 16]);
        assert_eq!(struct_offsets(&m, GlStd430), [0, 8, 16]);
        assert_eq!(struct_offsets(&m, Scalar), [0, 4, 12]);
        // A float4 after a float: relaxed alignment 4 would straddle, so 16.
        let v = [LType::Scalar(4), LType::Vector { elem: 4, count: 4 }];
        assert_eq!(struct_offsets(&v, VkStd430), [0, 16]);
        // 64-bit vectors are not relaxed: a double3 keeps its 32-byte alignment (DXC).
        let d = [LType::Scalar(4), LType::Vector { elem: 8, count: 3 }];
        assert_eq!(struct_offsets(&d, VkStd430), [0, 32]);
        assert_eq!(struct_offsets(&d, Scalar), [0, 8]);
    }
}
