//! Pixel shaders: execution modes from the entry point's attributes (SPIR-V.rst, "Vulkan
//! specific attributes"): `[earlydepthstencil]` is `EarlyFragmentTests`,
//! `[[vk::post_depth_coverage]]` is `PostDepthCoverage`, `[[vk::early_and_late_tests]]` is
//! `EarlyAndLateFragmentTestsAMD`, `[[vk::depth_unchanged]]` is `DepthUnchanged` and each
//! `[[vk::stencil_ref_*]]` its `StencilRef*AMD` mode. The capabilities and extensions follow
//! from the modes (`passes::tables::execution_mode_needs`). On another stage these attributes
//! are refused by name: they would change nothing.

use super::super::{LowerError, Lowerer, R};
use crate::id::SpvId;
use hlslc_sema::tast::{EntryPoint, Stage};
use spirv::ExecutionMode as E;

/// The pixel-entry attributes in the order DXC adds their modes, with their modes.
const PIXEL_ATTRS: &[(Option<&str>, &str, E)] = &[
    (None, "earlydepthstencil", E::EarlyFragmentTests),
    (Some("vk"), "post_depth_coverage", E::PostDepthCoverage),
    (Some("vk"), "early_and_late_tests", E::EarlyAndLateFragmentTestsAMD),
    (Some("vk"), "depth_unchanged", E::DepthUnchanged),
    (Some("vk"), "stencil_ref_unchanged_front", E::StencilRefUnchangedFrontAMD),
    (Some("vk"), "stencil_ref_greater_equal_front", E::StencilRefGreaterFrontAMD),
    (Some("vk"), "stencil_ref_less_equal_front", E::StencilRefLessFrontAMD),
    (Some("vk"), "stencil_ref_unchanged_back", E::StencilRefUnchangedBackAMD),
    (Some("vk"), "stencil_ref_greater_equal_back", E::StencilRefGreaterBackAMD),
    (Some("vk"), "stencil_ref_less_equal_back", E::StencilRefLessBackAMD),
];

impl<'m> Lowerer<'m> {
    /// The execution modes of the pixel-entry attributes of `ep`'s function, with DXC's error
    /// when more than one stencil-reference mode is given for a face.
    pub(crate) fn pixel_modes(&mut self, ep: &EntryPoint, wrapper: SpvId) -> R<()> {
        let f = self.m.func(ep.func);
        let has = |ns: Option<&str>, name: &str| {
            f.attrs.iter().any(|a| a.namespace.as_deref() == ns && if ns.is_none() { a.name.eq_ignore_ascii_case(name) } else { a.name == name })
        };
        let err = |message: String| LowerError { fatal: false, message, span: Some(f.span), notes: Vec::new() };
        if ep.stage != Stage::Pixel {
            // `[earlydepthstencil]` elsewhere is diagnosed by sema; the vk:: ones here.
            if let Some((_, name, _)) = PIXEL_ATTRS.iter().skip(1).find(|(ns, name, _)| has(*ns, name)) {
                return Err(err(format!("attribute 'vk::{name}' is not supported by the SPIR-V back end on a non-pixel entry point")));
            }
            return Ok(());
        }
        for face in ["front", "back"] {
            let given = ["unchanged", "greater_equal", "less_equal"].iter().filter(|k| has(Some("vk"), &format!("stencil_ref_{k}_{face}"))).count();
            if given > 1 {
                return Err(err(format!(
                    "Shaders must not specify more than one of stencil_ref_unchanged_{face}, stencil_ref_greater_equal_{face}, and stencil_ref_less_equal_{face}."
                )));
            }
        }
        for &(ns, name, mode) in PIXEL_ATTRS {
            if has(ns, name) {
                self.b.execution_mode(wrapper, mode, &[]);
            }
        }
        Ok(())
    }
}
