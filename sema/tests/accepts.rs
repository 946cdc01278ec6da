//! Programs DXC accepts that sema once rejected: each test pins one HLSL rule.
mod common;
use common::ok;
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
