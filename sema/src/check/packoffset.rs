//! `packoffset(cN.c)` rules, with dxc's wording: a member must fit where it is put (a scalar or
//! vector may not cross a 16-byte register; a struct, array or matrix starts a register), all
//! members of a buffer have a packoffset or none do (a warning), and, for DXIL, no two overlap.
//! (The SPIR-V back end has its own overlap rule, in declaration order: see spirv-emit's
//! cbuffer lowering.)

use super::Checker;
use crate::layout::cbuffer_size;
use crate::tast::{Binding, CBufferId};
use crate::types::{Type, TypeId};
use hlslc_frontend::Span;

impl Checker<'_> {
    /// `float4 v : packoffset(c0.y)` crosses a register; `S s : packoffset(c0.y)` puts an
    /// aggregate off a register's start: "register or offset bind not valid". The packoffset
    /// is dropped after the error (the member is laid out as if it had none).
    pub(crate) fn check_packoffset_fits(&mut self, b: &mut Binding, ty: TypeId) {
        let (Some((_, comp)), Some(span)) = (b.packoffset, b.packoffset_span) else { return };
        let types = &self.m.types;
        let fits = match types.get(ty) {
            Type::Scalar(_) | Type::Vector(..) | Type::Enum(_) => {
                cbuffer_size(types, ty).is_none_or(|size| u64::from(comp) * 4 + size <= 16)
            }
            Type::Struct(_) | Type::Array { .. } | Type::Matrix { .. } => comp == 0,
            _ => true,
        };
        if !fits {
            self.error(span, "register or offset bind not valid");
            b.packoffset = None;
        }
    }

    /// After a buffer's members: the mix warning, and (DXIL) overlapping members, found as dxc
    /// does by sorting the members by offset and comparing neighbours.
    pub(crate) fn check_packoffsets(&mut self, cb: CBufferId, name: Span) {
        let members = self.m.cbuffers[cb.0 as usize].members.clone();
        let mut packed = Vec::new();
        let mut unpacked = false;
        for &v in &members {
            let var = self.m.var(v);
            match var.binding.packoffset {
                Some((reg, comp)) => packed.push((u64::from(reg) * 16 + u64::from(comp) * 4, v)),
                // A member whose packoffset was refused counts as packed (its error is enough).
                None if var.binding.packoffset_span.is_some() => {}
                None => unpacked = true,
            }
        }
        if packed.is_empty() {
            return;
        }
        if unpacked {
            self.warning(name, "cannot mix packoffset elements with nonpackoffset elements in a cbuffer");
        }
        if self.opts.spirv {
            return;
        }
        packed.sort_by_key(|&(offset, _)| offset);
        for pair in packed.windows(2) {
            let ((begin, prev), (next_begin, next)) = (pair[0], pair[1]);
            let size = cbuffer_size(&self.m.types, self.m.var(prev).ty).unwrap_or(0);
            if begin + size > next_begin {
                let (p, n) = (self.m.var(prev), self.m.var(next));
                let msg = format!("packoffset overlap between '{}', '{}'", n.name, p.name);
                let span = n.name_span;
                self.error(span, msg);
            }
        }
    }
}
