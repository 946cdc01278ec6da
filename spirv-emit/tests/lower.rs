//! End-to-end lowering: HLSL source → front end → sema → SPIR-V, each output checked by
//! `spirv-val` (skipped with a message when SPIRV-Tools is not installed) and by what the
//! disassembly must contain.

use hlslc_spirv::target::TargetEnv;

mod common;

fn check(src: &str, profile: &str, expect: &[&str]) -> String {
    let words = common::compile(src, profile, TargetEnv::default());
    common::validate(&words, "vulkan1.0");
    let text = hlslc_spirv::disasm::disassemble(&words).expect("disassembles");
    for e in expect {
        assert!(text.contains(e), "missing `{e}` in:\n{text}");
    }
    text
}

#[test]
fn compute_structured_buffer_arithmetic() {
    check(
        r#"
RWStructuredBuffer<uint> buf : register(u0);
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    buf[id.x] = buf[id.x] * 2u + 1u;
}
"#,
        "cs_6_0",
        &[
            "OpEntryPoint GLCompute %main \"main\" %gl_GlobalInvocationID",
            "OpExecutionMode %main LocalSize 64 1 1",
            "OpDecorate %buf DescriptorSet 0",
            "OpDecorate %buf Binding 0",
            "%src_main = OpFunction",
            "OpIMul %uint",
        ],
    );
}

#[test]
fn control_flow_and_functions() {
    check(
        r#"
RWStructuredBuffer<int> o : register(u1, space2);
int sum(int n, out int last) {
    int s = 0;
    for (int i = 0; i < n; ++i) {
        if (i == 3) continue;
        s += i;
        last = i;
    }
    while (s > 100) { s -= 7; if (s < 0) break; }
    do { s++; } while (s < 5);
    switch (n) { case 0: s = -1; break; case 1: case 2: s = 2; default: s += 1; }
    return s;
}
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    int l;
    o[0] = sum(10, l) + l;
    o[1] = id.x > 3 ? 1 : 2;
}
"#,
        "cs_6_0",
        &["OpLoopMerge", "OpSwitch", "OpDecorate %o DescriptorSet 2", "OpDecorate %o Binding 1"],
    );
}

#[test]
fn vertex_and_pixel_stage_io() {
    check(
        r#"
struct VSOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; nointerpolation uint id : TEXCOORD1; };
VSOut main(float3 p : POSITION, float2 uv : TEXCOORD0, uint vid : SV_VertexID) {
    VSOut o;
    o.pos = float4(p, 1.0);
    o.uv = uv;
    o.id = vid;
    return o;
}
"#,
        "vs_6_0",
        &["BuiltIn Position", "BuiltIn VertexIndex", "%in_var_POSITION", "%out_var_TEXCOORD0"],
    );
    check(
        r#"
Texture2D<float4> tex : register(t0);
SamplerState smp : register(s0);
cbuffer Params : register(b0) { float4 tint; float scale; row_major float4x4 m; };
float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target {
    float4 c = tex.Sample(smp, uv) * tint;
    c.xyz = saturate(c.xyz * scale);
    return mul(c, m);
}
"#,
        "ps_6_0",
        &["OpImageSampleImplicitLod", "BuiltIn FragCoord", "%out_var_SV_Target", "OpMatrixTimesVector", "OpExecutionMode %main OriginUpperLeft"],
    );
}

#[test]
fn groupshared_barrier_and_atomics() {
    check(
        r#"
RWByteAddressBuffer counters : register(u0);
RWStructuredBuffer<float> data : register(u1);
groupshared float tmp[64];
[numthreads(64, 1, 1)]
void main(uint gi : SV_GroupIndex) {
    tmp[gi] = data[gi];
    GroupMemoryBarrierWithGroupSync();
    for (uint s = 32; s > 0; s >>= 1) {
        if (gi < s) tmp[gi] += tmp[gi + s];
        GroupMemoryBarrierWithGroupSync();
    }
    uint old;
    counters.InterlockedAdd(0, 1, old);
    if (gi == 0) { data[0] = tmp[0]; counters.Store(4, old); }
}
"#,
        "cs_6_0",
        &["OpControlBarrier", "Workgroup"],
    );
}
