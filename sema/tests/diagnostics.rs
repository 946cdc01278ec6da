//! Wording, location and notes of sema diagnostics that DXC's `-verify` tests compare (clang's
//! messages, notes as secondary labels at the declaration they point to).

mod common;
use common::{run, run_with};
use hlslc_frontend::diag::Severity;
use hlslc_sema::SemaOptions;

/// (severity, message, line of the primary label, [(note, line)]) of every diagnostic.
type Summary = Vec<(Severity, String, usize, Vec<(String, usize)>)>;

fn summary(src: &str, opts: &SemaOptions) -> Summary {
    let line = |span: hlslc_frontend::Span| src[..span.start as usize].matches('\n').count() + 1;
    let o = run_with(src, opts);
    o.diags
        .list
        .iter()
        .map(|d| {
            let at = d.labels.iter().find(|l| l.primary).map_or(0, |l| line(l.span));
            let notes = d.labels.iter().filter(|l| !l.primary).map(|l| (l.message.clone(), line(l.span))).collect();
            (d.severity, d.message.clone(), at, notes)
        })
        .collect()
}

fn lib() -> SemaOptions {
    SemaOptions { profile: "lib_6_3".into(), ..SemaOptions::default() }
}

fn errors(src: &str) -> Vec<String> {
    run(src).diags.list.iter().filter(|d| d.is_error()).map(|d| d.message.clone()).collect()
}

#[test]
fn assigning_a_const_variable_names_it_and_notes_its_declaration() {
    let src = "float4 main() : SV_Target {\n  const float c = 2;\n  c = 3;\n  return c;\n}\n";
    let s = summary(src, &SemaOptions::default());
    assert_eq!(
        s,
        vec![(
            Severity::Error,
            "cannot assign to variable 'c' with const-qualified type 'const float'".to_string(),
            3,
            vec![("variable 'c' declared const here".to_string(), 2)]
        )]
    );
}

#[test]
fn assigning_part_of_a_read_only_value_is_a_read_only_variable() {
    let src = "struct S { float3 x[2]; };\nStructuredBuffer<S> sb;\nfloat4 g;\n\
               float4 main() : SV_Target {\n  const S s = sb[0];\n  s.x[0] = 1;\n  g.x = 1;\n  sb[0].x[1].y = 2;\n  return 0;\n}\n";
    let e = errors(src);
    assert_eq!(e, vec!["read-only variable is not assignable"; 3], "{e:?}");
}

#[test]
fn input_patch_elements_are_read_only() {
    let src = "struct V { float4 p : SV_Position; };\n[maxvertexcount(1)]\n\
               void main(InputPatch<V, 2> pts, inout PointStream<V> o) { pts[0].p = 1; }\n";
    let s = summary(src, &SemaOptions { profile: "gs_6_0".into(), ..SemaOptions::default() });
    assert_eq!(s.len(), 1, "{s:?}");
    assert_eq!(s[0].1, "read-only variable is not assignable");
}

#[test]
fn constant_array_index_out_of_bounds_notes_the_array() {
    let src = "float4 main() : SV_Target {\n  int a[2];\n  a[2] = 0;\n  return a[-1];\n}\n";
    let s = summary(src, &SemaOptions::default());
    let note = vec![("array 'a' declared here".to_string(), 2)];
    assert_eq!(
        s,
        vec![
            (Severity::Error, "array index 2 is out of bounds".to_string(), 3, note.clone()),
            (Severity::Error, "array index -1 is out of bounds".to_string(), 4, note.clone()),
        ]
    );
    // Before HLSL 2018 it is clang's warning.
    let s = summary(src, &SemaOptions { hlsl_version: 2016, ..SemaOptions::default() });
    assert_eq!(s[0].0, Severity::Warning);
    assert_eq!(s[0].1, "array index 2 is past the end of the array (which contains 2 elements)");
    assert_eq!(s[1].1, "array index -1 is before the beginning of the array");
}

#[test]
fn recursion_names_the_root_and_notes_the_recursive_function() {
    let src = "struct S {\n  int f() { return f(); }\n};\nexport int main() {\n  S s;\n  return s.f();\n}\n";
    let s = summary(src, &lib());
    assert_eq!(
        s,
        vec![(
            Severity::Error,
            "recursive functions are not allowed: function 'main' calls recursive function 'S::f'".to_string(),
            2,
            vec![("recursive function located here:".to_string(), 2)]
        )]
    );
}

#[test]
fn short_circuit_operators_need_scalars_in_hlsl_2021() {
    let src = "int3 a; int3 b;\nint3 f() { return a && b; }\nint3 g() { return a || b; }\nint3 h() { return a ? a : b; }\n";
    let s = summary(src, &lib());
    let msgs: Vec<&str> = s.iter().map(|d| d.1.as_str()).collect();
    assert_eq!(
        msgs,
        vec![
            "operands for short-circuiting logical binary operator must be scalar, for non-scalar types use 'and'",
            "operands for short-circuiting logical binary operator must be scalar, for non-scalar types use 'or'",
            "condition for short-circuiting ternary operator must be scalar, for non-scalar types use 'select'",
        ]
    );
    // HLSL 2018 applies them per component.
    let o = run_with(src, &SemaOptions { hlsl_version: 2018, ..lib() });
    assert!(!o.diags.has_errors(), "{}", o.rendered);
}

#[test]
fn geometry_and_hull_entry_points_need_their_attributes() {
    let gs = "struct V { float4 p : SV_Position; };\nvoid main(point V v[1], inout PointStream<V> o) { o.Append(v[0]); }\n";
    let s = summary(gs, &SemaOptions { profile: "gs_6_0".into(), ..SemaOptions::default() });
    assert_eq!(s.iter().map(|d| (d.1.as_str(), d.2)).collect::<Vec<_>>(), vec![(
        "geometry entry point must have a valid maxvertexcount attribute",
        2
    )]);
    let hs = "struct P { float e[3] : SV_TessFactor; float i : SV_InsideTessFactor; };\n\
              struct C { float4 p : POSITION; };\nP pcf() { return (P)0; }\n\
              [domain(\"tri\")]\n[partitioning(\"integer\")]\n[outputcontrolpoints(3)]\n\
              C main(InputPatch<C, 3> v, uint id : SV_OutputControlPointID) { return v[id]; }\n";
    let s = summary(hs, &SemaOptions { profile: "hs_6_0".into(), ..SemaOptions::default() });
    let msgs: Vec<&str> = s.iter().map(|d| d.1.as_str()).collect();
    assert_eq!(
        msgs,
        vec![
            "hull entry point must have a valid patchconstantfunc attribute",
            "hull entry point must have a valid outputtopology attribute"
        ]
    );
}

#[test]
fn sv_target_index_and_patch_sizes_are_checked() {
    let e = errors("struct S { float4 t : SV_Target8; float4 u : SV_TARGET7; };\nS main() { return (S)0; }\n");
    assert_eq!(e, vec!["'SV_Target8' is defined with semantic index 8, but only values 0 through 7 are supported"]);
    let o = run_with(
        "struct C { float p : P; };\nC main(const OutputPatch<C, 0> patch) { return patch[0]; }\n",
        &SemaOptions { profile: "ds_6_0".into(), ..SemaOptions::default() },
    );
    let e: Vec<&str> = o.diags.list.iter().filter(|d| d.is_error()).map(|d| d.message.as_str()).collect();
    assert_eq!(e, vec!["OutputPatch element count must be greater than 0"]);
}

#[test]
fn wave_size_is_checked_on_entry_points() {
    let cs = |attr: &str, profile: &str| {
        let src = format!("{attr}\n[numthreads(1, 1, 1)]\nvoid main() {{}}\n{attr}\n[numthreads(1, 1, 1)]\nvoid other() {{}}\n");
        let o = run_with(&src, &SemaOptions { profile: profile.into(), ..SemaOptions::default() });
        o.diags.list.iter().filter(|d| d.is_error()).map(|d| d.message.clone()).collect::<Vec<_>>()
    };
    // Only the entry point (`main`) is checked.
    assert_eq!(cs("[WaveSize(13)]", "cs_6_6"), vec!["WaveSize arguments must be between 4 and 128 and a power of 2"]);
    assert_eq!(cs("[WaveSize(4, 8)]", "cs_6_6"), vec!["WaveSize only takes multiple arguments in Shader Model 6.8 or higher"]);
    assert_eq!(cs("[WaveSize(4, 16, 32)]", "cs_6_8"), vec!["Preferred WaveSize value 32 must be between 4 and 16"]);
    assert_eq!(cs("[WaveSize(16, 16)]", "cs_6_8"), vec!["Wave Size Range minimum and maximum are equal"]);
    assert!(cs("[WaveSize(4, 64, 32)]", "cs_6_8").is_empty());
}

#[test]
fn struct_operators_overload_and_free_operators_are_rejected() {
    let src = "struct S { float a; float operator+(float x) { return a + x; } };\n\
               float4 main(float4 p : SV_Position) : SV_Target {\n  S s; s.a = p.y;\n  p.x = s + 0.5;\n  return p;\n}\n";
    let o = run(src);
    assert!(!o.diags.has_errors(), "{}", o.rendered);
    let m = o.module.expect("module");
    assert!(m.exprs.iter().any(|e| matches!(e.kind, hlslc_sema::tast::ExprKind::Call { func, this_arg: Some(_), .. }
        if m.func(func).qualified_name == "S::operator+")));
    // No `operator+` takes an `S`: the operands are invalid.
    let e = errors(&src.replace("s + 0.5", "s + s"));
    assert_eq!(e, vec!["invalid operands to binary expression ('S' and 'S')"]);
    let e = errors("struct T {};\nT operator*(float l, T r) { return r; }\nfloat4 main() : SV_Target { return 0; }\n");
    assert_eq!(e, vec!["overloading non-member 'operator*' is not allowed"]);
}

#[test]
fn templates_do_not_take_strings_and_groupshared_parameters_warn_before_202x() {
    let e = errors("template<typename T> void take(T s) {}\nfloat4 main() : SV_Target { take(\"x\"); return 0; }\n");
    assert_eq!(e, vec!["string literals parameters are not supported in HLSL"]);
    let src = "void f(groupshared uint s) {}\ntemplate<typename T> T g(groupshared T a) { return a; }\n";
    let s = summary(src, &lib());
    let warnings: Vec<(&str, usize)> =
        s.iter().filter(|d| d.0 == Severity::Warning).map(|d| (d.1.as_str(), d.2)).collect();
    let w = "Support for groupshared parameter annotation not added until HLSL 202x";
    assert_eq!(warnings, vec![(w, 1), (w, 2)]);
    assert!(summary(src, &SemaOptions { hlsl_version: 2029, ..lib() }).iter().all(|d| d.0 != Severity::Warning));
}

#[test]
fn failed_instantiations_are_named_as_clang_does() {
    let src = "template<typename T> struct Foo { T x; float f() { return x.bad; } };\n\
               float4 main() : SV_Target { Foo<float> foo; return 0; }\n";
    let o = run(src);
    assert!(o.rendered.contains("note: in instantiation of template class 'Foo<float>' requested here"), "{}", o.rendered);
}

#[test]
fn numthreads_outside_the_group_size_range_is_ignored_with_a_warning() {
    let src = "[numthreads(0, 0, 0)]\nvoid main() {}\n[numthreads(64, 64, 1)]\nvoid other() {}\n";
    let s = summary(src, &SemaOptions { profile: "cs_6_0".into(), ..SemaOptions::default() });
    let got: Vec<(Severity, &str, usize)> = s.iter().map(|d| (d.0, d.1.as_str(), d.2)).collect();
    assert_eq!(
        got,
        vec![
            (Severity::Warning, "Group size of 0 (0 * 0 * 0) is outside of valid range [1..1024] - attribute will be ignored", 1),
            (Severity::Warning, "Group size of 4096 (64 * 64 * 1) is outside of valid range [1..1024] - attribute will be ignored", 3),
            (Severity::Error, "compute entry point must have a valid numthreads attribute", 2),
        ]
    );
}

#[test]
fn shader_attribute_of_another_stage_conflicts_with_the_profile() {
    let src = "[shader(\"pixel\")]\n[numthreads(1, 1, 1)]\nvoid main() {}\n";
    let s = summary(src, &SemaOptions { profile: "cs_6_0".into(), ..SemaOptions::default() });
    let got: Vec<(&str, usize)> = s.iter().map(|d| (d.1.as_str(), d.2)).collect();
    assert_eq!(
        got,
        vec![("entry type 'compute' from profile 'cs_6_0' conflicts with shader attribute type 'pixel' on entry function 'main'.", 1)]
    );
}

#[test]
fn operator_swizzle_and_member_array_rules() {
    let e = errors("struct A { int x; A operator++() { return this; } };\nfloat4 main() : SV_Target { return 0; }\n");
    assert_eq!(e, vec!["overloading 'operator++' is not allowed"]);
    let e = errors("float4 main(float4 v : V) : SV_Target { return v.xgba + v.rgbx; }\n");
    assert_eq!(e, vec!["vector component names cannot mix 'xyzw' and 'rgba'"; 2]);
    let e = errors("struct S { int a[]; float4 m; };\nfloat4 main() : SV_Target { return 0; }\n");
    assert_eq!(e, vec!["array dimensions of struct/class members must be explicit"]);
    // A swizzle's type is named without its typedef, as clang does.
    let e = errors("float4 main(float4 a : A) : SV_Target { float4 b = a; b += a.xyz; return b; }\n");
    assert_eq!(e, vec!["cannot convert from 'vector<float, 3>' to 'float4'"]);
}

#[test]
fn intrinsic_without_a_matching_overload_notes_the_argument_it_cannot_convert() {
    let src = "RWBuffer<uint64_t> buf;\nvoid f(float x, uint i) {\n  WaveActiveBitAnd(x);\n\
               InterlockedCompareStoreFloatBitwise(buf[i], x, x);\n}\n";
    let s = summary(src, &lib());
    let notes: Vec<(String, usize)> = s.iter().flat_map(|d| d.3.clone()).collect();
    assert_eq!(
        notes,
        vec![
            ("candidate function not viable: no known conversion from 'float' to 'unsigned int' for 1st argument".to_string(), 3),
            (
                "candidate function not viable: no known conversion from 'unsigned long long' to 'float &' for 1st argument"
                    .to_string(),
                4
            ),
        ],
        "{s:?}"
    );
    assert!(s[0].1.starts_with("no matching function for call to 'WaveActiveBitAnd'"), "{s:?}");
}

#[test]
fn node_entry_launch_types_limit_system_values_and_grid_sizes() {
    let src = "[Shader(\"node\")]\n[NodeLaunch(\"coalescing\")]\n[NumThreads(1,1,1)]\n\
               void a(uint i : SV_GroupIndex, uint3 t : SV_DispatchThreadID) {}\n\
               [Shader(\"node\")]\n[NodeLaunch(\"Thread\")]\n[NumThreads(1,1,1)]\nvoid b() {}\n\
               [Shader(\"node\")]\n[NodeLaunch(\"broadcasting\")]\n[NodeDispatchGrid(65535, 65535, 2)]\n[NumThreads(1,1,1)]\nvoid c() {}\n";
    let opts = SemaOptions { profile: "lib_6_8".into(), ..SemaOptions::default() };
    let s: Vec<(String, usize)> = summary(src, &opts).into_iter().map(|d| (d.1, d.2)).collect();
    assert_eq!(
        s,
        vec![
            ("Invalid system value semantic 'SV_DispatchThreadID' for launchtype 'Coalescing'".to_string(), 4),
            ("attribute 'NodeLaunch' must have one of these values: broadcasting,coalescing,thread".to_string(), 6),
            ("'NodeDispatchGrid' X * Y * Z product may not exceed 16,777,215 (2^24-1)".to_string(), 11),
        ]
    );
}

// packoffset: messages and lines as DXC's SemaHLSL/attributes/packoffset-invalid.hlsl and
// SemaHLSL/packreg.hlsl expect them.
#[test]
fn packoffset_outside_a_cbuffer_and_bad_registers_are_refused_with_dxc_wording() {
    let src = "float4 g : packoffset(c0);\n\
               cbuffer IllegalOffset {\n  float4 i1 : packoffset(t2);\n  float i2 : packoffset(c1.m);\n  float4 i3 : packoffset(c2.xy);\n}\n";
    let s: Vec<(String, usize)> = summary(src, &lib()).into_iter().map(|(_, m, l, _)| (m, l)).collect();
    assert_eq!(
        s,
        vec![
            ("packoffset is only allowed in a constant buffer".to_string(), 1),
            ("register type is unsupported - available types are 'b', 'c', 'i', 's', 't', 'u'".to_string(), 3),
            ("packoffset component should indicate offset with one of x, y, z, w, r, g, b, or a".to_string(), 4),
            ("packoffset component should indicate offset with one of x, y, z, w, r, g, b, or a".to_string(), 5),
        ]
    );
}

#[test]
fn packoffset_crossing_a_register_or_an_aggregate_off_its_start_is_not_valid() {
    let src = "struct ST { float s; };\ncbuffer CrossReg {\n  float4 c1 : packoffset(c0.y);\n  float2 c2 : packoffset(c1.w);\n\
               float3 ok1 : packoffset(c2.y);\n  ST a1 : packoffset(c3.y);\n  float a2[2] : packoffset(c4.w);\n\
               float2x1 m2 : packoffset(c12.z);\n  ST ok2 : packoffset(c13);\n  float ok3[2] : packoffset(C14.x);\n}\n";
    let s: Vec<(String, usize)> = summary(src, &lib()).into_iter().map(|(_, m, l, _)| (m, l)).collect();
    let bad = |l| ("register or offset bind not valid".to_string(), l);
    assert_eq!(s, vec![bad(3), bad(4), bad(6), bad(7), bad(8)]);
}

#[test]
fn packoffset_mixed_with_plain_members_warns_at_the_buffer() {
    let src = "cbuffer Mix\n{\n  float4 M1 : packoffset(c0);\n  float M2;\n}\ncbuffer NoMix { float a; float b; }\n\
               cbuffer AllPacked { float c : packoffset(c0); float d : packoffset(c0.y); }\n";
    let s = summary(src, &lib());
    assert_eq!(
        s,
        vec![(Severity::Warning, "cannot mix packoffset elements with nonpackoffset elements in a cbuffer".to_string(), 1, vec![])]
    );
}

#[test]
fn packoffset_overlap_names_both_members_for_dxil() {
    // Sizes by fxc's packing: S2 { float3; float2 } is 24 bytes (its float2 starts c1), so a
    // float at c1.y overlaps it and one at c1.z does not; declaration order does not matter.
    let src = "struct S2 { float3 a; float2 b; };\ncbuffer Overlap {\n  float4 o1 : packoffset(c0);\n  float2 o2 : packoffset(c0.z);\n}\n\
               cbuffer CB2 {\n  float f2f : packoffset(c3.y);\n  S2 s2f : packoffset(c2.x);\n  float f2p : packoffset(c3.z);\n}\n";
    let s: Vec<(String, usize)> = summary(src, &lib()).into_iter().map(|(_, m, l, _)| (m, l)).collect();
    assert_eq!(
        s,
        vec![("packoffset overlap between 'o2', 'o1'".to_string(), 4), ("packoffset overlap between 'f2f', 's2f'".to_string(), 7)]
    );
    // The SPIR-V back end checks overlap itself (in declaration order, with its own wording).
    let spirv = SemaOptions { spirv: true, ..lib() };
    assert!(summary(src, &spirv).is_empty());
}

#[test]
fn a_second_different_packoffset_overrides_the_first_with_a_warning() {
    let src = "cbuffer CB {\n  float4 a : packoffset(c10) : packoffset(c10);\n  float4 b : packoffset(c100) : SEM : packoffset(c2);\n}\n";
    let s: Vec<(String, usize)> = summary(src, &lib()).into_iter().map(|(_, m, l, _)| (m, l)).collect();
    assert_eq!(s, vec![("packoffset is overridden by another packoffset annotation".to_string(), 3)]);
}
