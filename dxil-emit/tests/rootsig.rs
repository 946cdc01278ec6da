//! The root signature language and its `RTS0` bytes. Expected bytes are written out by hand
//! from D3D12's serialized layout (the header `{Version, NumParameters, RootParametersOffset,
//! NumStaticSamplers, StaticSamplersOffset, Flags}`, the 12-byte parameters, each payload in
//! order, then the 52-byte static samplers); expected messages are dxc's.

use hlslc_dxil::rootsig::{binary, compile, parse::parse, print::to_text, Version};

const APPEND: u32 = 0xFFFF_FFFF;

fn words(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn bytes(text: &str, v: Version) -> Vec<u8> {
    compile(text, v).unwrap_or_else(|e| panic!("{text}: {e}")).1
}

fn error(text: &str, v: Version) -> String {
    compile(text, v).err().unwrap_or_else(|| panic!("{text} compiled"))
}

#[test]
fn empty_root_signature_is_a_header() {
    assert_eq!(bytes("", Version::V1_1), words(&[2, 0, 24, 0, 24, 0]));
    assert_eq!(bytes("", Version::V1_0), words(&[1, 0, 24, 0, 24, 0]));
}

#[test]
fn root_descriptors_and_constants() {
    // 48 bytes, as dxc reports for `GlobalRootSignature grs = {"CBV(b0)"}`.
    assert_eq!(bytes("CBV(b0)", Version::V1_1), words(&[2, 1, 24, 0, 48, 0, 2, 0, 36, 0, 0, 0]));
    assert_eq!(bytes("CBV(b0)", Version::V1_0), words(&[1, 1, 24, 0, 44, 0, 2, 0, 36, 0, 0]));
    assert_eq!(
        bytes("UAV(u5, space = 2, flags = DATA_VOLATILE, visibility = SHADER_VISIBILITY_GEOMETRY), SRV(t1, flags = DATA_STATIC)", Version::V1_1),
        words(&[2, 2, 24, 0, 72, 0, 4, 4, 48, 3, 0, 60, 5, 2, 2, 1, 0, 8])
    );
    assert_eq!(
        bytes("RootConstants(num32BitConstants=3, b2, space=1, visibility=SHADER_VISIBILITY_PIXEL)", Version::V1_1),
        words(&[2, 1, 24, 0, 48, 0, 1, 5, 36, 2, 1, 3])
    );
}

#[test]
fn descriptor_tables() {
    let text = "RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT | DENY_HULL_SHADER_ROOT_ACCESS), \
                DescriptorTable(SRV(t0, numDescriptors = unbounded), visibility = SHADER_VISIBILITY_PIXEL), \
                DescriptorTable(Sampler(s1, numDescriptors = 2, space = 3, offset = 4))";
    let v11 = words(&[
        2, 2, 24, 0, 112, 0x5, // header
        0, 5, 48, 0, 0, 80, // two tables
        1, 56, 0, APPEND, 0, 0, 0, APPEND, // first: one range at 56
        1, 88, 3, 2, 1, 3, 0, 4, // second: one range at 88
    ]);
    assert_eq!(bytes(text, Version::V1_1), v11);
    let v10 = words(&[1, 2, 24, 0, 104, 0x5, 0, 5, 48, 0, 0, 76, 1, 56, 0, APPEND, 0, 0, APPEND, 1, 84, 3, 2, 1, 3, 4]);
    assert_eq!(bytes(text, Version::V1_0), v10);
    assert_eq!(
        bytes("DescriptorTable(CBV(b0), UAV(u1, numDescriptors = 4, flags = DESCRIPTORS_VOLATILE | DATA_VOLATILE))", Version::V1_1),
        words(&[2, 1, 24, 0, 92, 0, 0, 0, 36, 2, 44, 2, 1, 0, 0, 0, APPEND, 1, 4, 1, 0, 3, APPEND])
    );
}

#[test]
fn static_samplers_with_every_field() {
    let text = "StaticSampler(s1, filter = FILTER_MIN_MAG_MIP_POINT, addressU = TEXTURE_ADDRESS_CLAMP, \
                addressV = TEXTURE_ADDRESS_MIRROR, addressW = TEXTURE_ADDRESS_BORDER, mipLODBias = -1, \
                maxAnisotropy = 8, comparisonFunc = COMPARISON_ALWAYS, borderColor = STATIC_BORDER_COLOR_OPAQUE_BLACK, \
                minLOD = 0.5, maxLOD = 8.5f, space = 2, visibility = SHADER_VISIBILITY_MESH)";
    let sampler = [0, 3, 2, 4, (-1.0f32).to_bits(), 8, 8, 1, 0.5f32.to_bits(), 8.5f32.to_bits(), 1, 2, 7];
    let mut want = vec![2, 0, 24, 1, 24, 0];
    want.extend_from_slice(&sampler);
    assert_eq!(bytes(text, Version::V1_1), words(&want));
    // The defaults: anisotropic, wrap, 16, less-equal, opaque white, LOD 0 to FLT_MAX.
    let defaults = [0x55, 1, 1, 1, 0, 16, 4, 2, 0, f32::MAX.to_bits(), 0, 0, 0];
    let mut want = vec![1, 0, 24, 1, 24, 0];
    want.extend_from_slice(&defaults);
    assert_eq!(bytes("StaticSampler(s0)", Version::V1_0), words(&want));
    // Keywords are case-insensitive; registers are not.
    assert_eq!(bytes("staticsampler(s0, FILTER = filter_anisotropic)", Version::V1_0), words(&want));
}

#[test]
fn dxc_messages_for_bad_strings() {
    let v = Version::V1_1;
    assert_eq!(error("XescriptorTable(SRV(x))", v), "Unexpected token 'XescriptorTable' when parsing root signature");
    assert_eq!(error("SSRV(t0)", v), "Unexpected token 'SSRV' when parsing root signature");
    assert_eq!(error("CBV(t0)", v), "Incorrect register type 't0' in CBV (expected b#)");
    assert_eq!(error("SRV()", v), "Unexpected token ')'");
    assert_eq!(error("SRV(space = 1)", v), "shader register must be defined for each CBV/SRV/UAV");
    assert_eq!(error("SRV(t0) SRV(t1)", v), "Expected ',', found: 'SRV'");
    assert_eq!(error("RootFlags(0), RootFlags(0)", v), "RootFlags cannot be specified more than once");
    assert_eq!(error("RootFlags(3)", v), "Root signature flag values can only be 0 or flag enum values, found: '3'");
    assert_eq!(error("RootFlags(DATA_STATIC)", v), "Expected a root signature flag value, found: 'DATA_STATIC'");
    assert_eq!(error("RootConstants(b0)", v), "num32BitConstants must be defined for each RootConstants");
    assert_eq!(error("RootConstants(num32BitConstants = 1)", v), "Constant buffer register b# must be defined for each RootConstants");
    assert_eq!(error("CBV(b0, space = 1, space = 2)", v), "Parameter 'space' can be specified only once");
    assert_eq!(error("CBV(b0, visibility = SHADER_VISIBILITY_NONE)", v), "Unexpected visibility value: 'SHADER_VISIBILITY_NONE'.");
    assert_eq!(error("CBV(b0, flags = DESCRIPTORS_VOLATILE)", v), "Expected a root descriptor flag value, found: 'DESCRIPTORS_VOLATILE'");
    assert_eq!(error("CBV(b0, flags = DATA_STATIC)", Version::V1_0), "Root descriptor flags cannot be specified for root_sig_1_0");
    assert_eq!(error("StaticSampler(filter = FILTER_ANISOTROPIC)", v), "Sampler register s# must be defined for each static sampler");
    assert_eq!(error("StaticSampler(s0, filter = LINEAR)", v), "Unexpected filter value: 'LINEAR'.");
    assert_eq!(error("StaticSampler(s0, minLOD = x)", v), "Expected float, found token 'x'");
    assert_eq!(error("DescriptorTable(SRV(t0), Sampler(s0))", v), "Samplers cannot be mixed with other resource types in a descriptor table (root parameter [0]).");
    assert_eq!(error("DescriptorTable(SRV(t0, numDescriptors = 0))", v), "NumDescriptors cannot be 0 (descriptor table slot [0], root parameter [0]).");
    assert_eq!(
        error("DescriptorTable(SRV(t0, numDescriptors = unbounded), SRV(t100))", v),
        "Cannot append range with implicit lower bound after an unbounded range (descriptor table slot [1], root parameter [0])."
    );
    assert_eq!(
        error("SRV(t0), DescriptorTable(SRV(t0, numDescriptors = 2))", v),
        "Shader register range of type SRV (root parameter [1], visibility ALL, descriptor table slot [0]) overlaps with another shader register range (root parameter [0], visibility ALL)."
    );
    assert_eq!(
        error("StaticSampler(s0, maxAnisotropy = 17)", v),
        "Static sampler: MaxAnisotropy must be in the range [0 to 16].  17 specified."
    );
    // A tab is a token of its own in dxc's tokenizer, and not a valid one.
    assert_eq!(error("CBV(b0,\tspace = 1)", v), "Unexpected token '\t'");
}

#[test]
fn binary_and_text_round_trip() {
    let texts = [
        "RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT | DENY_PIXEL_SHADER_ROOT_ACCESS), CBV(b0, space = 1), SRV(t0, flags = DATA_STATIC), \
         UAV(u3, visibility = SHADER_VISIBILITY_DOMAIN), RootConstants(num32BitConstants = 4, b1, visibility = SHADER_VISIBILITY_VERTEX), \
         DescriptorTable(CBV(b2, numDescriptors = 3), SRV(t1, numDescriptors = unbounded, space = 4, flags = DESCRIPTORS_VOLATILE)), \
         DescriptorTable(Sampler(s0, offset = 7), visibility = SHADER_VISIBILITY_AMPLIFICATION), \
         StaticSampler(s3, filter = FILTER_MAXIMUM_ANISOTROPIC, mipLODBias = 1.25, maxLOD = 4)",
        "",
    ];
    for text in texts {
        for v in [Version::V1_0, Version::V1_1] {
            let text = if v == Version::V1_0 { text.replace(", flags = DATA_STATIC", "").replace(", flags = DESCRIPTORS_VOLATILE", "") } else { text.to_string() };
            let (rs, b) = compile(&text, v).unwrap();
            let back = binary::deserialize(&b).unwrap();
            assert_eq!(back, rs);
            let printed = to_text(&rs);
            assert_eq!(parse(&printed.replace('\n', " "), v).unwrap(), rs, "{printed}");
        }
    }
    // A truncated part is an error with an offset, not a panic.
    let (_, b) = compile("DescriptorTable(SRV(t0))", Version::V1_1).unwrap();
    for n in 0..b.len() {
        let _ = binary::deserialize(&b[..n]);
    }
    assert!(binary::deserialize(&b[..50]).is_err());
}
