//! `hlslc::Compiler`: the session cache is hit (a counting include handler is asked once per
//! file across compiles), results equal `hlslc::compile`, and a change to an include (through
//! the handler or on disk) is seen.

use hlslc::{compile, CompileResult, Compiler, IncludeHandler, IncludedFile, Options, OutputKind, Profile};
use std::collections::HashMap;
use std::sync::Arc;

/// In-memory files; counts how often each is asked for.
#[derive(Default)]
struct Files {
    texts: HashMap<String, String>,
    asked: HashMap<String, usize>,
}

impl Files {
    fn with(files: &[(&str, &str)]) -> Files {
        Files { texts: files.iter().map(|(n, t)| (n.to_string(), t.to_string())).collect(), asked: HashMap::new() }
    }
    fn asked(&self, name: &str) -> usize {
        self.asked.get(name).copied().unwrap_or(0)
    }
}

impl IncludeHandler for Files {
    fn include(&mut self, name: &str, _includer: &str, _angled: bool) -> Option<IncludedFile> {
        *self.asked.entry(name.to_string()).or_default() += 1;
        self.texts.get(name).map(|t| IncludedFile { name: name.to_string(), text: t.clone() })
    }
}

fn spirv_options() -> Options {
    let mut o = Options::for_profile(Profile::parse("ps_6_0").unwrap());
    o.spirv = true;
    o.output_kind = OutputKind::Binary;
    o
}

const MAIN: &str = "#include \"a.hlsli\"\n#include \"b.hlsli\"\nfloat4 main() : SV_Target { return A * B; }\n";

fn same(a: &CompileResult, b: &CompileResult) {
    assert_eq!(a.output, b.output);
    assert_eq!(a.listing, b.listing);
    assert_eq!(a.render_diagnostics(), b.render_diagnostics());
}

#[test]
fn includes_are_asked_once_across_compiles_and_results_equal_compile() {
    let mut files = Files::with(&[("a.hlsli", "#include \"b.hlsli\"\n#define A float4(1, 2, 3, 4)\n"), ("b.hlsli", "#pragma once\nstatic const float B = 0.5;\n")]);
    let o = spirv_options();
    let compiler = Compiler::new();
    let first = compiler.compile(MAIN, "main.hlsl", &o, Some(&mut files));
    assert!(first.succeeded(), "{}", first.render_diagnostics());
    // b.hlsli is included twice (from a.hlsli and from main.hlsl, both in one folder): asked once.
    assert_eq!((files.asked("a.hlsli"), files.asked("b.hlsli")), (1, 1));
    // Another shader including the same files: the handler is not asked again.
    let other = "#include \"a.hlsli\"\nfloat4 main() : SV_Target { return A; }\n";
    let second = compiler.compile(other, "other.hlsl", &o, Some(&mut files));
    assert!(second.succeeded(), "{}", second.render_diagnostics());
    assert_eq!((files.asked("a.hlsli"), files.asked("b.hlsli")), (1, 1), "cache not hit");
    // The first shader again: the whole result is reused.
    let again = compiler.compile(MAIN, "main.hlsl", &o, Some(&mut files));
    assert!(Arc::ptr_eq(&first, &again));
    let stats = compiler.stats();
    assert_eq!((stats.compiles, stats.results_reused, stats.includes_asked), (2, 1, 2), "{stats:?}");
    // The results are those of hlslc::compile.
    let mut fresh = Files::with(&[("a.hlsli", "#include \"b.hlsli\"\n#define A float4(1, 2, 3, 4)\n"), ("b.hlsli", "#pragma once\nstatic const float B = 0.5;\n")]);
    same(&first, &compile(MAIN, "main.hlsl", &o, Some(&mut fresh)));
    same(&second, &compile(other, "other.hlsl", &o, Some(&mut fresh)));
}

#[test]
fn invalidate_sees_changes_and_keeps_unchanged_results() {
    let mut files = Files::with(&[("a.hlsli", "#define A float4(1, 2, 3, 4)\n"), ("b.hlsli", "static const float B = 0.5;\n")]);
    let o = spirv_options();
    let compiler = Compiler::new();
    let first = compiler.compile(MAIN, "main.hlsl", &o, Some(&mut files));
    assert!(first.succeeded(), "{}", first.render_diagnostics());
    // Touched but not changed: asked again, the same text, the result is reused.
    compiler.invalidate("b.hlsli");
    let touched = compiler.compile(MAIN, "main.hlsl", &o, Some(&mut files));
    assert_eq!(files.asked("b.hlsli"), 2);
    assert!(Arc::ptr_eq(&first, &touched));
    // Changed: compiled again, the output is that of the new text.
    files.texts.insert("b.hlsli".into(), "static const float B = 0.25;\n".into());
    compiler.invalidate("b.hlsli");
    let changed = compiler.compile(MAIN, "main.hlsl", &o, Some(&mut files));
    assert!(changed.succeeded(), "{}", changed.render_diagnostics());
    assert_ne!(first.output, changed.output);
    assert_eq!(files.asked("a.hlsli"), 1, "a.hlsli did not change and is not asked again");
    same(&changed, &compile(MAIN, "main.hlsl", &o, Some(&mut files)));
    assert_eq!(compiler.stats().compiles, 2);
}

#[test]
fn file_system_includes_are_checked_by_content() {
    let dir = std::env::temp_dir().join(format!("hlslc-compiler-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let inc = dir.join("color.hlsli");
    std::fs::write(&inc, "#define COLOR float4(1, 0, 0, 1)\n").unwrap();
    let main = dir.join("main.hlsl");
    let source = "#include \"color.hlsli\"\nfloat4 main() : SV_Target { return COLOR; }\n";
    let name = main.to_str().unwrap();
    let o = spirv_options();
    let compiler = Compiler::new();
    let first = compiler.compile(source, name, &o, None);
    assert!(first.succeeded(), "{}", first.render_diagnostics());
    assert!(Arc::ptr_eq(&first, &compiler.compile(source, name, &o, None)));
    std::fs::write(&inc, "#define COLOR float4(0, 1, 0, 1)\n").unwrap();
    let changed = compiler.compile(source, name, &o, None);
    assert_ne!(first.output, changed.output);
    same(&changed, &compile(source, name, &o, None));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn failed_results_are_not_kept() {
    let o = spirv_options();
    let compiler = Compiler::new();
    let mut files = Files::default();
    let r = compiler.compile(MAIN, "main.hlsl", &o, Some(&mut files));
    assert!(r.render_diagnostics().contains("'a.hlsli' file not found"), "{}", r.render_diagnostics());
    // The missing files appear: the next compile finds them.
    files.texts.insert("a.hlsli".into(), "#define A 1\n".into());
    files.texts.insert("b.hlsli".into(), "static const float B = 2;\n".into());
    let r = compiler.compile(MAIN, "main.hlsl", &o, Some(&mut files));
    assert!(r.succeeded(), "{}", r.render_diagnostics());
    // Other options are another result.
    let mut dxil = Options::for_profile(Profile::parse("ps_6_0").unwrap());
    dxil.output_kind = OutputKind::Text;
    let d = compiler.compile(MAIN, "main.hlsl", &dxil, Some(&mut files));
    assert!(matches!(&d.output, Some(hlslc::Output::Text(t)) if t.contains("define void @main()")), "{:?}", d.output);
}

#[test]
fn threads_share_one_compiler() {
    let compiler = Compiler::new();
    let o = spirv_options();
    let reference = compile("float4 main(float4 c : COLOR) : SV_Target { return c; }", "t.hlsl", &o, None);
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for _ in 0..5 {
                    let r = compiler.compile("float4 main(float4 c : COLOR) : SV_Target { return c; }", "t.hlsl", &o, None);
                    assert_eq!(r.output, reference.output);
                }
            });
        }
    });
    let stats = compiler.stats();
    assert_eq!(stats.compiles + stats.results_reused, 20);
    assert!(stats.results_reused >= 16, "{stats:?}");
}
