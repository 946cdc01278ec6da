//! Reflection (`CompileResult::reflection`, `-reflect-json`, `-Fre` with `-spirv`) and the SPIR-V
//! Generator word (`-fspv-generator=`). Expected values come from DXC's layout rules
//! (SPIR-V.rst: relaxed std140 for cbuffers, std430 for push constants) and DXIL's signature
//! packing, worked out by hand in the comments; `testsuite/tests/reflect_spirv_cross.rs` checks
//! the SPIR-V side against spirv-cross over the corpus.

mod common;
use common::*;
use serde_json::Value;

const CS: &str = r#"
struct S { float3 v; float f; };
cbuffer CB : register(b0, space1) { float4 col; row_major float2x3 rm; float arr[2]; S s; };
[[vk::push_constant]] struct P { float2 off; uint idx; } pc;
Texture2D<float4> tex : register(t1);
SamplerState samp : register(s2);
RWStructuredBuffer<uint> outb : register(u3);
AppendStructuredBuffer<float4> app : register(u4);
RWTexture2D<float> img : register(u5);
Texture2D<float4> unused_tex : register(t6);
[[vk::constant_id(7)]] const int K = -3;
[numthreads(8, 4, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float4 c = tex.SampleLevel(samp, pc.off, 0) * col + rm[1].z + arr[1] + s.f + K;
    outb[id.x + pc.idx] = (uint)c.x;
    app.Append(c);
    img[id.xy] = c.y;
}
"#;

const VS: &str = r#"
struct VO { float4 pos : SV_Position; nointerpolation uint id : ID3; float2 uv : TEXCOORD1; };
VO main(float3 p : POSITION, float2 uv : TEXCOORD0, uint vid : SV_VertexID) {
    VO o;
    o.pos = float4(p, 1);
    o.id = vid;
    o.uv = uv;
    return o;
}
"#;

const PS_DXIL: &str = r#"
Texture2D<float4> t : register(t3, space2);
Texture2D<float4> other : register(t10);
SamplerState s : register(s0);
cbuffer C : register(b1) { float4 k; };
RWBuffer<float4> rw : register(u2);
float4 main(float2 uv : TEXCOORD0) : SV_Target {
    rw[0] = k;
    return t.Sample(s, uv) + other.Sample(s, uv) + k;
}
"#;

fn json_file(path: &std::path::Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("valid JSON")
}

fn by_name<'a>(list: &'a Value, name: &str) -> &'a Value {
    list.as_array().and_then(|l| l.iter().find(|x| x["name"] == name)).unwrap_or_else(|| panic!("no {name} in {list}"))
}

fn members(block: &Value) -> Vec<(String, u64, u64)> {
    block["members"].as_array().unwrap().iter().map(|m| (m["name"].as_str().unwrap().to_string(), m["offset"].as_u64().unwrap(), m["size"].as_u64().unwrap())).collect()
}

#[test]
fn reflect_json_for_spirv_and_dxil() {
    let dir = TempDir::new("reflect");
    let cs = dir.file("cs.hlsl", CS);
    let (cs, json) = (cs.to_str().unwrap(), dir.path("cs.json"));
    let o = hlslc(&["-T", "cs_6_0", "-spirv", cs, "-Fo", dir.path("cs.spv").to_str().unwrap(), "-reflect-json", json.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let r = json_file(&json);
    assert_eq!(r["schema_version"], 1);
    assert_eq!(r["target"], "spirv");
    let e = &r["entry_points"][0];
    assert_eq!((e["name"].as_str(), e["stage"].as_str()), (Some("main"), Some("compute")));
    assert_eq!(e["workgroup_size"], serde_json::json!([8, 4, 1]));
    let id = by_name(&e["inputs"], "gl_GlobalInvocationID");
    assert_eq!((id["builtin"].as_str(), id["semantic"].as_str()), (Some("GlobalInvocationId"), Some("SV_DispatchThreadID")));

    let res = &r["resources"];
    // register(b0, space1): set 1, binding 0; the others by their register number in set 0.
    let cb = by_name(res, "CB");
    assert_eq!((cb["kind"].as_str(), cb["set"].as_u64(), cb["binding"].as_u64()), (Some("constant_buffer"), Some(1), Some(0)));
    // Relaxed std140: col 0..16; row_major float2x3 = 2 SPIR-V vectors of 3, stride 16 -> 16..48;
    // float arr[2] with stride 16 -> 48..80; struct S (16-byte aligned) {float3 v; float f} -> 80..96.
    let block = &cb["block"];
    assert_eq!(members(block), vec![("col".into(), 0, 16), ("rm".into(), 16, 32), ("arr".into(), 48, 32), ("s".into(), 80, 16)]);
    assert_eq!(block["size"], 96);
    let rm = &block["members"][1]["type"];
    assert_eq!((rm["name"].as_str(), rm["columns"].as_u64(), rm["vecsize"].as_u64()), (Some("float2x3"), Some(2), Some(3)));
    assert_eq!((rm["matrix_stride"].as_u64(), rm["matrix_layout"].as_str()), (Some(16), Some("column_major")));
    assert_eq!(block["members"][2]["type"]["array_stride"], 16);
    assert_eq!(members(&block["members"][3]["type"]), vec![("v".into(), 0, 12), ("f".into(), 12, 4)]);

    let tex = by_name(res, "tex");
    assert_eq!((tex["kind"].as_str(), tex["binding"].as_u64(), tex["dimension"].as_str()), (Some("texture"), Some(1), Some("2d")));
    assert_eq!((tex["element_type"]["name"].as_str(), tex["used"].as_bool()), (Some("float"), Some(true)));
    assert_eq!(by_name(res, "samp")["kind"], "sampler");
    let outb = by_name(res, "outb");
    assert_eq!((outb["kind"].as_str(), outb["binding"].as_u64(), outb["access"].as_str()), (Some("rw_structured_buffer"), Some(3), Some("read_write")));
    assert_eq!(outb["element_type"]["name"], "uint");
    // The append buffer's counter has a binding of its own, named by counter_buffer.
    let app = by_name(res, "app");
    assert_eq!(app["kind"], "append_structured_buffer");
    let counter = by_name(res, "counter.var.app");
    assert_eq!(counter["kind"], "counter");
    assert_eq!(app["counter_buffer"]["binding"], counter["binding"]);
    assert_eq!(app["counter_buffer"]["name"], "counter.var.app");
    let img = by_name(res, "img");
    assert_eq!((img["kind"].as_str(), img["binding"].as_u64(), img["image_format"].as_str()), (Some("rw_texture"), Some(5), Some("r32f")));
    // Declared, never read: the optimizer removes it (-O3, as dxc); at -O0 it stays, unused.
    assert!(res.as_array().unwrap().iter().all(|x| x["name"] != "unused_tex"));
    let o0 = dir.path("cs.o0.json");
    let o = hlslc(&["-T", "cs_6_0", "-spirv", "-O0", cs, "-Fo", dir.path("cs0.spv").to_str().unwrap(), "-reflect-json", o0.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(by_name(&json_file(&o0)["resources"], "unused_tex")["used"], false);

    // std430 push constants: float2 off at 0, uint idx at 8, 12 bytes.
    let pc = by_name(&r["push_constants"], "pc");
    assert_eq!(members(&pc["block"]), vec![("off".into(), 0, 8), ("idx".into(), 8, 4)]);
    let k = &r["spec_constants"][0];
    assert_eq!((k["name"].as_str(), k["id"].as_u64(), k["type"]["name"].as_str(), k["default"].as_i64()), (Some("K"), Some(7), Some("int"), Some(-3)));

    // -Fre with -spirv writes the same JSON (dxc refuses -Fre with -spirv).
    let fre = dir.path("cs.fre.json");
    let o = hlslc(&["-T", "cs_6_0", "-spirv", cs, "-Fo", dir.path("cs2.spv").to_str().unwrap(), "-Fre", fre.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(json_file(&fre), r);

    // Stage I/O of a vertex shader, SPIR-V then DXIL.
    let vs = dir.file("vs.hlsl", VS);
    let vs = vs.to_str().unwrap();
    let vj = dir.path("vs.json");
    let o = hlslc(&["-T", "vs_6_0", "-spirv", vs, "-Fo", dir.path("vs.spv").to_str().unwrap(), "-reflect-json", vj.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v = json_file(&vj);
    let e = &v["entry_points"][0];
    assert_eq!(e["stage"], "vertex");
    let p = by_name(&e["inputs"], "in.var.POSITION");
    assert_eq!((p["semantic"].as_str(), p["location"].as_u64(), p["type"]["name"].as_str()), (Some("POSITION"), Some(0), Some("float3")));
    let uv = by_name(&e["inputs"], "in.var.TEXCOORD0");
    assert_eq!((uv["semantic"].as_str(), uv["semantic_index"].as_u64(), uv["location"].as_u64()), (Some("TEXCOORD"), Some(0), Some(1)));
    let vid = by_name(&e["inputs"], "gl_VertexIndex");
    assert_eq!((vid["builtin"].as_str(), vid["semantic"].as_str()), (Some("VertexIndex"), Some("SV_VertexID")));
    let pos = by_name(&e["outputs"], "gl_Position");
    assert_eq!((pos["builtin"].as_str(), pos["semantic"].as_str()), (Some("Position"), Some("SV_Position")));
    let idv = by_name(&e["outputs"], "out.var.ID3");
    assert_eq!((idv["semantic"].as_str(), idv["semantic_index"].as_u64(), idv["location"].as_u64()), (Some("ID"), Some(3), Some(0)));
    assert_eq!(idv["interpolation"], serde_json::json!(["flat"]));
    assert_eq!(by_name(&e["outputs"], "out.var.TEXCOORD1")["location"], 1);

    let dj = dir.path("vs.dxil.json");
    let o = hlslc(&["-T", "vs_6_0", vs, "-Fo", dir.path("vs.dxo").to_str().unwrap(), "-reflect-json", dj.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let d = json_file(&dj);
    assert_eq!(d["target"], "dxil");
    let e = &d["entry_points"][0];
    let pos = by_name(&e["outputs"], "SV_Position");
    // SV_Position: row 0, all four components.
    assert_eq!((pos["system_value"].as_str(), pos["register"].as_u64(), pos["mask"].as_u64()), (Some("SV_Position"), Some(0), Some(0xf)));
    let idd = by_name(&e["outputs"], "ID");
    assert_eq!((idd["semantic_index"].as_u64(), idd["system_value"].as_str(), idd["type"]["name"].as_str()), (Some(3), Some("arbitrary"), Some("uint")));
    assert_eq!(idd["interpolation"], serde_json::json!(["flat"]));
    assert_eq!(idd["mask"].as_u64().map(u64::count_ones), Some(1));
    let uvd = by_name(&e["outputs"], "TEXCOORD");
    assert_eq!((uvd["semantic_index"].as_u64(), uvd["mask"].as_u64().map(u64::count_ones)), (Some(1), Some(2)));
    let vid = by_name(&e["inputs"], "SV_VertexID");
    assert_eq!(vid["system_value"], "SV_VertexID");

    // DXIL resources: space, first register, range.
    let ps = dir.file("ps.hlsl", PS_DXIL);
    let pj = dir.path("ps.json");
    let o = hlslc(&["-T", "ps_6_0", ps.to_str().unwrap(), "-reflect-json", pj.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let d = json_file(&pj);
    let res = &d["resources"];
    let t = by_name(res, "t");
    assert_eq!((t["kind"].as_str(), t["space"].as_u64(), t["register"].as_u64(), t["range"].as_u64()), (Some("texture"), Some(2), Some(3), Some(1)));
    assert_eq!(t["dimension"], "2d");
    // (Arrays of resources are not supported by the DXIL back end yet.)
    let other = by_name(res, "other");
    assert_eq!((other["space"].as_u64(), other["register"].as_u64(), other["range"].as_u64()), (Some(0), Some(10), Some(1)));
    assert!(other.get("array").is_none());
    let c = by_name(res, "C");
    assert_eq!((c["kind"].as_str(), c["register"].as_u64()), (Some("constant_buffer"), Some(1)));
    let rw = by_name(res, "rw");
    assert_eq!((rw["kind"].as_str(), rw["register"].as_u64(), rw["access"].as_str()), (Some("rw_typed_buffer"), Some(2), Some("read_write")));
    assert_eq!(by_name(res, "s")["kind"], "sampler");
    assert!(stdout(&o).contains("define void @main()"), "the DXIL listing still goes to stdout");
}

#[test]
fn fre_for_dxil_stays_the_stat_part() {
    let dir = TempDir::new("reflect-stat");
    let src = dir.file("in.hlsl", GOOD);
    let fre = dir.path("out.fre");
    let o = hlslc(&["-T", "ps_6_0", src.to_str().unwrap(), "-Fre", fre.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(&std::fs::read(&fre).unwrap()[..4], b"STAT");
}

#[test]
fn library_result_carries_the_reflection() {
    let mut options = hlslc::Options::for_profile(hlslc::Profile::parse("ps_6_0").unwrap());
    options.spirv = true;
    options.output_kind = hlslc::OutputKind::Binary;
    let r = hlslc::compile("Texture2D t : register(t4); float4 main() : SV_Target { return t.Load(int3(0, 0, 0)); }", "x.hlsl", &options, None);
    assert!(r.succeeded(), "{}", r.render_diagnostics());
    let refl = r.reflection.expect("reflection of the SPIR-V");
    assert_eq!(refl.resources[0].binding, Some(4));
    assert!(refl.to_json().contains("\"kind\": \"texture\""));
    // No code, no reflection.
    let r = hlslc::compile("float4 main() : SV_Target { return undefined_x; }", "x.hlsl", &options, None);
    assert!(r.reflection.is_none());
}

#[test]
fn generator_word_names_hlslc_unless_asked_for_dxc() {
    let dir = TempDir::new("generator");
    let src = dir.file("in.hlsl", GOOD);
    let word = |extra: &[&str]| {
        let out = dir.path("out.spv");
        let mut args = vec!["-T", "ps_6_0", "-spirv", src.to_str().unwrap(), "-Fo", out.to_str().unwrap()];
        args.extend_from_slice(extra);
        let o = hlslc(&args);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let b = std::fs::read(&out).unwrap();
        u32::from_le_bytes([b[8], b[9], b[10], b[11]])
    };
    assert_eq!(word(&[]), 0xFFFF_0001);
    assert_eq!(word(&["-fspv-generator=hlslc"]), 0xFFFF_0001);
    assert_eq!(word(&["-fspv-generator=dxc"]), 14 << 16);
    let o = hlslc(&["-T", "ps_6_0", "-spirv", src.to_str().unwrap(), "-fspv-generator=glslang"]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("unknown SPIR-V generator 'glslang'"), "{}", stderr(&o));
}
