//! Rasterizer-ordered views on SPIR-V (SPIR-V.rst "Rasterizer Ordered Views"): every access
//! lies between `OpBeginInvocationInterlockEXT` and `OpEndInvocationInterlockEXT`, the entry
//! point gets the interlock execution mode its inputs call for, with its capability and
//! `SPV_EXT_fragment_shader_interlock`. `-fcgl` keeps DXC's region per access; every other level
//! has one region per invocation, and every output passes spirv-val.

use hlslc::cli::{parse_args, Tool};
use hlslc::{compile, Output};
use std::process::Command;

/// Compiles `src` for `profile` with `flags`; the disassembly (spirv-val must accept the
/// binary unless `-fcgl` is among the flags), or the rendered diagnostics on failure.
fn build(src: &str, profile: &str, flags: &[&str]) -> Result<String, String> {
    let mut args: Vec<String> = ["-spirv", "-T", profile, "-E", "main", "a.hlsl"].iter().map(|s| s.to_string()).collect();
    args.extend(flags.iter().map(|s| s.to_string()));
    let inv = parse_args(Tool::Hlslc, &args).expect("arguments parse");
    let r = compile(src, "a.hlsl", &inv.options, None);
    if !r.succeeded() {
        return Err(r.render_diagnostics());
    }
    let Some(Output::Binary(bytes)) = &r.output else { panic!("no SPIR-V") };
    if !flags.contains(&"-fcgl") {
        static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("hlslc-rov-{}-{n}.spv", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        match Command::new("spirv-val").arg(&path).output() {
            Ok(o) => assert!(
                o.status.success(),
                "spirv-val {flags:?}: {}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            ),
            Err(_) => eprintln!("spirv-val not installed: validation skipped"),
        }
        let _ = std::fs::remove_file(&path);
    }
    Ok(r.listing.expect("a listing without -Fo"))
}

fn spirv(src: &str, profile: &str, flags: &[&str]) -> String {
    build(src, profile, flags).unwrap_or_else(|e| panic!("{flags:?}: {e}"))
}

/// The opcode of each instruction line (`OpImageRead` from `%1 = OpImageRead ...`).
fn opcodes(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|l| l.split_whitespace().find(|w| w.starts_with("Op")))
        .collect()
}

/// The instructions of the function named `name` (from its `OpFunction` to its `OpFunctionEnd`).
fn function<'a>(text: &'a str, name: &str) -> Vec<&'a str> {
    let head = format!("{name} = OpFunction ");
    let start = text.lines().position(|l| l.trim_start().starts_with(&head)).unwrap_or_else(|| panic!("no {name} in\n{text}"));
    let mut out = Vec::new();
    for l in text.lines().skip(start) {
        out.push(l);
        if l.contains("OpFunctionEnd") {
            break;
        }
    }
    out
}

const ALL_KINDS: &str = r#"
struct S { float f; };
RasterizerOrderedBuffer<float> rovBuf;
RasterizerOrderedByteAddressBuffer rovBABuf;
RasterizerOrderedStructuredBuffer<S> rovSBuf;
RasterizerOrderedTexture1D<float> rovTex1D;
RasterizerOrderedTexture1DArray<float> rovTex1DArray;
RasterizerOrderedTexture2D<float4> rovTex2D;
RasterizerOrderedTexture2DArray<uint> rovTex2DArray;
RasterizerOrderedTexture3D<int2> rovTex3D;
float4 main(float4 pos : SV_Position) : SV_Target {
    uint2 p = uint2(pos.xy);
    float v = rovBuf[p.x];
    rovBuf[p.x] = v + 1;
    v += asfloat(rovBABuf.Load(p.x * 4));
    rovBABuf.Store(p.y * 4, asuint(v));
    rovSBuf[p.x].f += v;
    v += rovSBuf.Load(p.y).f;
    rovTex1D[p.x] = v;
    rovTex1DArray[p] = rovTex1D[p.y];
    rovTex2D[p] = rovTex2D[p] * 2;
    rovTex2DArray[uint3(p, 1)] += 1;
    rovTex3D[uint3(p, 0)] = int2(1, 2);
    return v + rovTex3D.Load(int4(p, 0, 0)).x;
}
"#;

/// At `-fcgl`, each access of each kind is wrapped alone, as DXC's CHECK lines show: an image
/// access from the image's `OpLoad`, a byte address buffer access from its access chain.
#[test]
fn fcgl_wraps_every_access_of_every_kind() {
    let text = spirv(ALL_KINDS, "ps_6_6", &["-fcgl"]);
    assert!(text.contains("OpCapability FragmentShaderPixelInterlockEXT"), "{text}");
    assert!(text.contains("OpExtension \"SPV_EXT_fragment_shader_interlock\""), "{text}");
    assert!(text.contains("OpExecutionMode %main PixelInterlockOrderedEXT"), "{text}");
    let body = function(&text, "%src_main");
    let ops: Vec<&str> = body.iter().filter_map(|l| l.split_whitespace().find(|w| w.starts_with("Op"))).collect();
    let begins = ops.iter().filter(|o| **o == "OpBeginInvocationInterlockEXT").count();
    let ends = ops.iter().filter(|o| **o == "OpEndInvocationInterlockEXT").count();
    assert_eq!(begins, ends, "{text}");
    // Image reads and writes: rovBuf 2, Tex1D 2, Tex1DArray 1, Tex2D 2, Tex2DArray 2, Tex3D 2
    // (one write, one Load); buffer accesses: BAB 2, SBuf 3 (`+=` reads and writes, Load reads).
    let image_ops = ops.iter().filter(|o| matches!(**o, "OpImageRead" | "OpImageWrite")).count();
    assert_eq!(image_ops, 11, "{text}");
    assert_eq!(begins, image_ops + 2 + 3, "{text}");
    // Every access is inside a region, and regions do not nest.
    let mut open = false;
    for (i, op) in ops.iter().enumerate() {
        match *op {
            "OpBeginInvocationInterlockEXT" => {
                assert!(!open, "nested region at {i}:\n{text}");
                open = true;
            }
            "OpEndInvocationInterlockEXT" => {
                assert!(open, "End without Begin at {i}:\n{text}");
                open = false;
            }
            "OpImageRead" | "OpImageWrite" => assert!(open, "{op} outside a region at {i}:\n{text}"),
            _ => {}
        }
        if matches!(*op, "OpImageRead" | "OpImageWrite") {
            // DXC's shape: Begin, the image's OpLoad, the access, End.
            assert_eq!(ops[i - 1], "OpLoad", "{text}");
            assert_eq!(ops[i - 2], "OpBeginInvocationInterlockEXT", "{text}");
            assert_eq!(ops[i + 1], "OpEndInvocationInterlockEXT", "{text}");
        }
    }
}

/// Below `-fcgl`, one region per invocation in the entry function holds every access: here in
/// a loop of a function called twice, one call under a branch. Checked at -O0 (the call stays)
/// and -O3 (everything is inlined into the entry function, the region is kept).
#[test]
fn one_region_holds_accesses_in_loops_and_called_functions() {
    let src = r#"
RasterizerOrderedTexture2D<float4> accum;
RasterizerOrderedStructuredBuffer<uint> counts;
void blend(uint2 p, float4 c, uint n) {
    for (uint i = 0; i < n; ++i) {
        accum[p] = accum[p] * 0.5 + c;
        counts[p.x] += 1;
    }
}
float4 main(float4 pos : SV_Position, float4 c : COLOR) : SV_Target {
    uint2 p = uint2(pos.xy);
    blend(p, c, 2);
    if (c.a > 0.5) {
        blend(p, c * 2, 3);
    }
    return c;
}
"#;
    for level in ["-O0", "-O3"] {
        let text = spirv(src, "ps_6_6", &[level]);
        let ops = opcodes(&text);
        assert_eq!(ops.iter().filter(|o| **o == "OpBeginInvocationInterlockEXT").count(), 1, "{level}:\n{text}");
        assert_eq!(ops.iter().filter(|o| **o == "OpEndInvocationInterlockEXT").count(), 1, "{level}:\n{text}");
        assert!(text.contains("OpExecutionMode %main PixelInterlockOrderedEXT"), "{level}:\n{text}");
        let main = function(&text, "%main");
        let main_ops: Vec<&str> = main.iter().filter_map(|l| l.split_whitespace().find(|w| w.starts_with("Op"))).collect();
        let begin = main_ops.iter().position(|o| *o == "OpBeginInvocationInterlockEXT").expect("Begin in the entry function");
        let end = main_ops.iter().position(|o| *o == "OpEndInvocationInterlockEXT").expect("End in the entry function");
        // Begin before any access or call, End right before the only return.
        let first_use = main_ops
            .iter()
            .position(|o| matches!(*o, "OpFunctionCall" | "OpImageRead" | "OpImageWrite" | "OpStore" | "OpLoad" | "OpAccessChain"))
            .expect("the entry function does something");
        assert!(begin < first_use, "{level}:\n{text}");
        assert_eq!(main_ops[end + 1], "OpReturn", "{level}:\n{text}");
        let last_access = main_ops.iter().rposition(|o| matches!(*o, "OpFunctionCall" | "OpImageWrite")).unwrap();
        assert!(last_access < end, "{level}:\n{text}");
    }
}

/// `SV_SampleIndex` as an input selects sample interlock; `SV_ShadingRate`, shading-rate
/// interlock (SPIR-V.rst); each with its own capability.
#[test]
fn the_mode_follows_the_inputs() {
    let sample = r#"
RasterizerOrderedBuffer<float> b;
float4 main(float4 pos : SV_Position, uint s : SV_SampleIndex) : SV_Target { b[s] = 1; return 0; }
"#;
    let rate = r#"
RasterizerOrderedBuffer<float> b;
float4 main(float4 pos : SV_Position, uint r : SV_ShadingRate) : SV_Target { b[r] = 1; return 0; }
"#;
    for flags in [&["-fcgl"][..], &["-O0"][..]] {
        let text = spirv(sample, "ps_6_6", flags);
        assert!(text.contains("OpExecutionMode %main SampleInterlockOrderedEXT"), "{text}");
        assert!(text.contains("OpCapability FragmentShaderSampleInterlockEXT"), "{text}");
        assert!(!text.contains("PixelInterlock"), "{text}");
        let text = spirv(rate, "ps_6_6", flags);
        assert!(text.contains("OpExecutionMode %main ShadingRateInterlockOrderedEXT"), "{text}");
        assert!(text.contains("OpCapability FragmentShaderShadingRateInterlockEXT"), "{text}");
        assert!(text.contains("BuiltIn ShadingRateKHR"), "{text}");
        assert!(!text.contains("PixelInterlock"), "{text}");
    }
}

/// A shader that declares a rasterizer-ordered view but never accesses it gets no interlock.
#[test]
fn no_access_no_interlock() {
    let src = r#"
RasterizerOrderedTexture2D<float4> t;
float4 main(float4 pos : SV_Position) : SV_Target { return pos; }
"#;
    let text = spirv(src, "ps_6_6", &["-O0"]);
    assert!(!text.contains("Interlock"), "{text}");
}

/// Outside pixel shaders, an access is refused with DXC's message (its validator's).
#[test]
fn an_access_outside_a_pixel_shader_is_refused() {
    let src = r#"
RasterizerOrderedBuffer<float> b;
[numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { b[id.x] = 1; }
"#;
    let err = build(src, "cs_6_0", &["-O0"]).expect_err("a compute shader may not access a ROV");
    assert!(err.contains("RasterizerOrdered objects are only allowed in 5.0+ pixel shaders"), "{err}");
}

/// Three-component typed buffers have no storage format: `Unknown`, as DXC infers (and the
/// capability a read without format needs).
#[test]
fn three_component_buffers_have_no_format() {
    let src = r#"
RasterizerOrderedBuffer<float3> b;
RWBuffer<int3> c;
float4 main(float4 pos : SV_Position) : SV_Target { b[0] = b[1] + float3(c[2]); return 0; }
"#;
    let text = spirv(src, "ps_6_6", &["-O0"]);
    assert!(text.contains("OpTypeImage %float Buffer 2 0 0 2 Unknown"), "{text}");
    assert!(text.contains("OpTypeImage %int Buffer 2 0 0 2 Unknown"), "{text}");
    assert!(text.contains("OpCapability StorageImageReadWithoutFormat"), "{text}");
}
