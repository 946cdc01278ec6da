//! Argument conversions at intrinsic calls.
mod common;
use common::{err, ok, run_with};
use hlslc_sema::tast::ExprKind;
use hlslc_sema::SemaOptions;

/// The parameter types chosen for the first intrinsic call in the module.
fn first_intrinsic_params(m: &hlslc_sema::tast::Module) -> Vec<String> {
    m.exprs
        .iter()
        .find_map(|e| match &e.kind {
            ExprKind::Intrinsic { args, .. } => Some(args.iter().map(|a| m.types.name(m.expr(*a).ty)).collect()),
            _ => None,
        })
        .expect("an intrinsic call")
}

#[test]
fn atomic_values_convert_but_the_destination_must_match() {
    // The value and the original convert to the destination's 32-bit integer overload.
    let m = ok("RWBuffer<int> b; float4 main() : SV_Target { float f = 2, o; InterlockedExchange(b[0], f, o); return o; }");
    let p = first_intrinsic_params(&m);
    assert_eq!(p[0], "int", "{p:?}");
    let r = err("RWBuffer<float> b; float4 main() : SV_Target { uint o; InterlockedOr(b[0], 1, o); return 0; }");
    assert!(r.contains("no matching function for call to 'InterlockedOr'"), "{r}");
}

#[test]
fn literal_values_take_a_64_bit_atomic() {
    let src = "RWStructuredBuffer<uint64_t> b; [numthreads(1,1,1)] void main() { uint64_t o; InterlockedExchange(b[0], 12, o); InterlockedAdd(b[0], 1); }";
    let opts = SemaOptions { profile: "cs_6_6".into(), ..SemaOptions::default() };
    let o = run_with(src, &opts);
    assert!(o.module.is_some(), "{}", o.rendered);
}
