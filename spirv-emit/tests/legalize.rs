//! Resources held in local variables (DXC's legalization): a local of resource type initialized
//! from a global resource is an alias of that resource, so every use reaches the global variable
//! and the module is valid SPIR-V (no opaque value stored in Function memory).

use hlslc_spirv::target::TargetEnv;

mod common;

fn compile_checked(src: &str, profile: &str) -> String {
    let words = common::compile(src, profile, TargetEnv::default());
    common::validate(&words, "vulkan1.1");
    hlslc_spirv::disasm::disassemble(&words).expect("disassembles")
}

#[test]
fn local_texture_and_sampler_alias_the_globals() {
    let text = compile_checked(
        r#"
Texture2D<float4> gTex : register(t0);
Texture2D<float4> gTexs[4] : register(t1);
SamplerState gSamp : register(s0);
float4 main(float2 uv : UV, uint i : IDX) : SV_Target {
    Texture2D<float4> t = gTex;
    Texture2D<float4> u = gTexs[i];
    SamplerState s = gSamp;
    return t.Sample(s, uv) + u.Sample(s, uv);
}
"#,
        "ps_6_0",
    );
    // No Function-storage variable of an image or sampler type.
    assert!(!text.contains("_ptr_Function_type_2d_image"), "{text}");
    assert!(!text.contains("_ptr_Function_type_sampler"), "{text}");
    // The element of the array is taken with an access chain into the UniformConstant array.
    assert!(text.contains("OpAccessChain %_ptr_UniformConstant_type_2d_image %gTexs"), "{text}");
    assert_eq!(text.matches("OpImageSampleImplicitLod").count(), 2, "{text}");
}

#[test]
fn local_structured_buffer_keeps_its_counter() {
    compile_checked(
        r#"
RWStructuredBuffer<uint> gBuf : register(u0);
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    RWStructuredBuffer<uint> b = gBuf;
    uint n = b.IncrementCounter();
    b[id.x] = n;
}
"#,
        "cs_6_0",
    );
}

#[test]
fn resource_local_reassigned_under_a_branch_is_a_diagnostic() {
    let src = r#"
Texture2D<float4> gA : register(t0);
Texture2D<float4> gB : register(t1);
float4 main(float2 uv : UV, uint i : IDX) : SV_Target {
    Texture2D<float4> t = gA;
    if (i > 2) t = gB;
    return t.Load(int3(0, 0, 0));
}
"#;
    let e = common::lower(src, "ps_6_0", TargetEnv::default()).expect_err("resource local reassigned under a branch");
    assert!(e.message.contains("resource variable 't'") && e.message.contains("inside a branch or loop"), "{}", e.message);
}
