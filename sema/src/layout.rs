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
