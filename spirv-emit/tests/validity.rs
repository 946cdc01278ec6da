//! Modules that once failed `spirv-val`: each case compiles, validates for its target env
//! (skipped with a message when SPIRV-Tools is not installed) and shows the construct that makes
//! it valid in its disassembly.

use hlslc_spirv::target::TargetEnv;

mod common;

fn check(src: &str, profile: &str, target: TargetEnv, expect: &[&str], absent: &[&str]) -> String {
    let words = common::compile(src, profile, target);
    common::validate(&words, target.as_str());
    let text = hlslc_spirv::disasm::disassemble(&words).expect("disassembles");
    for e in expect {
        assert!(text.contains(e), "missing `{e}` in:\n{text}");
    }
    for a in absent {
        assert!(!text.contains(a), "unexpected `{a}` in:\n{text}");
    }
    text
}

const BUFFERS: &str = r#"
struct S { float4 f[2]; };
ByteAddressBuffer bab;
RWStructuredBuffer<S> rwsb;
AppendStructuredBuffer<uint> asb;
TextureBuffer<S> tb;
tbuffer TB { float4 t; };
[numthreads(1, 1, 1)]
void main() {
    rwsb[0].f[1] = tb.f[0] + t + bab.Load(0);
    asb.Append(1);
}
"#;

/// From SPIR-V 1.4 on `BufferBlock` is gone: storage buffers (structured, byte address, texture
/// buffers, tbuffers and counters) are `Block` structs in the `StorageBuffer` class.
#[test]
fn storage_buffers_are_storage_buffer_blocks_from_spirv_1_4() {
    for target in [TargetEnv::Vulkan1_1Spirv1_4, TargetEnv::Vulkan1_2, TargetEnv::Vulkan1_3] {
        check(
            BUFFERS,
            "cs_6_0",
            target,
            &[
                "OpDecorate %type_ByteAddressBuffer Block",
                "OpDecorate %type_RWStructuredBuffer_S Block",
                "OpDecorate %type_TextureBuffer_S Block",
                "OpDecorate %type_TextureBuffer_TB Block",
                "OpDecorate %type_ACSBuffer_counter Block",
                "%rwsb = OpVariable %_ptr_StorageBuffer_type_RWStructuredBuffer_S StorageBuffer",
                "%tb = OpVariable %_ptr_StorageBuffer_type_TextureBuffer_S StorageBuffer",
                "%TB = OpVariable %_ptr_StorageBuffer_type_TextureBuffer_TB StorageBuffer",
                "%counter_var_asb = OpVariable %_ptr_StorageBuffer_type_ACSBuffer_counter StorageBuffer",
            ],
            &["BufferBlock", "_ptr_Uniform"],
        );
    }
}

/// Before SPIR-V 1.4 they are `BufferBlock` structs in the `Uniform` class; so are `tbuffer`s and
/// `TextureBuffer`s, whose std430 layout a `Block` in `Uniform` may not have.
#[test]
fn storage_buffers_are_uniform_buffer_blocks_before_spirv_1_4() {
    check(
        BUFFERS,
        "cs_6_0",
        TargetEnv::Vulkan1_0,
        &[
            "OpDecorate %type_ByteAddressBuffer BufferBlock",
            "OpDecorate %type_RWStructuredBuffer_S BufferBlock",
            "OpDecorate %type_TextureBuffer_S BufferBlock",
            "OpDecorate %type_TextureBuffer_TB BufferBlock",
            "OpDecorate %type_ACSBuffer_counter BufferBlock",
            "%tb = OpVariable %_ptr_Uniform_type_TextureBuffer_S Uniform",
        ],
        &["StorageBuffer"],
    );
}
