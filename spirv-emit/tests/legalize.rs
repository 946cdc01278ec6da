//! Resources held in local variables (DXC's legalization): a local of resource type initialized
//! from a global resource is an alias of that resource, so every use reaches the global variable
//! and the module is valid SPIR-V (no opaque value stored in Function memory).

use hlslc_spirv::target::TargetEnv;

mod common;

fn compile_checked(src: &str, profile: &str) -> String {
    let words = common::compile(src, profile, TargetEnv::default());
    common::validate(&words, "vulkan1.1");
    hlslc_spirv::disasm::disassemble(&words).expect("disassembles")
}

#[test]
fn local_texture_and_sampler_alias_the_globals() {
    let text = compile_checked(
        r#"
Texture2D<float4> gTex : register(t0);
Texture2D<float4> gTexs[4] : register(t1);
SamplerState gSamp : register(s0);
float4 main(float2 uv : UV, uint i : IDX) : SV_Target {
    Texture2D<float4> t = gTex;
    Texture2D<float4> u = gTexs[i];
    SamplerState s = gSamp;
    return t.Sample(s, uv) + u.Sample(s, uv);
}
"#,
        "ps_6_0",
    );
    // No Function-storage variable of an image or sampler type.
    assert!(!text.contains("_ptr_Function_type_2d_image"), "{text}");
    assert!(!text.contains("_ptr_Function_type_sampler"), "{text}");
    // The element of the array is taken with an access chain into the UniformConstant array.
    assert!(text.contains("OpAccessChain %_ptr_UniformConstant_type_2d_image %gTexs"), "{text}");
    assert_eq!(text.matches("OpImageSampleImplicitLod").count(), 2, "{text}");
}

#[test]
fn local_structured_buffer_keeps_its_counter() {
    compile_checked(
        r#"
RWStructuredBuffer<uint> gBuf : register(u0);
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    RWStructuredBuffer<uint> b = gBuf;
    uint n = b.IncrementCounter();
    b[id.x] = n;
}
"#,
        "cs_6_0",
    );
}

#[test]
fn resource_local_that_depends_on_a_branch_is_a_diagnostic_where_used() {
    let src = r#"
Texture2D<float4> gA : register(t0);
Texture2D<float4> gB : register(t1);
float4 main(float2 uv : UV, uint i : IDX) : SV_Target {
    Texture2D<float4> t = gA;
    if (i > 2) t = gB;
    return t.Load(int3(0, 0, 0));
}
"#;
    let e = common::lower(src, "ps_6_0", TargetEnv::default()).expect_err("resource chosen at run time");
    assert!(e.message.contains("'t' designates different resources depending on the control flow"), "{}", e.message);
}

#[test]
fn resource_local_assigned_in_both_arms_and_used_inside_them() {
    let text = compile_checked(
        r#"
StructuredBuffer<uint> gA : register(t0);
StructuredBuffer<uint> gB : register(t1);
RWStructuredBuffer<uint> gOut : register(u0);
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    StructuredBuffer<uint> s;
    if (id.x > 2) { s = gA; gOut[0] = s[1]; } else { s = gB; gOut[0] = s[2]; }
    if (id.x > 5) { s = gB; } else { s = gB; }
    gOut[1] = s[3];
    static const bool never = false;
    if (never) { s = gA; }
    gOut[2] = s[4];
}
"#,
        "cs_6_0",
    );
    assert!(!text.contains("OpPhi ") && !text.contains("OpSelect "), "{text}");
    // gA once (the first arm), gB in the second arm, after the second if and after the
    // constant one.
    assert_eq!(text.matches("OpAccessChain %_ptr_Uniform_uint %gA").count(), 1, "{text}");
    assert_eq!(text.matches("OpAccessChain %_ptr_Uniform_uint %gB").count(), 3, "{text}");
}

#[test]
fn resource_local_assigned_in_a_loop_is_a_diagnostic_where_used_before() {
    let src = r#"
StructuredBuffer<uint> gA : register(t0);
StructuredBuffer<uint> gB : register(t1);
RWStructuredBuffer<uint> gOut : register(u0);
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    StructuredBuffer<uint> s = gA;
    for (uint k = 0; k < id.x; ++k) {
        gOut[k] = s[k];
        s = gB;
    }
}
"#;
    let e = common::lower(src, "cs_6_0", TargetEnv::default()).expect_err("the buffer of the first iteration differs");
    assert!(e.message.contains("'s' designates different resources"), "{}", e.message);
    // Assigned before its use in each iteration: fine.
    compile_checked(&src.replace("gOut[k] = s[k];\n        s = gB;", "s = gB;\n        gOut[k] = s[k];"), "cs_6_0");
}

#[test]
fn local_struct_of_buffers_is_held_at_compile_time() {
    let text = compile_checked(
        r#"
struct S { float4 f; };
struct Pair { StructuredBuffer<S> ro; RWStructuredBuffer<S> rw; };
struct Nested { Pair p; ByteAddressBuffer bytes; };
StructuredBuffer<S> gRO : register(t0);
RWStructuredBuffer<S> gRW : register(u0);
ByteAddressBuffer gBytes : register(t1);
int i;
[numthreads(1, 1, 1)]
void main() {
    Pair p;
    p.ro = gRO;
    p.rw = gRW;
    Nested n;
    n.p = p;
    n.bytes = gBytes;
    Nested m = n;
    m.p.rw[i] = m.p.ro[i];
    m.p.rw[0].f.x = asfloat(m.bytes.Load(4));
}
"#,
        "cs_6_0",
    );
    assert!(!text.contains("%Pair") && !text.contains("%Nested"), "no struct of buffers: {text}");
    assert!(text.contains("OpAccessChain %_ptr_Uniform_S %gRO"), "{text}");
    assert!(text.contains("OpAccessChain %_ptr_Uniform_S %gRW"), "{text}");
    assert!(text.contains("OpAccessChain %_ptr_Uniform_uint %gBytes"), "{text}");
}

#[test]
fn struct_mixing_resources_and_data_is_taken_apart() {
    let text = compile_checked(
        r#"
struct Material { Texture2D t; SamplerState s; float4 tint; };
struct Layer { Material m; float weight; };
Texture2D gTex : register(t0);
SamplerState gSmp : register(s0);
float4 shade(Material m, float2 uv) { return m.t.Sample(m.s, uv) * m.tint; }
void pick(out Texture2D t) { t = gTex; }
float4 main(float2 uv : UV) : SV_Target {
    Material m = { gTex, gSmp, float4(1, 2, 3, 4) };
    Layer l;
    l.m = m;
    l.weight = 0.5;
    pick(l.m.t);
    return shade(l.m, uv) * l.weight;
}
"#,
        "ps_6_0",
    );
    // No struct holds an image or a sampler: the data members are Function variables of their own.
    assert!(!text.contains("%Material") && !text.contains("%Layer"), "{text}");
    assert!(text.contains("OpLoad %type_2d_image %gTex"), "{text}");
    assert!(text.contains("OpLoad %type_sampler %gSmp"), "{text}");
}

#[test]
fn global_struct_of_resources_is_one_variable_per_resource() {
    let text = compile_checked(
        r#"
Texture2D<float4> Textures[10];
struct Sampled { Texture2D t[2]; SamplerState s; };
Sampled G;
Sampled H[2];
Texture2D After;
float4 sample(Sampled x, float2 uv) { return x.t[1].Sample(x.s, uv); }
float4 main(float2 uv : UV) : SV_Target {
    return Textures[0].Sample(G.s, uv) + sample(G, uv) + sample(H[1], uv) + After.Sample(H[0].s, uv);
}
"#,
        "ps_6_0",
    );
    for name in ["\"G.t\"", "\"G.s\"", "\"H[0].t\"", "\"H[0].s\"", "\"H[1].t\"", "\"H[1].s\""] {
        assert!(text.contains(name), "{name}: {text}");
    }
    assert!(!text.contains("%Sampled"), "no struct of resources: {text}");
    // A struct of resources takes one binding per resource (each element of an array
    // counting), and with one in the module every resource array does (as in DXC).
    for (var, binding) in [("%Textures", 0), ("%G_t", 10), ("%G_s", 12), ("%H_0__t", 13), ("%H_0__s", 15), ("%H_1__t", 16), ("%H_1__s", 18), ("%After", 19)] {
        assert!(text.contains(&format!("OpDecorate {var} Binding {binding}\n")), "{var} {binding}: {text}");
    }
}

#[test]
fn struct_and_array_parameters_select_a_copy_of_the_function() {
    let text = compile_checked(
        r#"
struct Pair { StructuredBuffer<uint> a; StructuredBuffer<uint> b; };
StructuredBuffer<uint> gX : register(t0);
StructuredBuffer<uint> gY : register(t1);
RWStructuredBuffer<uint> gOut : register(u0);
uint dot2(Pair p, uint i) { return p.a[i] * p.b[i]; }
uint first(StructuredBuffer<uint> bufs[2]) { return bufs[0][0] + bufs[1][0]; }
StructuredBuffer<uint> second(Pair p) { return p.b; }
[numthreads(1, 1, 1)]
void main() {
    Pair p = { gX, gY };
    Pair q = { gY, gX };
    StructuredBuffer<uint> arr[2] = { gY, gY };
    gOut[0] = dot2(p, 1) + dot2(q, 2) + dot2(p, 3);
    gOut[1] = first(arr);
    gOut[2] = second(q)[0];
}
"#,
        "cs_6_0",
    );
    // dot2 for (gX, gY) and for (gY, gX), first, second (which returns nothing), main.
    assert_eq!(text.matches("\"dot2\"").count(), 2, "{text}");
    assert!(!text.contains("OpFunctionParameter %_ptr_Uniform"), "{text}");
}

#[test]
fn resources_that_cannot_be_known_at_compile_time_are_diagnostics() {
    let cases = [
        (
            "StructuredBuffer<uint> pick(uint i) { if (i > 0) return gX; return gY; }\n[numthreads(1, 1, 1)] void main() { gOut[0] = pick(gOut[1])[0]; }",
            "'pick' returns different resources depending on the control flow",
        ),
        (
            "[numthreads(1, 1, 1)] void main() { StructuredBuffer<uint> arr[2] = { gX, gY }; gOut[0] = arr[gOut[1]][0]; }",
            "indexing the array 'arr' of resources held at compile time with a run-time index",
        ),
        (
            "struct M { StructuredBuffer<uint> b; uint n; };\nvoid set(inout M m) { m.n = 2; }\n[numthreads(1, 1, 1)] void main() { M m = { gX, 1 }; set(m); gOut[0] = m.n; }",
            "the out/inout parameter 'm' of a struct type with both resource and non-resource members",
        ),
        (
            "void pick(out StructuredBuffer<uint> b, uint i) { if (i > 0) b = gX; }\n[numthreads(1, 1, 1)] void main() { StructuredBuffer<uint> s; pick(s, gOut[1]); gOut[0] = s[0]; }",
            "'pick' does not assign the same resource to its out parameter 'b' on every path",
        ),
        (
            "[numthreads(1, 1, 1)] void main() { StructuredBuffer<uint> s; gOut[0] = s[0]; }",
            "using 's' before a resource is assigned to it",
        ),
    ];
    for (body, message) in cases {
        let src = format!("StructuredBuffer<uint> gX : register(t0);\nStructuredBuffer<uint> gY : register(t1);\nRWStructuredBuffer<uint> gOut : register(u0);\n{body}\n");
        let e = common::lower(&src, "cs_6_0", TargetEnv::default()).expect_err(message);
        assert!(e.message.contains(message), "{message}: {}", e.message);
        assert!(e.span.is_some(), "{message}: no location");
    }
}

#[test]
fn resources_declared_in_a_cbuffer_are_variables_of_their_own() {
    let text = compile_checked(
        r#"
cbuffer A : register(b0) { float4 a; };
cbuffer B { float4 x; Texture2D y; SamplerState z; };
cbuffer C { SamplerState w; };
float4 main(float2 uv : UV) : SV_Target { return a + x + y.Sample(z, uv) + y.Sample(w, uv); }
"#,
        "ps_6_0",
    );
    // The block holds the data only; a cbuffer of resources only has none. The resources come
    // before their cbuffer's block in binding order, as in DXC.
    assert!(text.contains("%type_B = OpTypeStruct %v4float\n"), "{text}");
    assert!(!text.contains("%type_C"), "{text}");
    for (var, binding) in [("%A", 0), ("%y", 1), ("%z", 2), ("%B", 3), ("%w", 4)] {
        assert!(text.contains(&format!("OpDecorate {var} Binding {binding}\n")), "{var} {binding}: {text}");
    }
}

#[test]
fn constant_switch_counter_through_a_return_and_static_locals() {
    let text = compile_checked(
        r#"
StructuredBuffer<uint> gA : register(t0);
StructuredBuffer<uint> gB : register(t1);
RWStructuredBuffer<uint> gOut : register(u0);
RWStructuredBuffer<uint> gLog : register(u1);
RWStructuredBuffer<uint> logBuffer() { return gLog; }
uint firstSeen(uint x) { static uint f = x; static StructuredBuffer<uint> s = gB; return f + s[0]; }
static const int which = 1;
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    StructuredBuffer<uint> s;
    switch (which) {
    case 0: s = gB; break;
    case 1: s = gA; break;
    default: s = gB; break;
    }
    gOut[0] = s[0] + firstSeen(id.x);
    gOut[1] = logBuffer().IncrementCounter();
}
"#,
        "cs_6_0",
    );
    // The case taken designates gA after the switch.
    assert!(text.contains("OpAccessChain %_ptr_Uniform_uint %gA %int_0 %uint_0"), "{text}");
    // `static uint f = x;` runs once, guarded by a Private bool that starts false.
    assert!(text.contains("%init_done_f = OpVariable %_ptr_Private_bool Private %false"), "{text}");
    assert!(text.contains("OpStore %init_done_f %true"), "{text}");
    // The counter of the buffer the function returns.
    assert!(text.contains("%counter_var_gLog"), "{text}");
    assert!(text.contains("OpAtomicIAdd"), "{text}");
}
