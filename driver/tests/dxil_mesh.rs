//! Amplification and mesh shaders in DXIL. Amplification: `DispatchMesh(x, y, z, payload)` as
//! `dx.op.dispatchMesh.struct.<Payload>` (opcode 173, the payload by pointer), the
//! amplification state in `!dx.entryPoints` (tag 10: `!{!{x, y, z}, payload size}`), and the
//! validator's rules (one `DispatchMesh`, a payload of at most 16384 bytes) with dxc's
//! messages. Mesh shaders: `SetMeshOutputCounts` (168), `emitIndices` (169), the payload
//! through `getMeshPayload` (170), `storeVertexOutput` (171) and `storePrimitiveOutput` (172)
//! with (element, row, column, value, index) operands, and the mesh state (tag 9:
//! `!{!{x, y, z}, max vertices, max primitives, topology, payload size}`). Expectations come from dxc's HLSLFileCheck `shader_targets/mesh` and CodeGenHLSL
//! `mesh-val` tests, DXIL.rst's opcode table and sizes worked out by hand, not from hlslc's
//! output.

mod common;
use common::{assert_in_order, dxil_errors, dxil_text, MESH};

/// The properties node of the (only) entry point.
fn props(text: &str) -> &str {
    let rec = text.lines().find(|l| l.starts_with('!') && l.contains(" = !{void ()* @main")).unwrap_or_else(|| panic!("no entry:\n{text}"));
    let id = rec.rsplit(", ").next().unwrap().trim_end_matches('}');
    node(text, id)
}

fn node<'a>(text: &'a str, id: &str) -> &'a str {
    let prefix = format!("{id} = ");
    text.lines().find_map(|l| l.strip_prefix(prefix.as_str())).unwrap_or_else(|| panic!("no node {id}:\n{text}"))
}

/// amplification.hlsl: a local payload. Its size counts components at 4-byte alignment
/// (asOversizePayload.hlsl: `float2, float4[1024], float[2]` is 16400 bytes), here
/// 8 + 16 + 8 = 32.
const LOCAL: &str = "struct Payload { float2 dummy; float4 pos; float color[2]; };\n\
    [numthreads(32, 1, 1)]\n\
    void main() {\n\
      Payload pld;\n\
      pld.dummy = float2(1.0, 2.0);\n\
      pld.pos = float4(3.0, 4.0, 5.0, 6.0);\n\
      pld.color[0] = 7.0;\n\
      pld.color[1] = 8.0;\n\
      DispatchMesh(32, 1, 1, pld);\n\
    }\n";

#[test]
fn dispatch_mesh_passes_the_payload_by_pointer() {
    let text = dxil_text(LOCAL, "as_6_5", false);
    assert!(text.contains("%struct.Payload = type { <2 x float>, <4 x float>, [2 x float] }"), "{text}");
    assert_in_order(
        &text,
        &[
            "define void @main() {",
            "alloca %struct.Payload",
            "call void @dx.op.dispatchMesh.struct.Payload(i32 173, i32 32, i32 1, i32 1, %struct.Payload* %",
            "ret void",
            "declare void @dx.op.dispatchMesh.struct.Payload(i32, i32, i32, i32, %struct.Payload*)",
        ],
    );
    assert!(text.contains("= !{!\"as\", i32 6, i32 5}"), "{text}");
}

#[test]
fn the_amplification_state_holds_numthreads_and_the_payload_size() {
    let text = dxil_text(LOCAL, "as_6_5", false);
    // No shader flags: the amplification state (tag 10) alone, not a numthreads tag 4.
    let p = props(&text);
    assert!(p.starts_with("!{i32 10, !"), "{p}\n{text}");
    let state = node(&text, p.trim_start_matches("!{i32 10, ").trim_end_matches('}'));
    let (threads, size) = state.trim_start_matches("!{").trim_end_matches('}').split_once(", ").unwrap();
    assert_eq!(size, "i32 32", "{text}");
    assert_eq!(node(&text, threads), "!{i32 32, i32 1, i32 1}", "{text}");
}

#[test]
fn a_groupshared_payload_is_copied_at_the_call() {
    // as-groupshared-payload.hlsl (dxc passes the groupshared pointer; hlslc copies the value,
    // 16 bytes of uint4).
    let src = "struct MeshPayload { uint4 data; };\nstruct GSStruct { uint i; MeshPayload pld; };\n\
        groupshared GSStruct gs;\n\
        [numthreads(4, 1, 1)]\n\
        void main(uint gtid : SV_GroupIndex) {\n\
          gs.i = 1;\n\
          gs.pld.data[gtid] = gtid;\n\
          DispatchMesh(1, 1, 1, gs.pld);\n\
        }\n";
    let text = dxil_text(src, "as_6_5", false);
    assert_in_order(
        &text,
        &[
            "call i32 @dx.op.flattenedThreadIdInGroup.i32(i32 96)",
            "call void @dx.op.dispatchMesh.struct.MeshPayload(i32 173, i32 1, i32 1, i32 1, %struct.MeshPayload* %",
        ],
    );
    let p = props(&text);
    let state = node(&text, p.trim_start_matches("!{i32 10, ").trim_end_matches('}'));
    assert!(state.ends_with(", i32 16}"), "{state}\n{text}");
}

#[test]
fn dispatch_mesh_is_called_exactly_once_with_a_payload_of_at_most_16384_bytes() {
    // multipleDispatchMesh.hlsl, missingDispatchMesh.hlsl, asOversizePayload.hlsl.
    let twice = LOCAL.replace("DispatchMesh(32, 1, 1, pld);", "DispatchMesh(32, 1, 1, pld); DispatchMesh(32, 1, 1, pld);");
    let e = dxil_errors(&twice, "as_6_5");
    assert!(e.contains("error: DispatchMesh must be called exactly once in an Amplification shader."), "{e}");
    let never = LOCAL.replace("DispatchMesh(32, 1, 1, pld);", "");
    let e = dxil_errors(&never, "as_6_5");
    assert!(e.contains("error: DispatchMesh must be called exactly once in an Amplification shader."), "{e}");
    let big = LOCAL.replace("float4 pos;", "float4 pos[1024];").replace("pld.pos =", "pld.pos[0] =");
    let e = dxil_errors(&big, "as_6_5");
    assert!(e.contains("t.hlsl:9:1: error: For amplification shader with entry 'main', payload size 16400 is greater than maximum size of 16384 bytes."), "{e}");
}

#[test]
fn a_user_semantic_input_is_refused() {
    let e = dxil_errors("struct P { float x; };\n[numthreads(1, 1, 1)]\nvoid main(float3 u : USER_IN) { P p = (P)0; DispatchMesh(1, 1, 1, p); }\n", "as_6_5");
    assert!(e.contains("error: invalid usage of semantic 'USER_IN' in shader profile as"), "{e}");
}

#[test]
fn mesh_outputs_are_written_with_their_operations() {
    let text = dxil_text(MESH, "ms_6_5", false);
    assert_in_order(
        &text,
        &[
            "define void @main() {",
            "call %struct.Pl* @dx.op.getMeshPayload.struct.Pl(i32 170)",
            "call void @dx.op.setMeshOutputCounts(i32 168, i32 4, i32 2)",
            // pos.x (element 0, row 0, column 0) of vertex i, then uv = (1, 2) in element 1.
            "call void @dx.op.storeVertexOutput.f32(i32 171, i32 0, i32 0, i8 0, float %",
            "call void @dx.op.storeVertexOutput.f32(i32 171, i32 0, i32 0, i8 3, float 1.000000e+00, i32 %",
            "call void @dx.op.storeVertexOutput.f32(i32 171, i32 1, i32 0, i8 0, float 1.000000e+00, i32 %",
            "call void @dx.op.storeVertexOutput.f32(i32 171, i32 1, i32 0, i8 1, float 2.000000e+00, i32 %",
            "call void @dx.op.emitIndices(i32 169, i32 %",
            "call void @dx.op.storePrimitiveOutput.i32(i32 172, i32 0, i32 0, i8 0, i32 %",
            // SV_CullPrimitive: a bool stored as an i32 0.
            "call void @dx.op.storePrimitiveOutput.i32(i32 172, i32 1, i32 0, i8 0, i32 0, i32 %",
            "ret void",
        ],
    );
    // The payload's second field, element 1 of the uint[3] (path 0, 1, 1).
    assert!(text.contains("getelementptr inbounds %struct.Pl, %struct.Pl* %1, i32 0, i32 1, i32 1"), "{text}");
    assert!(text.contains("= !{!\"ms\", i32 6, i32 5}"), "{text}");
    // Tag 9 alone (no shader flags): numthreads, 4 vertices, 2 primitives, triangles, 16 bytes.
    let p = props(&text);
    assert!(p.starts_with("!{i32 9, !"), "{p}\n{text}");
    let state = node(&text, p.trim_start_matches("!{i32 9, ").trim_end_matches('}'));
    let threads = state.trim_start_matches("!{").split(',').next().unwrap();
    assert_eq!(node(&text, threads), "!{i32 8, i32 1, i32 1}");
    assert!(state.ends_with(", i32 4, i32 2, i32 2, i32 16}"), "{state}");
    // Primitive outputs are constant over the primitive (interpolation 1); SV_CullPrimitive
    // (kind 30) is not packed (row -1, column -1), SV_PrimitiveID (kind 10) is.
    // (dxc writes the bool's component type as i1 and the column as -1; hlslc writes u32 and 0
    // for every stage, so those two fields are left out here.)
    let cull = text.lines().find(|l| l.contains("!\"SV_CullPrimitive\"")).unwrap_or_else(|| panic!("{text}"));
    assert!(cull.contains(", i8 30, !") && cull.contains(", i8 1, i32 1, i8 1, i32 -1, i8 "), "{cull}");
    assert!(text.contains("!{i32 0, !\"SV_PrimitiveID\", i8 5, i8 10, !"), "{text}");
}

#[test]
fn mesh_output_misuse_gets_dxc_messages() {
    // readFromOutIndices.hlsl, illegalOutIndicesAssignment.hlsl.
    let read = MESH.replace("prims[i].cull = false;", "prims[i].cull = false; verts[0].uv = verts[1].uv;");
    let e = dxil_errors(&read, "ms_6_5");
    assert!(e.contains("error: output arrays of a mesh shader can not be read from"), "{e}");
    let part = MESH.replace("tris[i] = uint3(0, i + 1, i + 2);", "tris[i].x = 0;");
    let e = dxil_errors(&part, "ms_6_5");
    assert!(e.contains("error: a vector in out indices array must be accessed as a whole"), "{e}");
}
