//! spirv-opt flag names (`-Oconfig=`) to passes.

use hlslc_spirv_opt::{passes_from_flags, FlagError, Pass, PIPELINE};

#[test]
fn maps_the_flags_we_implement() {
    let p = passes_from_flags(&["--ssa-rewrite", "--if-conversion", "--eliminate-dead-code-aggressive"]).unwrap();
    assert_eq!(p, vec![Pass::Mem2Reg, Pass::IfConversion, Pass::Dce, Pass::RemoveUnused]);
    assert_eq!(passes_from_flags(&["-O"]).unwrap(), PIPELINE);
    assert_eq!(passes_from_flags(&["-Os"]).unwrap(), PIPELINE);
    let p = passes_from_flags(&["--inline-entry-points-exhaustive", "--eliminate-dead-branches", "--merge-blocks"]).unwrap();
    assert_eq!(p, vec![Pass::Inline, Pass::DeadBranches, Pass::MergeBlocks]);
}

#[test]
fn refuses_the_rest_naming_the_flag() {
    let e = passes_from_flags(&["--ssa-rewrite", "--test-unknown-flag"]).unwrap_err();
    assert_eq!(e, FlagError::Unknown("--test-unknown-flag".into()));
    assert_eq!(e.to_string(), "Unknown flag '--test-unknown-flag'. Use --help for a list of valid flags");
    let e = passes_from_flags(&["--loop-unroll-partial=2"]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the spirv-opt pass '--loop-unroll-partial' is not implemented in hlslc's optimizer: \
         partial loop unrolling is not implemented (--loop-unroll fully unrolls loops marked Unroll)"
    );
    assert_eq!(passes_from_flags(&["--loop-unroll"]), Ok(vec![hlslc_spirv_opt::Pass::Unroll]));
    assert!(matches!(passes_from_flags(&["--legalize-hlsl"]), Err(FlagError::NotImplemented(f, _)) if f == "--legalize-hlsl"));
    assert!(matches!(passes_from_flags(&["--scalar-replacement=100"]), Err(FlagError::NotImplemented(f, _)) if f == "--scalar-replacement"));
    assert!(matches!(passes_from_flags(&["ssa-rewrite"]), Err(FlagError::Form(_))));
    assert!(matches!(passes_from_flags(&["--merge-blocks=3"]), Err(FlagError::Argument(_))));
}
