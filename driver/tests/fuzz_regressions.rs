//! Inputs the `compile_all` fuzz target (`fuzz/`) found to panic the library, shrunk to minimal
//! shaders of our own: each must now compile or fail with a diagnostic, for both back ends, as the
//! fuzz target calls them (`hlslc::compile`, a binary output).

use hlslc::{compile, Options, Output, OutputKind, Profile};

/// Compiles `src` for `profile` to SPIR-V and to a DXIL container; returns the diagnostics of each
/// (empty when it compiled). A panic fails the test.
fn both(src: &str, profile: &str) -> (String, String) {
    let base = Options { output_kind: OutputKind::Binary, use_filesystem: false, ..Options::for_profile(Profile::parse(profile).unwrap()) };
    let spirv = compile(src, "fuzz.hlsl", &Options { spirv: true, ..base.clone() }, None);
    let dxil = compile(src, "fuzz.hlsl", &base, None);
    for r in [&spirv, &dxil] {
        assert_eq!(r.succeeded(), matches!(r.output, Some(Output::Binary(_))), "{}", r.render_diagnostics());
    }
    (spirv.render_diagnostics(), dxil.render_diagnostics())
}

#[test]
fn a_vk_sampled_texture_is_refused_by_the_dxil_back_end() {
    // Gather on a `vk::SampledTexture*` has no sampler argument: the DXIL lowering indexed past
    // its arguments. DXIL has no combined image-sampler resource, so the type is refused there.
    let src = "vk::SampledTextureCUBE<float4> tex;\nfloat4 main() : SV_Target { return tex.GatherCmpBlue(float3(0.5, 0.25, 0.75), 0.25f); }\n";
    let (_, dxil) = both(src, "ps_6_2");
    assert!(dxil.contains("`vk::SampledTextureCUBE` objects is not supported by the DXIL back end"), "{dxil}");
    let src = "vk::SampledTexture2D<float4> tex;\nfloat4 main(float2 uv : UV) : SV_Target { return tex.Sample(uv); }\n";
    let (spirv, dxil) = both(src, "ps_6_0");
    assert!(spirv.is_empty(), "{spirv}");
    assert!(dxil.contains("`vk::SampledTexture2D` objects"), "{dxil}");
}

#[test]
fn an_inline_execution_mode_with_the_wrong_operand_count_is_refused() {
    // `LocalSize` takes three literals: with one, the SPIR-V written could not be decoded.
    let src = "float4 main() : SV_Target { vk::ext_execution_mode(17, 32); return 1; }\n";
    let (spirv, _) = both(src, "ps_6_0");
    assert!(spirv.contains("execution mode LocalSize does not take the 1 operand(s) given"), "{spirv}");
    // With its three, and a mode without operands, it compiles.
    let src = "float4 main() : SV_Target { vk::ext_execution_mode(17, 32, 1, 1); vk::ext_execution_mode(/* EarlyFragmentTests */ 9); return 1; }\n";
    let (spirv, _) = both(src, "ps_6_0");
    assert!(spirv.is_empty(), "{spirv}");
}

#[test]
fn a_string_with_a_nul_character_is_refused_for_spirv() {
    // SPIR-V strings end at their first NUL: this extension name would have left stray words.
    let src = "[[vk::ext_extension(\"some_ext\u{0}\u{0}\u{11}\")]] void main() {}\n";
    let (spirv, _) = both(src, "ps_6_0");
    assert!(spirv.contains("a string with a NUL character cannot be written to SPIR-V (OpExtension \"some_ext"), "{spirv}");
    let src = "[[vk::ext_extension(\"some_ext\")]] void main() {}\n";
    let (spirv, _) = both(src, "ps_6_0");
    assert!(spirv.is_empty(), "{spirv}");
}

#[test]
fn spvexecutionmode_of_a_mode_with_operands_is_refused() {
    // `Invocations` (0) takes a literal, which the attribute cannot give.
    let (spirv, _) = both("[[vk::spvexecutionmode(0)]] void main() {}\n", "ps_6_2");
    assert!(spirv.contains("execution mode Invocations takes operands"), "{spirv}");
    // `EarlyFragmentTests` (9) takes none.
    let (spirv, _) = both("[[vk::spvexecutionmode(9)]] void main() {}\n", "ps_6_2");
    assert!(spirv.is_empty(), "{spirv}");
}

#[test]
fn an_inline_decoration_with_the_wrong_operands_is_refused() {
    // NoPerspective (13) takes no operand: `OpDecorateId %x NoPerspective %c` does not decode.
    let src = "RWStructuredBuffer<uint> buf;\n\
        [[vk::ext_decorate_id(13, 13)]] static uint x = 1;\n\
        [numthreads(1, 1, 1)] void main() { buf[0] = x; }\n";
    let (spirv, _) = both(src, "cs_6_0");
    assert!(spirv.contains("decoration NoPerspective does not take the 1 operand(s) given"), "{spirv}");
    // ArrayStride (6) takes one literal, RelaxedPrecision (0) none: both compile.
    let src = "RWStructuredBuffer<uint> buf;\n\
        [[vk::ext_decorate(0)]] static uint x = 1;\n\
        [[vk::ext_decorate(0), vk::ext_decorate(/* ArrayStride */ 6, 4)]] static uint y[2] = { 1, 2 };\n\
        [numthreads(1, 1, 1)] void main() { buf[0] = x + y[1]; }\n";
    let (spirv, _) = both(src, "cs_6_0");
    assert!(spirv.is_empty(), "{spirv}");
}

/// Found by fuzzing compile_all (session 13): `vk::ext_decorate_id(40, 13)` on a function wrote
/// `OpDecorateId %f FPFastMathMode %c`, which decodes only by chance (the constant's id read as
/// the mode's mask: 39 has bit 5, no mode). FPFastMathMode takes a literal mask, not an id, so
/// the decoration is refused naming it; and dxc has no function form of `ext_decorate_id` or
/// `ext_decorate_string` at all (spv.intrinsicDecorate.function.error), which is reported for
/// each such function, in source order.
#[test]
fn an_id_decoration_whose_operand_is_no_id_is_refused() {
    let src = "RWStructuredBuffer<uint> buf;\n\
        [[vk::ext_decorate_id(/* FPFastMathMode */ 40, 13)]] static uint x = 1;\n\
        [numthreads(1, 1, 1)] void main() { buf[0] = x; }\n";
    let (spirv, _) = both(src, "cs_6_0");
    assert!(spirv.contains("decoration FPFastMathMode does not take the 1 operand(s) given"), "{spirv}");
    let src = "[[vk::ext_decorate_string(5636, \"t\")]] [noinline] uint S(uint x) { return x; }\n\
        [[vk::ext_decorate_id(40, 13)]] [noinline] uint I(uint x) { return x; }\n\
        RWStructuredBuffer<uint> buf;\n\
        [numthreads(1, 1, 1)] void main(uint3 t : SV_DispatchThreadID) { buf[0] = I(t.x) + S(t.x); }\n";
    let (spirv, _) = both(src, "cs_6_0");
    let (s, i) = (spirv.find("vk::ext_decorate_string is not supported on functions"), spirv.find("vk::ext_decorate_id is not supported on functions"));
    assert!(s.is_some() && i.is_some() && s < i, "{spirv}");
}

#[test]
fn an_instruction_longer_than_spirv_allows_is_refused() {
    // Copying a cbuffer struct holding a 70,000-element array into a function's struct (which
    // has no layout) constructs the array whole: an OpCompositeConstruct of 70,003 words, more
    // than an instruction's 16-bit word count holds; the module was written with the count
    // wrapped. Now the compile fails naming the instruction.
    let src = "struct A { float4 x[70000]; };\nA a;\nstatic A a2;\nvoid set(out A aa) { aa = a; }\n\
               float4 main(uint l : L) : SV_Target { set(a2); return a2.x[l]; }\n";
    let (spirv, _) = both(src, "ps_6_0");
    assert!(spirv.contains("an OpCompositeConstruct of 70003 words, above the 65,535 words one instruction may have"), "{spirv}");
    // The same copy of a smaller array is one instruction that fits.
    let (spirv, _) = both(&src.replace("70000", "60000"), "ps_6_0");
    assert!(spirv.is_empty(), "{spirv}");
}

#[test]
fn a_long_chain_of_pre_increments_lowers_in_linear_time() {
    // `++++...++v` (65 levels in the fuzzer's input) took the DXIL lowering time exponential in
    // the chain's length: each level computed the written variable of every level below it again.
    let src = format!("float main(half vh : B) : SV_Target {{ return {}vh; }}\n", "++".repeat(200));
    let (spirv, dxil) = both(&src, "ps_6_0");
    assert!(spirv.is_empty() && dxil.is_empty(), "{spirv}{dxil}");
}
