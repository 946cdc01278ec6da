//! What hlslc does with each option of the [table](super::table): every option either changes the
//! output, is refused with an error that names it, or has no effect by design (with the reason).
//! Nothing is parsed and dropped.
//!
//! `tests/option_status.rs` walks this list: every [`Status::Implemented`] option has a case there
//! that compiles with and without it and finds the difference the option makes; every refused one
//! must make `hlslc` exit non-zero with `option '-X' is not supported: <reason>`.

use super::{CliError, CliErrorKind, Invocation};
use crate::options::Action;

/// The status of one option.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Changes the output (for both back ends where it applies to both).
    Implemented,
    /// Changes SPIR-V output; generating DXIL with it is refused for this reason.
    SpirvOnly(&'static str),
    /// Accepted and has no effect, for this reason (`-nologo`: hlslc prints no banner).
    NoEffect(&'static str),
    /// Refused with `option '-X' is not supported: <reason>`.
    Refused(&'static str),
}

use Status::*;

const CONTAINER: &str = "this part or variant of the DXIL container is not implemented (hlslc writes DXIL, SFI0, signatures, PSV0, STAT and HASH)";
const CONTAINER_ACTION: &str = "this operation on an existing DXIL container is not implemented (-dumpbin is)";
const DXIL_PASSES: &str = "hlslc's DXIL back end runs no LLVM pass pipeline to configure";
const SPV_DEBUG: &str = "it selects SPIR-V debug information; DXIL's is -Zi";
const FAST_MATH: &str = "floating-point optimization flags are not implemented";
const CLANG_TIMING: &str = "compile-time tracing is not implemented";

/// Every option of [`super::table::OPTIONS`] and [`super::HLSL2SPIRV_OPTIONS`], by name.
pub static STATUS: &[(&str, Status)] = &[
    // ---- common ----
    ("help", Implemented),
    ("version", Implemented),
    ("nologo", NoEffect("hlslc prints no copyright banner")),
    ("Qunused-arguments", NoEffect("hlslc never warns about unused arguments")),
    ("external", Refused("external compiler DLLs are a dxc (Windows COM) feature")),
    ("external-fn", Refused("external compiler DLLs are a dxc (Windows COM) feature")),
    ("skip-serialization", Refused("it asks the dxc COM API for an in-memory module")),
    // ---- compilation ----
    ("T", Implemented),
    ("E", Implemented),
    ("D", Implemented),
    ("I", Implemented),
    ("HV", Implemented),
    ("enable-16bit-types", Implemented),
    ("spirv", Implemented),
    ("P", Implemented),
    ("Fi", Implemented),
    ("fsyntax-only", Implemented),
    ("ast-dump", Implemented),
    ("ast-dump-parse", Implemented),
    ("ast-dump-implicit", Implemented),
    ("verify", Implemented),
    ("Fo", Implemented),
    ("Fc", Implemented),
    ("Fh", Implemented),
    ("Vn", Implemented),
    ("Fe", Implemented),
    ("Fd", Refused("it writes a PDB of DXIL debug information, which hlslc does not produce")),
    ("Fre", Implemented),
    ("reflect-json", Implemented),
    ("Frs", Implemented),
    ("Fsh", Implemented),
    // DXIL: the text with debug metadata; with -Fo the container's ILDB/ILDN parts.
    ("Zi", Implemented),
    ("Zs", Refused("it writes a PDB of DXIL debug information, which hlslc does not produce")),
    ("Zss", Refused(CONTAINER)),
    ("Zsb", Refused(CONTAINER)),
    ("Zpr", Implemented),
    ("Zpc", Implemented),
    ("WX", Implemented),
    ("no-warnings", Implemented),
    ("Vd", NoEffect("hlslc runs no validator on its output, so there is none to disable")),
    ("Vi", Refused("include-process tracing is not implemented")),
    ("H", Refused("include-process tracing is not implemented")),
    // DXIL: no GVN (high-level code); SPIR-V output is always the unoptimized, unlegalized code
    // -fcgl asks for (the optimizer is issue #14 item 3).
    ("fcgl", Implemented),
    ("Gec", Implemented),
    ("Ges", Refused("strict mode is not implemented")),
    ("Gfa", Refused("flow-control preferences are not implemented")),
    ("Gfp", Refused("flow-control preferences are not implemented")),
    ("Gis", Refused("IEEE strictness flags are not implemented")),
    ("denorm", Refused("denormal modes are not implemented")),
    ("auto-binding-space", Implemented),
    ("exports", Refused("library exports are not implemented")),
    ("export-shaders-only", Refused("library exports are not implemented")),
    // `internal` is what hlslc does (calls inlined, only shaders kept); with `external` a
    // library that has non-shader functions is refused by the DXIL back end, naming one.
    ("default-linkage", Implemented),
    ("rootsig-define", Implemented),
    ("force-rootsig-ver", Implemented),
    ("force_rootsig_ver", Implemented),
    ("binding-table-define", Refused("binding tables are not implemented")),
    ("validator-version", Implemented),
    ("select-validator", Refused("hlslc has no validator to select")),
    ("enable-payload-qualifiers", Refused("payload access qualifiers are not implemented")),
    ("disable-payload-qualifiers", Refused("payload access qualifiers are not implemented")),
    ("enable-lifetime-markers", Refused("lifetime markers are not implemented")),
    ("disable-lifetime-markers", Refused("lifetime markers are not implemented")),
    ("force-zero-store-lifetimes", Refused("lifetime markers are not implemented")),
    ("ignore-line-directives", Implemented),
    ("flegacy-macro-expansion", Refused("legacy (fxc) macro expansion is not implemented")),
    ("flegacy-resource-reservation", Refused("legacy resource reservation is not implemented")),
    ("fnew-inlining-behavior", Refused(DXIL_PASSES)),
    ("fdisable-loc-tracking", Refused("source location tracking cannot be turned off")),
    ("no-legacy-cbuf-layout", Refused("only the legacy cbuffer layout is implemented")),
    ("not_use_legacy_cbuf_load", Refused("only the legacy cbuffer layout is implemented")),
    ("pack-prefix-stable", NoEffect("prefix-stable signature packing is the default and the only packing")),
    ("pack_prefix_stable", NoEffect("prefix-stable signature packing is the default and the only packing")),
    ("pack-optimized", Refused("optimized signature packing is not implemented")),
    ("pack_optimized", Refused("optimized signature packing is not implemented")),
    ("res-may-alias", Refused("resource aliasing flags are not implemented")),
    ("res_may_alias", Refused("resource aliasing flags are not implemented")),
    ("all-resources-bound", Refused("the all-resources-bound flag is not implemented")),
    ("all_resources_bound", Refused("the all-resources-bound flag is not implemented")),
    ("structurize-returns", Refused(DXIL_PASSES)),
    ("preserve-intermediate-values", Refused(DXIL_PASSES)),
    ("precise-output", Refused("precise outputs by semantic are not implemented")),
    ("encoding", Refused("text outputs are always UTF-8")),
    ("enable-templates", Refused("templates follow -HV; the separate switch is not implemented")),
    ("enable-operator-overloading", Refused("operator overloading follows -HV; the separate switch is not implemented")),
    ("strict-udt-casting", Refused("strict user-defined type casting is not implemented")),
    ("recompile", Refused(CONTAINER_ACTION)),
    ("link", Refused("linking libraries is not implemented")),
    ("print-after-all", Refused(DXIL_PASSES)),
    ("print-before-all", Refused(DXIL_PASSES)),
    ("print-before", Refused(DXIL_PASSES)),
    ("print-after", Refused(DXIL_PASSES)),
    ("M", Implemented),
    ("MD", Implemented),
    ("MF", Implemented),
    ("ftime-report", Implemented),
    ("ftime-trace", Refused(CLANG_TIMING)),
    ("ftime-trace-EQ", Refused(CLANG_TIMING)),
    ("ftime-trace-granularity=", Refused(CLANG_TIMING)),
    ("fdiagnostics-show-option", Refused("printing option names with diagnostics is not implemented")),
    ("fno-diagnostics-show-option", Refused("printing option names with diagnostics is not implemented")),
    ("fdiagnostics-color", NoEffect("hlslc prints diagnostics without color")),
    ("fdiagnostics-color-EQ", NoEffect("hlslc prints diagnostics without color")),
    ("fcolor-diagnostics", NoEffect("hlslc prints diagnostics without color")),
    ("fno-color-diagnostics", NoEffect("hlslc prints diagnostics without color")),
    ("fdiagnostics-format=", Refused("diagnostics have one format")),
    ("fdiagnostics-show-category=", Refused("diagnostic categories are not implemented")),
    ("ferror-limit=", Refused("hlslc has no error limit")),
    ("fconstexpr-depth=", Refused("constant evaluation limits are not configurable")),
    ("fconstexpr-steps=", Refused("constant evaluation limits are not configurable")),
    ("fconstexpr-backtrace-limit=", Refused("constant evaluation limits are not configurable")),
    // ---- optimization ----
    ("O0", Implemented),
    ("O1", Implemented),
    ("O2", Implemented),
    ("O3", Implemented),
    ("Od", Implemented),
    ("Odump", Refused(DXIL_PASSES)),
    ("opt-enable", Refused(DXIL_PASSES)),
    // `gvn` changes the DXIL; the other pass names dxc knows name passes hlslc never runs, which
    // are therefore off as asked.
    ("opt-disable", Implemented),
    ("opt-select", Refused(DXIL_PASSES)),
    ("memdep-block-scan-limit", Refused(DXIL_PASSES)),
    ("ffinite-math-only", Implemented),
    ("fno-finite-math-only", Implemented),
    ("funsafe-math-optimizations", Refused(FAST_MATH)),
    ("fno-unsafe-math-optimizations", Refused(FAST_MATH)),
    ("fassociative-math", Refused(FAST_MATH)),
    ("fno-associative-math", Refused(FAST_MATH)),
    ("fno-reciprocal-math", Refused(FAST_MATH)),
    ("fsigned-zeros", Refused(FAST_MATH)),
    ("fhonor-nans", Refused(FAST_MATH)),
    ("fno-honor-nans", Refused(FAST_MATH)),
    ("fhonor-infinities", Refused(FAST_MATH)),
    ("fno-honor-infinities", Refused(FAST_MATH)),
    ("flimited-precision=", Refused(FAST_MATH)),
    // ---- utility ----
    ("Qstrip_reflect", Implemented),
    ("Qstrip_debug", Refused(CONTAINER)),
    ("Qembed_debug", Refused(CONTAINER)),
    ("Qstrip_priv", Refused(CONTAINER)),
    ("Qstrip_rootsignature", Implemented),
    ("Qsource_in_debug_module", Refused(CONTAINER)),
    ("Qpdb_in_private", Refused(CONTAINER)),
    ("Qkeep_reflect_in_dxil", Refused(CONTAINER)),
    ("Qstrip_reflect_from_dxil", Refused(CONTAINER)),
    ("setrootsignature", Refused(CONTAINER)),
    ("extractrootsignature", Implemented),
    ("verifyrootsignature", Refused(CONTAINER_ACTION)),
    ("setprivate", Refused(CONTAINER)),
    ("getprivate", Refused(CONTAINER_ACTION)),
    ("dumpbin", Implemented),
    ("Cc", Refused("listing decorations are not implemented")),
    ("Ni", Refused("listing decorations are not implemented")),
    ("No", Refused("listing decorations are not implemented")),
    ("Lx", Refused("listing decorations are not implemented")),
    // ---- SPIR-V ----
    ("fspv-target-env=", Implemented),
    ("fspv-extension=", Implemented),
    ("fspv-debug=", SpirvOnly(SPV_DEBUG)),
    ("fspv-generator=", Implemented),
    ("fspv-reflect", Implemented),
    ("fspv-flatten-resource-arrays", Implemented),
    ("fspv-entrypoint-name=", Implemented),
    ("fspv-use-vulkan-memory-model", Implemented),
    ("fspv-use-legacy-buffer-matrix-order", Refused("the legacy buffer matrix order is not implemented")),
    ("fspv-use-unknown-image-format", Implemented),
    ("fspv-use-descriptor-heap", Refused("descriptor heaps through SPV_EXT_descriptor_heap are not implemented")),
    ("fspv-preserve-bindings", Implemented),
    ("fspv-preserve-interface", Implemented),
    ("fspv-reduce-load-size", Refused("reducing load sizes (spirv-opt's --reduce-load-size) is not implemented in hlslc's optimizer")),
    ("fspv-fix-func-call-arguments", Implemented),
    ("fspv-enable-maximal-reconvergence", Implemented),
    ("fspv-print-all", Implemented),
    ("fspv-max-id", Implemented),
    ("fvk-stage-io-order=", Implemented),
    ("fvk-b-shift", Implemented),
    ("fvk-t-shift", Implemented),
    ("fvk-s-shift", Implemented),
    ("fvk-u-shift", Implemented),
    ("fvk-auto-shift-bindings", Implemented),
    ("fvk-bind-register", Implemented),
    ("vkbr", Implemented),
    ("fvk-bind-globals", Implemented),
    ("fvk-bind-resource-heap", Implemented),
    ("fvk-bind-sampler-heap", Implemented),
    ("fvk-bind-counter-heap", Implemented),
    ("fvk-invert-y", Implemented),
    ("fvk-use-dx-position-w", Implemented),
    ("fvk-use-gl-layout", Implemented),
    ("fvk-use-dx-layout", Implemented),
    ("fvk-use-scalar-layout", Implemented),
    ("fvk-support-nonzero-base-instance", Implemented),
    ("fvk-support-nonzero-base-vertex", Implemented),
    ("fvk-allow-rwstructuredbuffer-arrays", Refused("the switch is not implemented")),
    ("Oconfig=", SpirvOnly("spirv-opt passes configure the SPIR-V optimizer; hlslc's DXIL back end runs no pass pipeline to configure")),
    // ---- warnings ----
    ("W", Implemented),
    ("w", Implemented),
    // ---- hlsl2spirv ----
    ("o", Implemented),
];

/// The status of the option named `name` (as in the table: `T`, `fspv-target-env=`).
pub fn status(name: &str) -> Option<Status> {
    STATUS.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
}

/// Refused options that are refused whatever the action: they replace compilation, or change
/// what the front end, sema or the diagnostics do. The other refused options configure code
/// generation or its outputs, and are refused only when code is generated (`-fsyntax-only`,
/// `-verify`, `-P` and `-ast-dump` generate none).
const REFUSED_FOR_EVERY_ACTION: &[&str] = &[
    "external", "external-fn", "skip-serialization", "link", "recompile",
    "verifyrootsignature", "getprivate", "Vi", "H", "Ges", "encoding", "enable-templates",
    "enable-operator-overloading", "strict-udt-casting", "flegacy-macro-expansion", "ftime-trace", "ftime-trace-EQ",
    "ftime-trace-granularity=", "fdiagnostics-show-option", "fno-diagnostics-show-option", "fdiagnostics-format=",
    "fdiagnostics-show-category=", "ferror-limit=", "fconstexpr-depth=", "fconstexpr-steps=",
    "fconstexpr-backtrace-limit=",
];

/// The first option on the command line that this invocation cannot honor, as the error to
/// print: a refused option (when generating code, or always for those of
/// [`REFUSED_FOR_EVERY_ACTION`]); a SPIR-V-only option when generating DXIL.
pub fn refusal(inv: &Invocation) -> Option<CliError> {
    let compiling = inv.options.action == Action::Compile;
    for name in &inv.present {
        let why = match status(name) {
            Some(Refused(why)) if compiling || REFUSED_FOR_EVERY_ACTION.contains(&name.as_str()) => why,
            Some(SpirvOnly(why)) if !inv.options.spirv && compiling => why,
            _ => continue,
        };
        let shown = name.strip_suffix("-EQ").or_else(|| name.strip_suffix('=')).unwrap_or(name);
        return Some(CliError::new(CliErrorKind::Usage, format!("option '-{shown}' is not supported: {why}")));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::{table::OPTIONS, HLSL2SPIRV_OPTIONS};
    use super::*;

    #[test]
    fn refused_for_every_action_are_refused() {
        for n in REFUSED_FOR_EVERY_ACTION {
            assert!(matches!(status(n), Some(Refused(_))), "{n}");
        }
    }

    #[test]
    fn every_option_has_one_status() {
        let names: Vec<String> = OPTIONS.iter().chain(HLSL2SPIRV_OPTIONS).map(status_key).collect();
        for n in &names {
            assert_eq!(STATUS.iter().filter(|(s, _)| s == n).count(), 1, "option '{n}' needs exactly one status");
        }
        for (s, _) in STATUS {
            assert!(names.iter().any(|n| n == s), "status for '{s}', which is not an option");
        }
    }
}

/// The key an option has in [`STATUS`]: its table name, or its id where two options share a name
/// up to `=` (`ftime-trace=` is `ftime-trace-EQ`).
pub fn status_key(spec: &super::table::OptSpec) -> String {
    let id = spec.id();
    if id.ends_with("-EQ") {
        id
    } else {
        spec.name.to_string()
    }
}
