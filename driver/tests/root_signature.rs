//! Root signatures on the command line: `[RootSignature]`, `-rootsig-define`, `-T rootsig_1_x`,
//! `-force-rootsig-ver`, `-Frs`, `-Qstrip_rootsignature` and `-extractrootsignature`. The
//! expected `RTS0` bytes are written out by hand from D3D12's serialized layout (header, then
//! the parameters, then each payload, then the static samplers), not taken from hlslc.

mod common;
use common::*;
use hlslc_dxil::container::reader;

/// A pixel shader reading t3, with the root signature given as the macro `RS`.
const PS: &str = "#define RS \"RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT), \" \\\n  \"DescriptorTable(SRV(t3))\"
#define BAD \"SRV(t0)\"
Texture1D<float> tex : register(t3);
#ifdef ATTR
[RootSignature(ATTR)]
#endif
float4 main(float i : I) : SV_Target { return tex[i]; }
";

const APPEND: u32 = 0xFFFF_FFFF;

fn words(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// `RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT), DescriptorTable(SRV(t3))` in version 1.1:
/// header (24 bytes), one parameter at 24 (table, visibility all, payload at 36), the table
/// {1 range at 44}, the range {SRV, 1, t3, space 0, flags 0, append}; no samplers (at 68).
fn rts0_v11() -> Vec<u8> {
    words(&[2, 1, 24, 0, 68, 1, 0, 0, 36, 1, 44, 0, 1, 3, 0, 0, APPEND])
}

/// The same in version 1.0: ranges have no flags word (20 bytes).
fn rts0_v10() -> Vec<u8> {
    words(&[1, 1, 24, 0, 64, 1, 0, 0, 36, 1, 44, 0, 1, 3, 0, APPEND])
}

fn s(p: &std::path::Path) -> String {
    p.to_str().unwrap().to_string()
}

fn part(bytes: &[u8], fourcc: &str) -> Option<Vec<u8>> {
    reader::check_all(bytes).unwrap().part(fourcc).map(|p| p.data.to_vec())
}

fn names(bytes: &[u8]) -> Vec<String> {
    reader::check_all(bytes).unwrap().parts.iter().map(|p| p.fourcc.clone()).collect()
}

#[test]
fn attribute_and_define_fill_the_rts0_part() {
    let dir = TempDir::new("rootsig-attr");
    let f = s(&dir.file("ps.hlsl", PS));
    let (obj, rs) = (dir.path("ps.dxil"), dir.path("ps.rs"));
    // [RootSignature(RS)]: the part after PSV0, and -Frs writes it as a one-part container.
    let o = hlslc(&["-T", "ps_6_0", &f, "-D", "ATTR=RS", "-Fo", &s(&obj), "-Frs", &s(&rs)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let bytes = std::fs::read(&obj).unwrap();
    assert_eq!(names(&bytes), ["SFI0", "ISG1", "OSG1", "PSV0", "RTS0", "STAT", "HASH", "DXIL"]);
    assert_eq!(part(&bytes, "RTS0").unwrap(), rts0_v11());
    let rs_bytes = std::fs::read(&rs).unwrap();
    assert_eq!(names(&rs_bytes), ["RTS0"]);
    assert_eq!(part(&rs_bytes, "RTS0").unwrap(), rts0_v11());
    // Without a root signature: no part, and -Frs has nothing to write.
    let o = hlslc(&["-T", "ps_6_0", &f, "-Fo", &s(&obj)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(part(&std::fs::read(&obj).unwrap(), "RTS0").is_none());
    let o = hlslc(&["-T", "ps_6_0", &f, "-Frs", &s(&rs)]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("'-Frs' needs a root signature"), "{}", stderr(&o));
    // -rootsig-define RS alone, and overriding an attribute whose root signature does not bind
    // t3 (which dxc's validator rejects).
    let o = hlslc(&["-T", "ps_6_0", &f, "-D", "ATTR=BAD"]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("Root Signature in DXIL container is not compatible with shader"), "{}", stderr(&o));
    assert!(stderr(&o).contains("Shader SRV descriptor range (RegisterSpace=0, NumDescriptors=1, BaseShaderRegister=3) is not fully bound"), "{}", stderr(&o));
    for attr in [&[][..], &["-D", "ATTR=BAD"][..]] {
        let mut args = vec!["-T", "ps_6_0", &f, "-rootsig-define", "RS", "-Fo"];
        let obj_s = s(&obj);
        args.push(&obj_s);
        args.extend_from_slice(attr);
        let o = hlslc(&args);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        assert_eq!(part(&std::fs::read(&obj).unwrap(), "RTS0").unwrap(), rts0_v11());
    }
    // An undefined macro.
    let o = hlslc(&["-T", "ps_6_0", &f, "-rootsig-define", "NOPE"]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("root signature error - undeclared identifier NOPE"), "{}", stderr(&o));
}

#[test]
fn force_rootsig_ver_and_strip() {
    let dir = TempDir::new("rootsig-ver");
    let f = s(&dir.file("ps.hlsl", PS));
    let (obj, rs) = (dir.path("ps.dxil"), dir.path("ps.rs"));
    for flag in ["-force-rootsig-ver", "-force_rootsig_ver"] {
        let o = hlslc(&["-T", "ps_6_0", &f, "-rootsig-define", "RS", flag, "rootsig_1_0", "-Fo", &s(&obj)]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        assert_eq!(part(&std::fs::read(&obj).unwrap(), "RTS0").unwrap(), rts0_v10(), "{flag}");
    }
    let o = hlslc(&["-T", "ps_6_0", &f, "-rootsig-define", "RS", "-force-rootsig-ver", "rootsig_9_9"]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("invalid value 'rootsig_9_9' for -force-rootsig-ver"), "{}", stderr(&o));
    // Flags do not exist in 1.0: dxc's message.
    let src = dir.file("flags.hlsl", "#define RS \"DescriptorTable(SRV(t3, flags = DATA_VOLATILE))\"\nTexture1D<float> tex : register(t3);\nfloat4 main(float i : I) : SV_Target { return tex[i]; }\n");
    let o = hlslc(&["-T", "ps_6_0", &s(&src), "-rootsig-define", "RS", "-force-rootsig-ver", "rootsig_1_0"]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("root signature error - Descriptor range flags cannot be specified for root_sig_1_0"), "{}", stderr(&o));
    // -Qstrip_rootsignature: no RTS0 in the container; -Frs still gets it.
    let o = hlslc(&["-T", "ps_6_0", &f, "-rootsig-define", "RS", "-Qstrip_rootsignature", "-Fo", &s(&obj), "-Frs", &s(&rs)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(names(&std::fs::read(&obj).unwrap()), ["SFI0", "ISG1", "OSG1", "PSV0", "STAT", "HASH", "DXIL"]);
    assert_eq!(part(&std::fs::read(&rs).unwrap(), "RTS0").unwrap(), rts0_v11());
}

#[test]
fn extractrootsignature_writes_the_part() {
    let dir = TempDir::new("rootsig-extract");
    let f = s(&dir.file("ps.hlsl", PS));
    let (obj, out) = (dir.path("ps.dxil"), dir.path("rs.bin"));
    // After compiling: -Fo gets the serialized root signature instead of the container.
    let o = hlslc(&["-T", "ps_6_0", &f, "-rootsig-define", "RS", "-extractrootsignature", "-Fo", &s(&out)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(std::fs::read(&out).unwrap(), rts0_v11());
    // From a container (-dumpbin).
    let o = hlslc(&["-T", "ps_6_0", &f, "-rootsig-define", "RS", "-force-rootsig-ver", "rootsig_1_0", "-Fo", &s(&obj)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = hlslc(&["-dumpbin", &s(&obj), "-extractrootsignature", "-Fo", &s(&out)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(std::fs::read(&out).unwrap(), rts0_v10());
    // A container without one.
    let o = hlslc(&["-T", "ps_6_0", &f, "-Fo", &s(&obj)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = hlslc(&["-dumpbin", &s(&obj), "-extractrootsignature", "-Fo", &s(&out)]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("no root signature (RTS0 part)"), "{}", stderr(&o));
    // -dumpbin lists it in the root signature language.
    let o = hlslc(&["-T", "ps_6_0", &f, "-rootsig-define", "RS", "-Fo", &s(&obj)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = hlslc(&["-dumpbin", &s(&obj)]);
    assert!(stdout(&o).contains(";   RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT),\n;   DescriptorTable(SRV(t3, flags = 0))"), "{}", stdout(&o));
}

#[test]
fn rootsig_profile_compiles_a_macro_alone() {
    let dir = TempDir::new("rootsig-profile");
    let f = s(&dir.file("rs.hlsl", "#define PART \"(SRV(t3))\"\n#define RS RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT), DescriptorTable PART\nthis is not HLSL, only preprocessed\n"));
    let obj = dir.path("rs.bin");
    for (profile, want) in [("rootsig_1_1", rts0_v11()), ("rootsig_1_0", rts0_v10())] {
        let o = hlslc(&["-T", profile, "-E", "RS", &f, "-Fo", &s(&obj)]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let bytes = std::fs::read(&obj).unwrap();
        assert_eq!(names(&bytes), ["RTS0"]);
        assert_eq!(part(&bytes, "RTS0").unwrap(), want);
    }
    let o = hlslc(&["-T", "rootsig_1_1", "-E", "main", &f]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("root signature error - undeclared identifier main"), "{}", stderr(&o));
    let o = hlslc(&["-T", "rootsig_1_1", "-E", "OTHER", "-D", "OTHER=SSRV(t0)", &f]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("root signature error - Unexpected token 'SSRV' when parsing root signature"), "{}", stderr(&o));
}

#[test]
fn ray_tracing_entries_refuse_the_attribute() {
    let dir = TempDir::new("rootsig-rt");
    let f = s(&dir.file("rt.hlsl", "RWStructuredBuffer<int> b : register(u0);\n[shader(\"raygeneration\")]\n[RootSignature(\"UAV(u0)\")]\nvoid rg() { b[0] = 1; }\n"));
    let o = hlslc(&["-T", "lib_6_6", &f]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("root signature attribute not supported for raytracing entry functions"), "{}", stderr(&o));
}
