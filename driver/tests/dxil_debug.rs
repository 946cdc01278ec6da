//! `-Zi` for DXIL: the debug metadata dxc prints (LLVM 3.7's syntax). The expected shapes come
//! from dxc's tests (HLSLFileCheck `dxil/debug`: `dxop_threadid_dbgloc.hlsl`,
//! `share_mem_dbg.hlsl`, `inc_test.hlsl`, `line_num_disasm.hlsl`, and the `-Zi` listings of
//! `passes/dxil/dxil_remove_dead_pass/delete_constant_dce.ll`), and the lines and columns are
//! counted by hand in the sources below, never taken from hlslc's output.

mod common;
use common::{assert_in_order, code, hlslc, stderr, stdout, TempDir};

/// The node `!N = ...` whose number `reference` (`!12`) names.
fn node<'a>(text: &'a str, reference: &str) -> &'a str {
    let prefix = format!("{reference} = ");
    text.lines().find_map(|l| l.strip_prefix(prefix.as_str())).unwrap_or_else(|| panic!("no node {reference} in:\n{text}"))
}

/// The `!N` after `key` in `line` (`, !dbg !7` → `!7`).
fn reference<'a>(line: &'a str, key: &str) -> &'a str {
    let at = line.find(key).unwrap_or_else(|| panic!("no `{key}` in `{line}`")) + key.len();
    let rest = &line[at..];
    let end = rest.find(|c: char| c != '!' && !c.is_ascii_digit()).unwrap_or(rest.len());
    &rest[..end]
}

fn line_with<'a>(text: &'a str, needle: &str) -> &'a str {
    text.lines().find(|l| l.contains(needle)).unwrap_or_else(|| panic!("no line with `{needle}` in:\n{text}"))
}

fn compile(dir: &TempDir, args: &[&str]) -> String {
    let o = common::hlslc_in(&dir.0, args);
    assert_eq!(code(&o), 0, "{args:?}: {}", stderr(&o));
    stdout(&o)
}

// Columns counted by hand: `sin(x)` starts at column 13 of line 3; the `*` of `s * 2.0` is at
// column 12 of line 4 (clang's location of a binary operator is its operator).
const SHADER: &str = concat!(
    "// first line\n",
    "float main(float x : A) : SV_Target {\n",
    "  float s = sin(x);\n",
    "  return s * 2.0;\n",
    "}\n",
);

#[test]
fn compile_unit_file_and_subprogram() {
    let dir = TempDir::new("dxil-zi-cu");
    dir.file("s.hlsl", SHADER);
    let text = compile(&dir, &["-T", "ps_6_0", "-E", "main", "-Zi", "s.hlsl"]);
    // dxc's order of named metadata: the debug ones first, then DXIL's.
    assert_in_order(
        &text,
        &[
            "!llvm.dbg.cu = !{!0}",
            "!llvm.module.flags = !{",
            "!dx.source.contents = !{",
            "!dx.source.defines = !{",
            "!dx.source.mainFileName = !{",
            "!dx.source.args = !{",
            "!dx.version = !{",
            "!dx.entryPoints = !{",
        ],
    );
    let cu = node(&text, "!0");
    assert!(cu.starts_with("distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !"), "{cu}");
    assert!(cu.contains(", isOptimized: true, runtimeVersion: 0, emissionKind: 1, enums: !"), "{cu}");
    let file = node(&text, reference(cu, "file: "));
    assert_eq!(file, "!DIFile(filename: \"s.hlsl\", directory: \"\")");
    // The compile unit lists the subprogram; it describes `main` at line 2.
    let list = node(&text, reference(cu, "subprograms: "));
    let sp_ref = list.trim_start_matches("!{").trim_end_matches('}');
    let sp = node(&text, sp_ref);
    let f = reference(cu, "file: ");
    assert_eq!(
        sp,
        format!(
            "!DISubprogram(name: \"main\", scope: {f}, file: {f}, line: 2, type: {}, isLocal: false, isDefinition: true, scopeLine: 2, flags: DIFlagPrototyped, isOptimized: true, function: void ()* @main)",
            reference(sp, "type: ")
        )
    );
    // -Od: not optimized (delete_constant_dce.ll, compiled with -Od, has isOptimized: false).
    let od = compile(&dir, &["-T", "ps_6_0", "-E", "main", "-Zi", "-Od", "s.hlsl"]);
    assert!(node(&od, "!0").contains("isOptimized: false"));
    let flags = line_with(&text, "!llvm.module.flags = !{");
    let ids: Vec<&str> = flags.trim_start_matches("!llvm.module.flags = !{").trim_end_matches('}').split(", ").collect();
    assert_eq!(node(&text, ids[0]), "!{i32 2, !\"Dwarf Version\", i32 4}");
    assert_eq!(node(&text, ids[1]), "!{i32 2, !\"Debug Info Version\", i32 3}");
}

#[test]
fn instructions_carry_line_and_column() {
    let dir = TempDir::new("dxil-zi-loc");
    dir.file("s.hlsl", SHADER);
    let text = compile(&dir, &["-T", "ps_6_0", "-E", "main", "-Zi", "s.hlsl"]);
    let sp = reference(node(&text, reference(node(&text, "!0"), "subprograms: ")), "!{");
    // line_num_disasm.hlsl: `call float @dx.op.unary.f32(i32 13, ...` then `line:6`; dxc prints
    // `, !dbg !N ; line:L col:C` before the dx.op comment.
    let sin = line_with(&text, "@dx.op.unary.f32(i32 13,");
    assert!(sin.contains(" ; line:3 col:13  ; Sin(value)"), "{sin}");
    assert_eq!(node(&text, reference(sin, "!dbg ")), format!("!DILocation(line: 3, column: 13, scope: {sp})"));
    let mul = line_with(&text, "fmul fast float");
    assert!(mul.ends_with(" ; line:4 col:12"), "{mul}");
    assert_eq!(node(&text, reference(mul, "!dbg ")), format!("!DILocation(line: 4, column: 12, scope: {sp})"));
}

#[test]
fn source_contents_defines_main_file_and_args() {
    let dir = TempDir::new("dxil-zi-src");
    dir.file("inc.h", "#define K 2.0\n");
    dir.file("s.hlsl", "#include \"inc.h\"\nfloat main() : SV_Target { return K; }\n");
    let args = ["-E", "main", "-T", "ps_6_0", "-Zi", "-DDefineA", "-DDefineB=0", "s.hlsl"];
    let text = compile(&dir, &args);
    // inc_test.hlsl: one node per file, the main file first; the text with `\0A` for newlines.
    let contents = line_with(&text, "!dx.source.contents = !{");
    let ids: Vec<&str> = contents.trim_start_matches("!dx.source.contents = !{").trim_end_matches('}').split(", ").collect();
    assert_eq!(ids.len(), 2, "{contents}");
    assert_eq!(node(&text, ids[0]), "!{!\"s.hlsl\", !\"#include \\22inc.h\\22\\0Afloat main() : SV_Target { return K; }\\0A\"}");
    assert!(node(&text, ids[1]).ends_with("inc.h\", !\"#define K 2.0\\0A\"}"), "{}", node(&text, ids[1]));
    // share_mem_dbg.hlsl compiles with -DDefineA -DDefineB=0 and checks !dx.source.defines.
    let defines = line_with(&text, "!dx.source.defines = !{");
    assert_eq!(node(&text, reference(defines, "!{")), "!{!\"DefineA\", !\"DefineB=0\"}");
    let main = line_with(&text, "!dx.source.mainFileName = !{");
    assert_eq!(node(&text, reference(main, "!{")), "!{!\"s.hlsl\"}");
    // The arguments as given, without the input file.
    let a = line_with(&text, "!dx.source.args = !{");
    assert_eq!(
        node(&text, reference(a, "!{")),
        "!{!\"-E\", !\"main\", !\"-T\", !\"ps_6_0\", !\"-Zi\", !\"-DDefineA\", !\"-DDefineB=0\"}"
    );
    // No defines: an empty tuple (delete_constant_dce.ll: `!dx.source.defines = !{!2}`, `!2 = !{}`).
    let none = compile(&dir, &["-T", "ps_6_0", "-Zi", "s.hlsl"]);
    assert_eq!(node(&none, reference(line_with(&none, "!dx.source.defines = !{"), "!{")), "!{}");
}

#[test]
fn without_zi_nothing_changes() {
    let dir = TempDir::new("dxil-zi-none");
    dir.file("s.hlsl", SHADER);
    let plain = compile(&dir, &["-T", "ps_6_0", "s.hlsl"]);
    for s in ["!dbg", "llvm.dbg", "dx.source", "DI", "Debug Info"] {
        assert!(!plain.contains(s), "`{s}` without -Zi:\n{plain}");
    }
    // -Zi adds lines, it does not change the code: the function bodies without the `!dbg`
    // attachments are the same.
    let zi = compile(&dir, &["-T", "ps_6_0", "-Zi", "s.hlsl"]);
    let body = |t: &str| -> Vec<String> {
        let start = t.find("define void @main()").unwrap();
        let end = start + t[start..].find("\n}\n").unwrap();
        t[start..end].lines().map(|l| l.split(", !dbg").next().unwrap().to_string()).collect()
    };
    let strip_comment = |v: Vec<String>| -> Vec<String> { v.into_iter().map(|l| l.split("  ; ").next().unwrap().trim_end().to_string()).collect() };
    assert_eq!(strip_comment(body(&plain)), strip_comment(body(&zi)));
}

#[test]
fn zi_container_has_ildb_ildn_and_a_stripped_dxil() {
    use hlslc_dxil::container::{md5, reader};
    let dir = TempDir::new("dxil-zi-fo");
    dir.file("s.hlsl", SHADER);
    let out = dir.path("s.dxil");
    let o = hlslc(&["-T", "ps_6_0", "-Zi", dir.path("s.hlsl").to_str().unwrap(), "-Fo", out.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let bytes = std::fs::read(&out).unwrap();
    let c = reader::check_all(&bytes).unwrap();
    let names: Vec<&str> = c.parts.iter().map(|p| p.fourcc.as_str()).collect();
    // dxc's order: the debug module before STAT, the debug name after it, then HASH and DXIL.
    assert_eq!(names, ["SFI0", "ISG1", "OSG1", "PSV0", "ILDB", "STAT", "ILDN", "HASH", "DXIL"]);
    let dxil = reader::program(c.part("DXIL").unwrap()).unwrap().bitcode;
    let ildb = reader::program(c.part("ILDB").unwrap()).unwrap().bitcode;
    assert!(ildb.len() > dxil.len(), "the debug module is the bigger one");
    // HASH: flags 0 (binary only), MD5 of the stripped program's bitcode.
    let hash = c.part("HASH").unwrap().data;
    assert_eq!(&hash[..4], &[0, 0, 0, 0]);
    assert_eq!(&hash[4..], &md5::md5(dxil));
    // ILDN: flags 0, the name's length, "<hash>.pdb", NUL padding to 4 bytes.
    let name: String = hash[4..].iter().map(|b| format!("{b:02x}")).collect::<String>() + ".pdb";
    let ildn = c.part("ILDN").unwrap().data;
    assert_eq!(u16::from_le_bytes([ildn[0], ildn[1]]), 0);
    assert_eq!(u16::from_le_bytes([ildn[2], ildn[3]]) as usize, name.len());
    assert_eq!(&ildn[4..4 + name.len()], name.as_bytes());
    assert_eq!(ildn.len(), (4 + name.len() + 1).div_ceil(4) * 4);
    assert!(ildn[4 + name.len()..].iter().all(|&b| b == 0));
    // The debug module reads back with llvm-dis 14 with its compile unit, subprogram and
    // locations; the DXIL part has no debug information left.
    let Some(dis) = ["llvm-dis-14", "/usr/lib/llvm-14/bin/llvm-dis"].into_iter().find(|p| std::process::Command::new(p).arg("--version").output().is_ok()) else {
        eprintln!("skipped the llvm-dis part: llvm-dis 14 not found");
        return;
    };
    let read = |bc: &[u8], name: &str| -> String {
        let f = dir.file(name, bc);
        let o = std::process::Command::new(dis).args(["-o", "-", f.to_str().unwrap()]).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let debug = read(ildb, "ildb.bc");
    for want in ["distinct !DICompileUnit(language: DW_LANG_C_plus_plus", "!DIFile(filename: ", "!DISubprogram(name: \"main\"", "define void @main() !dbg !", "!DILocation(line: ", "!dx.source.contents"] {
        assert!(debug.contains(want), "{want} missing from\n{debug}");
    }
    let program = read(dxil, "dxil.bc");
    for gone in ["!dbg", "DICompileUnit", "dx.source"] {
        assert!(!program.contains(gone), "{gone} left in the DXIL part\n{program}");
    }
    // The SPIR-V back end's -Zi is unchanged.
    let spv = hlslc(&["-T", "ps_6_0", "-spirv", "-Zi", dir.path("s.hlsl").to_str().unwrap()]);
    assert_eq!(code(&spv), 0, "{}", stderr(&spv));
    assert!(stdout(&spv).contains("OpLine"));
}

#[test]
fn library_functions_get_subprograms() {
    // ignore_line_directives.hlsl compiles a lib_6_3 with -Zi and finds one DIFile.
    let dir = TempDir::new("dxil-zi-lib");
    dir.file("l.hlsl", "RWBuffer<float> b : register(u0);\n[shader(\"compute\")] [numthreads(1,1,1)]\nvoid cs() { b[0] = 1.0; }\n");
    let text = compile(&dir, &["-T", "lib_6_3", "-Zi", "l.hlsl"]);
    assert_eq!(text.matches("!DIFile(").count(), 1, "{text}");
    let sp = line_with(&text, "!DISubprogram(name: \"cs\"");
    assert!(sp.contains("line: 3,") && sp.contains("function: void ()* @cs)"), "{sp}");
}
