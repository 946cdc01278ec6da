//! Ray tracing shaders in DXIL libraries: the six stages as `!dx.entryPoints` records with their
//! kind (tag 8), payload size (tag 6) and attribute size (tag 7); payload, attributes and
//! callable data as pointers to their struct types; the ray system values, `TraceRay`,
//! `CallShader`, `ReportHit`, `IgnoreHit` and `AcceptHitAndEndSearch` as their `dx.op`s. The
//! expected text comes from dxc's HLSLFileCheck `shader_targets/raytracing` tests and from the
//! layout rules worked out by hand in the comments, not from hlslc's output.

mod common;
use common::assert_in_order;

fn lib(src: &str) -> String {
    common::dxil_text(src, "lib_6_3", false)
}

/// The properties node of the entry whose record mentions `name`.
fn props<'a>(text: &'a str, name: &str) -> &'a str {
    let rec = text.lines().find(|l| l.starts_with('!') && l.contains(" = !{void (") && l.contains(name)).unwrap_or_else(|| panic!("no entry {name}:\n{text}"));
    let id = rec.rsplit(", ").next().unwrap().trim_end_matches('}');
    let prefix = format!("{id} = ");
    text.lines().find_map(|l| l.strip_prefix(prefix.as_str())).unwrap_or_else(|| panic!("no node {id}:\n{text}"))
}

const PAYLOAD: &str = "struct MyPayload { float4 color; uint2 pos; };\n";

#[test]
fn a_miss_shader_writes_only_the_members_it_changes() {
    // raytracing_miss.hlsl: the payload is a pointer; `color` is stored through its member
    // address, `pos` (unchanged) is not stored at all.
    let text = lib(&format!("{PAYLOAD}[shader(\"miss\")]\nvoid miss1(inout MyPayload payload : SV_RayPayload) {{ payload.color = float4(1.0, 0.0, 1.0, 1.0); }}\n"));
    assert!(text.contains("%struct.MyPayload = type { <4 x float>, <2 x i32> }"), "{text}");
    assert_in_order(
        &text,
        &[
            "define void @\"\\01?miss1@@YAXUMyPayload@@@Z\"(%struct.MyPayload* %payload) #0 {",
            "getelementptr inbounds %struct.MyPayload, %struct.MyPayload* %payload, i32 0, i32 0",
            "store <4 x float> <float 1.000000e+00, float 0.000000e+00, float 1.000000e+00, float 1.000000e+00>, <4 x float>* %",
            "ret void",
        ],
    );
    assert!(!text.contains("i32 0, i32 1"), "the unchanged member is not written:\n{text}");
    assert!(text.contains("attributes #0 = { nounwind }"), "{text}");
    // Kind 11 (miss), payload 16 + 8 = 24 bytes, then the automatic binding space.
    assert!(props(&text, "miss1").starts_with("!{i32 8, i32 11, i32 6, i32 24, i32 5, !"), "{text}");
}

#[test]
fn entry_properties_carry_payload_and_attribute_sizes() {
    // raytracing_udt_sizes.hlsl: every component at a multiple of its own size, the struct
    // padded to its largest component. float3 + uint2 = 20; BuiltInTriangleIntersectionAttributes
    // is a float2 = 8; double at 8 after a float = 16, padded to 8 -> 16; bool is 4 bytes.
    let text = lib(r#"
struct Payload_20 { float3 color; uint2 pos; };
struct Attr_16 { float a; double d; };
struct Params_8 { bool b; uint u; };
[shader("anyhit")]
void anyhit1(inout Payload_20 payload, in BuiltInTriangleIntersectionAttributes attr) {}
[shader("closesthit")]
void closesthit1(inout Payload_20 payload, in Attr_16 attr) {}
[shader("callable")]
void callable1(inout Params_8 params) {}
[shader("raygeneration")]
void raygen1() {}
[shader("intersection")]
void intersection1() {}
"#);
    assert!(props(&text, "anyhit1").starts_with("!{i32 8, i32 9, i32 6, i32 20, i32 7, i32 8, i32 5, !"), "{text}");
    assert!(props(&text, "closesthit1").starts_with("!{i32 8, i32 10, i32 6, i32 20, i32 7, i32 16, i32 5, !"), "{text}");
    assert!(props(&text, "callable1").starts_with("!{i32 8, i32 12, i32 6, i32 8, i32 5, !"), "{text}");
    assert!(props(&text, "raygen1").starts_with("!{i32 8, i32 7, i32 5, !"), "{text}");
    assert!(props(&text, "intersection1").starts_with("!{i32 8, i32 8, i32 5, !"), "{text}");
    assert!(text.contains("define void @\"\\01?raygen1@@YAXXZ\"() #0 {"), "{text}");
    assert!(text.contains("%struct.Params_8 = type { i32, i32 }"), "bool is an i32 in memory:\n{text}");
}

#[test]
fn ray_system_values_are_their_ops() {
    // raytracing_sgv_intrin / transforms4x3: the 4x3 forms are the transpose of the 3x4 ones
    // (`_m02` of a 4x3 is row 2, column 0 of the op).
    let text = lib(&format!(
        r#"{PAYLOAD}
[shader("closesthit")]
void ch(inout MyPayload p, in BuiltInTriangleIntersectionAttributes a) {{
  uint3 idx = DispatchRaysIndex();
  float4x3 o2w = ObjectToWorld4x3();
  float3x4 w2o = WorldToObject3x4();
  p.color = float4(RayTCurrent(), o2w._m02, w2o._m12, (float)(idx.y + HitKind() + InstanceID() + PrimitiveIndex()));
  p.pos = uint2(InstanceIndex(), RayFlags());
}}
"#
    ));
    for call in [
        "call i32 @dx.op.dispatchRaysIndex.i32(i32 145, i8 1)",
        "call float @dx.op.rayTCurrent.f32(i32 154)",
        "call float @dx.op.objectToWorld.f32(i32 151, i32 2, i8 0)",
        "call float @dx.op.worldToObject.f32(i32 152, i32 1, i8 2)",
        "call i32 @dx.op.hitKind.i32(i32 143)",
        "call i32 @dx.op.instanceID.i32(i32 141)",
        "call i32 @dx.op.primitiveIndex.i32(i32 161)",
        "call i32 @dx.op.instanceIndex.i32(i32 142)",
        "call i32 @dx.op.rayFlags.i32(i32 144)",
    ] {
        assert!(text.contains(call), "{call} missing:\n{text}");
    }
}

#[test]
fn trace_ray_passes_the_payload_through_memory() {
    // raytracing_traceray.hlsl: the payload is an alloca stored before the call and read back
    // after it; the ray is eight floats (origin, tmin, direction, tmax).
    let text = lib(r#"
struct Payload { float4 color; };
RaytracingAccelerationStructure Scene : register(t0);
RWTexture2D<float4> Out : register(u0);
[shader("raygeneration")]
void raygen() {
  RayDesc ray = { float3(1, 2, 3), 0.5, float3(0, 0, 1), 100.0 };
  Payload p = { float4(0, 0, 0, 0) };
  TraceRay(Scene, 0, 0xFF, 0, 1, 0, ray, p);
  Out[DispatchRaysIndex().xy] = p.color;
}
"#);
    assert_in_order(
        &text,
        &[
            "alloca %struct.Payload, align 4",
            "store <4 x float> zeroinitializer",
            "call void @dx.op.traceRay.struct.Payload(i32 157, %dx.types.Handle %",
            ", i32 0, i32 255, i32 0, i32 1, i32 0, float 1.000000e+00, float 2.000000e+00, float 3.000000e+00, float 5.000000e-01, float 0.000000e+00, float 0.000000e+00, float 1.000000e+00, float 1.000000e+02, %struct.Payload* %",
            "load <4 x float>, <4 x float>* %",
            "call void @dx.op.textureStore.f32(i32 67",
        ],
    );
}

#[test]
fn report_hit_and_call_shader_take_their_structs_by_pointer() {
    // raytracing_reporthit.hlsl and raytracing_closesthit.hlsl.
    let text = lib(r#"
struct Attr { float2 bary; uint id; };
struct MyParam { float2 coord; float4 output; };
struct MyPayload { float4 color; };
[shader("intersection")]
void intersection1() {
  Attr a = { float2(0.5, 0.25), 7 };
  ReportHit(RayTCurrent(), 1, a);
}
[shader("closesthit")]
void closesthit1(inout MyPayload payload, in BuiltInTriangleIntersectionAttributes attr) {
  MyParam param = { attr.barycentrics, { 0, 0, 0, 0 } };
  CallShader(7, param);
  payload.color += param.output;
}
"#);
    assert!(text.contains("call i1 @dx.op.reportHit.struct.Attr(i32 158, float %"), "{text}");
    assert!(text.contains(", i32 1, %struct.Attr* %"), "{text}");
    assert_in_order(
        &text,
        &[
            "call void @dx.op.callShader.struct.MyParam(i32 159, i32 7, %struct.MyParam* %",
            "getelementptr inbounds %struct.MyPayload, %struct.MyPayload* %payload, i32 0, i32 0",
            "store <4 x float>",
        ],
    );
}

#[test]
fn accept_hit_and_ignore_hit_write_the_payload_and_do_not_return() {
    // raytracing_anyhit_accept_hit.hlsl: the payload written so far is stored before the call,
    // which `unreachable` follows.
    let text = lib(&format!(
        r#"{PAYLOAD}
[shader("anyhit")]
void anyhit1(inout MyPayload payload, in BuiltInTriangleIntersectionAttributes attr) {{
  payload.color = float4(0.125, 0.25, 0.5, 1.0);
  if (RayTCurrent() < 0) IgnoreHit();
  payload.pos = uint2(1, 2);
  AcceptHitAndEndSearch();
}}
"#
    ));
    assert_in_order(
        &text,
        &[
            "store <4 x float> <float 1.250000e-01, float 2.500000e-01, float 5.000000e-01, float 1.000000e+00>",
            "call void @dx.op.ignoreHit(i32 155)",
            "unreachable",
            "store <2 x i32> <i32 1, i32 2>",
            "call void @dx.op.acceptHitAndEndSearch(i32 156)",
            "unreachable",
        ],
    );
}

#[test]
fn what_ray_tracing_does_not_support_yet_is_refused_by_name() {
    let e = common::dxil_errors("[shader(\"miss\")] void m(inout float4 p) { p = 1; }\n", "lib_6_3");
    assert!(e.contains("the miss shader parameter `p` of type `float4` (a struct is expected)"), "{e}");
    let e = common::dxil_errors("struct P { float4x4 m; };\n[shader(\"miss\")] void m(inout P p) { }\n", "lib_6_3");
    assert!(e.contains("a value of type `float4x4` in a ray payload, attribute or callable-data struct"), "{e}");
    // IgnoreHit is an any-hit operation: dxc's op table refuses it in a miss shader.
    let e = common::dxil_errors("struct P { float4 c; };\n[shader(\"miss\")] void m(inout P p) { IgnoreHit(); }\n", "lib_6_3");
    assert!(e.contains("IgnoreHit"), "{e}");
}
