//! Rules of entry points and stage variables (`hlslc_sema::stage`): HLSL's, checked by
//! `analyze` when code is generated, and Vulkan's, checked by `check_vulkan_interface`.

mod common;
use common::run_with;
use hlslc_frontend::{parser, pp, Diagnostics, SourceMap};
use hlslc_sema::{analyze, SemaOptions};

fn opts(profile: &str) -> SemaOptions {
    SemaOptions { profile: profile.into(), ..SemaOptions::default() }
}

/// The rendered errors of `analyze` for `src` compiled for `profile` ("" when it passes).
fn hlsl_errors(profile: &str, src: &str) -> String {
    let o = run_with(src, &opts(profile));
    if o.module.is_some() {
        String::new()
    } else {
        o.rendered
    }
}

/// `analyze` then `check_vulkan_interface`; the rendered errors ("" when both pass).
fn vulkan_errors(profile: &str, src: &str, enable_16bit: bool) -> String {
    let mut sm = SourceMap::new();
    let f = sm.add("t.hlsl", src);
    let mut diags = Diagnostics::new();
    let toks = pp::preprocess(&mut sm, f, &pp::PpOptions::default(), None, &mut diags);
    let tu = parser::parse(&toks, &parser::ParseOptions::default(), &mut diags);
    let o = SemaOptions { enable_16bit, ..opts(profile) };
    let m = analyze(&tu, &o, &mut diags).unwrap_or_else(|| panic!("sema failed: {}", diags.render(&sm)));
    hlslc_sema::stage::check_vulkan_interface(&m, &mut diags);
    if diags.has_errors() {
        diags.render(&sm)
    } else {
        String::new()
    }
}

#[test]
fn duplicate_semantics_among_inputs_and_among_outputs() {
    let src = "struct In { float4 f : ABC; };\nstruct Out { float4 g : ABC; };\n\
               void main(int a : ABC, int b : ABC, In c, out int u : ABC, out int v : ABC, out Out w) {}\n";
    let r = hlsl_errors("vs_6_0", src);
    assert_eq!(r.matches("error: input semantic 'ABC' used more than once").count(), 2, "{r}");
    assert_eq!(r.matches("error: output semantic 'ABC' used more than once").count(), 2, "{r}");
    // One input and one output may share a semantic; an inout parameter is both, once each.
    assert_eq!(hlsl_errors("vs_6_0", "float4 main(float4 p : POS, inout float4 q : Q) : POS { return p; }"), "");
    // Different indices and different spellings are different semantics, as in DXC.
    assert_eq!(hlsl_errors("ps_6_0", "float4 main(float4 a : TEXCOORD0, float4 b : TEXCOORD1) : SV_Target { return a + b; }"), "");
    let r = hlsl_errors("ps_6_0", "struct S { float4 a : SV_Position; float4 b : SV_Position; };\nfloat4 main(S s) : SV_Target { return s.a; }");
    assert!(r.contains("error: input semantic 'SV_Position' used more than once"), "{r}");
}

#[test]
fn duplicate_semantics_are_not_checked_without_code_generation() {
    let src = "void main(int a : ABC, int b : ABC) {}";
    let o = run_with(src, &SemaOptions { require_entry: false, ..opts("vs_6_0") });
    assert!(o.module.is_some(), "{}", o.rendered);
}

#[test]
fn geometry_shader_primitive_types() {
    let two_inputs = "struct V { float4 p : SV_Position; };\n[maxvertexcount(3)]\n\
                      void main(triangle in uint i[3] : A, line in uint j[2] : B, inout PointStream<V> s) {}";
    let r = hlsl_errors("gs_6_0", two_inputs);
    assert!(r.contains("error: only one input primitive type can be specified in the geometry shader"), "{r}");
    let two_streams = "struct V { float4 p : SV_Position; };\n[maxvertexcount(3)]\n\
                       void main(point in uint i[1] : A, inout PointStream<V> s, inout LineStream<V> t) {}";
    let r = hlsl_errors("gs_6_0", two_streams);
    assert!(r.contains("error: only one output primitive type can be specified in the geometry shader"), "{r}");
    assert!(!r.contains("input primitive"), "{r}");
    // Several streams of one kind (multi-stream output), each with the same outputs.
    let ok = "struct V { float4 p : SV_Position; };\n[maxvertexcount(3)]\n\
              void main(point in uint i[1] : A, inout PointStream<V> s, inout PointStream<V> t) {}";
    assert_eq!(hlsl_errors("gs_6_0", ok), "");
}

#[test]
fn discard_only_in_pixel_shaders_where_reached() {
    let src = "void helper() { discard; }\nvoid unused() { discard; }\n[numthreads(1, 1, 1)]\nvoid main() { helper(); helper(); }";
    let r = hlsl_errors("cs_6_0", src);
    assert!(r.contains("t.hlsl:1:17: error: discard statement may only be used in pixel shaders"), "{r}");
    assert_eq!(r.matches("error:").count(), 1, "only the reached function, once: {r}");
    assert_eq!(hlsl_errors("ps_6_0", "void helper() { discard; }\nfloat4 main() : SV_Target { helper(); return 0; }"), "");
    // In a library each entry point has its own stage.
    let lib = "void helper() { discard; }\n[shader(\"pixel\")] float4 ps() : SV_Target { helper(); return 0; }\n\
               [shader(\"compute\")] [numthreads(1, 1, 1)] void cs() { helper(); }";
    let r = hlsl_errors("lib_6_3", lib);
    assert_eq!(r.matches("discard statement may only be used in pixel shaders").count(), 1, "{r}");
}

#[test]
fn interlocked_destination_is_groupshared_or_a_resource() {
    let src = "static uint counter;\ngroupshared uint shared_counter;\nRWBuffer<uint> buf;\n\
               [numthreads(1, 1, 1)]\nvoid main() {\n  uint local_v = 0, old;\n  InterlockedAdd(counter, 1, old);\n\
               InterlockedAdd(local_v, 1);\n  InterlockedAdd(shared_counter, 1);\n  InterlockedAdd(buf[0], 1, old);\n}";
    let r = hlsl_errors("cs_6_0", src);
    let msg = "using static variable or function scope variable in interlocked operation is not allowed";
    assert_eq!(r.matches(msg).count(), 2, "{r}");
    assert!(r.contains("t.hlsl:7:18: error"), "{r}");
}

#[test]
fn vulkan_position_of_a_vertex_shader() {
    let with = |ty: &str| format!("struct Inner {{ float4 v; }};\nstruct O {{ {ty} x; }};\nO main() : SV_Position {{ O o = (O)0; return o; }}");
    let msg = "SV_Position must be a 4-component 32-bit float vector or a composite which recursively contains only such a vector";
    for bad in ["float3", "double4", "int4", "float1x4", "float x2[4]; float"] {
        let r = vulkan_errors("vs_6_2", &with(bad), false);
        assert!(r.contains(msg), "{bad}: {r}");
    }
    for good in ["float4", "min16float4", "half4", "Inner"] {
        assert_eq!(vulkan_errors("vs_6_2", &with(good), false), "", "{good}");
    }
    // With 16-bit types, half and the min-precision floats are 16 bits wide.
    assert!(vulkan_errors("vs_6_2", &with("half4"), true).contains(msg));
    // Only a vertex shader's output is checked.
    assert_eq!(vulkan_errors("ps_6_0", "float4 main(float3 p : SV_Position) : SV_Target { return p.xyzz; }", false), "");
}

#[test]
fn vulkan_clip_distance_inner_coverage_and_integer_interpolation() {
    let clip = "struct O { int3 foo[2] : SV_ClipDistance0; float4 bar[2] : SV_ClipDistance1; float c : SV_CullDistance; };\nO main() { return (O)0; }";
    let r = vulkan_errors("vs_6_0", clip, false);
    assert!(r.contains("error: elements for SV_ClipDistance variable 'foo' must be scalar, vector, or array with float type"), "{r}");
    assert_eq!(r.matches("error:").count(), 1, "{r}");
    let r = vulkan_errors("ps_6_0", "float4 main(float c : SV_InnerCoverage) : SV_Target { return c; }", false);
    assert!(r.contains("error: SV_InnerCoverage must be of uint type."), "{r}");
    assert_eq!(vulkan_errors("ps_6_0", "float4 main(uint c : SV_InnerCoverage) : SV_Target { return c; }", false), "");
    let interp = "struct I { linear int a : A; nointerpolation int b : B; int c : C; centroid float d : D; sample uint2 e : E; };\n\
                  float4 main(I i) : SV_Target { return 0; }";
    let r = vulkan_errors("ps_6_0", interp, false);
    assert_eq!(r.matches("error: only nointerpolation mode allowed for integer input parameters in pixel shader").count(), 2, "{r}");
    // A vertex shader's integer outputs may carry any modifier (the pixel shader's input decides).
    assert_eq!(vulkan_errors("vs_6_0", "struct O { linear int a : A; float4 p : SV_Position; };\nO main() { return (O)0; }", false), "");
}

#[test]
fn vulkan_implicit_lod_sampling_needs_derivatives() {
    let src = "Texture2D t;\nSamplerState s;\nfloat4 sample_it(float2 uv) { return t.Sample(s, uv); }\n\
               float4 main(float2 uv : UV) : SV_Position { return sample_it(uv) + t.SampleLevel(s, uv, 0); }";
    let r = vulkan_errors("vs_6_0", src, false);
    assert!(r.contains("t.hlsl:3:38: error: sampling with implicit lod is only allowed in fragment and compute shaders"), "{r}");
    assert_eq!(r.matches("error:").count(), 1, "{r}");
    let ps = "Texture2D t;\nSamplerState s;\nfloat4 main(float2 uv : UV) : SV_Target { return t.Sample(s, uv); }";
    assert_eq!(vulkan_errors("ps_6_0", ps, false), "");
}

/// A mesh shader with its parameters and attribute list; `{}` holds the parameters.
fn mesh(topology: &str, params: &str) -> String {
    format!(
        "struct V {{ float4 p : SV_Position; }};\nstruct P {{ float4 c : COLOR; }};\nstruct Load {{ float4 x; }};\n\
         {topology}[numthreads(32, 1, 1)]\nvoid main({params}) {{}}"
    )
}

/// `hlsl_errors` with DXC's SPIR-V back end's rules and wording (`-spirv`).
fn spirv_errors(profile: &str, src: &str) -> String {
    let o = run_with(src, &SemaOptions { spirv: true, ..opts(profile) });
    if o.module.is_some() {
        String::new()
    } else {
        o.rendered
    }
}

#[test]
fn mesh_shader_outputs_and_attributes() {
    let good = "out vertices V v[64], out indices uint3 i[32], out primitives P p[32], in payload Load l, in uint t : SV_GroupIndex";
    assert_eq!(hlsl_errors("ms_6_5", &mesh("[outputtopology(\"triangle\")]\n", good)), "");
    assert_eq!(spirv_errors("ms_6_5", &mesh("[outputtopology(\"triangle\")]\n", good)), "");
    // (attribute, parameters, SPIR-V's error, DXIL's error); both report at the parameter's
    // name except where the error is about the function or the parameter's direction.
    let tri = "[outputtopology(\"triangle\")]\n";
    let cases = [
        ("", good, "mesh entry point must have a valid outputtopology attribute", "mesh entry point must have a valid outputtopology attribute"),
        ("[outputtopology(\"line\")]\n", good, "6:51: error: expected 1D array of uint2 type",
         "6:51: error: the element of out_indices array in a mesh shader whose output topology is line must be uint2"),
        ("[outputtopology(\"point\")]\n", "out vertices V v[64], out indices uint3 i[32]", "6:51: error: expected 1D array of uint type", ""),
        (tri, "out vertices V v[64], out indices uint i[32]", "6:50: error: expected 1D array of uint3 type",
         "6:50: error: the element of out_indices array must be uint2 for line output or uint3 for triangle output"),
        (tri, "out vertices V v[64], out indices int3 i[32]", "6:50: error: expected 1D array of uint3 type",
         "6:50: error: the element of out_indices array must be uint2 for line output or uint3 for triangle output"),
        (tri, "out indices uint3 i[32]", "expected vertices object declaration", ""),
        (tri, "out vertices V v[64]", "expected indices object declaration", ""),
        (tri, "out vertices V v[64], out vertices V w[64], out indices uint3 i[32]", "6:48: error: only one object with 'vertices' modifier is allowed",
         "6:48: error: multiple out vertices parameters not allowed"),
        (tri, "out vertices V v, out indices uint3 i[32]", "6:26: error: expected 1D array of indices/vertices/primitives object",
         "6:26: error: vertices output is not an constant-length array"),
        (tri, "out vertices V v[257], out indices uint3 i[32]", "", "6:26: error: max vertex count should not exceed 256"),
        (tri, "out vertices V v[64], out indices uint3 i[257], out primitives P p[32]", "6:6: error: array size of primitives object should match 'indices' object",
         "6:51: error: max primitive count should not exceed 256"),
        (tri, "in vertices V v[64], out indices uint3 i[32]", "6:11: error: 'vertices' object must be an out parameter",
         "6:11: error: 'vertices' object must be an out parameter"),
        (tri, "out vertices V v[64], out indices uint3 i[32], out payload Load l", "'payload' object must be an in parameter",
         "'payload' object must be an in parameter"),
        (tri, "out vertices V v[64], out indices uint3 i[32], out primitives P p[33]", "6:6: error: array size of primitives object should match 'indices' object",
         "6:75: error: max primitive count mismatch"),
        (tri, "out vertices V v[64], out indices uint3 i[32], in float3 u : USER_IN", "6:68: error: invalid usage of semantic 'USER_IN' in shader profile ms",
         "6:68: error: invalid usage of semantic 'USER_IN' in shader profile ms"),
    ];
    for (topology, params, spirv_msg, dxil_msg) in cases {
        for (r, msg) in [(spirv_errors("ms_6_5", &mesh(topology, params)), spirv_msg), (hlsl_errors("ms_6_5", &mesh(topology, params)), dxil_msg)] {
            if msg.is_empty() {
                assert_eq!(r, "", "{params}");
                continue;
            }
            assert!(r.contains(msg), "{params}: expected {msg}: {r}");
            // Two `vertices` arrays also repeat their semantics.
            let expected = if params.contains("V w[") { 2 } else { 1 };
            assert_eq!(r.matches("error:").count(), expected, "{params}: {r}");
        }
    }
    let r = hlsl_errors("ms_6_5", "[outputtopology(\"point\")]\nvoid main(out vertices float4 v[4] : SV_Position, out indices uint i[4]) {}");
    assert!(r.contains("error: mesh entry point must have a valid numthreads attribute"), "{r}");
}

#[test]
fn amplification_shader_inputs_and_payload() {
    let ok = "struct Load { float4 x; };\ngroupshared Load g;\n[numthreads(8, 1, 1)]\nvoid main(uint t : SV_GroupIndex) { DispatchMesh(1, 1, 1, g); }";
    assert_eq!(hlsl_errors("as_6_5", ok), "");
    assert_eq!(vulkan_errors("as_6_5", ok, false), "");
    // A local payload: DXC's DXIL back end copies it to groupshared memory, its SPIR-V back
    // end refuses it.
    let local = "struct Load { float4 x; };\n[numthreads(8, 1, 1)]\nvoid main() { Load l = (Load)0; DispatchMesh(1, 1, 1, l); }";
    assert_eq!(hlsl_errors("as_6_5", local), "");
    let r = vulkan_errors("as_6_5", local, false);
    assert!(r.contains("t.hlsl:3:55: error: expected groupshared object as argument to DispatchMesh()"), "{r}");
    let user = "[numthreads(8, 1, 1)]\nvoid main(uint t : SV_GroupIndex, float3 u : USER_OUT) {}";
    assert!(hlsl_errors("as_6_5", user).contains("2:42: error: invalid usage of semantic 'USER_OUT' in shader profile as"));
    let r = hlsl_errors("as_6_5", "void main() {}");
    assert!(r.contains("error: amplification entry point must have a valid numthreads attribute"), "{r}");
}

#[test]
fn vulkan_texture_load_offsets_are_constants() {
    let src = "Texture2D t;\nTexture2DMS<float4> ms;\nstatic const int2 K = int2(1, -1);\n\
               float4 main(float4 p : SV_Position) : SV_Target {\n  int2 k = int2(2, 0);\n  int2 v = int2(p.xy);\n\
               return t.Load(int3(p.xyz), v) + t.Load(int3(p.xyz), int2(1, 1)) + t.Load(int3(p.xyz), K) + t.Load(int3(p.xyz), k)\n\
               + t.Load(int3(p.xyz), -K) + ms.Load(int2(p.xy), 0, v) + ms.Load(int2(p.xy), int(p.w));\n}";
    let r = vulkan_errors("ps_6_0", src, false);
    assert_eq!(r.matches("error: Offsets to texture access operations must be immediate values.").count(), 2, "{r}");
    assert!(r.contains("t.hlsl:7:28: error") && r.contains("t.hlsl:8:52: error"), "{r}");
}

const HULL_TWO_PCFS: &str = r#"
struct CP { float4 p : POS; };
struct PC { float e[3] : SV_TessFactor; float i : SV_InsideTessFactor; };
PC pcf(InputPatch<CP, 3> ip) { PC o = (PC)0; return o; }
PC pcf(InputPatch<CP, 3> ip, uint id : SV_PrimitiveID) { PC o = (PC)1; return o; }
[domain("tri")]
[partitioning("fractional_odd")]
[outputtopology("triangle_cw")]
[outputcontrolpoints(3)]
[maxtessfactor(15.0)]
[patchconstantfunc("pcf")]
CP main(InputPatch<CP, 3> ip, uint id : SV_OutputControlPointID) { return ip[id]; }
"#;

/// The hull state is resolved once, in sema, with dxc's pick of the patch constant function: the
/// last definition of that name, with its warning and a note at the one picked.
#[test]
fn hull_state_and_the_last_patch_constant_function() {
    use hlslc_sema::entry::{HullTopology, Partitioning, TessDomain};
    let o = run_with(HULL_TWO_PCFS, &opts("hs_6_0"));
    let m = o.module.unwrap_or_else(|| panic!("{}", o.rendered));
    let ep = m.entry.clone().unwrap();
    assert_eq!(ep.domain, Some(TessDomain::Tri));
    let h = ep.hull.expect("hull state");
    assert_eq!(h.partitioning, Some(Partitioning::FractionalOdd));
    assert_eq!(h.output_topology, Some(HullTopology::TriangleCw));
    assert_eq!(h.output_control_points, Some(3));
    assert_eq!(h.max_tess_factor, Some(15.0));
    let pcf = m.func(h.patch_constant_func);
    assert_eq!((pcf.name.as_str(), pcf.params.len()), ("pcf", 2), "the second definition is picked");
    assert!(o.rendered.contains("warning: Multiple overloads of patchconstantfunc pcf."), "{}", o.rendered);
    assert!(o.rendered.contains("This overload was selected."), "{}", o.rendered);
    assert!(o.rendered.contains("t.hlsl:5:"), "the note points at line 5: {}", o.rendered);
    // One definition: no warning.
    let one = HULL_TWO_PCFS.replace("PC pcf(InputPatch<CP, 3> ip) { PC o = (PC)0; return o; }", "");
    let o = run_with(&one, &opts("hs_6_0"));
    assert!(o.module.is_some() && !o.rendered.contains("Multiple overloads"), "{}", o.rendered);
}

#[test]
fn bad_hull_attribute_values_and_a_missing_patch_constant_function() {
    let r = hlsl_errors("hs_6_0", &HULL_TWO_PCFS.replace("\"tri\"", "\"triangle\""));
    assert!(r.contains("error: attribute 'domain' must have one of these values: tri,quad,isoline"), "{r}");
    let r = hlsl_errors("hs_6_0", &HULL_TWO_PCFS.replace("\"fractional_odd\"", "\"odd\""));
    assert!(r.contains("error: attribute 'partitioning' must have one of these values: integer,fractional_even,fractional_odd,pow2"), "{r}");
    let r = hlsl_errors("hs_6_0", &HULL_TWO_PCFS.replace("patchconstantfunc(\"pcf\")", "patchconstantfunc(\"nope\")"));
    assert!(r.contains("error: Cannot find patchconstantfunc nope."), "{r}");
}

#[test]
fn geometry_and_mesh_state() {
    use hlslc_sema::entry::{GsInput, GsOutput, MeshTopology};
    let gs = "struct V { float4 p : SV_Position; };\n[maxvertexcount(4)] [instance(2)]\n\
              void main(line V v[2], inout TriangleStream<V> s) { s.Append(v[0]); }";
    let o = run_with(gs, &opts("gs_6_0"));
    let g = o.module.unwrap_or_else(|| panic!("{}", o.rendered)).entry.unwrap().geometry.expect("geometry state");
    assert_eq!((g.max_vertex_count, g.instance_count, g.input, g.output), (4, 2, Some(GsInput::Line), Some(GsOutput::Triangle)));
    let ms = "struct V { float4 p : SV_Position; };\n[numthreads(8, 1, 1)] [outputtopology(\"line\")]\n\
              void main(out vertices V v[6], out indices uint2 t[5]) { SetMeshOutputCounts(6, 5); }";
    let o = run_with(ms, &opts("ms_6_5"));
    let m = o.module.unwrap_or_else(|| panic!("{}", o.rendered));
    let s = m.entry.clone().unwrap().mesh.expect("mesh state");
    assert_eq!((s.topology, s.max_vertices, s.max_primitives, s.primitives, s.payload), (MeshTopology::Line, 6, 5, None, None));
    assert_eq!(m.var(s.vertices).name, "v");
}

/// `-E VSMain -T ps_6_0` on a vertex shader: its `SV_Position` result is no pixel shader output.
#[test]
fn semantics_their_signature_point_does_not_allow() {
    use hlslc_sema::stage::{check_signature_points, Backend};
    let errors = |profile: &str, src: &str, backend: Backend| {
        let o = run_with(src, &opts(profile));
        let m = o.module.unwrap_or_else(|| panic!("{}", o.rendered));
        let mut diags = Diagnostics::new();
        let sm = profile.split('_').skip(1).map(|x| x.parse().unwrap()).collect::<Vec<u32>>();
        check_signature_points(&m, (sm[0], sm[1]), backend, &mut diags);
        diags.list.iter().map(|d| d.message.clone()).collect::<Vec<_>>()
    };
    let vs = "float4 main(float4 p : POSITION) : SV_Position { return p; }";
    assert_eq!(errors("vs_6_0", vs, Backend::Spirv), Vec::<String>::new());
    assert_eq!(errors("ps_6_0", vs, Backend::Spirv), ["invalid usage of semantic 'SV_Position' in shader profile ps"]);
    assert_eq!(errors("ps_6_0", vs, Backend::Dxil), ["invalid semantic 'SV_Position' for ps 6.0"]);
    // SV_Target out of a vertex shader; SV_ShadingRate before 6.4; user semantics into a compute
    // shader (SPIR-V only: DXIL reports system values).
    let vt = "float4 main(float4 p : POSITION) : SV_Target { return p; }";
    assert_eq!(errors("vs_6_0", vt, Backend::Dxil), ["invalid semantic 'SV_Target' for vs 6.0"]);
    let rate = "struct O { float4 p : SV_Position; uint r : SV_ShadingRate; };\nO main() { O o = (O)0; return o; }";
    assert_eq!(errors("vs_6_3", rate, Backend::Dxil), ["invalid semantic 'SV_ShadingRate' for vs 6.3"]);
    assert_eq!(errors("vs_6_4", rate, Backend::Dxil), Vec::<String>::new());
    let cs = "[numthreads(1, 1, 1)] void main(uint3 t : MYTHREAD) {}";
    assert_eq!(errors("cs_6_0", cs, Backend::Spirv), ["invalid usage of semantic 'MYTHREAD' in shader profile cs"]);
    assert_eq!(errors("cs_6_0", cs, Backend::Dxil), Vec::<String>::new());
}

/// A ray tracing shader returns nothing (its results go through the payload): dxc's error at
/// the function, for each of the six stages; `void` ones are fine.
#[test]
fn ray_tracing_shaders_return_void() {
    for stage in ["raygeneration", "intersection", "anyhit", "closesthit", "miss", "callable"] {
        let lib = format!("struct P {{ float4 c; }};\n[shader(\"{stage}\")] float bad() {{ return 1.0; }}");
        let r = hlsl_errors("lib_6_3", &lib);
        assert!(r.contains(&format!("return type for '{stage}' shaders must be void")), "{stage}: {r}");
    }
    let ok = "struct P { float4 c; };\n[shader(\"miss\")] void miss_nop(inout P payload) {}";
    let r = hlsl_errors("lib_6_3", ok);
    assert!(!r.contains("must be void"), "{r}");
}

/// Compiling to SPIR-V, a plain global lands in `$Globals`: its initializer is ignored (dxc's
/// `-Wvk-ignored-features` warning) and `[[vk::binding]]` on it is dxc's error; cbuffer members
/// and resources get neither.
#[test]
fn globals_members_ignore_initializers_and_bindings() {
    use hlslc_frontend::diag::Diagnostics;
    use hlslc_frontend::parser::{parse, ParseOptions};
    use hlslc_frontend::pp::{preprocess, PpOptions};
    use hlslc_frontend::SourceMap;
    let run = |src: &str| {
        let mut sm = SourceMap::new();
        let f = sm.add("t.hlsl", src);
        let mut d = Diagnostics::new();
        let toks = preprocess(&mut sm, f, &PpOptions::default(), None, &mut d);
        let tu = parse(&toks, &ParseOptions::default(), &mut d);
        let opts = hlslc_sema::SemaOptions { profile: "vs_6_0".into(), entry: "main".into(), spirv: true, ..Default::default() };
        let _ = hlslc_sema::analyze(&tu, &opts, &mut d);
        d.list.iter().map(|x| x.message.clone()).collect::<Vec<_>>()
    };
    let msgs = run("[[vk::binding(10, 2)]] float4 gVec = 1.0;\ncbuffer C { float a = 1.0; };\nTexture2D t;\nfloat4 main() : A { return gVec + a; }\n");
    assert!(msgs.contains(&"variable 'gVec' will be placed in $Globals so initializer ignored".to_string()), "{msgs:?}");
    assert!(msgs.contains(&"variable 'gVec' will be placed in $Globals so cannot have vk::binding attribute".to_string()), "{msgs:?}");
    assert!(!msgs.iter().any(|m| m.contains("'a'") || m.contains("'t'")), "{msgs:?}");
}
