//! DXIL containers on the command line: `-dumpbin` reads one (here dxc's own, shipped with the
//! dxil-spirv test tool) and lists its parts; a damaged one is an error naming the part and the
//! byte offset, with exit code 1 and no panic.

mod common;
use common::*;
use std::path::PathBuf;

fn dxc_container() -> Option<Vec<u8>> {
    let rel = "tools/dxil-spirv/src/shaders/asm/control-flow-multi-break-with-non-idom-loop-header.dxil";
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared").join(rel);
    match std::fs::read(&p).or_else(|_| std::fs::read(PathBuf::from("/work/shared").join(rel))) {
        Ok(b) => Some(b),
        Err(_) => {
            eprintln!("skipped: dxc's container {} is not present", p.display());
            None
        }
    }
}

#[test]
fn dumpbin_lists_the_parts_of_a_dxc_container() {
    let Some(bytes) = dxc_container() else { return };
    let dir = TempDir::new("dumpbin");
    let f = dir.file("shader.dxil", &bytes);
    let o = hlslc(&["-dumpbin", f.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    for part in ["SFI0", "ISG1", "OSG1", "PSV0", "STAT", "HASH", "DXIL"] {
        assert!(text.contains(&format!("; part {part} at byte")), "{part} missing:\n{text}");
    }
    assert!(text.contains("; numthreads("), "{text}");
    // -Fc puts the listing in a file instead.
    let listing = dir.path("dump.txt");
    let o = hlslc(&["-dumpbin", f.to_str().unwrap(), "-Fc", listing.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&listing).unwrap(), text);
}

#[test]
fn dumpbin_rejects_a_damaged_container_naming_part_and_offset() {
    let Some(mut bytes) = dxc_container() else { return };
    // The PSV0 part header is at byte 108; make its size run past the end.
    bytes[112..116].copy_from_slice(&1_000_000u32.to_le_bytes());
    let dir = TempDir::new("dumpbin-bad");
    let f = dir.file("bad.dxil", &bytes);
    let o = hlslc(&["-dumpbin", f.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    let err = stderr(&o);
    assert!(err.contains("at byte 112 (part PSV0)"), "{err}");
    assert!(stdout(&o).is_empty());
    // Not a container at all.
    let f = dir.file("text.dxil", "float4 main() : SV_Target { return 0; }");
    let o = hlslc(&["-dumpbin", f.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("expected the magic 'DXBC'"), "{}", stderr(&o));
}

use hlslc_dxil::container::{md5, reader};

/// Compiles `src` with `args` and `-Fo`, returns the container bytes.
fn container_of(dir: &TempDir, src: &str, args: &[&str]) -> Vec<u8> {
    let f = dir.file("s.hlsl", src);
    let out = dir.path("s.dxil");
    let mut a = args.to_vec();
    a.extend([f.to_str().unwrap(), "-Fo", out.to_str().unwrap()]);
    let o = hlslc(&a);
    assert_eq!(code(&o), 0, "{a:?}: {}", stderr(&o));
    std::fs::read(&out).unwrap()
}

fn names(c: &reader::Container) -> Vec<String> {
    c.parts.iter().map(|p| p.fourcc.clone()).collect()
}

/// (name, index, system value, component type, register, mask, read/write mask) of each row.
fn rows(c: &reader::Container, part: &str) -> Vec<(String, u32, u32, u32, u32, u8, u8)> {
    reader::signature(c.part(part).unwrap())
        .unwrap()
        .into_iter()
        .map(|r| (r.name, r.index, r.system_value, r.comp_type, r.register, r.mask, r.rw_mask))
        .collect()
}

const VS: &str = "struct VsOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; };
VsOut main(float4 pos : POSITION, float2 uv : TEXCOORD0, float3 unused : NORMAL) {
  VsOut o; o.pos = pos; o.uv = uv.yx * 2; return o;
}
";

#[test]
fn vertex_shader_container_parts() {
    let dir = TempDir::new("fo-vs");
    let bytes = container_of(&dir, VS, &["-T", "vs_6_0", "-E", "main"]);
    let c = reader::check_all(&bytes).unwrap();
    assert_eq!(names(&c), ["SFI0", "ISG1", "OSG1", "PSV0", "STAT", "HASH", "DXIL"]);
    assert!(c.checksum_matches(&bytes), "the header checksum is D3D's");
    let dxil = reader::program(c.part("DXIL").unwrap()).unwrap();
    assert_eq!((dxil.kind, dxil.major, dxil.minor, dxil.dxil_version), (1, 6, 0, (1, 0)));
    assert_eq!(&c.part("HASH").unwrap().data[4..], &md5::md5(dxil.bitcode));
    // D3D_NAME 0 (arbitrary) / 1 (position), component type 3 = float32; inputs list the
    // components read (NORMAL is never read), outputs the components never written.
    let s = |n: &str| n.to_string();
    assert_eq!(
        rows(&c, "ISG1"),
        [(s("POSITION"), 0, 0, 3, 0, 0xF, 0xF), (s("TEXCOORD"), 0, 0, 3, 1, 0x3, 0x3), (s("NORMAL"), 0, 0, 3, 2, 0x7, 0)]
    );
    assert_eq!(rows(&c, "OSG1"), [(s("SV_Position"), 0, 1, 3, 0, 0xF, 0), (s("TEXCOORD"), 0, 0, 3, 1, 0x3, 0xC)]);
    let psv = reader::psv(c.part("PSV0").unwrap()).unwrap();
    assert_eq!(psv.runtime_info_size, 52);
    assert_eq!(psv.runtime_info[0], 1, "OutputPositionPresent");
    assert_eq!((psv.stage, psv.input_vectors, psv.output_vectors), (1, 3, [2, 0, 0, 0]));
    assert_eq!(psv.entry_name.as_deref(), Some("main"));
    assert_eq!([psv.elements[0].len(), psv.elements[1].len()], [3, 2]);
    // Input component i (row * 4 + column) → bit mask of the output components it reaches:
    // pos.xyzw → o.pos.xyzw; uv.x → o.uv.y (bit 5), uv.y → o.uv.x (bit 4); NORMAL → nothing.
    assert_eq!(psv.tables, [vec![1, 2, 4, 8, 1 << 5, 1 << 4, 0, 0, 0, 0, 0, 0]]);
}

#[test]
fn pixel_shader_depth_is_not_packed() {
    let dir = TempDir::new("fo-ps");
    let src = "float4 main(float4 c : COLOR1, out float d : SV_Depth) : SV_Target2 { d = c.w; return c.zyxw; }";
    let bytes = container_of(&dir, src, &["-T", "ps_6_0", "-E", "main"]);
    let c = reader::check_all(&bytes).unwrap();
    let s = |n: &str| n.to_string();
    assert_eq!(rows(&c, "ISG1"), [(s("COLOR"), 1, 0, 3, 0, 0xF, 0xF)]);
    // SV_Target2 sits in register 2; SV_Depth (D3D_NAME 65) has no register (-1). Outputs carry
    // the components never written (dxc: NegMask of the usage): none of the target, yzw of depth.
    assert_eq!(rows(&c, "OSG1"), [(s("SV_Target"), 2, 64, 3, 2, 0xF, 0), (s("SV_Depth"), 0, 65, 3, u32::MAX, 0x1, 0xE)]);
    let psv = reader::psv(c.part("PSV0").unwrap()).unwrap();
    assert_eq!(psv.runtime_info[0], 1, "DepthOutput");
}

#[test]
fn compute_shader_bindings_and_threads() {
    let dir = TempDir::new("fo-cs");
    let src = "StructuredBuffer<float> In : register(t3, space1);
RWByteAddressBuffer Out : register(u0);
cbuffer C : register(b2) { float k; };
[numthreads(8, 4, 2)]
void main(uint3 id : SV_DispatchThreadID) { Out.Store(id.x * 4, asuint(In[id.x] * k)); }";
    let bytes = container_of(&dir, src, &["-T", "cs_6_0", "-E", "main"]);
    let c = reader::check_all(&bytes).unwrap();
    assert!(rows(&c, "ISG1").is_empty() && rows(&c, "OSG1").is_empty());
    let psv = reader::psv(c.part("PSV0").unwrap()).unwrap();
    assert_eq!((psv.stage, psv.num_threads), (5, [8, 4, 2]));
    // CBV first, then SRVs, then UAVs: (PSVResourceType, space, lower, upper, kind, flags).
    assert_eq!(psv.resources, [[2, 0, 2, 2, 13, 0], [5, 1, 3, 3, 12, 0], [7, 0, 0, 0, 11, 0]]);
    // Raw and structured buffers need no feature bit at shader model 6.
    assert_eq!(c.part("SFI0").unwrap().data, [0; 8]);
}

#[test]
fn fo_options_fsh_fre_strip_reflect_and_listing() {
    let dir = TempDir::new("fo-opts");
    let f = dir.file("s.hlsl", GOOD);
    let f = f.to_str().unwrap();
    let (obj, hash, refl, listing) = (dir.path("o.dxil"), dir.path("o.hash"), dir.path("o.refl"), dir.path("o.ll"));
    let p = |x: &PathBuf| x.to_str().unwrap().to_string();
    let o = hlslc(&["-T", "ps_6_0", f, "-Fo", &p(&obj), "-Fsh", &p(&hash), "-Fre", &p(&refl), "-Fc", &p(&listing)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).is_empty(), "with -Fo nothing goes to stdout");
    let bytes = std::fs::read(&obj).unwrap();
    let c = reader::check_all(&bytes).unwrap();
    assert_eq!(std::fs::read(&hash).unwrap(), c.part("HASH").unwrap().data);
    let r = std::fs::read(&refl).unwrap();
    assert_eq!(&r[..4], b"STAT");
    assert_eq!(&r[8..], c.part("STAT").unwrap().data);
    // The listing is the text the command prints without -Fo.
    let text = hlslc(&["-T", "ps_6_0", f]);
    assert_eq!(std::fs::read_to_string(&listing).unwrap(), stdout(&text));
    // -Qstrip_reflect drops the STAT part.
    let o = hlslc(&["-T", "ps_6_0", f, "-Fo", &p(&obj), "-Qstrip_reflect"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let bytes = std::fs::read(&obj).unwrap();
    assert_eq!(names(&reader::check_all(&bytes).unwrap()), ["SFI0", "ISG1", "OSG1", "PSV0", "HASH", "DXIL"]);
    // -Frs with no root signature to write: an error naming the option (tests/root_signature.rs
    // has the rest).
    let o = hlslc(&["-T", "ps_6_0", f, "-Frs", &p(&dir.path("rs"))]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("'-Frs'"), "{}", stderr(&o));
}

#[test]
fn failed_compile_writes_no_container() {
    let dir = TempDir::new("fo-fail");
    let f = dir.file("bad.hlsl", "float4 main() : SV_Target { return undefined_name; }");
    let out = dir.path("bad.dxil");
    let o = hlslc(&["-T", "ps_6_0", f.to_str().unwrap(), "-Fo", out.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    assert!(!out.exists(), "no partial output file");
    assert!(dir.entries().iter().all(|e| !e.contains("bad.dxil")), "{:?}", dir.entries());
}

const HS: &str = "struct CP { float4 pos : POSITION; };
struct PC { float e[3] : SV_TessFactor; float i : SV_InsideTessFactor; };
PC pcf(InputPatch<CP, 3> p) { PC o; o.e[0] = p[0].pos.x; o.e[1] = 1; o.e[2] = 1; o.i = 2; return o; }
[domain(\"tri\")] [partitioning(\"integer\")] [outputtopology(\"triangle_cw\")] [outputcontrolpoints(3)] [patchconstantfunc(\"pcf\")]
CP main(InputPatch<CP, 3> p, uint id : SV_OutputControlPointID) { return p[id]; }
";

const DS: &str = "struct CP { float4 pos : POSITION; };
struct PC { float e[3] : SV_TessFactor; float i : SV_InsideTessFactor; };
[domain(\"tri\")]
float4 main(PC pc, float3 uvw : SV_DomainLocation, const OutputPatch<CP, 3> p) : SV_Position { return p[0].pos * uvw.x + pc.i; }
";

#[test]
fn hull_and_domain_patch_constants() {
    let dir = TempDir::new("fo-tess");
    let s = |n: &str| n.to_string();
    let hs = container_of(&dir, HS, &["-T", "hs_6_0", "-E", "main"]);
    let c = reader::check_all(&hs).unwrap();
    assert_eq!(names(&c), ["SFI0", "ISG1", "OSG1", "PSG1", "PSV0", "STAT", "HASH", "DXIL"]);
    // Tri-domain tess factors: D3D_NAME 13 (edge) per row, 14 (inside); all written by the hull
    // shader's patch constant function (never-writes mask 0 within the w column).
    assert_eq!(
        rows(&c, "PSG1"),
        [
            (s("SV_TessFactor"), 0, 13, 3, 0, 0x8, 0x7),
            (s("SV_TessFactor"), 1, 13, 3, 1, 0x8, 0x7),
            (s("SV_TessFactor"), 2, 13, 3, 2, 0x8, 0x7),
            (s("SV_InsideTessFactor"), 0, 14, 3, 3, 0x8, 0x7)
        ]
    );
    let psv = reader::psv(c.part("PSV0").unwrap()).unwrap();
    let u32_at = |i: usize| u32::from_le_bytes(psv.runtime_info[i..i + 4].try_into().unwrap());
    // HSInfo: input and output control points, tri domain (2), triangle_cw (3).
    assert_eq!([u32_at(0), u32_at(4), u32_at(8), u32_at(12)], [3, 3, 2, 3]);
    assert_eq!((psv.stage, psv.input_vectors, psv.output_vectors[0], psv.pc_vectors), (3, 1, 1, 4));
    // Control point pos → output pos; pos.x (input 0) → the first edge factor (row 0, column 3).
    assert_eq!(psv.tables, [vec![1, 2, 4, 8], vec![1 << 3, 0, 0, 0]]);

    let ds = container_of(&dir, DS, &["-T", "ds_6_0", "-E", "main"]);
    let c = reader::check_all(&ds).unwrap();
    // In a domain shader the patch constants are inputs: only the inside factor is read.
    assert_eq!(rows(&c, "PSG1")[3], (s("SV_InsideTessFactor"), 0, 14, 3, 3, 0x8, 0x8));
    assert_eq!(rows(&c, "PSG1")[0].6, 0);
    let psv = reader::psv(c.part("PSV0").unwrap()).unwrap();
    assert_eq!(psv.stage, 4);
    // Patch constant input 15 (the inside factor) reaches all of SV_Position.
    let mut pc_table = vec![0u32; 16];
    pc_table[15] = 0xF;
    assert_eq!(psv.tables, [vec![1, 2, 4, 8], pc_table]);
}

#[test]
fn validator_version_picks_the_psv0_version() {
    // PSV0's runtime info grows with the validator: 24 bytes (PSV 0, validator 1.0), 36 (PSV 1,
    // 1.1..1.5), 48 (PSV 2, 1.6..1.7), 52 with the entry name (PSV 3, 1.8).
    let dir = TempDir::new("fo-valver");
    let src = "float4 main(float4 a : A) : SV_Target { return a; }";
    for (valver, size, entry) in [("1.0", 24, None), ("1.5", 36, None), ("1.6", 48, None), ("1.8", 52, Some("main"))] {
        let bytes = container_of(&dir, src, &["-T", "ps_6_0", "-E", "main", "-validator-version", valver]);
        let c = reader::check_all(&bytes).unwrap();
        let psv = reader::psv(c.part("PSV0").unwrap()).unwrap();
        assert_eq!(psv.runtime_info_size, size, "-validator-version {valver}");
        assert_eq!(psv.entry_name.as_deref(), entry, "-validator-version {valver}");
    }
}

#[test]
fn mesh_shader_primitive_signature_and_psv0_mesh_info() {
    let dir = TempDir::new("fo-mesh");
    let s = |n: &str| n.to_string();
    let ms = container_of(&dir, MESH, &["-T", "ms_6_5", "-E", "main"]);
    let c = reader::check_all(&ms).unwrap();
    // The primitive signature is PSG1.
    assert_eq!(names(&c), ["SFI0", "ISG1", "OSG1", "PSG1", "PSV0", "STAT", "HASH", "DXIL"]);
    let osg: Vec<_> = rows(&c, "OSG1").into_iter().map(|r| (r.0, r.2, r.4, r.5)).collect();
    assert_eq!(osg, [(s("SV_Position"), 1, 0, 0xF), (s("TEXCOORD"), 0, 1, 0x3)]);
    // D3D_NAME_PRIMITIVE_ID 7 in register 0; D3D_NAME_CULLPRIMITIVE 25, not packed (~0).
    let psg: Vec<_> = rows(&c, "PSG1").into_iter().map(|r| (r.0, r.2, r.4, r.5)).collect();
    assert_eq!(psg, [(s("SV_PrimitiveID"), 7, 0, 0x1), (s("SV_CullPrimitive"), 25, u32::MAX, 0x1)]);
    let psv = reader::psv(c.part("PSV0").unwrap()).unwrap();
    let u32_at = |i: usize| u32::from_le_bytes(psv.runtime_info[i..i + 4].try_into().unwrap());
    let u16_at = |i: usize| u16::from_le_bytes(psv.runtime_info[i..i + 2].try_into().unwrap());
    // MSInfo: 32 bytes of groupshared (float[8]), none depending on the view id, a 16-byte
    // payload, 4 vertices and 2 primitives at most.
    assert_eq!([u32_at(0), u32_at(4), u32_at(8)], [32, 0, 16]);
    assert_eq!([u16_at(12), u16_at(14)], [4, 2]);
    // Stage 13, one primitive vector (SV_PrimitiveID), triangle topology (2) after it.
    assert_eq!((psv.stage, psv.pc_vectors, psv.runtime_info[27]), (13, 1, 2));
    assert_eq!((psv.output_vectors[0], psv.num_threads), (2, [8, 1, 1]));
}
