//! User templates (HLSL 2021), work-graph record objects and `this`, checked from source.
mod common;
use common::{err, ok, run_with};
use hlslc_sema::tast::ExprKind;
use hlslc_sema::SemaOptions;

#[test]
fn struct_template_is_instantiated_per_argument_list() {
    let m = ok("template<typename T, int N = 2> struct Pair { T a[N]; T first() { return a[0]; } };
        float4 main() : SV_Target { Pair<float> p; Pair<int, 3> q; Pair<float, 2> r; p.a[1] = 2; q.a[2] = 1;
          return p.first() + q.a[2] + r.first(); }");
    let names: Vec<&str> = m.types.structs.iter().map(|s| s.name.as_str()).collect();
    assert!(names.contains(&"Pair<float, 2>"), "{names:?}");
    assert!(names.contains(&"Pair<int, 3>"), "{names:?}");
    // `Pair<float>` and `Pair<float, 2>` are one instance.
    assert_eq!(names.iter().filter(|n| n.starts_with("Pair<")).count(), 2, "{names:?}");
}

#[test]
fn function_template_arguments_are_deduced() {
    let m = ok("template<typename T> T twice(T v) { return v * 2; }
        template<typename T, uint N> vector<T, N> scale(vector<T, N> v, T s) { return v * s; }
        float4 main() : SV_Target { int i = twice(3); float f = twice(1.5f); float3 v = scale(float3(1, 2, 3), 2.0f);
          return float4(v, twice<float>(f) + i); }");
    let twice: Vec<String> = m.funcs.iter().filter(|f| f.name == "twice").map(|f| m.types.name(f.ret)).collect();
    assert_eq!(twice, vec!["int", "float"]);
    let scale = m.funcs.iter().find(|f| f.name == "scale").expect("scale instance");
    assert_eq!(m.types.name(scale.ret), "float3");
}

#[test]
fn template_errors_name_the_instantiation() {
    let r = err("template<typename T> T get(T v) { return v.missing; }
        float4 main() : SV_Target { return get(1.0f); }");
    assert!(r.contains("invalid swizzle 'missing' on vector type 'float'"), "{r}");
    // The failed instantiation is not reported again as a failed call.
    assert_eq!(r.matches("error:").count(), 1, "{r}");
    assert!(r.contains("note: in instantiation of function template specialization 'get<float>' requested here"), "{r}");
    let r = err("template<typename T> struct S { T x; }; float4 main() : SV_Target { S s; return 0; }");
    assert!(r.contains("use of class template 'S' requires template arguments"), "{r}");
    let r = err("template<typename T> T f(T a, T b) { return a; } float4 main() : SV_Target { return f(1, 2, 3); }");
    assert!(r.contains("no matching function for call to 'f'"), "{r}");
}

#[test]
fn recursive_instantiation_is_bounded() {
    let r = err("template<int N> struct R { R<N + 1> next; }; float4 main() : SV_Target { R<0> r; return 0; }");
    assert!(r.contains("recursive template instantiation exceeded maximum depth of 64"), "{r}");
}

#[test]
fn this_names_the_object() {
    let m = ok("struct S { float v; float get() { return this.v; } void set(float x) { this.v = x; } };
        float4 main() : SV_Target { S s; s.set(1); return s.get(); }");
    assert!(m.exprs.iter().any(|e| matches!(e.kind, ExprKind::This)));
}

#[test]
fn node_records_and_barriers() {
    let opts = SemaOptions { profile: "lib_6_8".into(), ..SemaOptions::default() };
    let src = "struct R { uint v; };
        [Shader(\"node\")] [NodeLaunch(\"broadcasting\")] [NodeDispatchGrid(1, 1, 1)] [NumThreads(1, 1, 1)]
        void node(DispatchNodeInputRecord<R> input, [MaxRecords(2)] NodeOutput<R> output, RWGroupNodeInputRecords<R> unused) {
          ThreadNodeOutputRecords<R> o = output.GetThreadNodeOutputRecords(1);
          o.Get().v = input.Get().v;
          o[0].v = 2;
          o.OutputComplete();
          Barrier(UAV_MEMORY, DEVICE_SCOPE | GROUP_SYNC);
        }";
    let o = run_with(src, &opts);
    assert!(o.module.is_some(), "{}", o.rendered);
    let r = run_with("struct R { uint v; }; void f(DispatchNodeInputRecord<R> input) { input.Get().v = 1; }", &opts);
    assert!(r.rendered.contains("expression is not assignable"), "{}", r.rendered);
}
