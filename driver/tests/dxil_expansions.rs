//! DXIL for intrinsics and methods dxc expands into instruction sequences, checked against the
//! CHECK lines of dxc's own tests (HLSLFileCheck `hlsl/intrinsics/...`, `hlsl/objects/...`) and
//! against DXIL.rst's operands: `atan2`, `fmod`, `frexp`, `lit`, `faceforward`, `refract`,
//! `mad`/`dot` on unsigned and constant operands, `pack_*`/`unpack_*`, `EvaluateAttribute*`,
//! `GetAttributeAtVertex`, and `Append`/`Consume` on structured buffers.

mod common;
use common::{assert_in_order, dxil_text as dxil};


fn errors(src: &str, profile: &str) -> String {
    common::dxil_errors(src, profile)
}

/// The body of `@main` (the declarations after it name every op too).
fn main_body(text: &str) -> &str {
    let start = text.find("define void @main()").expect("@main");
    let end = text[start..].find("\n}\n").map_or(text.len(), |e| start + e);
    &text[start..end]
}

#[test]
fn atan2_corrects_atan_by_quadrant_and_folds_constants() {
    // atan2.hlsl: Atan, then four selects.
    let text = dxil("float main(float2 a : A) : SV_Target { return atan2(a.y, a.x); }", "ps_6_0", false);
    let body = main_body(&text);
    assert_in_order(body, &["fdiv fast float", "; Atan(value)", "select", "select", "select", "select"]);
    assert_eq!(body.matches("select").count(), 4, "{body}");
    // atan2_const_eval_vs_optims.hlsl: atan2(2, -1) both ways is float 0x4000468A80000000.
    let text = dxil("float2 main() : OUT { float x = -1.0f; float y = 2.0f; return float2(atan2(2.0f, -1.0f), atan2(y, x)); }", "vs_6_2", false);
    assert_in_order(
        &text,
        &[
            "@dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 0, float 0x4000468A80000000)",
            "@dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 1, float 0x4000468A80000000)",
        ],
    );
}

#[test]
fn fmod_frexp_and_lit_expand_as_dxc() {
    // fmod: frac(|a/b|) signed by a/b >= -(a/b), times b.
    let text = dxil("float main(float a : A, float b : B) : SV_Target { return fmod(a, b); }", "ps_6_0", false);
    assert_in_order(main_body(&text), &["fdiv fast float", "fsub fast float -0.000000e+00", "fcmp fast oge", "; FAbs(value)", "; Frc(value)", "select", "fmul fast float"]);
    // frexp.hlsl.
    let text = dxil("float main(float a:A) : SV_Target { float b; float c = frexp(a, b); return b+c; }", "ps_6_2", false);
    assert_in_order(
        main_body(&text),
        &["bitcast float", "to i32", "and i32", ", 2139095040", "add i32", ", -1056964608", "ashr i32", ", 23", "sitofp", "and i32", ", 8388607", "or i32", ", 1056964608", "fadd"],
    );
    // lit-function.hlsl.
    let text = dxil("float4 main(float a : A, float b : B, float c : C) : SV_Target { return lit(a, b, c); }", "ps_6_0", false);
    assert_in_order(main_body(&text), &["fcmp", "select", "fcmp", "or i1", "; Log(value)", "fmul", "; Exp(value)", "select"]);
}

#[test]
fn faceforward_and_refract_expand_as_dxc() {
    let text = dxil("float3 main(float3 n : N, float3 i : I, float3 g : G) : SV_Target { return faceforward(n, i, g); }", "ps_6_0", false);
    let body = main_body(&text);
    assert_in_order(body, &["; Dot3(", "fcmp fast olt", "fsub fast float -0.000000e+00", "select i1"]);
    assert_eq!(body.matches("select i1").count(), 3, "{body}");
    let text = dxil("float2 main(float2 a : IN0, float2 b : IN1, float c : IN2) : OUT { return refract(a, b, c); }", "vs_6_2", false);
    let body = main_body(&text);
    assert_in_order(body, &["; Dot2(", "fmul fast float", "fsub fast float 1.000000e+00", "fcmp fast oge", "; Sqrt(value)", "select i1"]);
}

#[test]
fn mad_with_constant_multiplicands_and_unsigned_dot() {
    // mad_opt.hlsl / mad_opt2.hlsl: no tertiary op; a multiplicand of 0 leaves the addend.
    let text = dxil(
        "float main(float a : A, float b :B, int c : C, int d :D, uint e :E, uint f :F) : SV_Target { return mad(a, 0, b) + mad(0, c, d) + mad(e, 0, f); }",
        "ps_6_0",
        false,
    );
    assert!(!text.contains("dx.op.tertiary"), "{text}");
    assert!(!text.contains("loadInput.f32(i32 4, i32 0,") && !text.contains("loadInput.i32(i32 4, i32 2,"), "{text}");
    let text = dxil(
        "float main(float a : A, float b :B, int c : C, int d :D, uint e :E, uint f :F) : SV_Target { return mad(a, 1, b) + mad(1, c, d) + mad(e, 1, f); }",
        "ps_6_0",
        false,
    );
    assert!(!text.contains("dx.op.tertiary"), "{text}");
    assert_eq!(main_body(&text).matches("= add i32").count(), 2, "{text}");
    // UMad_const_prop.hlsl: mad(-2u, 5u, 3u) + (uint)mad(2^32, 2, 3) = -7 + 3 = -4.
    let text = dxil(
        "uint main() : SV_Target { uint x = -2; uint y = 5; uint z = 3; uint64_t xl = 0x100000000ULL; uint64_t yl = 2; uint64_t zl = 3; return mad(x, y, z) + mad(xl, yl, zl); }",
        "ps_6_0",
        false,
    );
    assert!(text.contains("@dx.op.storeOutput.i32(i32 5, i32 0, i32 0, i8 0, i32 -4)"), "{text}");
    // An unsigned dot is a multiply and UMad (opcode 49) for the other components.
    let text = dxil("uint main(uint3 a : A, uint3 b : B) : SV_Target { return dot(a, b); }", "ps_6_0", false);
    assert_in_order(main_body(&text), &["mul i32", "@dx.op.tertiary.i32(i32 49,", "@dx.op.tertiary.i32(i32 49,"]);
}

#[test]
fn pack_and_unpack_use_the_sm66_ops() {
    // sm_6_6_pack_unpack_16.hlsl: packMode Trunc 0, UClamp 1, SClamp 2; unpackMode Signed 1.
    let src = r#"
int16_t4 main(int16_t4 input1 : Inputs1, int16_t4 input2 : Inputs2) : SV_Target {
  int8_t4_packed ps1 = pack_s8(input1);
  int8_t4_packed ps2 = pack_clamp_s8(input1);
  int16_t4 up1_out = unpack_s8s16(ps1) + unpack_s8s16(ps2);
  uint8_t4_packed pu1 = pack_u8(input2);
  uint8_t4_packed pu2 = pack_clamp_u8(input2);
  uint16_t4 up2_out = unpack_u8u16(pu1) + unpack_u8u16(pu2);
  return up1_out + up2_out;
}"#;
    let text = dxil(src, "ps_6_6", true);
    let body = main_body(&text);
    assert_in_order(
        body,
        &[
            "call i32 @dx.op.pack4x8.i16(i32 220, i8 0, i16 %",
            "call i32 @dx.op.pack4x8.i16(i32 220, i8 2, i16 %",
            "call %dx.types.fouri16 @dx.op.unpack4x8.i16(i32 219, i8 1, i32 %",
            "call %dx.types.fouri16 @dx.op.unpack4x8.i16(i32 219, i8 1, i32 %",
            "call i32 @dx.op.pack4x8.i16(i32 220, i8 0, i16 %",
            "call i32 @dx.op.pack4x8.i16(i32 220, i8 1, i16 %",
            "call %dx.types.fouri16 @dx.op.unpack4x8.i16(i32 219, i8 0, i32 %",
            "call %dx.types.fouri16 @dx.op.unpack4x8.i16(i32 219, i8 0, i32 %",
        ],
    );
    assert!(!body.contains("trunc") && !body.contains("sext"), "{body}");
}

#[test]
fn attribute_evaluation_rereads_the_input_element() {
    // EvaluateAttributeAtSample.attr_scalar.hlsl / lit_in_paren.hlsl (DXIL.rst: EvalSampleIndex
    // = 88 (inputSigId, inputRowIndex, inputColIndex, sampleIndex)).
    let text = dxil(
        "float2 main(float u : TEXCOORD0, float v : TEXCOORD1) : SV_TARGET { int i = 0; return float2(EvaluateAttributeAtSample(u, i), EvaluateAttributeAtSample(v, i)); }",
        "ps_6_0",
        false,
    );
    assert_in_order(
        &text,
        &["call float @dx.op.evalSampleIndex.f32(i32 88, i32 0, i32 0, i8 0, i32 0)", "call float @dx.op.evalSampleIndex.f32(i32 88, i32 1, i32 0, i8 0, i32 0)"],
    );
    let text = dxil("float4 main(float4 a : A) : SV_TARGET { return EvaluateAttributeAtSample(a, (2)); }", "ps_6_0", false);
    assert!(text.contains("@dx.op.evalSampleIndex.f32(i32 88, i32 0, i32 0, i8 0, i32 2)"), "{text}");
    // eval.hlsl: a swizzled input; EvalCentroid = 89.
    let text = dxil("float4 main(float4 a : A) : SV_Target { return EvaluateAttributeCentroid(a.yxzw); }", "ps_6_0", false);
    assert_in_order(&text, &["@dx.op.evalCentroid.f32(i32 89, i32 0, i32 0, i8 1)", "@dx.op.evalCentroid.f32(i32 89, i32 0, i32 0, i8 0)"]);
    // attributeAtVertex.hlsl: AttributeAtVertex = 137, the vertex an i8.
    let text = dxil(
        "float4 main(nointerpolation float4 a : A, nointerpolation float4 b : B) : SV_Target { return GetAttributeAtVertex(a, 0) + GetAttributeAtVertex(b, 1); }",
        "ps_6_1",
        false,
    );
    assert_in_order(
        &text,
        &["@dx.op.attributeAtVertex.f32(i32 137, i32 0, i32 0, i8 0, i8 0)", "@dx.op.attributeAtVertex.f32(i32 137, i32 0, i32 0, i8 3, i8 0)", "@dx.op.attributeAtVertex.f32(i32 137, i32 1, i32 0, i8 0, i8 1)"],
    );
    // EvaluateAttributeAtSample.not_attr.hlsl and evalPos.hlsl: dxc's errors.
    let e = errors("float4 main(float2 uv : TEXCOORD0) : SV_TARGET { float4 r = 0; return EvaluateAttributeAtSample(r, 0); }", "ps_6_0");
    assert!(e.contains("attribute evaluation can only be done on values taken directly from inputs"), "{e}");
    let e = errors("float4 main(float4 a : SV_POSITION) : SV_Target { return EvaluateAttributeCentroid(a.yxzw); }", "ps_6_0");
    assert!(e.contains("ps_6_0 does not support pull-model evaluation of position"), "{e}");
}

#[test]
fn append_and_consume_go_through_the_counter() {
    // buffer_append_consume.hlsl; DXIL.rst: BufferUpdateCounter = 70 (uav, inc), the result is
    // the element an append writes or a consume reads.
    let src = r#"
ConsumeStructuredBuffer<bool2> boolVecIn;
AppendStructuredBuffer<bool2> boolVecOut;
void main() { boolVecOut.Append(boolVecIn.Consume()); }
"#;
    let text = dxil(src, "vs_6_2", false);
    let body = main_body(&text);
    assert_in_order(
        body,
        &[
            "@dx.op.bufferUpdateCounter(i32 70, %dx.types.Handle %",
            ", i8 -1)",
            "rawBufferLoad",
            "icmp ne i32",
            "icmp ne i32",
            "@dx.op.bufferUpdateCounter(i32 70, %dx.types.Handle %",
            ", i8 1)",
            "zext i1",
            "zext i1",
            "rawBufferStore",
        ],
    );
    // Both UAVs are marked as having a counter (the fifth field of a UAV record; DXIL.rst).
    let uavs: Vec<&str> = text.lines().filter(|l| l.contains("\"boolVecIn\"") || l.contains("\"boolVecOut\"")).collect();
    assert_eq!(uavs.len(), 2, "{text}");
    for u in uavs {
        assert!(u.contains("i1 false, i1 true, i1 false"), "{u}");
    }
}

#[test]
fn load_status_feeds_check_access_fully_mapped() {
    // check_status3.hlsl: one checkAccessFullyMapped (DXIL.rst: opcode 71, i1 result) on the
    // status, the fifth field of the load's ResRet.
    let text = dxil(
        "RWBuffer<float4> g_buffer; RWBuffer<uint> g_result; [numthreads(1, 1, 1)] void main() { uint res; float4 data = g_buffer.Load(0, res); g_result[0] = CheckAccessFullyMapped(res); }",
        "cs_6_0",
        false,
    );
    let body = main_body(&text);
    assert_in_order(body, &["@dx.op.bufferLoad.f32(i32 68,", "extractvalue %dx.types.ResRet.f32 %", ", 4", "call i1 @dx.op.checkAccessFullyMapped.i32(i32 71, i32 %"]);
    assert_eq!(body.matches("checkAccessFullyMapped").count(), 1, "{body}");
    // uav_typed_load_store1.hlsl: on a RWTexture2D the status is the second argument, not an
    // offset (textureLoad(srv, mip, coord0..2, offset0..2) keeps undef offsets).
    let text = dxil(
        "RWTexture2D<float4> uav1; float4 main(uint2 a : A) : SV_Target { uint status; float4 r = uav1.Load(a, status); if (CheckAccessFullyMapped(status)) { r += 3; } return r; }",
        "ps_6_0",
        false,
    );
    let body = main_body(&text);
    assert_in_order(body, &["@dx.op.textureLoad.f32(i32 66, %dx.types.Handle %", ", i32 undef, i32 undef, i32 undef, i32 undef)", "extractvalue %dx.types.ResRet.f32 %", ", 4", "@dx.op.checkAccessFullyMapped.i32(i32 71,"]);
}

#[test]
fn byte_address_buffer_atomic_methods() {
    // DXIL.rst: AtomicBinOp = 78 (handle, atomicOp, offset0..2, newValue), AtomicCompareExchange
    // = 79 (handle, offset0..2, compareValue, newValue); AtomicBinOpCode UMin = 6 (a
    // uint value), Add = 0.
    let text = dxil(
        "RWByteAddressBuffer res; void main(uint a : A, uint b : B) : SV_Target { uint o; res.InterlockedCompareStore(0, a, b); res.InterlockedCompareExchange(4, a, b, o); res.InterlockedMin(8, o); }",
        "ps_6_0",
        false,
    );
    assert_in_order(
        main_body(&text),
        &[
            "call i32 @dx.op.atomicCompareExchange.i32(i32 79, %dx.types.Handle %",
            ", i32 0, i32 undef, i32 undef, i32 %",
            "call i32 @dx.op.atomicCompareExchange.i32(i32 79, %dx.types.Handle %",
            ", i32 4, i32 undef, i32 undef, i32 %",
            "call i32 @dx.op.atomicBinOp.i32(i32 78, %dx.types.Handle %",
            ", i32 6, i32 8, i32 undef, i32 undef, i32 %",
        ],
    );
    // atomicop_method_i64_and_i32.hlsl: the 64-bit methods use the i64 overload (SM 6.6).
    let text = dxil("RWByteAddressBuffer res; void main(uint a : A) : SV_Target { uint64_t v = a; res.InterlockedAdd64(0, v); }", "ps_6_6", false);
    assert!(main_body(&text).contains("call i64 @dx.op.atomicBinOp.i64(i32 78, %dx.types.Handle %"), "{text}");
}
