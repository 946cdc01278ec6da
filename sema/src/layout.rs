//! Sizes of types as HLSL's `sizeof` reports them (tightly packed: scalars at their width,
//! bool as 4 bytes, no padding), the basis for buffer layout rules.

use crate::types::{Type, TypeId, TypeTable};

/// `sizeof(T)` in bytes (8 for `vk::BufferPointer`); `None` for other objects, unsized arrays, void and strings.
pub fn byte_size(types: &TypeTable, t: TypeId) -> Option<u64> {
    byte_size_depth(types, t, 0)
}

fn byte_size_depth(types: &TypeTable, t: TypeId, depth: u32) -> Option<u64> {
    if depth > 64 {
        return None;
    }
    let comp_bytes = |t: TypeId| types.component(t).map(|k| (k.bits() / 8) as u64);
    match types.get(t) {
        Type::Scalar(_) | Type::Vector(..) | Type::Matrix { .. } | Type::Enum(_) => {
            Some(comp_bytes(t)? * types.shape(t)?.count() as u64)
        }
        Type::Array { elem, len: Some(n) } => byte_size_depth(types, *elem, depth + 1).map(|s| s * *n as u64),
        Type::Struct(s) => {
            let def = &types.structs[s.0 as usize];
            let mut total = 0u64;
            for b in &def.bases {
                total += byte_size_depth(types, *b, depth + 1)?;
            }
            for f in &def.fields {
                total += byte_size_depth(types, f.ty, depth + 1)?;
            }
            Some(total)
        }
        // A buffer device address.
        Type::Object { kind: crate::types::ObjectKind::VkBufferPointer, .. } => Some(8),
        Type::InlineSpirv(crate::types::InlineSpirvType::Inline { size_align: Some((size, _)), .. }) => Some(*size as u64),
        _ => None,
    }
}

/// Size in bytes of `t` in a constant buffer by fxc's packing (the "legacy" layout dxc's DXIL
/// back end and `packoffset` use): a vector never crosses a 16-byte register; a matrix (one
/// register per row of a row_major matrix, per column otherwise) of more than one register, an
/// array element and a struct start a register (a one-register matrix packs as a vector); a struct's members follow these rules from its start. `None` where
/// [`byte_size`] has none.
pub fn cbuffer_size(types: &TypeTable, t: TypeId) -> Option<u64> {
    cbuffer_size_depth(types, t, 0)
}

fn cbuffer_size_depth(types: &TypeTable, t: TypeId, depth: u32) -> Option<u64> {
    if depth > 64 {
        return None;
    }
    let round16 = |n: u64| n.div_ceil(16) * 16;
    match types.get(t) {
        Type::Matrix { elem, rows, cols, layout } => {
            let (regs, len) = if *layout == crate::types::MatrixLayout::RowMajor { (*rows, *cols) } else { (*cols, *rows) };
            Some((regs as u64 - 1) * 16 + len as u64 * (elem.bits() / 8) as u64)
        }
        Type::Array { elem, len: Some(n) } => {
            let e = cbuffer_size_depth(types, *elem, depth + 1)?;
            Some(if *n == 0 { 0 } else { (*n as u64 - 1) * round16(e) + e })
        }
        Type::Struct(s) => {
            let def = &types.structs[s.0 as usize];
            let mut cur = 0u64;
            for f in def.bases.iter().chain(def.fields.iter().map(|f| &f.ty)) {
                let size = cbuffer_size_depth(types, *f, depth + 1)?;
                // A matrix in one register (column-major Nx1, row-major 1xN) packs as a vector.
                let one_register = matches!(types.get(*f), Type::Matrix { rows, cols, layout, .. }
                    if (if *layout == crate::types::MatrixLayout::RowMajor { *rows } else { *cols }) == 1);
                let off = if one_register || matches!(types.get(*f), Type::Scalar(_) | Type::Vector(..) | Type::Enum(_)) {
                    vector_offset(types, *f, cur, size)
                } else {
                    round16(cur)
                };
                cur = off + size;
            }
            Some(cur)
        }
        _ => byte_size_depth(types, t, depth),
    }
}

/// Where a vector-like member of `size` bytes after offset `cur` goes: aligned to its component,
/// on the next register if it would cross one.
fn vector_offset(types: &TypeTable, t: TypeId, cur: u64, size: u64) -> u64 {
    let align = types.component(t).map_or(4, |k| (k.bits() / 8) as u64);
    let off = cur.div_ceil(align) * align;
    if size > 0 && off / 16 != (off + size - 1) / 16 {
        off.div_ceil(16) * 16
    } else {
        off
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::ScalarKind;

    #[test]
    fn cbuffer_sizes_follow_fxc_packing() {
        let mut t = TypeTable::new();
        let f = t.scalar(ScalarKind::Float);
        let f3 = t.vector(ScalarKind::Float, 3);
        let f2 = t.vector(ScalarKind::Float, 2);
        let arr = t.array(f, Some(2));
        // float a[2]: element 0 in c0.x, element 1 in c1.x.
        assert_eq!(cbuffer_size(&t, arr), Some(20));
        assert_eq!(cbuffer_size(&t, f3), Some(12));
        // float2x3 (column major): three columns of two, one register each.
        let m = t.matrix(ScalarKind::Float, 2, 3, crate::types::MatrixLayout::ColumnMajor);
        assert_eq!(cbuffer_size(&t, m), Some(40));
        let m = t.matrix(ScalarKind::Float, 2, 3, crate::types::MatrixLayout::RowMajor);
        assert_eq!(cbuffer_size(&t, m), Some(28));
        // float2 a[3]: 16 + 16 + 8.
        let arr = t.array(f2, Some(3));
        assert_eq!(cbuffer_size(&t, arr), Some(40));
    }
}
