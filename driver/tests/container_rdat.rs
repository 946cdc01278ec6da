//! Library containers (`-T lib_6_x -Fo`): `SFI0`, `RDAT`, `STAT`, `HASH`, `DXIL`, no signatures
//! and no `PSV0`. The `RDAT` part is checked twice: its layout byte by byte here (header, part
//! offsets, table strides, index array sharing), and its records through the container reader,
//! against values worked out from the source and from dxc's `d3dreflect/rdat_mintarget` CHECK
//! lines (minimum shader targets, stage flags, feature bits).

mod common;
use common::*;
use hlslc_dxil::container::{rdat, reader};

const LIB: &str = r#"
RWByteAddressBuffer buf : register(u1);
Texture2D<float4> tex : register(t0, space1);
SamplerState samp : register(s2);
cbuffer C : register(b3) { float4 k; };
RaytracingAccelerationStructure scene : register(t5);
struct Payload { float4 color; };
struct Attr { float2 bary; };

[shader("raygeneration")] void rg() {
  Payload p = (Payload)0;
  RayDesc r; r.Origin = 0; r.Direction = 1; r.TMin = 0; r.TMax = 1;
  TraceRay(scene, 0, 0xff, 0, 1, 0, r, p);
  buf.Store(0, asuint(p.color.x));
}
[shader("closesthit")] void ch(inout Payload p, in Attr a) { p.color = tex.SampleLevel(samp, a.bary, 0) * k; }
[shader("miss")] void ms(inout Payload p) { p.color = 1; }
[shader("compute")][numthreads(4, 1, 1)] void cs(uint3 id : SV_DispatchThreadID) { buf.Store(id.x * 4, id.x); }
[shader("compute")][numthreads(8, 1, 1)] void cs2(uint3 id : SV_DispatchThreadID) { buf.Store(id.x * 8, 1); }
"#;

fn compile(dir: &TempDir, src: &str, args: &[&str]) -> Vec<u8> {
    let f = dir.file("lib.hlsl", src);
    let out = dir.path("lib.dxil");
    let _ = std::fs::remove_file(&out);
    let mut a = args.to_vec();
    a.extend([f.to_str().unwrap(), "-Fo", out.to_str().unwrap()]);
    let o = hlslc(&a);
    assert_eq!(code(&o), 0, "{a:?}: {}", stderr(&o));
    std::fs::read(&out).unwrap()
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn rdat_of(bytes: &[u8]) -> reader::Rdat {
    let c = reader::check_all(bytes).expect("the container parses");
    reader::rdat(c.part("RDAT").expect("an RDAT part")).expect("RDAT parses")
}

fn function<'a>(r: &'a reader::Rdat, name: &str) -> &'a rdat::FunctionRecord {
    r.data.functions.iter().find(|f| f.unmangled_name == name).unwrap_or_else(|| panic!("no function {name}: {:?}", r.data.functions))
}

fn resource_names(r: &reader::Rdat, rows: &[u32]) -> Vec<String> {
    rows.iter().map(|&i| r.data.resources[i as usize].name.clone()).collect()
}

#[test]
fn library_container_has_rdat_and_no_signatures() {
    let dir = TempDir::new("rdat-parts");
    let bytes = compile(&dir, LIB, &["-T", "lib_6_3"]);
    let c = reader::check_all(&bytes).unwrap();
    let names: Vec<&str> = c.parts.iter().map(|p| p.fourcc.as_str()).collect();
    assert_eq!(names, ["SFI0", "RDAT", "STAT", "HASH", "DXIL"]);
    let prog = reader::program(c.part("DXIL").unwrap()).unwrap();
    assert_eq!((prog.kind, prog.major, prog.minor), (6, 6, 3), "library kind 6, lib_6_3");
    // -Qstrip_reflect drops STAT only.
    let bytes = compile(&dir, LIB, &["-T", "lib_6_3", "-Qstrip_reflect"]);
    let c = reader::check_all(&bytes).unwrap();
    let names: Vec<&str> = c.parts.iter().map(|p| p.fourcc.as_str()).collect();
    assert_eq!(names, ["SFI0", "RDAT", "HASH", "DXIL"]);
}

#[test]
fn rdat_layout_byte_by_byte() {
    let dir = TempDir::new("rdat-bytes");
    let bytes = compile(&dir, LIB, &["-T", "lib_6_3"]);
    let c = reader::check_all(&bytes).unwrap();
    let p = c.part("RDAT").unwrap().data;
    assert_eq!(u32_at(p, 0), 0x10, "RDAT_Version_10");
    let count = u32_at(p, 4) as usize;
    // String buffer, resource table, function table, index arrays: no raw bytes, no subobjects.
    assert_eq!(count, 4);
    let mut at = 8 + 4 * count;
    let mut types = Vec::new();
    for i in 0..count {
        assert_eq!(u32_at(p, 8 + 4 * i) as usize, at, "part {i} follows the previous one");
        let (ty, size) = (u32_at(p, at), u32_at(p, at + 4) as usize);
        assert_eq!(size % 4, 0);
        types.push((ty, at + 8, size));
        at += 8 + size;
    }
    assert_eq!(at, p.len(), "the parts fill the RDAT part");
    assert_eq!(types.iter().map(|t| t.0).collect::<Vec<_>>(), [1, 3, 4, 2]);
    let (_, s_at, _) = types[0];
    assert_eq!(p[s_at], 0, "offset 0 of the string buffer is the empty string");
    // Resource table: 5 records of 32 bytes, CBV first, then samplers, SRVs, UAVs.
    let (_, r_at, r_size) = types[1];
    assert_eq!((u32_at(p, r_at), u32_at(p, r_at + 4)), (5, 32));
    assert_eq!(r_size, 8 + 5 * 32);
    let classes: Vec<u32> = (0..5).map(|i| u32_at(p, r_at + 8 + 32 * i)).collect();
    assert_eq!(classes, [2, 3, 0, 0, 1]);
    // Function table: 5 functions, RuntimeDataFunctionInfo2 (52 bytes) with validator 1.8.
    let (_, f_at, f_size) = types[2];
    assert_eq!((u32_at(p, f_at), u32_at(p, f_at + 4)), (5, 52));
    assert_eq!(f_size, 8 + 5 * 52);
    for i in 0..5 {
        let rec = f_at + 8 + 52 * i;
        assert_eq!(u32_at(p, rec + 12), u32::MAX, "no function dependencies");
        assert_eq!(u32_at(p, rec + 48), u32::MAX, "no shader info record below validator 1.9");
    }
    // Index arrays: rg {scene, buf}, ch {samp, tex, C}, cs and cs2 share {buf}, ms none:
    // 3 + 4 + 2 words when the identical arrays are written once.
    let (_, _, i_size) = types[3];
    assert_eq!(i_size, 4 * (3 + 4 + 2));
    let refs: Vec<u32> = (0..5).map(|i| u32_at(p, f_at + 8 + 52 * i + 8)).collect();
    let r = rdat_of(&bytes);
    let cs = r.data.functions.iter().position(|f| f.unmangled_name == "cs").unwrap();
    let cs2 = r.data.functions.iter().position(|f| f.unmangled_name == "cs2").unwrap();
    let ms = r.data.functions.iter().position(|f| f.unmangled_name == "ms").unwrap();
    assert_eq!(refs[cs], refs[cs2]);
    assert_eq!(refs[ms], u32::MAX, "ms uses no resource");
}

#[test]
fn rdat_records_describe_the_library() {
    let dir = TempDir::new("rdat-records");
    let r = rdat_of(&compile(&dir, LIB, &["-T", "lib_6_3"]));
    let res: Vec<(u32, u32, u32, u32, u32, &str, u32)> =
        r.data.resources.iter().map(|x| (x.class, x.kind, x.space, x.lower_bound, x.upper_bound, x.name.as_str(), x.flags)).collect();
    // (class, kind, space, lower, upper, name, flags): CBuffer 13, Sampler 14, Texture2D 2,
    // acceleration structure 16, raw buffer 11.
    assert_eq!(res[0], (2, 13, 0, 3, 3, "C", 0));
    assert_eq!(res[1], (3, 14, 0, 2, 2, "samp", 0));
    assert!(res[2..4].contains(&(0, 2, 1, 0, 0, "tex", 0)), "{res:?}");
    assert!(res[2..4].contains(&(0, 16, 0, 5, 5, "scene", 0)), "{res:?}");
    assert_eq!(res[4], (1, 11, 0, 1, 1, "buf", 0));

    let rg = function(&r, "rg");
    assert_eq!(rg.name, "\u{1}?rg@@YAXXZ");
    assert_eq!((rg.shader_kind, rg.payload_size, rg.attribute_size), (7, 0, 0));
    assert_eq!(rg.stage_flags, 1 << 7);
    // dxc's sm63_dxr.hlsl: ray tracing stages are at least 6.3 with validator 1.8.
    assert_eq!(rg.min_shader_target, 0x70063);
    let mut names = resource_names(&r, &rg.resources);
    names.sort();
    assert_eq!(names, ["buf", "scene"]);

    let ch = function(&r, "ch");
    assert_eq!((ch.shader_kind, ch.payload_size, ch.attribute_size), (10, 16, 8), "float4 payload, float2 attributes");
    assert_eq!((ch.stage_flags, ch.min_shader_target), (1 << 10, 0xa0063));
    let mut names = resource_names(&r, &ch.resources);
    names.sort();
    assert_eq!(names, ["C", "samp", "tex"]);

    let ms = function(&r, "ms");
    assert_eq!((ms.shader_kind, ms.payload_size, ms.attribute_size), (11, 16, 0));
    assert!(ms.resources.is_empty());

    // Raw buffer stores translate down to 6.0 (dxc's `bWithTranslation`).
    let cs = function(&r, "cs");
    assert_eq!((cs.shader_kind, cs.stage_flags, cs.min_shader_target, cs.feature_info), (5, 1 << 5, 0x50060, 0));
    assert_eq!(resource_names(&r, &cs.resources), ["buf"]);
}

#[test]
fn validator_version_picks_the_record_layout() {
    let dir = TempDir::new("rdat-valver");
    let r = rdat_of(&compile(&dir, LIB, &["-T", "lib_6_3", "-validator-version", "1.7"]));
    assert_eq!(r.data.function_stride, 44, "RuntimeDataFunctionInfo before validator 1.8");
    // Before 1.8 the ray tracing stages did not raise the minimum target (sm63_dxr.hlsl, RDAT17);
    // TraceRay itself is a 6.3 op.
    assert_eq!(function(&r, "ms").min_shader_target, 0xb0060);
    assert_eq!(function(&r, "rg").min_shader_target, 0x70063);
    // Validators after 1.8 add tables this writer does not know: an error and no file.
    let f = dir.file("v19.hlsl", LIB);
    let out = dir.path("v19.dxil");
    let o = hlslc(&["-T", "lib_6_3", "-validator-version", "1.9", f.to_str().unwrap(), "-Fo", out.to_str().unwrap()]);
    assert_ne!(code(&o), 0);
    assert!(stderr(&o).contains("RDAT part for validator version 1.9"), "{}", stderr(&o));
    assert!(!out.exists(), "no partial container");
}

#[test]
fn features_and_minimum_targets_follow_dxc() {
    // From dxc's HLSLFileCheck/d3dreflect/rdat_mintarget: sm61_barycentrics, sm64_shadingrate,
    // sm68_extendedcommandinfo (validator 1.8, lib_6_8).
    let src = r#"
RWByteAddressBuffer BAB : register(u1, space0);
[shader("pixel")] void bary1(float3 b : SV_Barycentrics, out float4 t : SV_Target) { t = float4(b, 1); }
[shader("pixel")] void rate(uint r : SV_ShadingRate, out float4 t : SV_Target) { t = r; }
[shader("vertex")] void svl(uint u : SV_StartVertexLocation) { BAB.Store(0, u); }
[shader("pixel")] float4 ps(float4 c : COLOR) : SV_Target { return WaveActiveSum(c.x) + ddx(c.y); }
"#;
    let dir = TempDir::new("rdat-features");
    let r = rdat_of(&compile(&dir, src, &["-T", "lib_6_8"]));
    let f = function(&r, "bary1");
    assert_eq!((f.feature_info, f.stage_flags, f.min_shader_target), (0x20000, 1, 0x61));
    let f = function(&r, "rate");
    assert_eq!((f.feature_info, f.min_shader_target), (0x80000, 0x64));
    let f = function(&r, "svl");
    assert_eq!((f.feature_info, f.stage_flags, f.min_shader_target), (1 << 32, 1 << 1, 0x10068));
    // Wave ops (0x4000) and, with validator 1.8, Opt_UsesDerivatives (FeatureInfo2 0x100).
    let f = function(&r, "ps");
    assert_eq!(f.feature_info, 0x4000 | (0x100 << 32));
    // Validator 1.7: no derivative bit, shading rate no longer raises the target (RDAT17 lines).
    // (SV_StartVertexLocation is a 6.8 semantic.)
    let src17: String = src.lines().filter(|l| !l.contains("SV_StartVertexLocation")).collect::<Vec<_>>().join("\n");
    let r = rdat_of(&compile(&dir, &src17, &["-T", "lib_6_7", "-validator-version", "1.7"]));
    assert_eq!(function(&r, "ps").feature_info, 0x4000);
    assert_eq!(function(&r, "rate").min_shader_target, 0x60);
    assert_eq!(function(&r, "bary1").min_shader_target, 0x61);
}

#[test]
fn dumpbin_prints_the_rdat_tables() {
    let dir = TempDir::new("rdat-dump");
    let bytes = compile(&dir, LIB, &["-T", "lib_6_3"]);
    let f = dir.file("lib.dxil", &bytes);
    let o = hlslc(&["-dumpbin", f.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    assert_in_order(
        &text,
        &[
            "; part RDAT at byte",
            "Runtime data (RDAT), version 0x10, parts: StringBuffer, ResourceTable, FunctionTable, IndexArrays",
            "ResourceTable[5] = {",
            "Class: CBuffer",
            "Name: \"C\"",
            "FunctionTable[5] = {",
            "UnmangledName: \"ch\"",
            "ShaderKind: ClosestHit",
            "PayloadSizeInBytes: 16",
            "AttributeSizeInBytes: 8",
            "ShaderStageFlag: (ClosestHit)",
            "MinShaderTarget: 0xa0063",
        ],
    );
}

#[test]
fn damaged_rdat_is_an_error_naming_the_part() {
    let dir = TempDir::new("rdat-bad");
    let mut bytes = compile(&dir, LIB, &["-T", "lib_6_3"]);
    let c = reader::check_all(&bytes).unwrap();
    let at = c.part("RDAT").unwrap().offset;
    // The first part offset points past the end of the RDAT part.
    bytes[at + 8..at + 12].copy_from_slice(&100_000u32.to_le_bytes());
    let f = dir.file("bad.dxil", &bytes);
    let o = hlslc(&["-dumpbin", f.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("(part RDAT)"), "{}", stderr(&o));
    // A string offset outside the string buffer (the first resource's name).
    let mut bytes = compile(&dir, LIB, &["-T", "lib_6_3"]);
    let p = &bytes[at..];
    let res_at = u32_at(p, 12) as usize; // second part: the resource table
    let name_at = at + res_at + 8 + 8 + 24;
    bytes[name_at..name_at + 4].copy_from_slice(&0x7fff_0000u32.to_le_bytes());
    let f = dir.file("bad2.dxil", &bytes);
    let o = hlslc(&["-dumpbin", f.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("outside the string buffer"), "{}", stderr(&o));
}

#[test]
fn library_bitcode_reads_back_with_llvm_dis() {
    let Some(dis) = ["llvm-dis-14", "/usr/lib/llvm-14/bin/llvm-dis"].into_iter().find(|p| std::process::Command::new(p).arg("--version").output().is_ok()) else {
        eprintln!("skipped: llvm-dis 14 not found");
        return;
    };
    let dir = TempDir::new("rdat-dis");
    let bytes = compile(&dir, LIB, &["-T", "lib_6_3"]);
    let c = reader::check_all(&bytes).unwrap();
    let bc = dir.file("lib.bc", reader::program(c.part("DXIL").unwrap()).unwrap().bitcode);
    let o = std::process::Command::new(dis).args(["-o", "-", bc.to_str().unwrap()]).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    for want in ["define void @cs()", "!\"lib\", i32 6, i32 3", "@dx.op.traceRay"] {
        assert!(text.contains(want), "{want} missing from\n{text}");
    }
}
