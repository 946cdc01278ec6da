//! `tex.mips[level][coord]` and `tex.sample[index][coord]`: a texel of a mip level of a texture,
//! or of one sample of a multisampled texture. Checked as one expression
//! ([`ExprKind::TexelAt`]); the intermediate `tex.mips` and `tex.mips[level]` have no value of
//! their own.

use super::Checker;
use crate::tast::{ExprId, ExprKind};
use crate::types::{ObjectKind, ScalarKind, Type};
use hlslc_frontend::ast;
use hlslc_frontend::Span;

/// Textures with `.mips` (not cubes or multisampled ones), and with `.sample` (multisampled).
fn accessor_dims(kind: ObjectKind, sample: bool) -> Option<u8> {
    use ObjectKind::*;
    let ok = if sample {
        matches!(
            kind,
            Texture2DMS | Texture2DMSArray | RWTexture2DMS | RWTexture2DMSArray | VkSampledTexture2DMS | VkSampledTexture2DMSArray
        )
    } else {
        matches!(
            kind,
            Texture1D
                | Texture1DArray
                | Texture2D
                | Texture2DArray
                | Texture3D
                | VkSampledTexture1D
                | VkSampledTexture1DArray
                | VkSampledTexture2D
                | VkSampledTexture2DArray
                | VkSampledTexture3D
        )
    };
    if ok {
        kind.index_dims()
    } else {
        None
    }
}

impl Checker<'_> {
    /// `base[coord]` when `base` is `tex.mips[level]` or `tex.sample[index]`; `None` when the
    /// expression has another shape.
    pub(crate) fn texel_at(&mut self, base: &ast::Expr, coord: &ast::Expr, span: Span) -> Option<ExprId> {
        let ast::ExprKind::Index { base: inner, index: level } = &base.kind else { return None };
        let ast::ExprKind::Member { base: tex, name } = &inner.kind else { return None };
        let sample = match name.name.as_str() {
            "mips" => false,
            "sample" => true,
            _ => return None,
        };
        let t = self.check_expr(tex);
        let tt = self.ty_of(t);
        if self.m.types.is_error(tt) {
            return Some(self.error_expr(span));
        }
        let (dims, elem) = match self.m.types.get(tt).clone() {
            Type::Object { kind, elem: Some(elem), .. } => match accessor_dims(kind, sample) {
                Some(d) => (d, elem),
                None => {
                    let n = self.type_name(tt);
                    self.error(name.span, format!("no member named '{}' in '{n}'", name.name));
                    return Some(self.error_expr(span));
                }
            },
            _ => {
                let n = self.type_name(tt);
                self.error(inner.span, format!("member reference base type '{n}' is not a structure or union"));
                return Some(self.error_expr(span));
            }
        };
        let l = self.check_expr(level);
        let c = self.check_expr(coord);
        let (lt, ct) = (self.ty_of(l), self.ty_of(c));
        if self.m.types.is_error(lt) || self.m.types.is_error(ct) {
            return Some(self.error_expr(span));
        }
        let u = self.m.types.uint();
        let l = self.coerce(l, u);
        let cty = if dims == 1 { u } else { self.m.types.vector(ScalarKind::UInt, dims) };
        let c = self.coerce(c, cty);
        Some(self.add(ExprKind::TexelAt { texture: t, sample, level: l, coord: c }, elem, false, span))
    }
}
