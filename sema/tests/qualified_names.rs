//! Template specializations, members of template instances (`S<int>::v`), names qualified
//! through types, `using`, `auto`, and declarations outside their scope; checked from source.
mod common;
use common::{err, ok};
use hlslc_sema::tast::{ConstValue, Module};

/// The folded value of the constant global `name`.
fn const_of(m: &Module, name: &str) -> i64 {
    let v = m.vars.iter().find(|v| v.name == name).unwrap_or_else(|| panic!("no variable {name}"));
    match v.const_value {
        Some(ConstValue::Int(i)) => i,
        ref other => panic!("{name} is not an integer constant: {other:?}"),
    }
}

/// The length of the array variable `name`.
fn len_of(m: &Module, name: &str) -> String {
    let v = m.vars.iter().find(|v| v.name == name).unwrap_or_else(|| panic!("no variable {name}"));
    m.types.name(v.ty)
}

#[test]
fn explicit_specialization_replaces_the_primary_template() {
    let m = ok("template<typename T> struct Size { static const int v = 4; };
        template<> struct Size<int> { static const int v = 2; };
        static const int a = Size<float>::v;
        static const int b = Size<int>::v;
        float4 main() : SV_Target { return a + b; }");
    assert_eq!((const_of(&m, "a"), const_of(&m, "b")), (4, 2));
}

#[test]
fn partial_specialization_is_chosen_by_pattern() {
    let m = ok("template<typename T> struct Rows { static const int n = 1; };
        template<typename E, int R, int C> struct Rows<matrix<E, R, C> > { static const int n = R; };
        template<int A, int B> struct Pick { static const int v = 0; };
        template<int A> struct Pick<A, 7> { static const int v = A * 10; };
        static const int s = Rows<float>::n;
        static const int r = Rows<float3x2>::n;
        static const int p = Pick<4, 7>::v;
        static const int q = Pick<4, 6>::v;
        float4 main() : SV_Target { return s + r + p + q; }");
    assert_eq!(const_of(&m, "s"), 1);
    assert_eq!(const_of(&m, "r"), 3);
    assert_eq!(const_of(&m, "p"), 40);
    assert_eq!(const_of(&m, "q"), 0);
}

#[test]
fn recursive_templates_end_at_a_specialization() {
    let m = ok("template<int N> struct Fact { enum { value = N * Fact<N - 1>::value }; };
        template<> struct Fact<0> { enum { value = 1 }; };
        static int f4[Fact<4>::value];
        float4 main() : SV_Target { return f4[0]; }");
    assert_eq!(len_of(&m, "f4"), "int [24]");
}

#[test]
fn function_specialization_is_called_for_its_arguments() {
    let m = ok("template<typename T> int tag(T x) { return 1; }
        template<> int tag<float2>(float2 x) { return 2; }
        float4 main() : SV_Target { return tag(1.0f) + tag(float2(1, 2)); }");
    let tags = m.funcs.iter().filter(|f| f.name == "tag").count();
    assert_eq!(tags, 2, "one instance and one specialization");
}

#[test]
fn members_through_type_parameters_and_aliases() {
    let m = ok("struct Cat { typedef int Legs; static const int n = 4; };
        template<typename A> typename A::Legs legs(A a) { return A::n; }
        enum Dir : uint { North = 3, South };
        using D = Dir;
        static float d[D::South];
        float4 main() : SV_Target { Cat c; int l = legs(c); return l + d[0]; }");
    assert_eq!(len_of(&m, "d"), "float [4]");
    let legs = m.funcs.iter().find(|f| f.name == "legs").expect("legs instance");
    assert_eq!(m.types.name(legs.ret), "int");
}

#[test]
fn alias_templates_and_dependent_parameter_types() {
    let m = ok("template<class T, T v> struct Constant { static const T value = v; };
        template<bool b> using Flag = Constant<bool, b>;
        template<class, class> struct Two { static const int n = 2; };
        float4 main() : SV_Target { Flag<true> t; Two<int, float> w; return t.value ? w.n : 0; }");
    assert!(m.types.structs.iter().any(|s| s.name == "Constant<bool, 1>"));
}

#[test]
fn base_members_named_through_the_base_class() {
    ok("template<typename T, int N> struct Arr { T items[N]; };
        struct Big : Arr<float, 3> { float first() { return Arr<float, 3>::items[0]; } };
        struct Plain { float x; float get() { return Plain::x; } };
        float4 main() : SV_Target { Big b; Plain p; return b.first() + p.get(); }");
    let e = err("struct Other { float y; };
        struct Plain { float x; float get() { return Other::y; } };
        float4 main() : SV_Target { Plain p; return p.get(); }");
    assert!(e.contains("use of undeclared identifier 'Other::y'"), "{e}");
}

#[test]
fn using_directives_and_declarations() {
    let m = ok("namespace outer { typedef float real; namespace inner { real half_of(real a) { return a / 2; } } }
        using namespace outer;
        using inner::half_of;
        namespace other { using outer::real; }
        float4 main() : SV_Target { other::real r = 3; return half_of(r); }");
    let f = m.funcs.iter().find(|f| f.name == "half_of").expect("half_of");
    assert_eq!(f.qualified_name, "outer::inner::half_of");
    let e = err("namespace a { int x; } using namespace b; float4 main() : SV_Target { return 0; }");
    assert!(e.contains("'b' is not a namespace"), "{e}");
}

#[test]
fn auto_takes_the_initializer_type() {
    let m = ok("float4 main() : SV_Target { auto i = 1; auto f = 2.0; auto v = float3(1, 2, 3); return float4(v, i + f); }");
    let ty = |n: &str| m.types.name(m.vars.iter().find(|v| v.name == n).unwrap().ty);
    assert_eq!((ty("i").as_str(), ty("f").as_str(), ty("v").as_str()), ("int", "float", "float3"));
    let e = err("float4 main() : SV_Target { auto x; return 0; }");
    assert!(e.contains("declaration of variable 'x' with deduced type 'auto' requires an initializer"), "{e}");
}

#[test]
fn static_members_through_an_object() {
    let m = ok("struct K { static const int n = 5; static float shared; };
        float4 main() : SV_Target { K k; k.shared = 1; return k.n + k.shared; }");
    assert!(m.vars.iter().any(|v| v.name == "shared"));
}

#[test]
fn functions_declared_or_defined_outside_their_scope() {
    ok("namespace A { namespace B { float3 tint(); } }
        float3 A::B::tint() { return float3(1, 0, 0); }
        struct S { float twice(float v) { float helper(float x); return helper(v); } };
        float helper(float x) { return 2 * x; }
        float4 main() : SV_Target { S s; return float4(A::B::tint(), s.twice(1)); }");
    // The definition's attributes count for a prototype's entry point.
    let opts = hlslc_sema::SemaOptions { profile: "cs_6_0".into(), ..Default::default() };
    let o = common::run_with("void main(); [numthreads(1, 1, 1)] void main() {}", &opts);
    assert!(o.module.is_some(), "{}", o.rendered);
}

#[test]
fn enumerators_in_constant_contexts() {
    // An unsigned parameter times an enumerator is still an integer constant.
    let m = ok("template<uint n> struct Sq { enum { value = n * n }; };
        template<uint n> struct Twice { enum { value = n * Sq<1>::value * 2 }; };
        enum Pick { One = 1, Two = 2 };
        static const Pick chosen = true ? One : Two;
        static float a[Twice<3>::value];
        float4 main() : SV_Target { return a[0] + chosen; }");
    assert_eq!(len_of(&m, "a"), "float [6]");
    let v = m.vars.iter().find(|v| v.name == "chosen").unwrap();
    assert_eq!(m.types.name(v.ty), "Pick");
}

#[test]
fn alias_template_without_arguments_uses_defaults() {
    let m = ok("template<typename T, int N> struct Vec { T v[N]; };
        template<typename T = float> using Vec1 = Vec<T, 1>;
        Vec1 g;
        float4 main() : SV_Target { return g.v[0]; }");
    let g = m.vars.iter().find(|v| v.name == "g").unwrap();
    assert_eq!(m.types.name(g.ty), "Vec<float, 1>");
}

#[test]
fn out_of_line_static_member_definitions_initialize_the_member() {
    let m = ok("struct S { static const uint K; static uint n; uint f() { return K + n; } };
        static const uint S::K = 3;
        static uint S::n = 10;
        float4 main() : SV_Target { S s; return s.f(); }");
    // One variable per member, holding the definition's initializer (no second `K`).
    assert_eq!(m.vars.iter().filter(|v| v.name == "K").count(), 1);
    assert_eq!(const_of(&m, "K"), 3);
    let n = m.vars.iter().find(|v| v.name == "n").unwrap();
    assert!(n.init.is_some() && n.const_value.is_none());
    assert!(err("struct S { static const uint K; };
        static const uint S::J = 3;
        float4 main() : SV_Target { return 0; }").contains("no member named 'J' in 'S'"));
    assert!(err("struct S { static const uint K = 1; };
        static const uint S::K = 3;
        float4 main() : SV_Target { return 0; }").contains("redefinition of 'K'"));
    assert!(err("struct S { static const uint K; };
        static const float S::K = 3;
        float4 main() : SV_Target { return 0; }").contains("redefinition of 'K' with a different type"));
}
