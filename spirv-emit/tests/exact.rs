//! The shape of DXC's SPIR-V for ordinary code (what its lit tests' CHECK lines look at):
//! constant folding, decorations and their order. Each case compiles our own small HLSL, checks
//! the module with `spirv-val` (skipped with a message when SPIRV-Tools is missing) and looks
//! for lines, in order, in the disassembly.

mod common;

use hlslc_spirv::target::TargetEnv;

/// Compiles, validates, and checks that each of `lines` occurs in the disassembly after the
/// previous one (like FileCheck's `CHECK:`); lines starting with `!` must not occur anywhere.
fn check_in_order(src: &str, profile: &str, lines: &[&str]) -> String {
    let words = common::compile(src, profile, TargetEnv::default());
    common::validate(&words, "vulkan1.0");
    let text = hlslc_spirv::disasm::disassemble(&words).expect("disassembles");
    let mut at = 0;
    for l in lines {
        if let Some(absent) = l.strip_prefix('!') {
            assert!(!text.contains(absent), "unexpected `{absent}` in:\n{text}");
            continue;
        }
        match text[at..].find(l) {
            Some(i) => at += i + l.len(),
            None => panic!("missing `{l}` (in this order) in:\n{text}"),
        }
    }
    text
}

#[test]
fn constant_vectors_fold_like_dxc() {
    check_in_order(
        r#"
RWStructuredBuffer<float4> o;
RWStructuredBuffer<int3> oi;
RWStructuredBuffer<float2x2> om;
[numthreads(1, 1, 1)]
void main() {
    o[0] = 2;                        // splat of a literal
    o[1] = float4(1, 2, 3, 4);       // vector constructor of constants
    oi[0] = (int3)float3(1.5, -2, 3); // conversion of a constant vector
    om[0] = 0.5;                     // matrix splat: folded
    om[1] = float2x2(1, 2, 3, 4);    // matrix constructor: built at run time, like DXC
}
"#,
        "cs_6_0",
        &[
            "= OpConstantComposite %v4float %float_2 %float_2 %float_2 %float_2",
            "= OpConstantComposite %v4float %float_1 %float_2 %float_3 %float_4",
            "= OpConstantComposite %v3int %int_1 %int_n2 %int_3",
            "= OpConstantComposite %v2float %float_0_5 %float_0_5",
            "= OpConstantComposite %mat2v2float",
            "= OpCompositeConstruct %v2float %float_1 %float_2",
            "!OpConvertFToS",
        ],
    );
}

#[test]
fn constant_conditions_and_enum_conversions_fold() {
    let text = check_in_order(
        r#"
enum : uint { ONE = 1 };
RWStructuredBuffer<float> o;
[numthreads(1, 1, 1)]
void main() {
    float f = ONE;          // enum constant converted at compile time
    if (2 + 3 > 4) {        // always true: no branch at all
        o[0] = f;
    } else {
        o[1] = f;
    }
}
"#,
        "cs_6_0",
        &["OpStore %f %float_1", "!OpSelectionMerge", "!OpConvertUToF"],
    );
    assert!(!text.contains("%int_1 %float_1"), "the else branch is not emitted:\n{text}");
}

#[test]
fn hlsl_2021_short_circuits_scalar_logic_and_ternaries() {
    check_in_order(
        r#"
RWStructuredBuffer<int> o;
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    bool a = id.x > 1, b = id.y > 2;
    o[0] = (a || b) ? o[1] : o[2];
}
"#,
        "cs_6_0",
        &[
            "%temp_var_ternary = OpVariable %_ptr_Function_int Function",
            "OpStore %temp_var_logical %true",
            "= OpLogicalNot %bool",
            "OpSelectionMerge %logical_merge None",
            "%logical_lhs_cond = OpLabel",
            "%logical_merge = OpLabel",
            "OpSelectionMerge %ternary_merge None",
            "%ternary_lhs = OpLabel",
            "%ternary_rhs = OpLabel",
            "%ternary_merge = OpLabel",
            "!= OpSelect ",
            "!OpLogicalOr",
        ],
    );
}

#[test]
fn stage_dependent_builtins_declare_their_capability() {
    check_in_order(
        r#"
float4 main(uint id : SV_PrimitiveID) : SV_Target {
    return float4(id, 0, 0, 1);
}
"#,
        "ps_6_0",
        &["OpCapability Geometry", "OpDecorate %gl_PrimitiveID BuiltIn PrimitiveId"],
    );
}
