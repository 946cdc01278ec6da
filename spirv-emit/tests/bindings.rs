//! Implicit descriptor bindings in DXC's order (issue #12): resources without `register()` or
//! `[[vk::binding]]` come after the explicit ones, in declaration order (cbuffers where they are
//! declared, a counter right after its buffer, `$Globals` last), each taking the lowest binding
//! number still free in its set; `register(spaceN)` alone picks set N. The expected numbers
//! below follow those rules by hand (DXC's `DeclResultIdMapper::decorateResourceBindings`).

mod common;
use common::*;
use hlslc_spirv::target::TargetEnv;

const SRC: &str = r#"
RWStructuredBuffer<uint> first;
Texture2D<float4> t2 : register(t2);
cbuffer Mid { float4 m; };
AppendStructuredBuffer<uint> app;
SamplerState sp : register(space3);
Texture2D<float4> t0 : register(t0);
[[vk::binding(9)]] Texture2D<float4> nine;
Texture2D<float4> last;
float4 g;
float4 main(float2 uv : TEXCOORD0) : SV_Target {
    first.IncrementCounter();
    app.Append(1);
    return t2.Sample(sp, uv) + t0.Sample(sp, uv) + nine.Sample(sp, uv) + last.Sample(sp, uv) + m + g;
}
"#;

/// `(set, binding)` of the variable named `name` in the disassembly.
fn binding_of(text: &str, name: &str) -> (u32, u32) {
    let find = |what: &str| -> u32 {
        let prefix = format!("OpDecorate %{name} {what} ");
        let line = text.lines().map(str::trim).find(|l| l.starts_with(&prefix)).unwrap_or_else(|| panic!("no {prefix}\n{text}"));
        line[prefix.len()..].parse().unwrap()
    };
    (find("DescriptorSet"), find("Binding"))
}

#[test]
fn implicit_bindings_follow_declaration_order_after_explicit_ones() {
    let words = compile(SRC, "ps_6_0", TargetEnv::Vulkan1_0);
    validate(&words, "vulkan1.0");
    let text = hlslc_spirv::disasm::disassemble(&words).unwrap();
    let expected = [
        ("t2", (0, 2)),
        ("t0", (0, 0)),
        ("nine", (0, 9)),
        ("first", (0, 1)),
        ("counter_var_first", (0, 3)),
        ("Mid", (0, 4)),
        ("app", (0, 5)),
        ("counter_var_app", (0, 6)),
        ("sp", (3, 0)),
        ("last", (0, 7)),
        ("_Globals", (0, 8)),
    ];
    for (name, want) in expected {
        assert_eq!(binding_of(&text, name), want, "{name}\n{text}");
    }
}
