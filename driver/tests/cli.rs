//! The `hlslc` and `hlsl2spirv` command lines, run as processes.

mod common;
use common::*;
use hlslc::cli::{parse_args, CliErrorKind, Tool};
use hlslc::options::{BindRegister, BindingShift, MatrixPacking, RegisterClass};
use hlslc::{Action, CmdDefine, OutputKind};
use std::process::Command;

fn args(a: &[&str]) -> Vec<String> {
    a.iter().map(|s| s.to_string()).collect()
}

#[test]
fn profile_and_entry_spellings_agree() {
    let spellings: [&[&str]; 5] = [
        &["-T", "ps_6_0", "-E", "main", "a.hlsl"],
        &["-Tps_6_0", "-Emain", "a.hlsl"],
        &["/Tps_6_0", "/Emain", "a.hlsl"],
        &["/T", "ps_6_0", "/E", "main", "a.hlsl"],
        &["a.hlsl", "-E", "main", "-T", "ps_6_0"],
    ];
    // The command line as written (for -fspv-debug=tool's OpModuleProcessed and DXIL -Zi's
    // dx.source.args) is the one thing that depends on the spelling.
    let parse = |s: &[&str]| {
        let mut i = parse_args(Tool::Hlslc, &args(s)).unwrap();
        i.options.spirv_options.command_line.clear();
        i.options.command_args.clear();
        i
    };
    let first = parse(spellings[0]);
    assert_eq!(first.options.profile.unwrap().to_string(), "ps_6_0");
    assert_eq!(first.inputs, vec!["a.hlsl"]);
    for s in &spellings[1..] {
        assert_eq!(parse(s), first, "{s:?}");
    }
}

#[test]
fn spellings_agree_when_running() {
    let dir = TempDir::new("spell");
    let f = dir.file("a.hlsl", GOOD);
    let f = f.to_str().unwrap();
    for s in [["-T", "ps_6_0"].as_slice(), &["-Tps_6_0"], &["/Tps_6_0"]] {
        let mut a = s.to_vec();
        a.extend(["-fsyntax-only", f]);
        let o = hlslc(&a);
        assert_eq!(code(&o), 0, "{a:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), "");
    }
}

#[test]
fn define_and_include_spellings() {
    let inv = parse_args(Tool::Hlslc, &args(&["-DA", "-D", "B=2", "/DC=", "-D=x=1", "-Iinc", "-I", "other", "x.hlsl"]));
    assert_eq!(inv.unwrap_err().kind, CliErrorKind::InvalidValue, "-D with an empty name");
    let inv = parse_args(Tool::Hlslc, &args(&["-DA", "-D", "B=2", "/DC=", "-Iinc", "-I", "other", "x.hlsl"])).unwrap();
    assert_eq!(
        inv.options.defines,
        vec![
            CmdDefine::Define { name: "A".into(), value: None },
            CmdDefine::Define { name: "B".into(), value: Some("2".into()) },
            CmdDefine::Define { name: "C".into(), value: Some("".into()) },
        ]
    );
    assert_eq!(inv.options.include_dirs, vec![std::path::PathBuf::from("inc"), "other".into()]);
}

#[test]
fn options_reach_typed_fields() {
    let inv = parse_args(
        Tool::Hlslc,
        &args(&[
            "-spirv", "-HV", "2018", "-enable-16bit-types", "-O0", "-O2", "-Zpc", "-Zpr", "-WX", "-Wno-conversion",
            "-fvk-b-shift", "10", "0", "-fvk-t-shift", "20", "all", "-fvk-bind-register", "t3", "0", "1", "2",
            "-fspv-target-env=vulkan1.2", "-fspv-extension=SPV_KHR_a", "-fspv-extension=KHR",
            "-fvk-use-dx-layout", "-Fo", "out.bin", "-Fc", "out.txt", "-pack_prefix_stable", "-opt-select", "x", "y",
            "-auto-binding-space", "7", "-fcgl", "a.hlsl",
        ]),
    )
    .unwrap();
    let o = &inv.options;
    assert!(o.spirv && o.enable_16bit_types && o.warnings_as_errors && o.high_level_only);
    assert_eq!(o.hlsl_version.number(), 2018);
    assert_eq!(o.opt_level, 2);
    assert_eq!(o.matrix_packing, Some(MatrixPacking::RowMajor));
    assert_eq!(o.warning_options, vec!["no-conversion"]);
    let s = &o.spirv_options;
    assert_eq!(
        s.binding_shifts,
        vec![
            BindingShift { class: RegisterClass::B, shift: 10, space: Some(0) },
            BindingShift { class: RegisterClass::T, shift: 20, space: None }
        ]
    );
    assert_eq!(s.bind_registers, vec![BindRegister { register: "t3".into(), space: 0, binding: 1, set: 2 }]);
    assert_eq!(s.target_env.spirv_version(), (1, 5));
    assert_eq!(s.extensions, vec!["SPV_KHR_a", "KHR"]);
    // -Oconfig replaces the optimization level: alone, its comma-separated flags in order;
    // beside -O0..-O3, -Od or -fcgl, or given twice, the command line is refused (as dxc does).
    let inv = parse_args(Tool::Hlslc, &args(&["-spirv", "-Oconfig=--a,--b", "a.hlsl"])).unwrap();
    assert_eq!(inv.options.spirv_options.optimizer_config, vec!["--a", "--b"]);
    for (extra, message) in [
        ("-O0", "-Oconfig should not be used together with -O"),
        ("-O3", "-Oconfig should not be used together with -O"),
        ("-Od", "-Oconfig should not be used together with -Od"),
        ("-fcgl", "-Oconfig should not be used together with -fcgl"),
        ("-Oconfig=-O", "-Oconfig should not be specified more than once"),
    ] {
        let e = parse_args(Tool::Hlslc, &args(&["-spirv", extra, "-Oconfig=--a", "a.hlsl"])).unwrap_err();
        assert_eq!((e.kind, e.message.as_str()), (CliErrorKind::Usage, message), "{extra}");
    }
    assert_eq!(s.layout, hlslc::options::LayoutRule::Dx);
    assert_eq!(o.dxil_options.auto_binding_space, Some(7));
    assert_eq!(o.output_kind, OutputKind::Binary);
    assert!(o.listing);
    // Options without a typed field are kept, in order, with their values.
    assert_eq!(
        o.other,
        vec![("pack_prefix_stable".to_string(), vec![]), ("opt-select".to_string(), vec!["x".to_string(), "y".to_string()])]
    );
}

#[test]
fn last_of_competing_flags_wins_and_empty_values_pass() {
    let o = parse_args(Tool::Hlslc, &args(&["-O2", "-Zpr", "-O0", "-Zpc", "a"])).unwrap().options;
    assert_eq!((o.opt_level, o.matrix_packing), (0, Some(MatrixPacking::ColumnMajor)));
    let o = parse_args(Tool::Hlslc, &args(&["-W", "-D", "E=", "a"])).unwrap().options;
    assert_eq!(o.warning_options, vec![""]);
    // An empty -fspv-debug= category is dxc's error, as any unknown one.
    let e = parse_args(Tool::Hlslc, &args(&["-fspv-debug=", "a"])).unwrap_err();
    assert!(e.message.contains("unknown SPIR-V debug info control parameter: "), "{e:?}");
}

#[test]
fn actions() {
    let action = |a: &[&str]| parse_args(Tool::Hlslc, &args(a)).unwrap().options.action;
    assert_eq!(action(&["-P", "a"]), Action::Preprocess);
    assert_eq!(action(&["-fsyntax-only", "a"]), Action::SyntaxOnly);
    assert_eq!(action(&["-ast-dump", "a"]), Action::AstDump { implicit: false });
    assert_eq!(action(&["-ast-dump-implicit", "a"]), Action::AstDump { implicit: true });
    assert_eq!(action(&["-ast-dump-parse", "a"]), Action::ParseDump);
    assert_eq!(action(&["a"]), Action::Compile);
}

#[test]
fn unknown_flag_is_an_error() {
    let o = hlslc(&["-T", "ps_6_0", "-foo", "a.hlsl"]);
    assert_eq!(code(&o), 1);
    assert_eq!(stderr(&o), "hlslc: error: unknown argument: '-foo'\n");
    let o = hlsl2spirv(&["-bar", "a.hlsl"]);
    assert_eq!(code(&o), 1);
    assert_eq!(stderr(&o), "hlsl2spirv: error: unknown argument: '-bar'\n");
}

#[test]
fn bad_values_are_errors() {
    for (a, want) in [
        (["-T"].as_slice(), "Argument to '-T' is missing."),
        (&["-T", "xs_6_0", "a.hlsl"], "unknown or unsupported target profile 'xs_6_0'"),
        (&["-HV", "2019", "a.hlsl"], "unknown HLSL version '2019'"),
        (&["-denorm", "bad", "a.hlsl"], "Unsupported value 'bad' for denorm option."),
        (&["-fspv-target-env=vulkan9", "a.hlsl"], "unknown SPIR-V target environment 'vulkan9'"),
        (&["-fvk-bind-resource-heap", "1", "-1", "a.hlsl"], "invalid value '-1'"),
    ] {
        let o = hlslc(a);
        assert_eq!(code(&o), 1, "{a:?}");
        assert!(stderr(&o).starts_with("hlslc: error: ") && stderr(&o).contains(want), "{a:?}: {}", stderr(&o));
    }
}

#[test]
fn preprocess_to_stdout_and_to_file() {
    let dir = TempDir::new("pp");
    let f = dir.file("a.hlsl", "float4  main()\n{ return 1; }\n");
    let f = f.to_str().unwrap();
    let o = hlslc(&["-P", f]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("main") && text.contains("return 1;"), "{text}");
    let out = dir.path("a.i");
    let o = hlslc(&["-P", "-Fi", out.to_str().unwrap(), f]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
}

#[test]
fn preprocess_from_stdin() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_hlslc"))
        .args(["-P", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"int x;\n").unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).contains("int x;"));
}

#[test]
fn syntax_only_accepts_good_input() {
    let dir = TempDir::new("syn");
    let f = dir.file("a.hlsl", GOOD);
    let o = hlslc(&["-T", "ps_6_0", "-fsyntax-only", f.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    assert_eq!(stderr(&o), "");
}

#[test]
fn syntax_only_rejects_bad_input() {
    let dir = TempDir::new("synbad");
    let f = dir.file("bad.hlsl", "float4 main( : SV_Target { return }\n");
    let o = hlslc(&["-T", "ps_6_0", "-fsyntax-only", f.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("bad.hlsl:1:14: error: "), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
}

#[test]
fn ast_dump_prints_the_tree() {
    let dir = TempDir::new("ast");
    let f = dir.file("a.hlsl", GOOD);
    // -ast-dump: the typed AST after sema; -ast-dump-parse: the parser's tree.
    let o = hlslc(&["-T", "ps_6_0", "-ast-dump", f.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).starts_with("Module\n") && stdout(&o).contains("Function main"), "{}", stdout(&o));
    let o = hlslc(&["-T", "ps_6_0", "-ast-dump-parse", f.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).starts_with("TranslationUnit\n") && stdout(&o).contains("main"), "{}", stdout(&o));
}

#[test]
fn missing_and_unreadable_inputs() {
    let dir = TempDir::new("missing");
    let missing = dir.path("nope.hlsl");
    let o = hlslc(&["-T", "ps_6_0", "-fsyntax-only", missing.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("cannot read input file") && stderr(&o).contains("nope.hlsl"), "{}", stderr(&o));
    let o = hlslc(&["-fsyntax-only", dir.0.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("is a directory"), "{}", stderr(&o));
    let o = hlslc(&["-fsyntax-only"]);
    assert_eq!((code(&o), stderr(&o).lines().next().unwrap()), (1, "hlslc: error: no input file"));
}

#[test]
fn of_several_positional_arguments_the_last_is_the_input() {
    // dxc takes the last positional argument as its input and ignores the others.
    let dir = TempDir::new("lastinput");
    let f = dir.file("a.hlsl", GOOD);
    let o = hlslc(&["-T", "ps_6_0", "-fsyntax-only", "external", f.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = hlslc(&["-T", "ps_6_0", "-fsyntax-only", f.to_str().unwrap(), dir.path("nope.hlsl").to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("nope.hlsl"), "{}", stderr(&o));
}

#[test]
fn invalid_utf8_is_reported_with_its_line() {
    let dir = TempDir::new("utf8");
    let f = dir.file("bad.hlsl", b"float a;\nfloat b\xff;\n".as_slice());
    let o = hlslc(&["-T", "ps_6_0", "-fsyntax-only", f.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    let err = stderr(&o);
    assert!(err.contains("bad.hlsl:2:8: error: source file is not valid UTF-8"), "{err}");
    // -Fe sends the diagnostics to a file instead.
    let fe = dir.path("errors.txt");
    let o = hlslc(&["-T", "ps_6_0", "-fsyntax-only", "-Fe", fe.to_str().unwrap(), f.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    assert_eq!(stderr(&o), "");
    assert_eq!(std::fs::read_to_string(fe).unwrap(), err);
}

#[test]
fn dxil_container_output_is_written_whole() {
    let dir = TempDir::new("nogen");
    let f = dir.file("a.hlsl", GOOD);
    let out = dir.path("a.dxil");
    // -Fo writes the DXIL container (its parts are checked in tests/container.rs).
    let o = hlslc(&["-T", "ps_6_0", "-Fo", out.to_str().unwrap(), f.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    assert_eq!(&std::fs::read(&out).unwrap()[..4], b"DXBC");
    assert_eq!(dir.entries(), vec!["a.dxil", "a.hlsl"], "no temporary file is left");
    let o = hlslc(&["-spirv", f.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("no target profile"), "{}", stderr(&o));
}

#[test]
fn failed_write_leaves_no_partial_file() {
    let dir = TempDir::new("nowrite");
    let f = dir.file("a.hlsl", GOOD);
    let out = dir.path("missing-folder/a.i");
    let o = hlslc(&["-P", "-Fi", out.to_str().unwrap(), f.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("cannot write output file"), "{}", stderr(&o));
    assert_eq!(dir.entries(), vec!["a.hlsl"]);
}

#[test]
fn help_and_version() {
    for h in ["-help", "--help", "/?"] {
        let o = hlslc(&[h]);
        assert_eq!(code(&o), 0);
        let text = stdout(&o);
        assert!(text.contains("\n  -T <profile> ") && text.contains("-fvk-b-shift <shift> <space>"), "{text}");
    }
    let o = hlsl2spirv(&["-help"]);
    assert!(stdout(&o).contains("\n  -o <file> "));
    let o = hlslc(&["--version"]);
    assert!(stdout(&o).starts_with("hlslc "));
}

#[test]
fn examples_pass_syntax_checks() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/");
    for (profile, entry, file) in
        [("vs_6_0", "VSMain", "triangle.hlsl"), ("ps_6_0", "main", "triangle.hlsl"), ("cs_6_0", "main", "compute.hlsl")]
    {
        let path = format!("{root}{file}");
        let o = hlslc(&["-T", profile, "-E", entry, "-fsyntax-only", &path]);
        assert_eq!(code(&o), 0, "{file} {entry}: {}", stderr(&o));
    }
}

#[test]
fn hlsl2spirv_failures_write_no_output() {
    let dir = TempDir::new("h2s");
    // A syntax error, and an entry point whose stage cannot be inferred.
    let bad = dir.file("bad.hlsl", "[numthreads(1,1,1)] void main( {}\n");
    let helper = dir.file("helper.hlsl", "void main() {}\n");
    for (f, want) in [(&bad, "bad.hlsl:1:"), (&helper, "cannot infer the shader stage of entry point 'main'")] {
        for o_arg in [vec!["-o", "out.spv"], vec![]] {
            let mut a = vec![f.to_str().unwrap()];
            a.extend(o_arg);
            let o = Command::new(env!("CARGO_BIN_EXE_hlsl2spirv")).current_dir(&dir.0).args(&a).output().unwrap();
            assert_eq!(code(&o), 1, "{}", stderr(&o));
            assert!(stderr(&o).contains(want), "{}", stderr(&o));
            assert_eq!(dir.entries(), vec!["bad.hlsl", "helper.hlsl"]);
        }
    }
    let good = dir.file("k.hlsl", "[numthreads(1,1,1)] void main() {}\n");
    let o = hlsl2spirv(&["-T", "cs_6_0", "-fsyntax-only", good.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let inv = parse_args(Tool::Hlsl2spirv, &args(&["-oout.spv", "a.hlsl"])).unwrap();
    assert_eq!(inv.outputs.object, Some("out.spv".into()));
    assert!(inv.options.spirv);
}

#[test]
fn verify_mode_checks_expected_comments() {
    let dir = TempDir::new("verify");
    let ok = dir.file("ok.hlsl", format!("// expected-no-diagnostics\n{GOOD}"));
    let o = hlslc(&["-T", "ps_6_0", "-verify", ok.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
    let missing = dir.file("missing.hlsl", format!("{GOOD}// expected-error@-1 {{{{never reported}}}}\n"));
    let o = hlslc(&["-T", "ps_6_0", "-verify", missing.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    let want = format!("error: 'error' diagnostics expected but not seen: \n  File {} Line 1: never reported\n", missing.display());
    assert_eq!(stderr(&o), want);
}

#[test]
fn nul_bytes_are_reported() {
    let dir = TempDir::new("nul");
    let f = dir.file("nul.hlsl", b"int a;\0 int b;\n".as_slice());
    let o = hlslc(&["-T", "ps_6_0", "-fsyntax-only", f.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("nul.hlsl:1:7: error"), "{}", stderr(&o));
}

#[test]
fn preprocess_expands_defines_from_the_command_line() {
    let dir = TempDir::new("ppdef");
    let f = dir.file("a.hlsl", "int a = X + Y;\n#ifdef __spirv__\nspirv\n#endif\n");
    let o = hlslc(&["-P", "-DX=40", "/D", "Y=2", "-spirv", f.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("int a = 40 + 2;") && text.contains("spirv"), "{text}");
}

#[test]
fn backslash_include_paths_name_sub_folders() {
    let dir = TempDir::new("bslash");
    std::fs::create_dir_all(dir.path("inc")).unwrap();
    dir.file("inc/defs.h", "#define VALUE 2\n");
    let f = dir.file("a.hlsl", "#include \"inc\\defs.h\"\nfloat4 main() : SV_Target { return VALUE; }\n");
    let o = hlslc(&["-T", "ps_6_0", "-fsyntax-only", f.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

/// `-E VSMain -T ps_6_0` on a vertex shader: dxc's error at the entry's result, a non-zero exit
/// and no output file, for SPIR-V and for DXIL (#13 item 6; it used to give invalid SPIR-V).
#[test]
fn an_entry_point_compiled_for_the_wrong_stage_is_an_error() {
    let dir = TempDir::new("wrongstage");
    let f = dir.file("vs.hlsl", "float4 VSMain(float4 p : POSITION) : SV_Position { return p; }\n");
    let f = f.to_str().unwrap();
    let out = dir.path("o.bin");
    let out = out.to_str().unwrap();
    for (spirv, msg) in [(true, "invalid usage of semantic 'SV_Position' in shader profile ps"), (false, "invalid semantic 'SV_Position' for ps 6.0")] {
        let mut a = vec!["-E", "VSMain", "-T", "ps_6_0", "-Fo", out, f];
        if spirv {
            a.insert(0, "-spirv");
        }
        let o = hlslc(&a);
        assert_ne!(code(&o), 0, "{a:?}");
        assert!(stderr(&o).contains(&format!("vs.hlsl:1:8: error: {msg}")), "{a:?}: {}", stderr(&o));
        assert!(!dir.path("o.bin").exists(), "no output file");
    }
    let o = hlslc(&["-spirv", "-E", "VSMain", "-T", "vs_6_0", "-Fo", out, f]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn dxil_only_switches_refused_with_spirv() {
    // dxc refuses -Gec (HLSL 2016 compatibility, a DXIL mode) and -Qstrip_reflect (a container
    // part) with -spirv, before compiling: an error naming the switch, exit 1, no output file.
    let dir = TempDir::new("spirv_refusals");
    let f = dir.file("a.hlsl", GOOD);
    let f = f.to_str().unwrap();
    for switch in ["-Gec", "-Qstrip_reflect"] {
        let out = dir.path("a.spv");
        let o = hlslc(&["-T", "ps_6_0", "-E", "main", "-spirv", switch, f, "-Fo", out.to_str().unwrap()]);
        assert_eq!(code(&o), 1, "{switch}: {}", stderr(&o));
        assert!(stderr(&o).contains(&format!("{switch} is not supported with -spirv")), "{switch}: {}", stderr(&o));
        assert!(!out.exists(), "{switch}: an output file was written");
        // Without -spirv both are accepted.
        let o = hlslc(&["-T", "ps_6_0", "-E", "main", switch, f]);
        assert_eq!(code(&o), 0, "{switch} without -spirv: {}", stderr(&o));
    }
}

#[test]
fn verify_with_spirv_checks_the_back_end_errors() {
    // dxc -verify -spirv runs the SPIR-V back end: its errors are expectations too. The
    // GatherCmpGreen call is valid HLSL (sema accepts it) that dxc refuses for Vulkan.
    let dir = TempDir::new("verify_spirv");
    let src = "SamplerComparisonState s;\nTexture2D<float4> t;\n\
               float4 main(float2 uv : A, float c : B) : SV_Target {\n\
               \x20 return t.GatherCmpGreen(s, uv, c); // expected-error {{no equivalent for GatherCmpGreen intrinsic method in Vulkan}}\n}\n";
    let f = dir.file("g.hlsl", src);
    let o = hlslc(&["-T", "ps_6_0", "-E", "main", "-spirv", "-verify", f.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // For DXIL, GatherCmpGreen is fine: the expectation is not met.
    let o = hlslc(&["-T", "ps_6_0", "-E", "main", "-verify", f.to_str().unwrap()]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("expected but not seen"), "{}", stderr(&o));
}
