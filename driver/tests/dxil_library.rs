//! DXIL libraries (`-T lib_6_x`): shaders as `!dx.entryPoints` records after the library's own,
//! resources as external globals with dxc's mangled names read with `createHandleForLib`,
//! unbound registers, exported functions and calls to functions only declared. The expected
//! text comes from dxc's tests (HLSLFileCheck `shader_targets/library`, `d3dreflect` lib
//! listings, `Sample_node.hlsl`, `register_args_lib.hlsl`), not from hlslc's output.

mod common;
use common::assert_in_order;
use hlslc::{compile, Options, Output, Profile};

fn lib(src: &str, profile: &str) -> String {
    common::dxil_text(src, profile, false)
}

fn refused(src: &str, profile: &str) -> String {
    common::dxil_errors(src, profile)
}

/// The `!N = !{...}` node that `line_start` begins (`!12 = !{...}`), by its number.
fn node<'a>(text: &'a str, id: &str) -> &'a str {
    let prefix = format!("{id} = ");
    text.lines().find_map(|l| l.strip_prefix(prefix.as_str())).unwrap_or_else(|| panic!("no node {id} in:\n{text}"))
}

#[test]
fn shaders_are_entries_after_the_library_record() {
    // dxc's lib_cs_entry3.hlsl: two compute shaders, each `!{fn, name, null, null, props}` with
    // props `!{i32 8, i32 5, i32 4, !{i32 8, i32 8, i32 1}, ...}` (kind 5, numthreads).
    let text = lib(
        r#"
[shader("compute")] [numthreads(8,8,1)]
void entry(uint2 tid : SV_DispatchThreadID, uint gidx : SV_GroupIndex) {}
[shader("pixel")]
float4 ps(float4 c : COLOR) : SV_Target { return c * 2; }
[shader("compute")] [numthreads(8,8,1)]
void entry2(uint2 tid : SV_DispatchThreadID) {}
"#,
        "lib_6_3",
    );
    assert_in_order(&text, &["define void @entry()", "define void @ps()", "define void @entry2()", "declare "]);
    assert!(text.contains("!{!\"lib\", i32 6, i32 3}"), "{text}");
    let eps = text.lines().find_map(|l| l.strip_prefix("!dx.entryPoints = !{")).expect("entry points");
    let ids: Vec<&str> = eps.trim_end_matches('}').split(", ").collect();
    assert_eq!(ids.len(), 4, "{eps}");
    // The library's own record first (no resources here), then the shaders by name.
    assert_eq!(node(&text, ids[0]), "!{null, !\"\", null, null, null}");
    assert!(node(&text, ids[1]).starts_with("!{void ()* @entry, !\"entry\", null, null, !"), "{text}");
    assert!(node(&text, ids[2]).starts_with("!{void ()* @entry2, !\"entry2\", null, null, !"), "{text}");
    assert!(node(&text, ids[3]).starts_with("!{void ()* @ps, !\"ps\", !"), "{text}");
    let props = node(&text, ids[1]).rsplit(", ").next().unwrap().trim_end_matches('}');
    let p = node(&text, props);
    assert!(p.starts_with("!{i32 8, i32 5, i32 4, !"), "{p}");
    let cs = p.split(", ").nth(3).unwrap();
    assert_eq!(node(&text, cs), "!{i32 8, i32 8, i32 1}");
    // The pixel shader: kind 0, then the automatic binding space (tag 5), 0 by default.
    let props = node(&text, ids[3]).rsplit(", ").next().unwrap().trim_end_matches('}');
    let p = node(&text, props);
    assert!(p.starts_with("!{i32 8, i32 0, i32 5, !"), "{p}");
    assert!(text.contains("@dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 0, i32 undef)"), "{text}");
}

#[test]
fn resources_are_external_globals_with_mangled_names() {
    // dxc's lib_resource.hlsl and the d3dreflect listings: the globals and the handle creation.
    let text = lib(
        r#"
Texture2D g_txDiffuse;
SamplerState g_samLinear;
RWByteAddressBuffer BAB : register(u1);
[shader("pixel")]
float4 test(float2 c : C) : SV_TARGET { BAB.Store(0, 1); return g_txDiffuse.Sample(g_samLinear, c); }
"#,
        "lib_6_3",
    );
    for g in [
        "@\"\\01?g_txDiffuse@@3V?$Texture2D@V?$vector@M$03@@@@A\" = external constant %\"class.Texture2D<vector<float, 4> >\", align 4",
        "@\"\\01?g_samLinear@@3USamplerState@@A\" = external constant %struct.SamplerState, align 4",
        "@\"\\01?BAB@@3URWByteAddressBuffer@@A\" = external constant %struct.RWByteAddressBuffer, align 4",
    ] {
        assert!(text.contains(g), "missing {g} in:\n{text}");
    }
    assert!(text.contains("= load %struct.SamplerState, %struct.SamplerState* @\"\\01?g_samLinear@@3USamplerState@@A\", align 4"), "{text}");
    assert!(text.contains("call %dx.types.Handle @dx.op.createHandleForLib.struct.RWByteAddressBuffer(i32 160, %struct.RWByteAddressBuffer %"), "{text}");
    // Records name the globals; without register() and -auto-binding-space, lower bound and
    // space are -1 (register_args_lib.hlsl: `T0t4294967295,space4294967295`).
    assert!(text.contains("!{i32 0, %struct.SamplerState* @\"\\01?g_samLinear@@3USamplerState@@A\", !\"g_samLinear\", i32 -1, i32 -1, i32 1, i32 0, null}"), "{text}");
    assert!(text.contains("!\"BAB\", i32 0, i32 1, i32 1, i32 11,"), "{text}");
    // The library record carries the resources and the shader flags (raw buffers: 0x10).
    assert!(text.contains("!{null, !\"\", null, !"), "{text}");
    assert!(text.contains("!{i32 0, i64 16}"), "{text}");
}

#[test]
fn only_unbound_resources_take_the_automatic_space() {
    // register_args_lib.hlsl: buf_a unbound, buf_b t1, buf_c space2 only, buf_d t2,space3.
    let src = r#"
Buffer buf_a;
Buffer buf_b : register(t1);
Buffer buf_c : register(space2);
Buffer buf_d : register(t2, space3);
[shader("compute")] [numthreads(1,1,1)]
void main() { RWBuffer<float> o; }
[shader("pixel")]
float4 ps() : SV_Target { return buf_a[0] + buf_b[0] + buf_c[0] + buf_d[0]; }
"#;
    let text = lib(src, "lib_6_3");
    assert!(text.contains("!\"buf_a\", i32 -1, i32 -1, i32 1,"), "{text}");
    assert!(text.contains("!\"buf_b\", i32 0, i32 1, i32 1,"), "{text}");
    assert!(text.contains("!\"buf_c\", i32 2, i32 -1, i32 1,"), "{text}");
    assert!(text.contains("!\"buf_d\", i32 3, i32 2, i32 1,"), "{text}");
    // auto_binding_space.hlsl (vs_6_0 -auto-binding-space 1): t0,space1 / t1 / t0,space2 / t2,space3.
    let mut o = Options::for_profile(Profile::parse("lib_6_3").unwrap());
    o.dxil_options.auto_binding_space = Some(1);
    let r = compile(src, "t.hlsl", &o, None);
    let Some(Output::Text(text)) = r.output else { panic!("{}", r.render_diagnostics()) };
    assert!(text.contains("!\"buf_a\", i32 1, i32 0, i32 1,"), "{text}");
    assert!(text.contains("!\"buf_b\", i32 0, i32 1, i32 1,"), "{text}");
    assert!(text.contains("!\"buf_c\", i32 2, i32 0, i32 1,"), "{text}");
    assert!(text.contains("!\"buf_d\", i32 3, i32 2, i32 1,"), "{text}");
    assert!(text.contains("= !{i32 8, i32 0, i32 5, !"), "{text}");
    assert!(text.contains("= !{i32 1}"), "the automatic space of the entries: {text}");
}

#[test]
fn shader_model_6_6_libraries_load_handles_and_annotate_them() {
    // Sample_node.hlsl: `load %dx.types.Handle, %dx.types.Handle* @"\01?s@@3USamplerComparisonState@@A"`,
    // createHandleForLib.dx.types.Handle, annotateHandle.
    let text = lib(
        r#"
SamplerComparisonState s;
Texture2D tex2d;
[shader("pixel")]
float ps(float2 uv : UV) : SV_Target { return tex2d.SampleCmp(s, uv, 0.5); }
"#,
        "lib_6_6",
    );
    assert!(text.contains("@\"\\01?s@@3USamplerComparisonState@@A\" = external constant %dx.types.Handle, align 4"), "{text}");
    assert!(text.contains("= load %dx.types.Handle, %dx.types.Handle* @\"\\01?tex2d@@3V?$Texture2D@V?$vector@M$03@@@@A\", align 4"), "{text}");
    assert!(text.contains("call %dx.types.Handle @dx.op.createHandleForLib.dx.types.Handle(i32 160, %dx.types.Handle %"), "{text}");
    assert!(text.contains("@dx.op.annotateHandle(i32 216, %dx.types.Handle %"), "{text}");
    assert!(text.contains("%dx.types.ResourceProperties { i32 2, i32 1033 }"), "{text}");
}

#[test]
fn exported_functions_keep_their_parameters() {
    // The d3dreflect lib listings: `define void @"\01?deriv_in_func@@YAXV?$vector@M$01@@@Z"(<2 x float> %uv)`
    // reading `%uv` with extractelement; `?IsInside@@YA_NII@Z`, `?foo@@YAMXZ` from other tests.
    let text = lib(
        r#"
RWByteAddressBuffer BAB : register(u1);
export void deriv_in_func(float2 uv) { BAB.Store2(0, asuint(uv * 2)); }
export bool IsInside(uint a, uint b) { return a < b; }
export float4 twice(float4 v, float4 w) { return v * 2 + w; }
float internal_helper() { return 3; }
[shader("compute")] [numthreads(1,1,1)] void main() { BAB.Store(8, asuint(internal_helper())); }
"#,
        "lib_6_3",
    );
    assert!(text.contains("define void @\"\\01?deriv_in_func@@YAXV?$vector@M$01@@@Z\"(<2 x float> %uv) #"), "{text}");
    assert!(text.contains("extractelement <2 x float> %uv, i32 0"), "{text}");
    assert!(text.contains("@\"\\01?IsInside@@YA_NII@Z\"(i32 %a, i32 %b) #"), "{text}");
    // A class result is `?A` + its name; the second `float4` parameter is back-reference 0 and
    // the vector template name back-reference 1 (`main@` is 0).
    assert!(text.contains("define <4 x float> @\"\\01?twice@@YA?AV?$vector@M$03@@V1@0@Z\"(<4 x float> %v, <4 x float> %w) #"), "{text}");
    assert!(text.contains("insertelement <4 x float> undef, float %"), "{text}");
    // Internal functions are inlined and not kept (6.3's default linkage is internal).
    assert!(!text.contains("internal_helper"), "{text}");
    assert_in_order(&text, &["define void @\"\\01?deriv_in_func", "?IsInside@@", "define <4 x float> @", "define void @main()"]);
    // Attributes: nounwind, and readnone for a function that touches no memory.
    assert!(text.contains("attributes #") && text.contains("{ nounwind readnone }"), "{text}");
}

#[test]
fn out_and_inout_parameters_are_pointers() {
    // addrspacecast_dbg_crash.ll: `void GlobalSet(inout float x, float val)` is
    // `?GlobalSet@@YAXAIAMM@Z` (a restrict reference, `AIA`, to float).
    let text = lib(
        r#"
export void GlobalSet(inout float x, float val) { x = val; }
export void scale(inout float4 v, out int n, float k) { v *= k; n = 3; }
"#,
        "lib_6_3",
    );
    assert!(text.contains("define void @\"\\01?GlobalSet@@YAXAIAMM@Z\"(float* %x, float %val)"), "{text}");
    assert!(text.contains("store float %val, float* %x, align 4"), "{text}");
    assert!(text.contains("(<4 x float>* %v, i32* %n, float %k)"), "{text}");
    assert!(text.contains("= load <4 x float>, <4 x float>* %v, align 4"), "{text}");
    assert!(text.contains("store <4 x float> %"), "{text}");
    assert!(text.contains("store i32 3, i32* %n, align 4"), "{text}");
}

#[test]
fn a_declared_function_is_called_not_inlined() {
    // lib_unresolved_func1.hlsl: `declare float @"\01?external_fn...`, `define float @"\01?lib1_fn...`.
    let text = lib(
        r#"
float external_fn();
export float lib1_fn() { return external_fn() + 1; }
"#,
        "lib_6_3",
    );
    assert!(text.contains("declare float @\"\\01?external_fn@@YAMXZ\"()"), "{text}");
    assert!(text.contains("call float @\"\\01?external_fn@@YAMXZ\"()"), "{text}");
    assert!(text.contains("define float @\"\\01?lib1_fn@@YAMXZ\"()"), "{text}");
}

#[test]
fn lib_6_x_keeps_functions_without_export() {
    // res_select5_x.hlsl: lib_6_x's default linkage is external (`define <4 x float> @"\01?test...`).
    let text = lib("float4 test(int i) { return i; }\nstatic float hidden() { return 1; }\n", "lib_6_x");
    assert!(text.contains("define <4 x float> @\"\\01?test@@YA?AV?$vector@M$03@@H@Z\"(i32 %i)"), "{text}");
    assert!(!text.contains("hidden"), "{text}");
    assert!(text.contains("!{!\"lib\", i32 6, i32 15}"), "{text}");
}

#[test]
fn what_libraries_do_not_support_yet_is_refused_by_name() {
    let ms = refused("[shader(\"amplification\")] [numthreads(1,1,1)] void a() { }\n", "lib_6_5");
    assert!(ms.contains("a amplification shader in a library is not supported"), "{ms}");
    let st = refused("struct S { float a; };\nexport float f(S s) { return s.a; }\n", "lib_6_3");
    assert!(st.contains("the library function `f` with the parameter `s` of type `S` (passed by pointer)"), "{st}");
}

#[test]
fn library_binary_is_a_container_with_rdat() {
    // -Fo: the library's container holds the RDAT part (see container_rdat.rs for its content).
    let mut o = Options::for_profile(Profile::parse("lib_6_3").unwrap());
    o.output_kind = hlslc::OutputKind::Binary;
    let r = compile("[shader(\"pixel\")] float4 ps() : SV_Target { return 1; }\n", "t.hlsl", &o, None);
    assert!(r.succeeded(), "{}", r.render_diagnostics());
    let out = r.output.expect("container bytes");
    let c = hlslc_dxil::container::reader::check_all(out.as_bytes()).expect("a valid container");
    let rdat = hlslc_dxil::container::reader::rdat(c.part("RDAT").expect("RDAT")).unwrap();
    assert_eq!(rdat.data.functions.len(), 1);
    assert_eq!((rdat.data.functions[0].name.as_str(), rdat.data.functions[0].shader_kind), ("ps", 0));
}
