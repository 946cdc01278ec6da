//! Shader stages beyond vertex/pixel/compute, end to end: HLSL → SPIR-V, each module checked by
//! `spirv-val` (skipped with a message when SPIRV-Tools is missing) and by what its disassembly
//! must contain, in order where order matters.

mod common;

use hlslc_spirv::target::TargetEnv;

/// Lowers `src` (entry `main`); the lowering error's message when it fails.
/// Sema's diagnostics for `src` (`main` as the entry point of `profile`).
fn sema_diagnostics(src: &str, profile: &str) -> (hlslc_frontend::SourceMap, hlslc_frontend::Diagnostics) {
    let mut sm = hlslc_frontend::SourceMap::new();
    let f = sm.add("test.hlsl", src);
    let mut diags = hlslc_frontend::Diagnostics::new();
    let toks = hlslc_frontend::pp::preprocess(&mut sm, f, &Default::default(), None, &mut diags);
    let tu = hlslc_frontend::parser::parse(&toks, &Default::default(), &mut diags);
    let opts = hlslc_sema::SemaOptions { profile: profile.into(), entry: "main".into(), ..Default::default() };
    let _ = hlslc_sema::analyze(&tu, &opts, &mut diags);
    (sm, diags)
}

fn compile(src: &str, profile: &str) -> Result<Vec<u32>, String> {
    common::lower(src, profile, TargetEnv::default()).map_err(|e| e.message)
}

/// Compiles, validates for `env`, and checks that `expect` appear in the disassembly in order.
fn check(src: &str, profile: &str, env: &str, expect: &[&str]) -> String {
    common::check_in_order(src, profile, TargetEnv::default(), env, expect)
}

#[test]
fn geometry_shader_streams_and_arrayed_inputs() {
    let src = r#"
struct VIn { float4 p : SV_Position; float2 uv : UV; };
struct GOut { float4 p : SV_Position; float2 uv : UV; uint layer : SV_RenderTargetArrayIndex; };

[maxvertexcount(6)]
[instance(2)]
void main(triangle VIn v[3], uint prim : SV_PrimitiveID, uint inst : SV_GSInstanceID,
          inout TriangleStream<GOut> s) {
    for (uint i = 0; i < 3; i++) {
        GOut o;
        o.p = v[i].p;
        o.uv = v[i].uv;
        o.layer = prim + inst;
        s.Append(o);
    }
    s.RestartStrip();
}
"#;
    let text = check(
        src,
        "gs_6_0",
        "vulkan1.0",
        &[
            "OpCapability Geometry",
            "OpEntryPoint Geometry %main \"main\"",
            "OpExecutionMode %main OutputVertices 6",
            "OpExecutionMode %main Invocations 2",
            "OpExecutionMode %main Triangles",
            "OpExecutionMode %main OutputTriangleStrip",
            "BuiltIn PrimitiveId",
            "BuiltIn InvocationId",
            "BuiltIn Layer",
            "%in_var_UV = OpVariable %_ptr_Input__arr_v2float_uint_3 Input",
            "OpEmitVertex",
            "OpEndPrimitive",
        ],
    );
    assert_eq!(text.matches("OpEmitVertex").count(), 1, "one Append, one OpEmitVertex");
}

#[test]
fn geometry_shader_needs_maxvertexcount() {
    let src = r#"
struct S { float4 p : SV_Position; };
void main(point S v[1], inout PointStream<S> s) { s.Append(v[0]); }
"#;
    // Sema rejects it (DXC's 'geometry entry point must have a valid maxvertexcount attribute').
    let (sm, diags) = sema_diagnostics(src, "gs_6_0");
    let text = diags.render(&sm);
    assert!(text.contains("geometry entry point must have a valid maxvertexcount attribute"), "{text}");
}

#[test]
fn library_has_one_entry_point_per_shader_function() {
    let src = r#"
RWStructuredBuffer<float> buf;
float scale(float x) { return x * 2.0; }

[shader("pixel")]
float4 shade(float4 c : COLOR) : SV_Target { return c * scale(1.0); }

[shader("compute")]
[numthreads(8, 1, 1)]
void fill(uint3 id : SV_DispatchThreadID) { buf[id.x] = scale((float)id.x); }

[shader("vertex")]
float4 place(float4 p : POSITION) : SV_Position { return p; }
"#;
    let text = check(
        src,
        "lib_6_3",
        "vulkan1.0",
        &[
            "OpEntryPoint Fragment %shade \"shade\"",
            "OpEntryPoint GLCompute %fill \"fill\"",
            "OpEntryPoint Vertex %place \"place\"",
            "OpExecutionMode %shade OriginUpperLeft",
            "OpExecutionMode %fill LocalSize 8 1 1",
        ],
    );
    // The helper both entries call is emitted once.
    assert_eq!(text.matches("%scale = OpFunction").count(), 1, "{text}");
}

#[test]
fn library_without_shader_functions_is_an_error() {
    let err = compile("float f(float x) { return x; }", "lib_6_3").expect_err("nothing to emit");
    assert!(err.contains("entry point"), "{err}");
}

#[test]
fn array_and_matrix_stage_variables_take_several_locations() {
    let src = r#"
struct VOut {
    float4 pos : SV_Position;
    nointerpolation float2 w[3] : WEIGHTS;
    float2x3 m : MAT;
    int id : ID;
    float last : LAST;
};
VOut main(float3 p : POSITION, float4 extra[2] : EXTRA, float after : AFTER) {
    VOut o;
    o.pos = float4(p, 1.0) + extra[1];
    o.w[0] = o.w[1] = o.w[2] = float2(after, 0.0);
    o.m = float2x3(1, 2, 3, 4, 5, 6);
    o.id = 7;
    o.last = 1.0;
    return o;
}
"#;
    check(
        src,
        "vs_6_0",
        "vulkan1.0",
        &[
            // Interpolation decorations first (integer outputs are flat), then the locations,
            // inputs before outputs, as DXC orders them.
            "OpDecorate %out_var_WEIGHTS Flat",
            "OpDecorate %out_var_ID Flat",
            "OpDecorate %in_var_POSITION Location 0",
            "OpDecorate %in_var_EXTRA Location 1",
            // EXTRA is two locations.
            "OpDecorate %in_var_AFTER Location 3",
            "OpDecorate %out_var_WEIGHTS Location 0",
            // WEIGHTS takes 3 locations, MAT one per row.
            "OpDecorate %out_var_MAT Location 3",
            "OpDecorate %out_var_ID Location 5",
            "OpDecorate %out_var_LAST Location 6",
            "%in_var_EXTRA = OpVariable %_ptr_Input__arr_v4float_uint_2 Input",
            "%out_var_MAT = OpVariable %_ptr_Output_mat2v3float Output",
        ],
    );
}

#[test]
fn struct_semantic_is_inherited_by_its_fields() {
    let src = r#"
struct Inner { float4x3 m; float4 v : IGNORED; };
struct VIn { float3 p : POSITION; Inner i : TEXCOORD4; };
float4 main(VIn v) : SV_Position { return v.i.v + float4(v.p, v.i.m[0].x); }
"#;
    check(
        src,
        "vs_6_0",
        "vulkan1.0",
        &[
            "OpDecorate %in_var_POSITION Location 0",
            // The matrix takes TEXCOORD4 and four locations; the vector is TEXCOORD8.
            "OpDecorate %in_var_TEXCOORD4 Location 1",
            "OpDecorate %in_var_TEXCOORD8 Location 5",
        ],
    );
}

#[test]
fn stage_structs_with_base_classes_read_bases_first() {
    let src = r#"
struct Base { float4 pos : SV_Position; };
struct Derived : Base { float2 uv : UV; };
struct Out : Base { float2 uv : UV; };
Out main(Derived d) { Out o; o.pos = d.pos; o.uv = d.uv; return o; }
"#;
    check(
        src,
        "vs_6_0",
        "vulkan1.0",
        &["OpDecorate %in_var_SV_Position Location 0", "OpDecorate %in_var_UV Location 1", "OpDecorate %out_var_UV Location 0"],
    );
}

/// `SV_Barycentrics` is the `BaryCoordKHR` built-in (`BaryCoordNoPerspKHR` when
/// `noperspective`), with `centroid`/`sample` as decorations of the built-in, and the third
/// coordinate rebuilt as `1 - x - y`, as DXC does (its semantic.barycentrics.ps.* tests).
#[test]
fn barycentrics_are_the_khr_built_ins() {
    for (modifiers, builtin, decoration) in [
        ("", "BaryCoordKHR", None),
        ("noperspective", "BaryCoordNoPerspKHR", None),
        ("centroid", "BaryCoordKHR", Some("Centroid")),
        ("noperspective sample", "BaryCoordNoPerspKHR", Some("Sample")),
    ] {
        let src = format!("float4 main({modifiers} float3 bary : SV_Barycentrics) : SV_Target {{ return float4(bary, 1.0); }}");
        let text = check(
            &src,
            "ps_6_1",
            "vulkan1.0",
            &[
                "OpCapability FragmentBarycentricKHR",
                "OpExtension \"SPV_KHR_fragment_shader_barycentric\"",
                &format!(" BuiltIn {builtin}\n"),
                "OpLoad %v3float",
                "OpCompositeExtract %float",
                "OpCompositeExtract %float",
                "OpFAdd %float",
                "OpFSub %float %float_1",
                "OpCompositeConstruct %v3float",
            ],
        );
        let var = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("OpDecorate ").and_then(|r| r.strip_suffix(&format!(" BuiltIn {builtin}"))))
            .expect("the built-in's decoration");
        let decorations: Vec<&str> =
            text.lines().filter_map(|l| l.trim().strip_prefix(&format!("OpDecorate {var} "))).collect();
        let expected: Vec<String> = [format!("BuiltIn {builtin}")].into_iter().chain(decoration.map(String::from)).collect();
        assert_eq!(decorations, expected, "{modifiers}: the decorations of {var}");
        assert!(text.contains(&format!("{var} = OpVariable %_ptr_Input_v3float Input")), "{text}");
    }
}

/// `GetAttributeAtVertex` outside a pixel shader gets DXC's error (its
/// intrinsics.get-attribute-at-vertex.non-pixel-shader test), at the call.
#[test]
fn get_attribute_at_vertex_outside_a_pixel_shader_is_an_error() {
    let src = "float4 main(nointerpolation float4 p : SV_Position) : SV_Position {\n    return GetAttributeAtVertex(p, 0);\n}\n";
    let err = common::lower(src, "vs_6_1", TargetEnv::default()).expect_err("a vertex shader");
    assert_eq!(err.message, "GetAttributeAtVertex only allowed in pixel shader");
    let span = err.span.expect("the call's span");
    assert_eq!(&src[span.start as usize..span.end as usize], "GetAttributeAtVertex(p, 0)");
}
