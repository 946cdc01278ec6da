//! The library API: `hlslc::compile` / `compile_bytes`.

use hlslc::{compile, compile_bytes, Action, IncludeHandler, IncludedFile, Options, Output, Profile};

fn syntax_only(profile: &str) -> Options {
    Options { action: Action::SyntaxOnly, ..Options::for_profile(Profile::parse(profile).unwrap()) }
}

#[test]
fn good_input_succeeds_without_output() {
    let r = compile("float4 main() : SV_Target { return 0; }", "a.hlsl", &syntax_only("ps_6_0"), None);
    assert!(r.succeeded(), "{}", r.render_diagnostics());
    assert_eq!(r.output, None);
    assert_eq!(r.source_map.file(hlslc_frontend::FileId(0)).name, "a.hlsl");
}

#[test]
fn option_combinations_are_checked() {
    let mut o = syntax_only("ps_6_0");
    o.enable_16bit_types = true;
    let r = compile("", "a.hlsl", &o, None);
    assert!(!r.succeeded());
    assert!(r.render_diagnostics().contains("shader model >= 6.2"), "{}", r.render_diagnostics());
    let mut o = syntax_only("ps_6_2");
    o.enable_16bit_types = true;
    assert!(compile("", "a.hlsl", &o, None).succeeded());
    o.hlsl_version = hlslc::HlslVersion::V2016;
    assert!(!compile("", "a.hlsl", &o, None).succeeded());
    let r = compile("", "a.hlsl", &Options::default(), None);
    assert!(r.render_diagnostics().contains("no target profile"));
}

#[test]
fn dxil_text_is_the_default_output() {
    let o = Options::for_profile(Profile::parse("cs_6_0").unwrap());
    let src = "RWBuffer<uint> B; [numthreads(4,1,1)] void main(uint3 id : SV_DispatchThreadID) { B[id.x] = id.x * 2; }";
    let r = compile(src, "a.hlsl", &o, None);
    assert!(r.succeeded(), "{}", r.render_diagnostics());
    let Some(hlslc::Output::Text(text)) = &r.output else { panic!("no text output") };
    assert!(text.contains("define void @main()"), "{text}");
    assert!(text.contains("@dx.op.threadId.i32(i32 93, i32 0)"), "{text}");
    assert!(text.contains("shl i32 %"), "{text}");
    assert!(text.contains("!{i32 4, !"), "numthreads: {text}");
    // A construct the DXIL back end does not handle yet is a located error, not a fake module.
    let lib = Options::for_profile(Profile::parse("lib_6_8").unwrap());
    let node = "[Shader(\"node\")] [NodeLaunch(\"broadcasting\")] [NodeDispatchGrid(1, 1, 1)] [NumThreads(1, 1, 1)] void n() {}";
    let r = compile(node, "b.hlsl", &lib, None);
    assert!(!r.succeeded());
    assert_eq!(r.output, None);
}

#[test]
fn invalid_bytes_are_located() {
    let r = compile_bytes(b"int a;\r\nint \xC0b;\n".to_vec(), "x.hlsl", &syntax_only("ps_6_0"), None);
    assert!(!r.succeeded());
    assert_eq!(r.error_count(), 1);
    assert!(r.render_diagnostics().starts_with("x.hlsl:2:5: error: source file is not valid UTF-8"), "{}", r.render_diagnostics());
    let many: Vec<u8> = std::iter::repeat_n(0xFFu8, 100).collect();
    let r = compile_bytes(many, "y.hlsl", &syntax_only("ps_6_0"), None);
    assert_eq!(r.error_count(), hlslc::input::MAX_REPORTED);
    assert!(r.render_diagnostics().contains("80 more invalid byte sequences"));
}

#[test]
fn preprocess_output_is_text() {
    let o = Options { action: Action::Preprocess, ..Options::default() };
    let r = compile("int   x ;\nfloat y;", "p.hlsl", &o, None);
    assert!(r.succeeded(), "{}", r.render_diagnostics());
    match r.output {
        Some(Output::Text(t)) => assert!(t.contains("int x ;") && t.contains("float y;"), "{t}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn predefined_macros_are_visible() {
    let mut o = Options { action: Action::Preprocess, spirv: true, ..Options::for_profile(Profile::parse("cs_6_4").unwrap()) };
    o.defines.push(hlslc::CmdDefine::Define { name: "USER".into(), value: Some("7".into()) });
    let src = "__SHADER_TARGET_STAGE __SHADER_STAGE_COMPUTE __SHADER_TARGET_MAJOR __SHADER_TARGET_MINOR __HLSL_VERSION __spirv__ USER\n";
    let r = compile(src, "p.hlsl", &o, None);
    assert!(r.succeeded(), "{}", r.render_diagnostics());
    let Some(Output::Text(t)) = r.output else { panic!() };
    // After the `#line 1 "p.hlsl"` marker, the expansion.
    assert!(t.starts_with("#line 1 \"p.hlsl\"\n"), "{t}");
    let last = t.lines().find(|l| !l.starts_with("#line") && !l.trim().is_empty()).unwrap();
    assert_eq!(last.split_whitespace().collect::<Vec<_>>(), ["5", "5", "6", "4", "2021", "1", "7"]);
}

struct Headers;
impl IncludeHandler for Headers {
    fn include(&mut self, name: &str, _includer: &str, _angled: bool) -> Option<IncludedFile> {
        (name == "common.hlsli").then(|| IncludedFile { name: "common.hlsli".into(), text: "float helper() { return 1; }\n".into() })
    }
}

#[test]
fn include_handler_supplies_files() {
    let mut o = Options { action: Action::Preprocess, ..Options::default() };
    o.use_filesystem = false;
    let mut h = Headers;
    let r = compile("#include \"common.hlsli\"\n", "m.hlsl", &o, Some(&mut h));
    assert!(r.succeeded(), "{}", r.render_diagnostics());
    let Some(Output::Text(t)) = r.output else { panic!() };
    assert!(t.contains("float helper()"), "{t}");
}

#[test]
fn concurrent_calls_are_independent() {
    let inputs: Vec<(Vec<u8>, bool)> = (0..16)
        .map(|i| if i % 2 == 0 { (format!("int v{i};\n").into_bytes(), true) } else { (vec![b'a', 0xFF, b'\n'], false) })
        .collect();
    let expected: Vec<String> = inputs
        .iter()
        .map(|(b, _)| {
            let o = Options { action: Action::Preprocess, ..Options::default() };
            let r = compile_bytes(b.clone(), "t.hlsl", &o, None);
            format!("{:?}{}", r.output, r.render_diagnostics())
        })
        .collect();
    std::thread::scope(|s| {
        let handles: Vec<_> = inputs
            .iter()
            .map(|(b, ok)| {
                s.spawn(move || {
                    let o = Options { action: Action::Preprocess, ..Options::default() };
                    let mut last = String::new();
                    for _ in 0..20 {
                        let r = compile_bytes(b.clone(), "t.hlsl", &o, None);
                        assert_eq!(r.succeeded(), *ok);
                        last = format!("{:?}{}", r.output, r.render_diagnostics());
                    }
                    last
                })
            })
            .collect();
        for (h, want) in handles.into_iter().zip(&expected) {
            assert_eq!(&h.join().unwrap(), want);
        }
    });
}

#[test]
fn large_input_is_handled() {
    // 8 MB here; `hlslc -fsyntax-only` on 100 MB is measured by hand (see the driver report).
    // Distinct names: sema runs too, and a repeated global is a redefinition.
    let mut src = String::new();
    let mut i = 0u64;
    while src.len() < 8 * 1024 * 1024 {
        src.push_str(&format!("static float value_{i:012} = 1.0;\n"));
        i += 1;
    }
    let r = compile_bytes(src.into_bytes(), "big.hlsl", &syntax_only("ps_6_0"), None);
    assert!(r.succeeded(), "{}", r.render_diagnostics().lines().take(5).collect::<Vec<_>>().join("\n"));
}

/// Diagnostics print the locations `#line` directives make (the source line shown is the
/// physical one); `-ignore-line-directives` prints the physical locations.
#[test]
fn diagnostics_honour_line_directives() {
    let src = "float4 main() : SV_Target {\n#line 42 \"renamed.hlsl\"\n  return foo;\n}\n";
    let r = compile(src, "a.hlsl", &syntax_only("ps_6_0"), None);
    let text = r.render_diagnostics();
    assert!(text.starts_with("renamed.hlsl:42:10: error: use of undeclared identifier 'foo'"), "{text}");
    assert!(text.contains("\n  return foo;\n"), "{text}");
    let mut o = syntax_only("ps_6_0");
    o.ignore_line_directives = true;
    let text = compile(src, "a.hlsl", &o, None).render_diagnostics();
    assert!(text.starts_with("a.hlsl:3:10: error:"), "{text}");
}

/// Results cross threads: a pool can compile on workers and hand results back.
#[test]
fn public_results_are_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<hlslc::CompileResult>();
    assert_send_sync::<hlslc::Options>();
    assert_send_sync::<hlslc::Output>();
    assert_send_sync::<hlslc::Diagnostic>();
    assert_send_sync::<hlslc::SourceMap>();
    assert_send_sync::<hlslc::LineMap>();
    // And a result really moves: compiled on one thread, read on another.
    let o = Options::for_profile(Profile::parse("ps_6_0").unwrap());
    let r = std::thread::spawn(move || compile("float4 main() : SV_Target { return 1; }", "a.hlsl", &o, None)).join().unwrap();
    assert!(r.succeeded(), "{}", r.render_diagnostics());
}

#[test]
fn reflection_is_computed_unless_turned_off() {
    let src = "RWBuffer<uint> B; [numthreads(4,1,1)] void main(uint3 id : SV_DispatchThreadID) { B[id.x] = id.x * 2; }";
    for spirv in [true, false] {
        let mut o = Options { spirv, ..Options::for_profile(Profile::parse("cs_6_0").unwrap()) };
        let r = compile(src, "a.hlsl", &o, None);
        assert!(r.succeeded(), "{}", r.render_diagnostics());
        let refl = r.reflection.expect("reflection by default");
        assert_eq!(refl.to_json().matches("\"B\"").count(), 1, "{}", refl.to_json());
        o.reflect = false;
        let r = compile(src, "a.hlsl", &o, None);
        assert!(r.succeeded() && r.output.is_some(), "{}", r.render_diagnostics());
        assert!(r.reflection.is_none(), "reflect: false still reflected (spirv: {spirv})");
    }
}
