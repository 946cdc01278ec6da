//! hlslc-spirv-opt: the SPIR-V optimizer behind `-O1`..`-O3`.
//!
//! It works on the finished, already legal module the emitter builds (`rspirv::dr::Module`), so
//! unlike the spirv-opt recipe dxc runs there is no legalization step. Each pass is its own
//! module with tests on small hand-written modules (`tests/`), and [`PIPELINE`] is the one place
//! that says in which order they run.
//!
//! dxc runs the same performance recipe at `-O1`, `-O2` and `-O3`; so does [`optimize`].

pub mod branch;
pub mod cfg;
pub mod chains;
pub mod consts;
pub mod cse;
pub mod dce;
pub mod debuginfo;
pub mod descsroa;
pub mod flags;
pub mod fixcall;
pub mod fold;
pub mod hash;
pub mod ids;
pub mod ifconv;
pub mod inline;
pub mod interp;
pub mod mem2reg;
pub mod memmodel;
pub mod merge;
pub mod offsets;
pub mod private;
pub mod returns;
pub mod scalar;
pub mod srem;
pub mod unroll;
pub mod unused;

use rspirv::dr::Module;

/// What the removal of unused globals must keep anyway.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Keep {
    /// `-fspv-preserve-bindings`: every resource variable with a descriptor set or binding.
    pub bindings: bool,
    /// `-fspv-preserve-interface`: every `Input`/`Output` variable an entry point lists.
    pub interface: bool,
}

/// The optimizer's options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub keep: Keep,
}

/// One pass of the pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// [`inline`]: calls replaced by the callee's body.
    Inline,
    /// [`private`]: `Private` variables only an entry point uses become its local variables.
    PrivateToLocal,
    /// [`chains`]: constant access chains into local variables to whole loads and stores.
    Chains,
    /// [`mem2reg`]: function-local variables to SSA values.
    Mem2Reg,
    /// [`branch`]: branches on constants, unreachable blocks.
    DeadBranches,
    /// [`merge`]: a block joins its only predecessor.
    MergeBlocks,
    /// [`fold`]: constant folding and propagation, copy propagation, composite extracts.
    Fold,
    /// [`cse`]: an instruction computing what a dominating one computed reuses its result.
    Cse,
    /// [`dce`]: unused results without effects, write-only local variables.
    Dce,
    /// [`unused`]: unused functions, globals, constants, types, names and decorations.
    RemoveUnused,
    /// [`offsets`]: `Offset` image operands that are now constants become `ConstOffset`.
    ConstOffsets,
    /// [`ifconv`]: phis joining the two sides of a selection become `OpSelect`s. Not in
    /// [`PIPELINE`]; run on request (`-Oconfig=--if-conversion`).
    IfConversion,
    /// [`fixcall`]: access-chain arguments of calls go through function-scope copies. Not in
    /// [`PIPELINE`]; run for `-fspv-fix-func-call-arguments` (and `-Oconfig=--fix-func-call-param`).
    FixCallArguments,
    /// [`unroll`]: loops marked `Unroll` with a constant trip count, fully unrolled.
    Unroll,
    /// [`interp`]: `InterpolateAt*` interpolants traced back to the stage inputs they were
    /// loaded from.
    InterpolateFixup,
    /// [`descsroa`]: arrays of descriptors split into one variable per element. Not in
    /// [`PIPELINE`]; [`pipeline`] adds it for `-fspv-flatten-resource-arrays`.
    DescriptorArrays,
}

impl Pass {
    /// The pass's name, as `-fspv-print-all` shows it.
    pub fn name(self) -> &'static str {
        match self {
            Pass::Inline => "inline",
            Pass::PrivateToLocal => "private-to-local",
            Pass::Chains => "convert-local-access-chains",
            Pass::Mem2Reg => "ssa-rewrite",
            Pass::DeadBranches => "eliminate-dead-branches",
            Pass::MergeBlocks => "merge-blocks",
            Pass::Fold => "fold",
            Pass::Cse => "redundancy-elimination",
            Pass::Dce => "eliminate-dead-code",
            Pass::RemoveUnused => "remove-unused",
            Pass::ConstOffsets => "const-offsets",
            Pass::IfConversion => "if-conversion",
            Pass::FixCallArguments => "fix-func-call-param",
            Pass::Unroll => "loop-unroll",
            Pass::InterpolateFixup => "interpolate-fixup",
            Pass::DescriptorArrays => "descriptor-array-scalar-replacement",
        }
    }
}

/// The passes `-O1`..`-O3` run, in order: inlining first, so that what went through pointer
/// parameters becomes local loads and stores; the functions inlining left uncalled removed (as
/// spirv-opt's dead-function elimination after inlining), so that `Private` variables (`static`
/// globals) that only the entry point uses become its locals, so that what they hold is propagated too; member-wise accesses to locals become whole ones so
/// that mem2reg promotes them; folding once values flow as SSA ids; interpolants traced back to
/// the stage inputs whose loaded values now reach them; `[unroll]` loops whose
/// induction values folding left constant, fully unrolled; branches on what folding made
/// constant, then straight-line blocks joined, and folding again over what that exposed (phis with
/// one incoming value); what dominating instructions already computed reused, and folded once
/// more (a construct of the extracts the reuse made identical); dead code after the passes that leave it; the module-level removal last,
/// when the functions no longer use what they did.
pub const PIPELINE: &[Pass] = &[
    Pass::Inline,
    Pass::RemoveUnused,
    Pass::PrivateToLocal,
    Pass::Chains,
    Pass::Mem2Reg,
    Pass::Fold,
    Pass::InterpolateFixup,
    Pass::Unroll,
    Pass::DeadBranches,
    Pass::MergeBlocks,
    Pass::Fold,
    Pass::Cse,
    Pass::Fold,
    Pass::ConstOffsets,
    Pass::Dce,
    Pass::RemoveUnused,
];

/// What `-O0` runs when the emitter's module needs legalizing (a combined image sampler, a
/// `static const` texel offset, an interpolant traced back to its input): [`PIPELINE`] without
/// the redundancy elimination, which dxc's legalization recipe does not run either (the -O0
/// CHECK lines expect every load where the source has it).
pub const LEGALIZATION: &[Pass] = &[
    Pass::Inline,
    Pass::RemoveUnused,
    Pass::PrivateToLocal,
    Pass::Chains,
    Pass::Mem2Reg,
    Pass::Fold,
    Pass::InterpolateFixup,
    Pass::Unroll,
    Pass::DeadBranches,
    Pass::MergeBlocks,
    Pass::Fold,
    Pass::ConstOffsets,
    Pass::Dce,
    Pass::RemoveUnused,
];

/// The `-O1`..`-O3` passes for these options: [`PIPELINE`], with `flatten_resource_arrays`
/// (`-fspv-flatten-resource-arrays`) the descriptor arrays split once unrolling and folding
/// made their indices constant (before the redundancy elimination, which then sees one load per
/// element variable).
pub fn pipeline(flatten_resource_arrays: bool) -> Vec<Pass> {
    let mut passes = PIPELINE.to_vec();
    if flatten_resource_arrays {
        let at = passes.iter().position(|&p| p == Pass::Cse).unwrap_or(passes.len());
        passes.insert(at, Pass::DescriptorArrays);
    }
    passes
}

/// Runs one pass; returns whether it changed the module.
pub fn run_pass(m: &mut Module, pass: Pass, opts: &Options) -> bool {
    match pass {
        Pass::Inline => inline::run(m),
        Pass::PrivateToLocal => private::run(m),
        Pass::Chains => chains::run(m),
        Pass::Mem2Reg => mem2reg::run(m),
        Pass::DeadBranches => branch::run(m),
        Pass::MergeBlocks => merge::run(m),
        Pass::Fold => fold::run(m),
        Pass::Cse => cse::run(m),
        Pass::Dce => dce::run(m),
        Pass::RemoveUnused => unused::run(m, &opts.keep),
        Pass::ConstOffsets => offsets::run(m),
        Pass::IfConversion => ifconv::run(m),
        Pass::FixCallArguments => fixcall::run(m),
        Pass::Unroll => unroll::run(m),
        Pass::InterpolateFixup => interp::run(m),
        Pass::DescriptorArrays => descsroa::run(m),
    }
}

/// Runs [`PIPELINE`] over the module.
pub fn optimize(m: &mut Module, opts: &Options) {
    optimize_with(m, PIPELINE, opts, &mut |_, _| {});
}

/// Runs `passes` over the module in order, calling `before` with each pass before it runs (for
/// `-fspv-print-all`).
pub fn optimize_with(m: &mut Module, passes: &[Pass], opts: &Options, before: &mut dyn FnMut(&Module, Pass)) {
    for &pass in passes {
        before(m, pass);
        run_pass(m, pass, opts);
    }
    debuginfo::finish(m);
}

pub use flags::{passes_from_flags, FlagError};

