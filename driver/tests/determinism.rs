//! The same inputs compiled on 8 threads, 100 times each, give byte-identical SPIR-V and DXIL:
//! no global state, no hash-order leaks into the output.

use hlslc::{compile, Options, OutputKind, Profile};

const PIXEL: &str = include_str!("../../examples/triangle.hlsl");
const COMPUTE: &str = include_str!("../../examples/compute.hlsl");
/// Structs, cbuffers with matrices, loops, textures: enough to exercise every table that could
/// leak an order (types, constants, decorations, names).
const MIXED: &str = r#"
struct Light { float3 dir; float4 color; };
cbuffer Frame : register(b0) { float4x4 viewProj; Light lights[4]; uint lightCount; };
Texture2D<float4> albedo : register(t0);
SamplerState samp : register(s0);
struct VSOut { float4 pos : SV_Position; float3 n : NORMAL; float2 uv : TEXCOORD0; };
float4 main(VSOut i) : SV_Target {
    float4 base = albedo.Sample(samp, i.uv);
    float3 acc = 0;
    [loop] for (uint l = 0; l < lightCount; ++l) {
        float d = saturate(dot(normalize(i.n), -lights[l].dir));
        acc += d * lights[l].color.rgb;
    }
    float4 p = mul(viewProj, float4(acc, 1));
    return float4(base.rgb * acc + p.xyz * 0.001, base.a);
}
"#;

fn cases() -> Vec<(&'static str, Options)> {
    let mut list = Vec::new();
    for (src, profile) in [(PIXEL, "ps_6_0"), (COMPUTE, "cs_6_0"), (MIXED, "ps_6_0")] {
        for spirv in [true, false] {
            let mut o = Options::for_profile(Profile::parse(profile).unwrap());
            o.spirv = spirv;
            o.output_kind = if spirv { OutputKind::Binary } else { OutputKind::Text };
            list.push((src, o));
        }
    }
    list
}

fn output(src: &str, o: &Options) -> Vec<u8> {
    let r = compile(src, "t.hlsl", o, None);
    assert!(r.succeeded(), "{}", r.render_diagnostics());
    r.output.expect("output").as_bytes().to_vec()
}

#[test]
fn eight_threads_hundred_iterations_byte_identical() {
    let cases = cases();
    let reference: Vec<Vec<u8>> = cases.iter().map(|(s, o)| output(s, o)).collect();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..8)
            .map(|t| {
                let (cases, reference) = (&cases, &reference);
                scope.spawn(move || {
                    for i in 0..100 {
                        // Each thread walks the cases from a different start, so different
                        // compiles overlap in time.
                        let k = (i + t) % cases.len();
                        let (src, o) = &cases[k];
                        assert!(output(src, o) == reference[k], "thread {t}, iteration {i}: case {k} differs");
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().expect("a compiling thread panicked");
        }
    });
}
