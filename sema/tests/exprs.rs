mod common;
use common::{err, ok, run};
use hlslc_sema::tast::{CastKind, ExprKind, StmtKind};
use hlslc_sema::types::{Type, ScalarKind};
use hlslc_sema::IntrinsicOp;

/// All casts in the module, as (kind, result type name).
fn casts(m: &hlslc_sema::tast::Module) -> Vec<(CastKind, String)> {
    m.exprs
        .iter()
        .filter_map(|e| match e.kind {
            ExprKind::Cast { kind, .. } => Some((kind, m.types.name(e.ty))),
            _ => None,
        })
        .collect()
}

#[test]
fn entry_point_and_stage() {
    let m = ok("float4 main(float4 p : SV_Position) : SV_Target { return p; }");
    let e = m.entry.as_ref().expect("entry");
    assert_eq!(e.stage, hlslc_sema::tast::Stage::Pixel);
    assert_eq!(m.func(e.func).name, "main");
    assert_eq!(m.func(e.func).ret_semantic.as_deref(), Some("SV_Target"));
}

#[test]
fn missing_entry_point() {
    let r = err("float4 foo() : SV_Target { return 0; }");
    assert!(r.contains("missing entry point definition"), "{r}");
}

#[test]
fn undeclared_identifier_is_reported_once() {
    let r = err("float4 main() : SV_Target { float4 a = x + 1; return a * 2; }");
    assert!(r.contains("t.hlsl:1:40: error: use of undeclared identifier 'x'"), "{r}");
    assert_eq!(r.matches("error:").count(), 1, "{r}");
}

#[test]
fn splat_and_int_to_float_are_explicit_casts() {
    let m = ok("float4 main() : SV_Target { int i = 3; float4 v = i; return v; }");
    let c = casts(&m);
    assert!(c.contains(&(CastKind::IntToFloat, "float".into())), "{c:?}");
    assert!(c.contains(&(CastKind::Splat, "float4".into())), "{c:?}");
}

#[test]
fn literals_take_the_type_of_the_context() {
    let m = ok("float4 main() : SV_Target { float x = 1; return x * 2.0; }");
    let mut checked = 0;
    for e in m.exprs.iter().filter(|e| matches!(e.kind, ExprKind::Binary { .. } | ExprKind::Const(_) | ExprKind::Cast { .. })) {
        checked += 1;
        let k = m.types.component(e.ty);
        assert!(!k.is_some_and(|k| k.is_literal()), "literal type left in the module: {}", m.types.name(e.ty));
    }
    assert!(checked >= 3);
}

#[test]
fn truncation_warns() {
    let o = run("float2 main() : SV_Target { float4 v = 1; float2 r = v; return r; }");
    assert!(o.module.is_some(), "{}", o.rendered);
    assert!(o.rendered.contains("warning: implicit truncation of vector type"), "{}", o.rendered);
    let m = o.module.unwrap();
    assert!(casts(&m).contains(&(CastKind::VectorTruncate, "float2".into())));
}

#[test]
fn cannot_convert_vector_to_struct() {
    let r = err("struct S { float a; int b; }; float4 main() : SV_Target { float3 v = 0; S s = v; return 0; }");
    assert!(r.contains("cannot convert from 'float3' to 'S'"), "{r}");
}

#[test]
fn intrinsic_overloads() {
    let m = ok("float4 main(float4 p : P) : SV_Target { float3 n = normalize(p.xyz); float d = dot(n, n); return max(p, d) + abs(-2) + sin(1); }");
    let ops: Vec<IntrinsicOp> = m.exprs.iter().filter_map(|e| match e.kind { ExprKind::Intrinsic { op, .. } => Some(op), _ => None }).collect();
    assert!(ops.contains(&IntrinsicOp::Normalize) && ops.contains(&IntrinsicOp::Dot) && ops.contains(&IntrinsicOp::Max));
    let dot = m.exprs.iter().find(|e| matches!(e.kind, ExprKind::Intrinsic { op: IntrinsicOp::Dot, .. })).unwrap();
    assert_eq!(m.types.name(dot.ty), "float");
    let max = m.exprs.iter().find(|e| matches!(e.kind, ExprKind::Intrinsic { op: IntrinsicOp::Max, .. })).unwrap();
    assert_eq!(m.types.name(max.ty), "float4");
}

#[test]
fn unsigned_variant_of_intrinsic() {
    let m = ok("uint main(uint a : A, uint b : B) : SV_Target { return max(a, b); }");
    assert!(m.exprs.iter().any(|e| matches!(e.kind, ExprKind::Intrinsic { op: IntrinsicOp::Umax, .. })));
}

#[test]
fn mul_overloads_pick_shapes() {
    let m = ok("float4 main(float4 p : P) : SV_Target { float4x4 m = 0; float3x4 n = 0; float3 r = mul(n, p); return mul(p, m) + r.x; }");
    let tys: Vec<String> = m.exprs.iter().filter(|e| matches!(e.kind, ExprKind::Intrinsic { op: IntrinsicOp::Mul, .. })).map(|e| m.types.name(e.ty)).collect();
    assert_eq!(tys, vec!["float3", "float4"]);
}

#[test]
fn texture_methods() {
    let src = "Texture2D<float4> t : register(t1, space2); SamplerState s : register(s0);\n\
               float4 main(float2 uv : UV) : SV_Target { uint w, h; t.GetDimensions(w, h); return t.Sample(s, uv) + t.Load(int3(0, 0, 0)) + t[uint2(w, h)]; }";
    let m = ok(src);
    let sample = m.exprs.iter().find(|e| matches!(e.kind, ExprKind::Intrinsic { op: IntrinsicOp::MethodSample, .. })).unwrap();
    assert_eq!(m.types.name(sample.ty), "float4");
    let t = m.vars.iter().find(|v| v.name == "t").unwrap();
    assert_eq!(t.binding.register, Some(('t', 1)));
    assert_eq!(t.binding.space, 2);
}

#[test]
fn wrong_intrinsic_arguments() {
    let r = err("float4 main() : SV_Target { return sin(1, 2); }");
    assert!(r.contains("no matching function for call to 'sin'"), "{r}");
}

#[test]
fn user_overloads_rank_exact_first() {
    let m = ok("int f(int x) { return x; } float f(float x) { return x; }\n\
                float4 main() : SV_Target { int i = 1; float a = f(i); float b = f(1.5); return a + b; }");
    let calls: Vec<String> = m.exprs.iter().filter_map(|e| match e.kind { ExprKind::Call { func, .. } => Some(m.types.name(m.func(func).ret)), _ => None }).collect();
    assert_eq!(calls, vec!["int", "float"]);
}

#[test]
fn out_argument_needs_lvalue() {
    let r = err("void f(out float x) { x = 1; } float4 main() : SV_Target { f(1.0); return 0; }");
    assert!(r.contains("cannot bind non-lvalue argument"), "{r}");
}

#[test]
fn const_assignment_rejected() {
    let r = err("float4 main() : SV_Target { const float c = 1; c = 2; return c; }");
    assert!(r.contains("cannot assign to variable 'c'"), "{r}");
}

#[test]
fn recursion_rejected() {
    let r = err("int f(int x) { return f(x - 1); } float4 main() : SV_Target { return f(3); }");
    assert!(r.contains("recursive functions are not allowed"), "{r}");
}

#[test]
fn static_const_folds_array_size_and_numthreads() {
    let o = hlslc_sema::SemaOptions { profile: "cs_6_0".into(), ..Default::default() };
    let out = common::run_with("static const uint N = 2 * 4; groupshared float g[N + 1]; [numthreads(N, 1, 1)] void main() { g[0] = 1; }", &o);
    let m = out.module.unwrap_or_else(|| panic!("{}", out.rendered));
    assert_eq!(m.entry.as_ref().unwrap().numthreads, Some([8, 1, 1]));
    let g = m.vars.iter().find(|v| v.name == "g").unwrap();
    assert_eq!(m.types.name(g.ty), "float [9]");
}

#[test]
fn structs_fields_methods_and_enums() {
    let m = ok("enum E { A, B = 5, C }; struct S { float3 v; float get() { return v.x; } };\n\
                float4 main() : SV_Target { S s; s.v = float3(1, 2, 3); int e = C; return s.get() + e; }");
    assert!(m.exprs.iter().any(|e| matches!(e.kind, ExprKind::Const(hlslc_sema::tast::ConstValue::Int(6)))));
    assert!(m.funcs.iter().any(|f| f.qualified_name == "S::get" && f.this_type.is_some()));
}

#[test]
fn cbuffer_members_and_matrix_orientation() {
    let src = "#pragma pack_matrix(row_major)\ncbuffer C : register(b3) { float4x4 M; column_major float2x2 N; float k; };\n\
               float4 main() : SV_Target { return mul(float4(1, 1, 1, 1), M) * k + N[0].x; }";
    let m = ok(src);
    assert_eq!(m.cbuffers.len(), 1);
    assert_eq!(m.cbuffers[0].binding.register, Some(('b', 3)));
    let layout = |name: &str| match m.types.get(m.vars.iter().find(|v| v.name == name).unwrap().ty) {
        Type::Matrix { layout, .. } => *layout,
        _ => panic!(),
    };
    assert_eq!(layout("M"), hlslc_sema::types::MatrixLayout::RowMajor);
    assert_eq!(layout("N"), hlslc_sema::types::MatrixLayout::ColumnMajor);
}

#[test]
fn init_lists_flatten() {
    let m = ok("struct S { float2 a; int b; }; float4 main() : SV_Target { S s = { 1, 2, 3 }; float arr[] = { 1, 2, 3, 4 }; float4 v = { s.a, arr[0], 1 }; return v; }");
    let arr = m.vars.iter().find(|v| v.name == "arr").unwrap();
    assert_eq!(m.types.name(arr.ty), "float [4]");
    let r = err("float4 main() : SV_Target { float4 v = { 1, 2, 3 }; return v; }");
    assert!(r.contains("too few elements in vector initialization (expected 4 elements, have 3)"), "{r}");
}

#[test]
fn min_precision_and_16bit_types() {
    let m = ok("min16float4 main() : SV_Target { min16float x = 1; half h = 2; return x * h; }");
    let x = m.vars.iter().find(|v| v.name == "x").unwrap();
    assert!(matches!(m.types.get(x.ty), Type::Scalar(ScalarKind::Min16Float)));
    let h = m.vars.iter().find(|v| v.name == "h").unwrap();
    assert!(matches!(m.types.get(h.ty), Type::Scalar(ScalarKind::Float)), "half is 32-bit without -enable-16bit-types");
    let o = hlslc_sema::SemaOptions { enable_16bit: true, ..Default::default() };
    let out = common::run_with("half4 main() : SV_Target { min16float x = 1; return x; }", &o);
    let m = out.module.unwrap();
    let x = m.vars.iter().find(|v| v.name == "x").unwrap();
    assert!(matches!(m.types.get(x.ty), Type::Scalar(ScalarKind::Half)));
}

#[test]
fn loops_switch_and_control_errors() {
    let m = ok("float4 main(int k : K) : SV_Target { float a = 0; for (int i = 0; i < 4; ++i) { if (i == k) continue; a += i; }\n\
                switch (k) { case 1: a = 2; break; default: break; } return a; }");
    assert!(m.stmts.iter().any(|s| matches!(s.kind, StmtKind::Case(1))));
    let r = err("float4 main() : SV_Target { break; return 0; }");
    assert!(r.contains("'break' statement not in loop or switch statement"), "{r}");
}

#[test]
fn swizzles_and_matrix_elements() {
    let m = ok("float4 main() : SV_Target { float4 v = 0; float3x3 m = 0; v.zyx = m._m00_m11_m22; v.w = m[1][2]; return v.bgra; }");
    assert!(m.exprs.iter().any(|e| matches!(&e.kind, ExprKind::MatrixSwizzle { elements, .. } if elements.len() == 3)));
    let r = err("float4 main() : SV_Target { float2 v = 0; return v.z; }");
    assert!(r.contains("out of bounds"), "{r}");
}

#[test]
fn no_panic_on_deep_nesting() {
    let mut src = String::from("float4 main() : SV_Target { return ");
    for _ in 0..250 {
        src.push('(');
    }
    src.push('1');
    for _ in 0..250 {
        src.push(')');
    }
    src.push_str("; }");
    let _ = run(&src);
}

#[test]
fn one_component_vectors_splat_and_void_casts() {
    let m = ok("float3 main() : SV_Target { float1 a = 2; (void)a; float3 b = a; return b; }");
    let c = casts(&m);
    assert!(c.contains(&(CastKind::ToScalar, "float".into())), "{c:?}");
    assert!(c.contains(&(CastKind::Splat, "float3".into())), "{c:?}");
}

#[test]
fn constant_buffer_template_members() {
    let m = ok("struct S { float4 c; float4 get() { return c; } }; ConstantBuffer<S> cb : register(b0);\n\
                float4 main() : SV_Target { S s = cb; return cb.c + cb.get() + s.c; }");
    let c = casts(&m);
    assert!(c.contains(&(CastKind::FromBuffer, "S".into())), "{c:?}");
}

#[test]
fn vector_condition_with_scalar_operands_selects_splats() {
    // A vector condition selects per component before HLSL 2021 (2021 requires `select`).
    let src = "[numthreads(1,1,1)] void main() { int3 v = int3(1, 0, 2); int3 r = v ? 5 : 7; }";
    let opts = hlslc_sema::SemaOptions { hlsl_version: 2018, ..hlslc_sema::SemaOptions::default() };
    let m = common::run_with(src, &opts).module.expect("accepted in HLSL 2018");
    let t = m
        .exprs
        .iter()
        .find_map(|e| matches!(e.kind, ExprKind::Ternary { .. }).then(|| m.types.get(e.ty).clone()))
        .expect("a ternary");
    assert!(matches!(t, Type::Vector(_, 3)), "{t:?}");
}

/// A struct (or array) of numbers in a vector or matrix constructor gives its scalars in order,
/// as in an initializer list: dxc's spirv.debug.opline.composite compiles
/// `b = float2x2(1, 2, bar)` with `struct init { int first; float second; } bar` (its CHECK
/// lines read the `int` extracted from `bar`). A struct holding an object still cannot.
#[test]
fn a_struct_of_numbers_fills_a_constructor() {
    let m = ok("struct init { int first; float second; };\n\
                float4 main() : SV_Target { init bar = { 1, 2.5 }; float2x2 b = float2x2(1, 2, bar); float a[2] = { 3, 4 }; float4 v = float4(a, bar); return v + b[0].xyxy; }");
    let constructs: Vec<usize> = m
        .exprs
        .iter()
        .filter_map(|e| match &e.kind {
            hlslc_sema::tast::ExprKind::Construct { args } if m.types.name(e.ty) == "float2x2" || m.types.name(e.ty) == "float4" => Some(args.len()),
            _ => None,
        })
        .collect();
    assert!(constructs.contains(&4), "1, 2 and bar's two scalars: {constructs:?}");
    let r = err("struct R { Texture2D t; float f; }; float4 main() : SV_Target { R r; return float4(1, 2, 3, r); }");
    assert!(r.contains("cannot convert from 'R' to 'float4'"), "{r}");
}
