//! Declarations dxc accepts beyond the common forms: stage-specific and offset registers,
//! `unsigned` shorthand types, and the other odd declarations checked here.

mod common;
use common::*;
use hlslc_sema::SemaOptions;

fn var<'m>(m: &'m hlslc_sema::tast::Module, name: &str) -> &'m hlslc_sema::tast::Var {
    m.vars.iter().find(|v| v.name == name).unwrap_or_else(|| panic!("no variable {name}"))
}

#[test]
fn registers_for_other_stages_are_ignored() {
    let src = "Buffer<uint> buf : register(ps, space1) : register(vs, space2);\n\
               SamplerState s : register(vs, s3) : register(ps_6_0, s[5]);\n\
               SamplerState o : register(ps, s2[8]);\n\
               SamplerState f : register(ps, s[1.5 + 1]);\n\
               Texture2D t : register(ps, t);\n\
               float4 main() : SV_Target { return buf[0]; }";
    let m = ok(src);
    assert_eq!(var(&m, "buf").binding.space, 1, "ps_6_0 takes the ps annotation");
    assert_eq!(var(&m, "s").binding.register, Some(('s', 5)));
    assert_eq!(var(&m, "o").binding.register, Some(('s', 10)), "s2[8] is s10");
    assert_eq!(var(&m, "f").binding.register, Some(('s', 2)), "the offset 2.5 truncates");
    assert_eq!(var(&m, "t").binding.register, Some(('t', 0)), "a register type alone is register 0");
    let vs = SemaOptions { profile: "vs_6_0".into(), ..SemaOptions::default() };
    let m = run_with("Buffer<uint> buf : register(ps, space1) : register(vs, space2);\nuint main() : OUT { return buf[0]; }", &vs)
        .module
        .expect("accepted");
    assert_eq!(var(&m, "buf").binding.space, 2);
    // dxc says "register subcomponent is not an integral constant"; hlslc gives its number error.
    assert!(err("SamplerState s : register(ps, s[x]); float4 main() : SV_Target { return 0; }").contains("register number should be an integral numeric string"));
}

#[test]
fn unsigned_applies_to_integer_shorthand_types() {
    let m = ok("unsigned dword3x4 c; unsigned min16int3 d; unsigned int64_t2 e;\nfloat4 main() : SV_Target { return c[0][3] + d[2] + e.x; }");
    assert_eq!(m.types.name(var(&m, "c").ty), "uint3x4");
    assert_eq!(m.types.name(var(&m, "d").ty), "min16uint3");
    assert_eq!(m.types.name(var(&m, "e").ty), "uint64_t2");
    assert!(!run("unsigned float2 f; float4 main() : SV_Target { return 0; }").diags.list.is_empty());
}

#[test]
fn clip_planes_take_float4_uniforms() {
    let vs = SemaOptions { profile: "vs_6_0".into(), ..SemaOptions::default() };
    let prelude = "struct P { float4 a; float4 b[2]; }; cbuffer CB { P p; float4 plane; }; float4 g; float4 arr[3]; bool flag;\n\
                   static const float4 k = float4(1, 2, 3, 4); int i;\n";
    let ok_src = format!("{prelude}[clipplanes(p.a, p.b[1], plane, g, arr[2])] float4 main() : SV_Position {{ return 0; }}");
    let o = run_with(&ok_src, &vs);
    let m = o.module.unwrap_or_else(|| panic!("{}", o.rendered));
    let main = m.funcs.iter().find(|f| f.name == "main").unwrap();
    let clip = main.attrs.iter().find(|a| a.name == "clipplanes").expect("kept for the emitters");
    assert_eq!(clip.args.len(), 5);
    for a in &clip.args {
        let hlslc_sema::tast::AttrArg::Expr(e) = a else { panic!("{a:?}") };
        assert_eq!(m.types.name(m.expr(*e).ty), "float4");
    }
    let bad = |arg: &str| {
        let src = format!("{prelude}[clipplanes({arg})] float4 main() : SV_Position {{ return 0; }}");
        run_with(&src, &vs).rendered
    };
    assert!(bad("flag").contains("clipplanes argument must be a float4 type but is 'bool'"), "{}", bad("flag"));
    for invalid in ["k", "g + g", "g.xyzw", "float4(1, 2, 3, 4)", "arr[0].x"] {
        assert!(bad(invalid).contains("invalid expression for clipplanes argument"), "{invalid}: {}", bad(invalid));
    }
    assert!(bad("arr[i]").contains("array subscript: must be numeric literal"), "{}", bad("arr[i]"));
}

/// As in C++, a variable is in scope in its own initializer (its value there is undefined), as
/// dxc accepts it: its test spirv.debug.opline.composite writes
/// `float2x2 b = float2x2(a.x, b._m00, 2 + a.y, b._m11 / 2);`. The initializer names the
/// variable it initializes, not an outer one of the same name.
#[test]
fn a_variable_is_in_scope_in_its_own_initializer() {
    let m = ok("float4 main(float2 a : A) : SV_Target { float2x2 b = float2x2(a.x, b._m00, 2 + a.y, b._m11 / 2); return b._m00; }");
    let b = m.vars.iter().position(|v| v.name == "b").expect("b");
    let init = m.vars[b].init.expect("b has its initializer");
    let mut uses = Vec::new();
    collect_var_refs(&m, init, &mut uses);
    assert_eq!(uses.iter().filter(|&&v| v == b).count(), 2, "the initializer reads b itself twice: {uses:?}");
    // An outer `x` is hidden by the inner one from its initializer on.
    let m = ok("static float x = 1; float4 main() : SV_Target { float x = x + 1; return x; }");
    let inner = m.vars.iter().rposition(|v| v.name == "x").expect("x");
    let mut uses = Vec::new();
    collect_var_refs(&m, m.vars[inner].init.expect("init"), &mut uses);
    assert_eq!(uses, vec![inner]);
    // `auto` still needs its initializer's type first.
    let r = err("float4 main() : SV_Target { auto y = y; return y; }");
    assert!(r.contains("'y'"), "{r}");
}

/// The variables an expression reads, by index.
fn collect_var_refs(m: &hlslc_sema::tast::Module, e: hlslc_sema::tast::ExprId, out: &mut Vec<usize>) {
    let text = format!("{:?}", m.expr(e).kind);
    if let hlslc_sema::tast::ExprKind::Var(v) = m.expr(e).kind {
        out.push(v.0 as usize);
    }
    // Children: every ExprId named in the node's debug text.
    for part in text.split("ExprId(").skip(1) {
        if let Some(n) = part.split(')').next().and_then(|n| n.parse::<u32>().ok()) {
            collect_var_refs(m, hlslc_sema::tast::ExprId(n), out);
        }
    }
}
