//! Intrinsics on packed, split and 16/64-bit values: the instruction sequences dxc uses, every
//! module through `spirv-val` for Vulkan 1.0 (the 32-bit-only rules of FindUMsb/FindSMsb/FindILsb
//! and OpBitReverse included). Their values are checked on a device by the execution cases
//! `intrinsics.bits.wide` and `intrinsics.packed`.

mod common;

use hlslc_frontend::diag::Diagnostics;
use hlslc_frontend::parser::{parse, ParseOptions};
use hlslc_frontend::pp::{preprocess, PpOptions};
use hlslc_frontend::SourceMap;
use hlslc_sema::{analyze, SemaOptions};
use hlslc_spirv::lower::{emit_spirv, LowerOptions};
use hlslc_spirv::TargetEnv;

/// Compiles with `-enable-16bit-types`, validates for `target`, and checks `expect` in order.
fn check16(src: &str, profile: &str, target: TargetEnv, expect: &[&str]) -> String {
    let mut sm = SourceMap::new();
    let f = sm.add("test.hlsl", src);
    let mut diags = Diagnostics::new();
    let toks = preprocess(&mut sm, f, &PpOptions::default(), None, &mut diags);
    let tu = parse(&toks, &ParseOptions::default(), &mut diags);
    let opts = SemaOptions { profile: profile.into(), entry: "main".into(), enable_16bit: true, ..SemaOptions::default() };
    let m = analyze(&tu, &opts, &mut diags);
    assert!(!diags.has_errors(), "{}", diags.render(&sm));
    let lo = LowerOptions { entry_name: "main".into(), target, ..LowerOptions::default() };
    let words = emit_spirv(&m.unwrap(), &lo).unwrap_or_else(|e| panic!("lowering failed: {e:?}"));
    common::validate(&words, target.as_str());
    let text = hlslc_spirv::disasm::disassemble(&words).expect("disassembles");
    let mut rest = text.as_str();
    for e in expect {
        match rest.find(e) {
            Some(i) => rest = &rest[i + e.len()..],
            None => panic!("missing `{e}` (in order) in:\n{text}"),
        }
    }
    text
}

#[test]
fn bit_intrinsics_on_64_bit_values_work_on_32_bit_halves() {
    let text = check16(
        r#"
RWStructuredBuffer<uint> O;
RWStructuredBuffer<uint64_t2> L;
[numthreads(1, 1, 1)]
void main() {
    uint64_t2 u = L[0];
    int64_t2 s = (int64_t2)L[1];
    uint2 h = firstbithigh(u);
    uint2 l = firstbitlow(u);
    uint2 sh = firstbithigh(s);
    L[2] = reversebits(u);
    int2 sg = sign(s);
    O[0] = h.x + l.y + sh.x + sg.y;
}
"#,
        "cs_6_2",
        TargetEnv::Vulkan1_0,
        &[
            // firstbithigh(uint64_t2): the high half's FindUMsb + 32 unless the high half is 0.
            "OpUConvert %v2uint",
            "OpShiftRightLogical %v2ulong",
            "OpUConvert %v2uint",
            "FindUMsb",
            "FindUMsb",
            "OpIAdd %v2uint",
            "OpIEqual %v2bool",
            "OpSelect %v2uint",
            // firstbitlow: FindILsb on each half.
            "FindILsb",
            "FindILsb",
            "OpSelect %v2uint",
            "OpSelect %v2uint",
            // firstbithigh(int64_t2): x ^ (x >> 63) first.
            "OpShiftRightArithmetic %v2long",
            "OpBitwiseXor %v2long",
            "FindUMsb",
            // reversebits: reversed halves swap places.
            "OpBitReverse %v2uint",
            "OpBitReverse %v2uint",
            "OpShiftLeftLogical %v2ulong",
            "OpBitwiseOr %v2ulong",
            // sign: SSign in 64 bits, then to int.
            "SSign",
            "OpSConvert %v2int",
        ],
    );
    assert!(!text.contains("FindUMsb %ulong") && !text.contains("OpBitReverse %v2ulong"), "{text}");
}

#[test]
fn bit_intrinsics_on_16_bit_values_widen_to_32_bits() {
    check16(
        r#"
RWStructuredBuffer<uint> O;
[numthreads(1, 1, 1)]
void main() {
    uint16_t u = (uint16_t)O[0];
    int16_t s = (int16_t)O[1];
    O[2] = firstbithigh(u) + firstbitlow(u) + firstbithigh(s);
    O[3] = reversebits(u) + (uint)sign(s);
}
"#,
        "cs_6_2",
        TargetEnv::Vulkan1_0,
        &[
            "OpUConvert %uint",
            "FindUMsb",
            "OpUConvert %uint",
            "FindILsb",
            "OpSConvert %int",
            "FindSMsb",
            "OpUConvert %uint",
            "OpBitReverse %uint",
            "OpShiftRightLogical %uint",
            "OpUConvert %ushort",
            "SSign",
            "OpSConvert %int",
        ],
    );
}

#[test]
fn packed_intrinsics_lower_as_dxc_does() {
    check16(
        r#"
RWStructuredBuffer<float4> F;
RWStructuredBuffer<uint4> U;
[numthreads(1, 1, 1)]
void main() {
    int4 c = D3DCOLORtoUBYTE4(F[0]);
    uint4 s = AddUint64(U[0], U[1]);
    float d = dot2add((half2)F[1].xy, (half2)F[1].zw, F[2].x);
    uint p = dot4add_u8packed(U[2].x, U[2].y, U[2].z);
    int q = dot4add_i8packed(U[2].x, U[2].y, (int)U[2].w);
    float4 a = F[3];
    float2x3 m = float2x3(a.x, a.y, a.z, a.w, a.x, a.y);
    float2x3 ip;
    float2x3 fr = modf(m, ip);
    U[3] = uint4(c) + s + uint4(d, p, q, fr[1][2] + ip[0][0]);
}
"#,
        "cs_6_4",
        TargetEnv::Vulkan1_1,
        &[
            "OpVectorShuffle %v4float",
            " 2 1 0 3",
            "OpVectorTimesScalar %v4float",
            "OpConvertFToS %v4int",
            "OpIAddCarry %AddCarryStruct",
            "OpIAdd %uint",
            "OpIAddCarry %AddCarryStruct",
            "OpFMul %v2half",
            "OpFConvert %v2float",
            "OpFAdd %float",
            "OpFAdd %float",
            "OpUDot %uint",
            "PackedVectorFormat4x8Bit",
            "OpSDot %int",
            "ModfStruct",
            "ModfStruct",
        ],
    );
}

#[test]
fn non_uniform_resource_index_decorates_the_descriptors_it_selects() {
    let text = check16(
        r#"
Texture2D T[] : register(t0);
SamplerState S[4];
RWTexture2D<float4> RW[4];
RWStructuredBuffer<float> F;
[numthreads(1, 1, 1)]
void main() {
    uint i = (uint)F[9];
    F[9] = T[NonUniformResourceIndex(i)].SampleLevel(S[0], float2(0, 0), 0).x;
    RW[NonUniformResourceIndex(i) % 3][uint2(0, 0)] = 4;
}
"#,
        "cs_6_0",
        TargetEnv::Vulkan1_0,
        &[
            "OpCapability ShaderNonUniform",
            "OpCapability SampledImageArrayNonUniformIndexing",
            "OpCapability StorageImageArrayNonUniformIndexing",
            "OpExtension \"SPV_EXT_descriptor_indexing\"",
        ],
    );
    // The copy of the index, the access chain and the load of the image (and the sampled image
    // made from it), and for RW: the copy, the `% 3`, the chain and the load.
    let decorated: Vec<&str> = text.lines().filter(|l| l.ends_with(" NonUniform")).collect();
    assert_eq!(decorated.len(), 8, "{text}");
    for id in decorated.iter().map(|l| l.split_whitespace().nth(1).unwrap()) {
        let def = text.lines().find(|l| l.trim_start().starts_with(&format!("{id} ="))).expect("defined");
        assert!(
            ["OpCopyObject", "OpAccessChain", "OpLoad", "OpSampledImage", "OpUMod"].iter().any(|op| def.contains(op)),
            "unexpected NonUniform on {def}"
        );
    }
    let sample = text.lines().find(|l| l.contains("OpImageSampleExplicitLod")).expect("sample");
    let sid = sample.split_whitespace().next().unwrap();
    assert!(!text.contains(&format!("OpDecorate {sid} NonUniform")), "sampled data is not a descriptor");
}
