//! Which expressions designate storage (lvalue casts, assignments), and conversions of statement conditions.
mod common;
use common::{err, ok};
use hlslc_sema::tast::ExprKind;

/// The value category of every explicit cast in the module, in order.
fn explicit_casts(m: &hlslc_sema::tast::Module) -> Vec<(String, bool)> {
    m.exprs
        .iter()
        .filter_map(|e| match e.kind {
            ExprKind::Cast { explicit: true, .. } => Some((m.types.name(e.ty), e.lvalue)),
            _ => None,
        })
        .collect()
}

#[test]
fn narrowing_casts_of_lvalues_are_assignable() {
    let m = ok("struct B { float x; }; struct D : B { float y; };
        float4 main() : SV_Target {
          float4 v = 0; uint u = 0; float a[3] = { 1, 2, 3 }; float a2[2] = { 4, 5 }; D d = (D)0; B b = { 1 };
          (float2)v = 1; (float)v = 2; (int)u = 3; (float[2])a = a2; (B)d = b;
          return v; }");
    let c = explicit_casts(&m);
    for want in ["float2", "float", "int", "float [2]", "B"] {
        assert!(c.iter().any(|(t, l)| t == want && *l), "{want} not an lvalue cast: {c:?}");
    }
}

#[test]
fn widening_or_converting_casts_stay_rvalues() {
    let r = err("float4 main() : SV_Target { float2 v = 0; (float4)v.x = 1; return 0; }");
    assert!(r.contains("expression is not assignable"), "{r}");
    let r = err("float4 main() : SV_Target { float v = 0; (int)v = 1; return v; }");
    assert!(r.contains("expression is not assignable"), "{r}");
    let r = err("float4 main() : SV_Target { (float)(1.0 + 2.0) = 1; return 0; }");
    assert!(r.contains("expression is not assignable"), "{r}");
}

#[test]
fn lvalue_casts_keep_const_checks() {
    let r = err("static const float4 k = 1; float4 main() : SV_Target { (float2)k = 0; return k; }");
    assert!(r.contains("const"), "{r}");
}

#[test]
fn lvalue_cast_binds_to_inout_parameter() {
    ok("struct B { float x; }; struct D : B { float y; };
        void bump(inout B b) { b.x += 1; }
        float4 main() : SV_Target { D d = (D)0; bump((B)d); return d.x; }");
}

#[test]
fn assignment_is_an_lvalue() {
    ok("float4 main() : SV_Target { float a = 0, b = 1, c = 2; (a += b) = c; (a = b) = c; return a; }");
    let r = err("float4 main() : SV_Target { float a = 0; (a + 1) = 2; return a; }");
    assert!(r.contains("expression is not assignable"), "{r}");
}

#[test]
fn switch_on_a_float_converts_it_to_int() {
    let m = ok("float4 main(float f : F) : SV_Target { switch (f) { case 1: return 1; default: return 0; } }");
    let has = m.exprs.iter().any(|e| matches!(e.kind, ExprKind::Cast { kind: hlslc_sema::tast::CastKind::FloatToInt, .. }));
    assert!(has, "the condition is not converted to int");
    let r = err("float4 main(float2 f : F) : SV_Target { switch (f) { default: return 0; } }");
    assert!(r.contains("statement requires expression of integer type"), "{r}");
}
