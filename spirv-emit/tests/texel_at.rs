//! `tex.mips[level][coord]` and `tex.sample[index][coord]`: `OpImageFetch` with a `Lod` or
//! `Sample` operand, checked by `spirv-val` and by the disassembly.

use hlslc_spirv::target::TargetEnv;

mod common;

#[test]
fn mips_and_sample_accessors_fetch_with_lod_and_sample() {
    let src = r#"
Texture2D<int2> t2 : register(t0);
Texture2DMSArray<float4> ms : register(t1);
vk::SampledTexture3D<uint3> s3 : register(t2);
float4 main(uint level : L, uint3 p : P) : SV_Target {
    int2 a = t2.mips[level][p.xy];
    float4 b = ms.sample[3][p];
    uint3 c = s3.mips[2][p];
    return a.x + b + c.y;
}
"#;
    let words = common::compile(src, "ps_6_0", TargetEnv::default());
    common::validate(&words, "vulkan1.1");
    let text = hlslc_spirv::disasm::disassemble(&words).expect("disassembles");
    let fetches: Vec<&str> = text.lines().filter(|l| l.contains("OpImageFetch")).map(str::trim).collect();
    assert_eq!(fetches.len(), 3, "{text}");
    assert!(fetches[0].contains("OpImageFetch %v4int") && fetches[0].contains(" Lod %"), "{}", fetches[0]);
    assert!(fetches[1].contains("OpImageFetch %v4float") && fetches[1].ends_with("Sample %uint_3"), "{}", fetches[1]);
    assert!(fetches[2].contains("OpImageFetch %v4uint") && fetches[2].ends_with("Lod %uint_2"), "{}", fetches[2]);
    // The combined image of the vk::SampledTexture is split with OpImage before the fetch.
    assert!(text.contains("OpImage %type_3d_image"), "{text}");
}
