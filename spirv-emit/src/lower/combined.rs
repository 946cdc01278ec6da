//! `[[vk::combinedImageSampler]]`: a texture and a sampler that carry the attribute and share a
//! descriptor set and binding are one combined image sampler (SPIR-V.rst, "Vulkan specific
//! attributes").
//!
//! As in DXC, lowering declares them as two variables with the same set and binding (the
//! register of both takes the `-fvk-t-shift`, see `bindings.rs`); that is the `-fcgl` output.
//! Every other level then makes them one `OpTypeSampledImage` variable, as spirv-opt's
//! `ConvertToSampledImagePass` does for DXC ([`crate::passes::combined`]). Before that, every
//! such set and binding must hold exactly one texture and one sampler, else dxc's fatal error.

use super::{LowerError, Lowerer, R};
use crate::id::SpvId;
use hlslc_frontend::Span;
use hlslc_sema::tast::Var;
use hlslc_sema::types::ObjectKind;
pub use crate::passes::combined::Pair;

/// A resource variable with `[[vk::combinedImageSampler]]` and the binding it was given.
#[derive(Clone, Debug)]
pub(crate) struct Member {
    pub var: SpvId,
    pub sampler: bool,
    pub set: u32,
    pub binding: u32,
    pub span: Option<Span>,
}

fn err(message: String, span: Option<Span>) -> LowerError {
    LowerError { fatal: false, message, span, notes: Vec::new() }
}

impl<'m> Lowerer<'m> {
    /// Whether a resource with the attribute is the sampler (`true`) or the texture of its pair;
    /// the attribute on anything else is refused, naming it.
    pub(crate) fn combined_kind(&self, kind: ObjectKind, var: &Var) -> R<bool> {
        use ObjectKind::*;
        if matches!(kind, SamplerState | SamplerComparisonState) {
            return Ok(true);
        }
        let sampled_texture = super::resources::image_shape(kind)
            .is_some_and(|s| !s.storage && !s.combined && !s.ms && s.dim != spirv::Dim::DimBuffer);
        if sampled_texture {
            return Ok(false);
        }
        Err(err(
            format!(
                "attribute 'vk::combinedImageSampler' on '{}' of type '{}' is not supported: it applies to a sampled texture (Texture1D/2D/3D/Cube and their arrays) and to a SamplerState or SamplerComparisonState",
                var.name,
                kind.name()
            ),
            Some(var.span),
        ))
    }

    /// The pairs to combine, after every binding is assigned: dxc's fatal error for a set and
    /// binding that lacks the texture or the sampler.
    pub(crate) fn combined_pairs(&mut self) -> R<Vec<Pair>> {
        let members = std::mem::take(&mut self.combined);
        let mut groups: Vec<((u32, u32), Vec<&Member>)> = Vec::new();
        for m in &members {
            match groups.iter_mut().find(|(k, _)| *k == (m.set, m.binding)) {
                Some((_, g)) => g.push(m),
                None => groups.push(((m.set, m.binding), vec![m])),
            }
        }
        let mut pairs = Vec::new();
        for ((set, binding), g) in groups {
            let textures: Vec<&&Member> = g.iter().filter(|m| !m.sampler).collect();
            let samplers: Vec<&&Member> = g.iter().filter(|m| m.sampler).collect();
            if textures.is_empty() || samplers.is_empty() {
                return Err(LowerError {
                    fatal: true,
                    message: format!(
                        "Texture or Sampler with [[vk::combinedImageSampler]] attribute is missing for descriptor set and binding: {set}, {binding}"
                    ),
                    span: None,
                    notes: Vec::new(),
                });
            }
            if textures.len() > 1 || samplers.len() > 1 {
                let extra = if textures.len() > 1 { textures[1] } else { samplers[1] };
                return Err(err(
                    format!(
                        "more than one texture or sampler with [[vk::combinedImageSampler]] has descriptor set and binding {set}, {binding}: one texture and one sampler make a combined image sampler"
                    ),
                    extra.span,
                ));
            }
            let name = |l: &Self, id: SpvId| l.b.ctx.name_of(id).unwrap_or_default();
            pairs.push(Pair {
                texture: textures[0].var.0,
                sampler: samplers[0].var.0,
                texture_name: name(self, textures[0].var),
                sampler_name: name(self, samplers[0].var),
            });
        }
        Ok(pairs)
    }
}
