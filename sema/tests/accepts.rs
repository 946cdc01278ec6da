//! Programs DXC accepts that sema once rejected: each test pins one HLSL rule.
mod common;
use common::{err, ok};
use hlslc_sema::tast::ExprKind;

/// Names of the user functions called in the module, in expression order, with their owner's
/// parameter count so overloads can be told apart.
fn called(m: &hlslc_sema::tast::Module) -> Vec<String> {
    m.exprs
        .iter()
        .filter_map(|e| match e.kind {
            ExprKind::Call { func, .. } => {
                let f = m.func(func);
                Some(format!("{}/{}", f.name, m.types.name(f.ret)))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn a_derived_method_hides_base_methods_of_the_same_name() {
    let m = ok("struct B { int get() { return 1; } };
        struct D : B { float get() { return 2; } };
        float main() : SV_Target { D d; return d.get(); }");
    assert_eq!(called(&m), ["get/float"]);
    // The base method is still found where the derived struct has none of that name.
    let m = ok("struct B { int get() { return 1; } };
        struct D : B { float other() { return 2; } };
        float main() : SV_Target { D d; return d.get(); }");
    assert_eq!(called(&m), ["get/int"]);
}

fn with_hv(src: &str, hv: u32) -> common::Outcome {
    let opts = hlslc_sema::SemaOptions { hlsl_version: hv, ..Default::default() };
    common::run_with(src, &opts)
}

#[test]
fn aggregates_of_identical_layout_convert_implicitly_before_hlsl_2021() {
    let src = "struct A { float4 p; int i; }; struct B { float4 q; int j; };
        void take(B b) {}
        float4 main() : SV_Target { A a = (A)0; B b = a; take(a); int2 arr = 0; return b.q; }";
    let m = with_hv(src, 2018).module.expect("accepted with -HV 2018");
    assert!(m.exprs.iter().filter(|e| matches!(e.kind, ExprKind::Cast { kind: hlslc_sema::tast::CastKind::Flatten, .. })).count() >= 2);
    // HLSL 2021 casts unrelated structs strictly.
    let r = with_hv(src, 2021).rendered;
    assert!(r.contains("cannot convert from 'A' to 'B'"), "{r}");
    // A different layout never converts implicitly.
    let r = with_hv("struct A { float4 p; }; struct B { int4 q; };
        float4 main() : SV_Target { A a = (A)0; B b = a; return 0; }", 2018).rendered;
    assert!(r.contains("cannot convert from 'A' to 'B'"), "{r}");
}

#[test]
fn a_derived_struct_converts_to_its_base() {
    let m = ok("struct B { float x; }; struct D : B { float y; };
        float f(B b) { return b.x; }
        float main() : SV_Target { D d = (D)0; B b = d; return f(d) + b.x; }");
    assert_eq!(called(&m), ["f/float"]);
    let r = common::err("struct B { float x; }; struct D : B { float y; };
        float main() : SV_Target { B b = (B)0; D d = b; return d.y; }");
    assert!(r.contains("cannot convert from 'B' to 'D'"), "{r}");
}

#[test]
fn patch_length_is_a_constant_and_other_members_are_refused() {
    let src = "struct P { float4 p : POSITION; };
        uint f(InputPatch<P, 3> ip) { float a[ip.Length]; a[2] = 1; return ip.Length; }
        float4 main() : SV_Target { return 0; }";
    ok(src);
    let e = err(&src.replace("return ip.Length", "return ip.Count"));
    assert!(e.contains("member reference base type 'InputPatch<P, 3>' is not a structure or union"), "{e}");
}

#[test]
fn a_const_local_without_initializer_is_accepted() {
    ok("float4 main() : SV_Target { const float a; return a; }");
}

#[test]
fn min_and_max_of_constants_size_arrays() {
    let m = ok("float4 a[min(2, 3)]; float4 b[max(2, 3)]; static const uint c[max(4u, 1u)] = (uint[4])0;
        float4 main() : SV_Target { return a[0] + b[0] + c[0]; }");
    let ty = |n: &str| m.types.name(m.vars.iter().find(|v| v.name == n).unwrap().ty);
    assert_eq!((ty("a"), ty("b"), ty("c")), ("float4 [2]".to_string(), "float4 [3]".to_string(), "uint [4]".to_string()));
}
