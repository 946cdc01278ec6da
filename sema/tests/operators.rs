//! HLSL 2021 operator overloading: `operator[]` and `operator()` on struct values.
mod common;
use common::{err, ok};
use hlslc_sema::tast::ExprKind;

/// Names of the user functions called in the module, in expression order.
fn called(m: &hlslc_sema::tast::Module) -> Vec<String> {
    m.exprs
        .iter()
        .filter_map(|e| match &e.kind {
            ExprKind::Call { func, this_arg: Some(_), .. } => Some(m.func(*func).name.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn subscript_and_call_operators_are_method_calls() {
    let m = ok("struct Grid { float v[4];
          float operator[](uint i) { return v[i]; }
          float operator()(uint i, uint j) { return v[i * 2 + j]; } };
        float4 main() : SV_Target { Grid g = (Grid)0; return g[1] + g(1, 0); }");
    assert_eq!(called(&m), ["operator[]", "operator()"]);
}

#[test]
fn struct_without_the_operator_is_still_an_error() {
    let r = err("struct P { float x; }; float4 main() : SV_Target { P p = (P)0; return p[0]; }");
    assert!(r.contains("subscripted value is not an array, matrix, or vector ('P')"), "{r}");
    let r = err("struct P { float x; }; float4 main() : SV_Target { P p = (P)0; return p(); }");
    assert!(r.contains("called object type 'P' is not a function"), "{r}");
}

#[test]
fn call_operator_arguments_are_checked() {
    let r = err("struct F { float operator()(float a) { return a; } }; float4 main() : SV_Target { F f; return f(1, 2); }");
    assert!(r.contains("no matching function for call to 'operator()'"), "{r}");
}
