//! `GetAttributeAtVertex` (SPV_KHR_fragment_shader_barycentric): a pixel shader that uses it has
//! its `nointerpolation` inputs, parameters and fields as arrays of the three vertices' values
//! (`PerVertexKHR` stage variables), as DXC's intrinsics.get-attribute-at-vertex.* tests show.
//! Every module goes through `spirv-val`; expectations come from those tests' CHECK lines.

mod common;

use hlslc_spirv::target::TargetEnv;

fn check(src: &str, expect: &[&str]) -> String {
    common::check_in_order(src, "ps_6_1", TargetEnv::default(), "vulkan1.1", expect)
}

/// Every lowering error of `src` (`ps_6_1`, entry `main`), as (message, the source it points at).
fn errors(src: &str) -> Vec<(String, String)> {
    let mut sm = hlslc_frontend::SourceMap::new();
    let f = sm.add("test.hlsl", src);
    let mut diags = hlslc_frontend::Diagnostics::new();
    let toks = hlslc_frontend::pp::preprocess(&mut sm, f, &Default::default(), None, &mut diags);
    let tu = hlslc_frontend::parser::parse(&toks, &Default::default(), &mut diags);
    let opts = hlslc_sema::SemaOptions { profile: "ps_6_1".into(), entry: "main".into(), spirv: true, ..Default::default() };
    let m = hlslc_sema::analyze(&tu, &opts, &mut diags).expect("sema accepts it");
    assert!(!diags.has_errors(), "{}", diags.render(&sm));
    let lo = hlslc_spirv::lower::LowerOptions { entry_name: "main".into(), ..Default::default() };
    let errs = hlslc_spirv::lower::emit_module_all(&m, &lo).expect_err("lowering refuses it");
    errs.into_iter()
        .map(|e| {
            let at = e.span.map(|s| src[s.start as usize..s.end as usize].to_string()).unwrap_or_default();
            (e.message, at)
        })
        .collect()
}

/// Inputs, a struct's field and a function's parameter become `T[3]`; a plain read is vertex 0,
/// the intrinsic's index picks another vertex (a constant or a run-time `uint`), a component
/// of a parameter is read with one access chain, and a
/// `nointerpolation` argument passes all three vertices.
#[test]
fn nointerpolation_values_hold_the_three_vertices() {
    let src = r#"
struct PSIn { float2 uv : TEXCOORD0; nointerpolation float3 n : NORMAL; };
float3 pick(nointerpolation float3 c, uint v) { return GetAttributeAtVertex(c, v) + c + c.y; }
float4 main(PSIn i, nointerpolation float4 col : COLOR, uint k : K) : SV_Target {
    return float4(GetAttributeAtVertex(i.n, 2) + pick(i.n, k), GetAttributeAtVertex(col, 1).w) + col;
}
"#;
    let text = check(
        src,
        &[
            "OpCapability FragmentBarycentricKHR",
            "OpExtension \"SPV_KHR_fragment_shader_barycentric\"",
            "OpDecorate %in_var_TEXCOORD0 Location 0",
            "OpDecorate %in_var_NORMAL Location 1",
            "OpDecorate %in_var_COLOR Location 2",
            "OpDecorate %in_var_K Location 3",
            "OpDecorate %in_var_NORMAL PerVertexKHR",
            "OpDecorate %in_var_COLOR PerVertexKHR",
            "%PSIn = OpTypeStruct %v2float %_arr_v3float_uint_3",
            "%in_var_NORMAL = OpVariable %_ptr_Input__arr_v3float_uint_3 Input",
            "%in_var_COLOR = OpVariable %_ptr_Input__arr_v4float_uint_3 Input",
            // The entry point copies all three vertices into the parameters.
            "OpLoad %_arr_v3float_uint_3 %in_var_NORMAL",
            "OpLoad %_arr_v4float_uint_3 %in_var_COLOR",
            // GetAttributeAtVertex(i.n, 2): one access chain, as DXC writes it.
            "OpAccessChain %_ptr_Function_v3float %i %int_1 %uint_2",
            // pick(i.n, k): the whole array goes to the parameter's copy.
            "OpAccessChain %_ptr_Function__arr_v3float_uint_3 %i %int_1",
            "OpLoad %_arr_v3float_uint_3",
            "OpStore %param_var_c",
            "OpAccessChain %_ptr_Function_v4float %col %uint_1",
            "OpAccessChain %_ptr_Function_v4float %col %uint_0",
            // In pick: vertex `v`, then `c` itself (vertex 0).
            "%c = OpFunctionParameter %_ptr_Function__arr_v3float_uint_3",
            "OpAccessChain %_ptr_Function_v3float %c %",
            "OpAccessChain %_ptr_Function_v3float %c %uint_0",
            // `c.y`: vertex 0 and the component in one access chain.
            "OpAccessChain %_ptr_Function_float %c %uint_0 %int_1",
        ],
    );
    for var in ["%in_var_NORMAL", "%in_var_COLOR"] {
        assert!(!text.contains(&format!("OpDecorate {var} Flat")), "{var} is per-vertex, not flat:\n{text}");
    }
    assert!(!text.contains("OpDecorate %in_var_TEXCOORD0 PerVertexKHR"), "{text}");
    assert!(text.contains("OpDecorate %in_var_K Flat"), "an integer input stays flat:\n{text}");
}

/// A returned struct with per-vertex members writes vertex 0 of each to a plain output; a
/// `nointerpolation` struct makes its nested struct's leaves per-vertex too.
#[test]
fn outputs_and_nested_structs_of_per_vertex_members() {
    let src = r#"
struct Inner { float3 c : COLOR3; };
struct PSIn { nointerpolation float3 a : COLOR0; nointerpolation Inner pi : COLOR2; };
struct PSOut { nointerpolation float3 a : COLOR0; };
PSOut main(PSIn input) : SV_Target {
    PSOut r;
    r.a = GetAttributeAtVertex(input.a, 1) + GetAttributeAtVertex(input.pi.c, 2) + input.pi.c;
    return r;
}
"#;
    check(
        src,
        &[
            "OpDecorate %in_var_COLOR0 PerVertexKHR",
            "OpDecorate %in_var_COLOR2 PerVertexKHR",
            "%Inner = OpTypeStruct %_arr_v3float_uint_3",
            "%PSIn = OpTypeStruct %_arr_v3float_uint_3 %Inner",
            "%PSOut = OpTypeStruct %_arr_v3float_uint_3",
            "%in_var_COLOR0 = OpVariable %_ptr_Input__arr_v3float_uint_3 Input",
            "%out_var_SV_Target = OpVariable %_ptr_Output_v3float Output",
            // The wrapper writes vertex 0 of the returned member.
            "OpCompositeExtract %_arr_v3float_uint_3",
            "OpCompositeExtract %v3float",
            "OpStore %out_var_SV_Target",
            "OpAccessChain %_ptr_Function_v3float %input %int_0 %uint_1",
            "OpAccessChain %_ptr_Function_v3float %input %int_1 %int_0 %uint_2",
            "OpAccessChain %_ptr_Function_v3float %input %int_1 %int_0 %uint_0",
            "OpAccessChain %_ptr_Function_v3float %r %int_0 %uint_0",
        ],
    );
}

/// DXC's errors: an argument of a `nointerpolation` parameter that is not itself
/// `nointerpolation` (each call reported), a value converted on its way to the intrinsic (a
/// `bool` input), and the intrinsic on a value that is not `nointerpolation`.
#[test]
fn values_that_are_not_per_vertex_are_refused() {
    let src = "float3 f(nointerpolation float3 c) { return GetAttributeAtVertex(c, 0); }\n\
               float4 main(float3 a : A, float3 b : B) : SV_Target { return float4(f(a) + f(b), 1); }\n";
    assert_eq!(
        errors(src),
        vec![
            ("parameter 0 of f must have a 'nointerpolation' attribute".to_string(), "a".to_string()),
            ("parameter 0 of f must have a 'nointerpolation' attribute".to_string(), "b".to_string()),
        ]
    );
    let src = "bool3 main(nointerpolation bool3 b : B) : SV_Target { return GetAttributeAtVertex(b, 1); }\n";
    let errs = errors(src);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].0, "attribute evaluation can only be done on values taken directly from inputs.");
    let src = "float4 main(float4 a : A) : SV_Target { return GetAttributeAtVertex(a, 1); }\n";
    assert_eq!(
        errors(src),
        vec![("parameter 0 of GetAttributeAtVertex must have a 'nointerpolation' attribute".to_string(), "a".to_string())]
    );
}
