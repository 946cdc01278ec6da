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

#[test]
fn byte_address_atomics_convert_their_values() {
    ok("RWByteAddressBuffer b; float4 main(float f : F) : SV_Target { uint o; b.InterlockedMin(0, f); b.InterlockedAdd(4, f, o); return o; }");
}

/// `any_int<>` converts a `float` argument to `int` as dxc does: its CodeGenSPIRV test
/// spirv.debug.opline.intrinsic reads `firstbithigh(sqrt(..) + v4i.x)` (a float) as `FindSMsb`,
/// the signed form, of the converted value. The `*_only` classes still refuse it.
#[test]
fn any_int_converts_a_float_argument_to_int() {
    let m = ok("float4 main(float f : F) : SV_Target { return firstbithigh(f); }");
    assert_eq!(first_intrinsic_params(&m), vec!["int".to_string()]);
    let m = ok("float4 main(float2 f : F) : SV_Target { return countbits(f).x; }");
    assert_eq!(first_intrinsic_params(&m), vec!["int2".to_string()]);
    let r = err("float4 main(float f : F) : SV_Target { return fma(f, f, f); }");
    assert!(r.contains("no matching function for call to 'fma'"), "{r}");
}

/// The result type of the first intrinsic call.
fn first_intrinsic_type(m: &hlslc_sema::tast::Module) -> String {
    let e = m.exprs.iter().find(|e| matches!(e.kind, ExprKind::Intrinsic { .. })).expect("an intrinsic call");
    m.types.name(e.ty)
}

#[test]
fn dollar_type_parameters_join_the_first_arguments_group() {
    // `$type1 max(numeric<> a, $type1 b)`: a scalar splats to the vector's shape.
    let m = ok("float4 main(float f : F, float4 v : V) : SV_Target { return max(f, v); }");
    assert_eq!(first_intrinsic_type(&m), "float4");
    // Vectors meet at the shorter one (with DXC's truncation warning).
    let m = ok("float4 main(float4 x : X) : SV_Target { float2 y = 2; return pow(x, y).xyxy; }");
    assert_eq!(first_intrinsic_type(&m), "float2");
}

#[test]
fn vector_times_larger_matrix_truncates_the_matrix() {
    // Not the scalar-matrix overload with the vector truncated to a scalar.
    let m = ok("float4x4 w; float4 main(float3 p : P) : SV_Target { return mul(p, w); }");
    assert_eq!(first_intrinsic_type(&m), "float4");
}

#[test]
fn store_deduces_its_template_argument_from_the_value() {
    let m = ok("RWByteAddressBuffer b; struct S { float a; int2 c; };
        float4 main() : SV_Target { S s = (S)0; b.Store(0, s); return 0; }");
    assert_eq!(first_intrinsic_params(&m), ["uint", "S"]);
    let m = ok("RWByteAddressBuffer b; float4 main() : SV_Target { b.Store(0, (int2)42); return 0; }");
    assert_eq!(first_intrinsic_params(&m), ["uint", "int2"]);
    // A result with no argument to deduce from keeps DXC's default.
    let m = ok("ByteAddressBuffer b; float4 main() : SV_Target { return b.Load(0); }");
    assert_eq!(first_intrinsic_type(&m), "uint");
}

#[test]
fn user_overloads_of_an_intrinsic_name_fall_back_to_the_intrinsic() {
    let m = ok("struct P { int x; }; int abs(P p) { return 42; }
        int4 main() : SV_Target { P p = { -1 }; return int4(abs(p), abs(-1), 0, 0); }");
    let intrinsic = m.exprs.iter().any(|e| matches!(e.kind, ExprKind::Intrinsic { .. }));
    let user = m.exprs.iter().any(|e| matches!(&e.kind, ExprKind::Call { func, .. } if m.func(*func).name == "abs"));
    assert!(intrinsic && user, "abs(p) calls the user function and abs(-1) the intrinsic");
    let r = err("int twice(int a) { return 2 * a; } float4 main() : SV_Target { return twice(1, 2); }");
    assert!(r.contains("no matching function for call to 'twice'"), "{r}");
}

#[test]
fn gec_makes_globals_writable_in_hlsl_2016() {
    let src = "float g; float4 main() : SV_Target { g = 2; return g; }";
    let gec = SemaOptions { backward_compat: true, hlsl_version: 2016, ..SemaOptions::default() };
    assert!(run_with(src, &gec).module.is_some());
    let r = err(src);
    assert!(r.contains("cannot assign to variable 'g'"), "{r}");
    let newer = SemaOptions { backward_compat: true, ..SemaOptions::default() };
    assert!(run_with(src, &newer).module.is_none(), "HLSL 2021 keeps globals read-only");
    let declared = "const float g = 1; float4 main() : SV_Target { g = 2; return g; }";
    assert!(run_with(declared, &gec).module.is_none(), "a declared const stays const");
}
