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
                "OpDecorate %type_TB Block",
                "OpDecorate %type_ACSBuffer_counter Block",
                "%rwsb = OpVariable %_ptr_StorageBuffer_type_RWStructuredBuffer_S StorageBuffer",
                "%tb = OpVariable %_ptr_StorageBuffer_type_TextureBuffer_S StorageBuffer",
                "%TB = OpVariable %_ptr_StorageBuffer_type_TB StorageBuffer",
                "%counter_var_asb = OpVariable %_ptr_StorageBuffer_type_ACSBuffer_counter StorageBuffer",
            ],
            &["BufferBlock", "_ptr_Uniform"],
        );
    }
}

/// Before SPIR-V 1.4 they are `BufferBlock` structs in the `Uniform` class; so are `tbuffer`s (whose
/// block is `type.<name>`, as for a cbuffer) and
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
            "OpDecorate %type_TB BufferBlock",
            "OpDecorate %type_ACSBuffer_counter BufferBlock",
            "%tb = OpVariable %_ptr_Uniform_type_TextureBuffer_S Uniform",
        ],
        &["StorageBuffer"],
    );
}

/// Statements after `continue`/`break`/`return` are dead: no block is emitted for them (a dead
/// block that branches to the continue target would sit outside the loop construct).
#[test]
fn code_after_a_jump_is_not_emitted() {
    let text = check(
        r#"
RWStructuredBuffer<int> o;
[numthreads(1, 1, 1)]
void main() {
    int val = 0;
    for (int i = 0; i < 10; ++i) {
        if (i < 5) { continue; }
        val = i;
        { continue; }
        val += 7;
        break;
    }
    o[0] = val;
    return;
    o[1] = 3;
}
"#,
        "cs_6_0",
        TargetEnv::Vulkan1_0,
        &["OpLoopMerge %for_merge %for_continue None"],
        &["%int_7", "%int_3"],
    );
    assert_eq!(text.matches("OpBranch %for_continue").count(), 2, "{text}");
}

/// Derivatives and implicit-LOD sampling in a compute shader need the threads grouped:
/// quads when `numthreads` x and y are even, else linear groups of four.
#[test]
fn compute_derivatives_declare_a_derivative_group() {
    for (threads, mode) in [("2, 2, 1", "DerivativeGroupQuads"), ("24, 1, 1", "DerivativeGroupLinear")] {
        let src = format!(
            r#"
SamplerState ss;
Texture2D<float4> t;
RWStructuredBuffer<float4> o;
[numthreads({threads})]
void main(uint3 id : SV_GroupThreadID) {{
    o[0] = t.Sample(ss, float2(id.xy)) + ddx(float(id.x)) + t.CalculateLevelOfDetail(ss, 0.5);
}}
"#
        );
        let text = check(&src, "cs_6_6", TargetEnv::Vulkan1_1, &["OpImageSampleImplicitLod", "OpDPdx", mode], &[]);
        assert_eq!(text.matches("OpExecutionMode %main Derivative").count(), 1, "{text}");
    }
}

/// An image offset that folds to a constant is a `ConstOffset` constant, whatever its form: here a
/// constant `int2` truncated to the `int` offset of a 1D array texture.
#[test]
fn truncated_constant_offset_is_a_constant() {
    check(
        r#"
Texture1DArray<float4> t;
SamplerComparisonState s;
float4 main() : SV_Target {
    return t.SampleCmp(s, float2(0.5, 0.25), 2.0f, int2(2, 3));
}
"#,
        "ps_6_0",
        TargetEnv::Vulkan1_0,
        &["ConstOffset %int_2"],
        &["OpCompositeExtract %int"],
    );
}

/// `all`, `any` and `clip` of a matrix go row by row: a SPIR-V vector has at most four
/// components, so a 3x4 matrix is never one 12-component vector.
#[test]
fn matrix_all_any_and_clip_go_row_by_row() {
    check(
        r#"
float3x4 m;
row_major int2x3 q; // (dxc refuses a column-major integer matrix set from outside)
float4 main() : SV_Target {
    clip(m);
    return float4(all(m), any(q), all(q), 0);
}
"#,
        "ps_6_0",
        TargetEnv::Vulkan1_0,
        &["OpAll %bool", "OpAny %bool", "OpCompositeConstruct %v3bool", "OpCompositeConstruct %v2bool"],
        &["v12", "v6"],
    );
}

/// Widening an unsigned integer to a signed one of another width: OpUConvert yields an unsigned
/// type, so the result is reinterpreted after it.
#[test]
fn unsigned_to_wider_signed_converts_then_bitcasts() {
    let words = common::compile(
        r#"
RWStructuredBuffer<int64_t> o;
StructuredBuffer<uint> i;
[numthreads(1, 1, 1)]
void main() { o[0] = (int64_t)i[0]; }
"#,
        "cs_6_2",
        TargetEnv::Vulkan1_1,
    );
    common::validate(&words, "vulkan1.1");
    let text = hlslc_spirv::disasm::disassemble(&words).expect("disassembles");
    assert!(text.contains("OpUConvert %ulong"), "{text}");
    assert!(text.contains("OpBitcast %long"), "{text}");
}

/// A loop condition that branches (`&&` short-circuits in HLSL 2021) is evaluated in its own
/// block after the header, so that the back edge goes to the block with the merge instruction.
#[test]
fn short_circuit_loop_condition_gets_its_own_block() {
    check(
        r#"
RWStructuredBuffer<int> o;
[numthreads(1, 1, 1)]
void main() {
    bool a = o[0] > 0, b = o[1] > 0;
    for (int i = 0; a && b; ++i) { o[2] = i; }
    while (a ? b : a) { o[3] = 1; }
}
"#,
        "cs_6_0",
        TargetEnv::Vulkan1_0,
        &[
            "%for_header = OpLabel\n               OpLoopMerge %for_merge %for_continue None\n               OpBranch %for_check",
            "%while_header = OpLabel",
            "OpBranch %for_header",
        ],
        &[],
    );
}

/// `return f();` in a void function calls `f` and returns nothing; derivatives of a matrix
/// and the transpose of an integer matrix go row by row; a one-component vector in an
/// initializer list is a scalar, not something to extract from.
#[test]
fn void_return_matrix_derivatives_int_transpose_and_one_component_initializers() {
    check(
        r#"
float2x3 m;
row_major int2x3 p;
bool1 v1;
void touch() {}
void other() { return touch(); }
float4 main() : SV_Target {
    other();
    float2x3 d = ddx(m) + fwidth(m);
    int3x2 pt = transpose(p);
    float4x1 f = {1.0, v1, 2.0, 3.0};
    return float4(d[0][0], pt[2][1], f[1][0], 0);
}
"#,
        "ps_6_0",
        TargetEnv::Vulkan1_0,
        &["OpDPdx %v3float", "OpFwidth %v3float", "OpCompositeConstruct %_arr_v2int_uint_3"],
        &["OpTranspose", "OpReturnValue %void"],
    );
}

/// A switch on a 64-bit selector takes 64-bit (two-word) case literals (dxc's
/// cf.switch.opswitch: `OpSwitch %x %merge -1 %switch_n1` on a `long`, `12345678910` on a
/// `ulong`); one-word literals made the binary undecodable.
#[test]
fn a_switch_on_a_64_bit_selector_has_64_bit_case_literals() {
    let src = r#"
RWStructuredBuffer<int> o;
[numthreads(1, 1, 1)]
void main() {
    int64_t longsel = o[0];
    uint64_t ulongsel = o[1];
    switch (longsel) { case -1: o[2] = 0; break; case 3: o[2] = 1; break; }
    switch (ulongsel) { case 12345678910: o[3] = 0; break; default: o[3] = 2; break; }
}
"#;
    let text = check(src, "cs_6_0", TargetEnv::Vulkan1_0, &[], &[]);
    let switches: Vec<&str> = text.lines().filter(|l| l.contains("OpSwitch")).collect();
    assert!(switches.iter().any(|l| l.ends_with("-1 %switch_n1 3 %switch_3")), "{text}");
    assert!(switches.iter().any(|l| l.ends_with("12345678910 %switch_12345678910")), "{text}");
    // SPIRV-Tools decodes the literals (two words each) the same way.
    if common::tool("spirv-dis").is_some() {
        let theirs = common::spirv_dis(&common::compile(src, "cs_6_0", TargetEnv::Vulkan1_0), "switch64");
        assert!(theirs.contains("-1 %switch_n1 3 %switch_3"), "{theirs}");
        assert!(theirs.contains("12345678910 %switch_12345678910"), "{theirs}");
    }
}

/// A base struct's method called from a derived struct's method (`value()` inside
/// `foo : bar`) gets the base object, member 0 of `this` (dxc's
/// oo.inheritance.call.base.method: `OpAccessChain %_ptr_Function_bar %param_this %uint_0`);
/// `this` itself, of the derived type, indexed the base's members wrongly. As in dxc's `-fcgl`
/// output the argument is an access chain, which needs legalization (inlining) to be valid:
/// the driver's tests validate it at `-O0` and `-O3`.
#[test]
fn a_base_method_called_on_a_derived_object_gets_the_base_member() {
    let words = common::compile(
        r#"
struct empty {};
struct bar : empty {
  float4x4 trans;
  float4 value() { return mul(float4(1, 1, 1, 0), trans); }
};
struct foo : bar {
  float4 get() { return value(); }
};
float4 main() : SV_Position {
  foo x;
  float4 a = x.get();
  return a + x.value();
}
"#,
        "vs_6_0",
        TargetEnv::Vulkan1_1,
    );
    let text = hlslc_spirv::disasm::disassemble(&words).expect("disassembles");
    for e in [
        "OpFunctionParameter %_ptr_Function_foo",
        "OpAccessChain %_ptr_Function_bar %param_this",
        "OpAccessChain %_ptr_Function_bar %x %uint_0",
    ] {
        assert!(text.contains(e), "missing `{e}` in:\n{text}");
    }
    assert!(text.lines().any(|l| l.contains("OpAccessChain %_ptr_Function_bar %param_this") && l.ends_with("%uint_0")), "{text}");
    for a in ["OpFunctionCall %v4float %bar_value %param_this", "OpFunctionCall %v4float %bar_value %x"] {
        assert!(!text.contains(a), "unexpected `{a}` in:\n{text}");
    }
}

/// Storage image formats as dxc infers them from the element type: `R64ui`/`R64i` for 64-bit
/// integer scalars, with the `Int64ImageEXT` capability and `SPV_EXT_shader_image_int64` that a
/// 64-bit sampled type needs; 16-bit formats for the min-precision types (dxc's
/// type.rwtexture.with.64bit.scalar and type.rwtexture.with.min.precision.scalar).
#[test]
fn storage_image_formats_of_64_bit_and_min_precision_elements() {
    check(
        r#"
RWTexture2D<uint64_t> tex_ui;
RWTexture2D<int64_t> tex_i;
RWTexture2D<min12int4> texout;
RWTexture2D<min10float4> tex;
RWTexture2D<min16uint2> tex_u2;
[numthreads(8, 8, 1)]
void main(uint2 id : SV_DispatchThreadID) {
    tex_ui[id] = tex_i[id] + 1;
    texout[id] = tex[id] + tex_u2[id].xyxy;
}
"#,
        "cs_6_0",
        TargetEnv::Vulkan1_0,
        &[
            "OpCapability Int64ImageEXT",
            "OpExtension \"SPV_EXT_shader_image_int64\"",
            "OpTypeImage %ulong 2D 2 0 0 2 R64ui",
            "OpTypeImage %long 2D 2 0 0 2 R64i",
            "OpTypeImage %int 2D 2 0 0 2 Rgba16i",
            "OpTypeImage %float 2D 2 0 0 2 Rgba16f",
            "OpTypeImage %uint 2D 2 0 0 2 Rg16ui",
            "OpCapability StorageImageExtendedFormats",
        ],
        &["R32ui", "R32i", "Rgba32i"],
    );
}

/// An array of empty structs in a cbuffer has an `ArrayStride` of 16, as in dxc
/// (type.struct.empty-struct.array-stride); 0 breaks the uniform buffer layout rules.
#[test]
fn an_array_of_empty_structs_in_a_cbuffer_has_a_stride_of_16() {
    check(
        r#"
cbuffer foo { struct {} bar[2]; float4 after; };
float4 main(float4 c : COLOR) : SV_Target { return c + after; }
"#,
        "ps_6_0",
        TargetEnv::Vulkan1_0,
        &["ArrayStride 16", "OpMemberDecorate %type_foo 1 Offset 32"],
        &["ArrayStride 0"],
    );
}

/// Derivatives in a mesh or amplification shader (`MeshEXT`/`TaskEXT`) group the threads as a
/// compute shader's do, through `SPV_KHR_compute_shader_derivatives` (the NV extension covers
/// compute only): dxc's mesh_shader_derivative and amplification_shader_derivative. The
/// SPIRV-Tools release we validate with predates that extension, so these are not validated.
#[test]
fn derivatives_in_mesh_and_amplification_shaders_group_threads() {
    let cases = [
        (
            "ms_6_5",
            r#"
struct VSOut { float4 pos : SV_Position; };
[numthreads(4, 1, 1)]
[outputtopology("triangle")]
void main(in uint tid : SV_GroupThreadID, out vertices VSOut verts[3], out indices uint3 tris[1]) {
    SetMeshOutputCounts(3, 1);
    verts[tid].pos = ddx_coarse(float4(tid, 0, 0, 0));
    tris[0] = uint3(0, 1, 2);
}
"#,
            "OpEntryPoint MeshEXT %main",
        ),
        (
            "as_6_5",
            r#"
struct Payload { float4 value; };
groupshared Payload payload;
[numthreads(4, 1, 1)]
void main(in uint tid : SV_GroupThreadID) {
    payload.value = ddx_coarse(float4(tid, 0, 0, 0));
    DispatchMesh(1, 1, 1, payload);
}
"#,
            "OpEntryPoint TaskEXT %main",
        ),
    ];
    for (profile, src, entry) in cases {
        let words = common::compile(src, profile, TargetEnv::Vulkan1_3);
        let text = hlslc_spirv::disasm::disassemble(&words).expect("disassembles");
        for e in [
            "OpCapability ComputeDerivativeGroupLinearKHR",
            "OpCapability DerivativeControl",
            "OpExtension \"SPV_KHR_compute_shader_derivatives\"",
            entry,
            "OpExecutionMode %main DerivativeGroupLinearKHR",
        ] {
            assert!(text.contains(e), "{profile}: missing `{e}` in:\n{text}");
        }
        assert!(!text.contains("SPV_NV_compute_shader_derivatives"), "{text}");
    }
}
