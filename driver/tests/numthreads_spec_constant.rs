//! `[numthreads]` sized by a `[[vk::constant_id]]` specialization constant: the group size is set
//! by the pipeline through `OpExecutionModeId LocalSizeId` (Vulkan 1.3); an older target refuses
//! it naming the constant instead of baking in the default. The values on a device are checked by
//! the exec cases `vk.spec_constant.local_size(.override)`.

use std::process::Command;

const SRC: &str = "[[vk::constant_id(7)]] const uint X = 2;\nRWStructuredBuffer<uint> O;\n[numthreads(X, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { O[id.x] = id.x; }\n";

fn hlslc(dir: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let src = dir.join("nt.hlsl");
    std::fs::write(&src, SRC).unwrap();
    Command::new(env!("CARGO_BIN_EXE_hlslc"))
        .args(["-spirv", "-T", "cs_6_0", "-E", "main", "-O0"])
        .args(extra)
        .arg(&src)
        .output()
        .unwrap()
}

fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("hlslc-nt-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn vulkan_1_3_sizes_the_group_with_the_spec_constant() {
    let d = tmp("13");
    let out = hlslc(&d, &["-fspv-target-env=vulkan1.3"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("OpExecutionModeId %main LocalSizeId %X %uint_1 %uint_1"), "{text}");
    assert!(text.contains("OpDecorate %X SpecId 7"), "{text}");
    assert!(text.contains("%X = OpSpecConstant %uint 2"), "{text}");
    assert!(!text.contains("OpExecutionMode %main LocalSize "), "{text}");
    // spirv-val accepts it for Vulkan 1.3.
    let spv = d.join("nt.spv");
    let out = hlslc(&d, &["-fspv-target-env=vulkan1.3", "-Fo", spv.to_str().unwrap()]);
    assert!(out.status.success());
    match Command::new("spirv-val").args(["--target-env", "vulkan1.3"]).arg(&spv).output() {
        Ok(v) => assert!(v.status.success(), "spirv-val: {}", String::from_utf8_lossy(&v.stderr)),
        Err(_) => eprintln!("spirv-val not found: validation skipped"),
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn older_vulkan_targets_refuse_it_naming_the_constant() {
    let d = tmp("10");
    let out = hlslc(&d, &[]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the [numthreads] size 'X' is a specialization constant ([[vk::constant_id(7)]])"), "{err}");
    assert!(err.contains("-fspv-target-env=vulkan1.3"), "{err}");
    assert!(out.stdout.is_empty(), "no partial output");
    let _ = std::fs::remove_dir_all(&d);
}
