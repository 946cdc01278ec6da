//! spirv-opt's pass flags (`-Oconfig=--ssa-rewrite,--if-conversion,...` in dxc) mapped to our
//! passes. A flag names either a pass we have (it runs), a spirv-opt pass we do not have (refused,
//! naming it and why), or nothing spirv-opt knows (refused as unknown, in spirv-opt's words).

use crate::{Pass, PIPELINE};

/// Why a flag list cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FlagError {
    /// Neither `-O`, `-Os` nor `--name[=args]`.
    Form(String),
    /// No spirv-opt pass has this name (the flag as given, `--name`).
    Unknown(String),
    /// A spirv-opt pass hlslc's optimizer does not have: the flag and why.
    NotImplemented(String, &'static str),
    /// A pass that takes no argument was given one.
    Argument(String),
}

impl std::fmt::Display for FlagError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FlagError::Form(flag) => write!(
                f,
                "{flag} is not a valid flag.  Flag passes should have the form '--pass_name[=pass_args]'. \
                 Special flag names also accepted: -O and -Os."
            ),
            FlagError::Unknown(flag) => write!(f, "Unknown flag '{flag}'. Use --help for a list of valid flags"),
            FlagError::NotImplemented(flag, why) => {
                write!(f, "the spirv-opt pass '{flag}' is not implemented in hlslc's optimizer: {why}")
            }
            FlagError::Argument(flag) => write!(f, "the pass of '{flag}' takes no argument"),
        }
    }
}

const ALONE: &str = "hlslc removes unused functions, variables, constants and types together \
                     (--eliminate-dead-code-aggressive, -O), not one kind alone";
const LEGALIZE: &str = "hlslc's emitter writes legal SPIR-V (the -O recipe fully unrolls [unroll] loops, \
                        --loop-unroll alone)";
const PARTIAL: &str = "hlslc promotes every function-local variable at once (--ssa-rewrite)";

/// The flags we map, and the passes each runs.
fn ours(name: &str) -> Option<&'static [Pass]> {
    Some(match name {
        // dxc's -O1..-O3 recipe; spirv-opt's size recipe (-Os) is the same recipe here: it has
        // no pass that trades size for speed.
        "O" | "Os" => PIPELINE,
        "inline-entry-points-exhaustive" => &[Pass::Inline],
        "private-to-local" => &[Pass::PrivateToLocal],
        "convert-local-access-chains" => &[Pass::Chains],
        "ssa-rewrite" | "eliminate-local-multi-store" => &[Pass::Mem2Reg],
        "eliminate-dead-branches" => &[Pass::DeadBranches],
        "merge-blocks" => &[Pass::MergeBlocks],
        "if-conversion" => &[Pass::IfConversion],
        "fix-func-call-param" => &[Pass::FixCallArguments],
        "loop-unroll" => &[Pass::Unroll],
        "interpolate-fixup" => &[Pass::InterpolateFixup],
        "descriptor-array-scalar-replacement" => &[Pass::DescriptorArrays],
        "redundancy-elimination" | "local-redundancy-elimination" => &[Pass::Cse],
        // spirv-opt's ADCE also removes the globals, types and functions nothing uses.
        "eliminate-dead-code-aggressive" => &[Pass::Dce, Pass::RemoveUnused],
        // Folding, constant and copy propagation, composite extracts of known composites.
        "simplify-instructions" | "eliminate-insert-extract" => &[Pass::Fold],
        _ => return None,
    })
}

/// spirv-opt passes we do not have, with the reason, where it is more than "not implemented".
fn why_not(name: &str) -> Option<&'static str> {
    Some(match name {
        "legalize-hlsl" => LEGALIZE,
        "loop-unroll-partial" => "partial loop unrolling is not implemented (--loop-unroll fully unrolls loops marked Unroll)",
        "eliminate-dead-functions" | "eliminate-dead-variables" | "eliminate-dead-const" => ALONE,
        "eliminate-local-single-block" | "eliminate-local-single-store" => PARTIAL,
        "ccp" => "conditional constant propagation is not implemented (--simplify-instructions folds constants)",
        "compact-ids" => "renumbering ids is not implemented",
        "strip-debug" | "strip-nonsemantic" => "stripping debug information on request is not implemented",
        "upgrade-memory-model" => "the Vulkan memory model upgrade is not implemented",
        "reduce-load-size" => "reducing load sizes is not implemented",
        _ if SPIRV_OPT_PASSES.contains(&name) => "this pass is not implemented",
        _ => return None,
    })
}

/// The other pass names spirv-opt accepts (from its `RegisterPassFromFlag`).
const SPIRV_OPT_PASSES: &[&str] = &[
    "strip-atomic-counter-memory", "strip-reflect", "set-spec-const-default-value", "freeze-spec-const",
    "inline-entry-points-opaque", "combine-access-chains", "descriptor-scalar-replacement",
    "descriptor-composite-scalar-replacement", "propagate-line-info",
    "eliminate-redundant-line-info", "merge-return", "eliminate-dead-inserts", "eliminate-dead-members",
    "fold-spec-const-op-composite", "loop-unswitch", "scalar-replacement", "strength-reduction", "unify-const",
    "flatten-decorations", "cfg-cleanup", "local-redundancy-elimination", "loop-invariant-code-motion",
    "redundancy-elimination", "private-to-local", "remove-duplicates", "workaround-1209", "replace-invalid-opcode",
    "inst-bindless-check", "inst-desc-idx-check", "inst-buff-addr-check", "inst-buff-oob-check", "inst-debug-printf",
    "copy-propagate-arrays", "loop-fission", "loop-fusion", "vector-dce", "loop-peeling", "loop-peeling-threshold",
    "code-sink", "fix-storage-class", "generate-webgpu-initializers", "legalize-vector-shuffle",
    "split-invalid-unreachable", "decompose-initialized-variables", "graphics-robust-access", "wrap-opkill",
    "amd-ext-to-khr", "relax-float-ops", "convert-relaxed-to-half", "eliminate-dead-input-components",
    "eliminate-dead-input-components-safe", "eliminate-dead-output-stores", "analyze-live-input",
    "interpolate-fixup", "remove-unused-interface-variables", "replace-desc-array-access-using-var-index",
    "spread-volatile-semantics", "convert-to-sampled-image", "remove-dont-inline",
    "convert-to-fp16", "trim-capabilities", "switch-descriptorset", "invocation-interlock-placement",
    "modify-maximal-reconvergence", "struct-packing", "split-combined-image-sampler", "resolve-binding-conflicts",
    "canonicalize-ids", "fix-opextinst-opcodes",
];

/// The passes a list of spirv-opt flags asks for, in order; the first flag that cannot run is
/// the error.
pub fn passes_from_flags<S: AsRef<str>>(flags: &[S]) -> Result<Vec<Pass>, FlagError> {
    let mut passes = Vec::new();
    for flag in flags {
        let flag = flag.as_ref();
        let name = match flag {
            "-O" => "O",
            "-Os" => "Os",
            _ if flag.len() > 2 && flag.starts_with("--") => &flag[2..],
            _ => return Err(FlagError::Form(flag.to_string())),
        };
        let (name, args) = match name.split_once('=') {
            Some((n, a)) => (n, Some(a)),
            None => (name, None),
        };
        if let Some(p) = ours(name) {
            if args.is_some() {
                return Err(FlagError::Argument(flag.to_string()));
            }
            passes.extend_from_slice(p);
        } else if let Some(why) = why_not(name) {
            return Err(FlagError::NotImplemented(format!("--{name}"), why));
        } else {
            return Err(FlagError::Unknown(format!("--{name}")));
        }
    }
    Ok(passes)
}
