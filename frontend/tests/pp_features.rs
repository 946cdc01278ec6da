//! Preprocessor behaviour, one feature at a time.

use hlslc_frontend::diag::{Diagnostics, Severity};
use hlslc_frontend::lexer::Tok;
use hlslc_frontend::pp::{preprocess, preprocess_full, render_output, CmdDefine, IncludeHandler, IncludedFile, PpOptions};
use hlslc_frontend::SourceMap;
use std::collections::HashMap;

struct Mem(HashMap<String, String>);
impl IncludeHandler for Mem {
    fn include(&mut self, name: &str, _includer: &str, _angled: bool) -> Option<IncludedFile> {
        self.0.get(name).map(|t| IncludedFile { name: name.to_string(), text: t.clone() })
    }
}

fn run_with(src: &str, opts: &PpOptions, files: &[(&str, &str)]) -> (String, Diagnostics) {
    let mut sm = SourceMap::new();
    let id = sm.add("t.hlsl", src);
    let mut diags = Diagnostics::new();
    let mut h = Mem(files.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect());
    let toks = preprocess(&mut sm, id, opts, Some(&mut h), &mut diags);
    let text: Vec<String> =
        toks.iter().map(|t| if t.kind == Tok::Pragma { format!("#pragma[{}]", t.text) } else { t.text.to_string() }).collect();
    (text.join(" "), diags)
}

fn pp(src: &str) -> String {
    let (s, d) = run_with(src, &PpOptions::default(), &[]);
    assert!(!d.has_errors(), "unexpected errors for {src:?}: {:?}", d.list);
    s
}

fn pp_err(src: &str) -> (String, Vec<String>) {
    let (s, d) = run_with(src, &PpOptions::default(), &[]);
    (s, d.list.iter().filter(|d| d.is_error()).map(|d| d.message.clone()).collect())
}

#[test]
fn object_and_function_macros() {
    assert_eq!(pp("#define N 4\nfloat a[N];"), "float a [ 4 ] ;");
    assert_eq!(pp("#define ADD(a, b) ((a) + (b))\nADD(1, 2*3)"), "( ( 1 ) + ( 2 * 3 ) )");
    assert_eq!(pp("#define F(x) x\nF((a, b))"), "( a , b )");
    assert_eq!(pp("#define F() 7\nF()"), "7");
    assert_eq!(pp("#define F(x) [x]\nF()"), "[ ]");
}

#[test]
fn function_macro_without_paren_is_not_invoked() {
    assert_eq!(pp("#define f(x) x+1\nint f; f (2)"), "int f ; 2 + 1");
    assert_eq!(pp("#define f(x) x\nf\n#define Y\n(1)"), "f ( 1 )");
}

#[test]
fn invocation_spans_lines() {
    assert_eq!(pp("#define F(a,b) a-b\nF(1,\n  2\n)"), "1 - 2");
}

#[test]
fn variadic_macros() {
    assert_eq!(pp("#define P(fmt, ...) f(fmt, __VA_ARGS__)\nP(a, b, c)"), "f ( a , b , c )");
    assert_eq!(pp("#define P(fmt, ...) f(fmt, ## __VA_ARGS__)\nP(a)"), "f ( a )");
    assert_eq!(pp("#define P(fmt, ...) f(fmt, ## __VA_ARGS__)\nP(a, b)"), "f ( a , b )");
    assert_eq!(pp("#define P(args...) g(args)\nP(1, 2)"), "g ( 1 , 2 )");
}

#[test]
fn stringize() {
    assert_eq!(pp("#define S(x) #x\nS(  a   +  b  )"), r#""a + b""#);
    assert_eq!(pp("#define S(x) #x\nS(\"q\\n\" 'c')"), r#""\"q\\n\" 'c'""#);
    assert_eq!(pp("#define S(x) #x\nS()"), r#""""#);
    assert_eq!(pp("#define S(x) #x\n#define X 1\nS(X)"), r#""X""#);
    assert_eq!(pp("#define S(x) #x\n#define XS(x) S(x)\n#define X 1\nXS(X)"), r#""1""#);
}

#[test]
fn paste() {
    assert_eq!(pp("#define C(a,b) a##b\nC(foo, bar) C(1, 2) C(1., 5f) C(<, <=)"), "foobar 12 1.5f <<=");
    assert_eq!(pp("#define C(a,b) a##b\nC(, x) C(x, ) C(,)"), "x x");
    assert_eq!(pp("#define C(a,b,c) a##b##c\nC(x,,z)"), "xz");
    // A pasted name is rescanned.
    assert_eq!(pp("#define C(a,b) a##b\n#define xy 42\nC(x, y)"), "42");
    // Operands of ## are not expanded first.
    assert_eq!(pp("#define C(a,b) a##b\n#define x 1\nC(x, y)"), "xy");
    let (_, e) = pp_err("#define C(a,b) a##b\nC(+, /)");
    assert!(e[0].contains("pasting formed '+/'"), "{e:?}");
}

#[test]
fn rescanning_and_blue_paint() {
    // C99 6.10.3.4 example: f(2)(9) gives 2*9*g.
    assert_eq!(pp("#define f(a) a*g\n#define g(a) f(a)\nf(2)(9)"), "2 * 9 * g");
    assert_eq!(pp("#define foo foo\nfoo"), "foo");
    assert_eq!(pp("#define a b\n#define b a\na b"), "a b");
    assert_eq!(pp("#define f(x) x f\nf(1)(2)"), "1 f ( 2 )");
    assert_eq!(pp("#define f(x) g(x)\n#define g(x) x\nf(f(1))"), "1");
    // A painted token stays painted after leaving the expansion.
    assert_eq!(pp("#define id(x) x\n#define q q id\nid(q)(1)"), "q id ( 1 )");
}

#[test]
fn c_standard_example_3() {
    let src = "#define x 3\n#define f(a) f(x * (a))\n#undef x\n#define x 2\n#define g f\n#define z z[0]\n\
               #define h g(~\n#define m(a) a(w)\n#define w 0,1\n#define t(a) a\n#define p() int\n#define q(x) x\n\
               #define r(x,y) x ## y\n#define str(x) # x\n\
               f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);\ng(x+(3,4)-w) | h 5) & m\n(f)^m(m);";
    let got = pp(src);
    assert_eq!(
        got,
        "f ( 2 * ( y + 1 ) ) + f ( 2 * ( f ( 2 * ( z [ 0 ] ) ) ) ) % f ( 2 * ( 0 ) ) + t ( 1 ) ; \
         f ( 2 * ( 2 + ( 3 , 4 ) - 0 , 1 ) ) | f ( 2 * ( ~ 5 ) ) & f ( 2 * ( 0 , 1 ) ) ^ m ( 0 , 1 ) ;"
    );
}

#[test]
fn conditionals() {
    assert_eq!(pp("#if 1\na\n#else\nb\n#endif"), "a");
    assert_eq!(pp("#if 0\na\n#elif 2 > 1\nb\n#else\nc\n#endif"), "b");
    assert_eq!(pp("#define X\n#ifdef X\na\n#endif\n#ifndef X\nb\n#endif"), "a");
    assert_eq!(pp("#if defined X || defined(Y)\na\n#else\nb\n#endif"), "b");
    assert_eq!(pp("#define Y\n#if defined X || defined(Y)\na\n#else\nb\n#endif"), "a");
    assert_eq!(pp("#if 0\n#if 1\na\n#else\nb\n#endif\n#else\nc\n#endif"), "c");
    // Skipped groups may hold anything.
    assert_eq!(pp("#if 0\n@ $ 'unterminated\n#bogus\n#endif\nok"), "ok");
    // #elif after a taken group is not evaluated.
    assert_eq!(pp("#if 1\na\n#elif 1/0\nb\n#endif"), "a");
}

#[test]
fn if_expressions() {
    let t = |e: &str| pp(&format!("#if {e}\nyes\n#else\nno\n#endif")) == "yes";
    assert!(t("1 + 2 * 3 == 7"));
    assert!(t("(1 ? 2 : 3) == 2"));
    assert!(t("-1 < 0"));
    assert!(!t("-1 < 0u"), "signed converts to unsigned");
    assert!(t("0xFFFFFFFFFFFFFFFF == -1"));
    assert!(t("18446744073709551615 > 0"), "too big for signed: unsigned");
    assert!(t("'A' == 65 && '\\n' == 10 && '\\377' < 0"));
    assert!(t("UNDEFINED == 0 && !UNDEFINED"));
    assert!(t("true && !false"));
    assert!(t("(1 << 62) > 0 && (-8 >> 1) == -4"));
    assert!(t("!(0 && (1 / 0))"));
    assert!(t("1 || (1 % 0)"));
    assert!(t("7 / 2 == 3 && -7 / 2 == -3 && -7 % 2 == -1"));
    assert!(t("~0 == -1 && (5 & 3) == 1 && (5 | 3) == 7 && (5 ^ 3) == 6"));
    assert!(t("010 == 8 && 0b101 == 5 && 10ull == 10"));
    assert!(t("(2, 3) == 3"));
    let (_, e) = pp_err("#if 1 / 0\n#endif");
    assert_eq!(e, vec!["division by zero in preprocessor expression"]);
    let (_, e) = pp_err("#if 1.5\n#endif");
    assert_eq!(e, vec!["floating point literal in preprocessor expression"]);
    let (_, e) = pp_err("#if\n#endif");
    assert_eq!(e, vec!["expected value in expression"]);
    let (_, e) = pp_err("#if (1\n#endif");
    assert_eq!(e, vec!["expected ')' in preprocessor expression"]);
}

#[test]
fn unbalanced_conditionals() {
    assert_eq!(pp_err("#if 1\na").1, vec!["unterminated conditional directive"]);
    assert_eq!(pp_err("#endif").1, vec!["#endif without #if"]);
    assert_eq!(pp_err("#else").1, vec!["#else without #if"]);
    assert_eq!(pp_err("#if 1\n#else\n#else\n#endif").1, vec!["#else after #else"]);
    assert_eq!(pp_err("#if 0\n#else\n#elif 1\n#endif").1, vec!["#elif after #else"]);
}

#[test]
fn deep_nesting_is_fine() {
    let n = 10_000;
    let src = format!("{}x\n{}", "#if 1\n".repeat(n), "#endif\n".repeat(n));
    assert_eq!(pp(&src), "x");
    let src = format!("{}x\n{}y", "#if 0\n".repeat(n), "#endif\n".repeat(n));
    assert_eq!(pp(&src), "y");
    // Deep parentheses in #if are refused, not a stack overflow.
    let src = format!("#if {}1{}\n#endif", "(".repeat(100_000), ")".repeat(100_000));
    assert!(!pp_err(&src).1.is_empty());
    // Deeply nested macro calls in arguments.
    let src = format!("#define f(x) x\n{}1{}", "f(".repeat(5000), ")".repeat(5000));
    let (_, d) = run_with(&src, &PpOptions::default(), &[]);
    assert!(d.list.iter().any(|d| d.severity == Severity::Fatal));
    let src = format!("#define f(x) x\n{}1{}", "f(".repeat(100), ")".repeat(100));
    assert_eq!(pp(&src), "1");
}

#[test]
fn explosion_is_limited() {
    let mut src = String::from("#define A0 x x\n");
    for i in 1..40 {
        src.push_str(&format!("#define A{i} A{} A{}\n", i - 1, i - 1));
    }
    src.push_str("A39\n");
    let (_, d) = run_with(&src, &PpOptions::default(), &[]);
    assert!(d.list.iter().any(|d| d.severity == Severity::Fatal), "{:?}", d.list);
}

#[test]
fn builtins() {
    assert_eq!(pp("a\n__LINE__\n#line 100 \"x.hlsl\"\n__LINE__ __FILE__"), "a 2 100 \"x.hlsl\"");
    assert_eq!(pp("__COUNTER__ __COUNTER__ __COUNTER__"), "0 1 2");
    assert_eq!(pp("__FILE__"), "\"t.hlsl\"");
    assert_eq!(pp("#define L __LINE__\n\nL"), "3");
}

#[test]
fn command_line_defines() {
    let opts = PpOptions {
        defines: vec![
            CmdDefine::Define { name: "ONE".into(), value: None },
            CmdDefine::Define { name: "ARRAY".into(), value: Some("[4]".into()) },
            CmdDefine::Define { name: "EMPTY".into(), value: Some(String::new()) },
            CmdDefine::Define { name: "SQ(x)".into(), value: Some("((x)*(x))".into()) },
            CmdDefine::Define { name: "GONE".into(), value: None },
            CmdDefine::Undef("GONE".into()),
        ],
        predefined: vec![("__HLSL_VERSION".into(), "2021".into())],
        ..PpOptions::default()
    };
    let (s, d) = run_with("ONE ARRAY EMPTY SQ(2) GONE __HLSL_VERSION", &opts, &[]);
    assert!(!d.has_errors(), "{:?}", d.list);
    assert_eq!(s, "1 [ 4 ] ( ( 2 ) * ( 2 ) ) GONE 2021");
}

#[test]
fn redefinition_warns_only_when_different() {
    let (_, d) = run_with("#define A 1 + 2\n#define A 1 + 2\n#define A 1+2\n", &PpOptions::default(), &[]);
    let w: Vec<_> = d.list.iter().filter(|d| d.severity == Severity::Warning).collect();
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].message, "'A' macro redefined");
}

#[test]
fn directive_errors() {
    assert_eq!(pp_err("#error stop \"here\"").1, vec!["stop \"here\""]);
    assert_eq!(pp_err("#foo").1, vec!["invalid preprocessing directive"]);
    assert_eq!(pp_err("#define").1, vec!["macro name missing"]);
    assert_eq!(pp_err("#define defined").1, vec!["'defined' cannot be used as a macro name"]);
    assert_eq!(pp_err("#define F(x) #y").1, vec!["'#' is not followed by a macro parameter"]);
    assert_eq!(pp_err("#define F(x) ## x").1, vec!["'##' cannot appear at either end of a macro expansion"]);
    assert!(pp_err("#define F(x, x) x").1[0].contains("duplicate macro parameter"));
    assert!(pp_err("#define F(a, b) a\nF(1)").1[0].starts_with("too few arguments"));
    assert!(pp_err("#define F(a) a\nF(1, 2)").1[0].starts_with("too many arguments"));
    assert!(pp_err("#define F(a) a\nF(1").1[0].starts_with("unterminated function-like macro invocation"));
    let (_, d) = run_with("#warning careful", &PpOptions::default(), &[]);
    assert_eq!(d.list[0].severity, Severity::Warning);
    assert_eq!(pp("#\n# \nx"), "x");
}

#[test]
fn bad_characters_reported_only_in_active_code() {
    assert_eq!(pp_err("a @ b").1, vec!["invalid character in source"]);
    assert!(pp_err("#if 0\n@\n#endif").1.is_empty());
    assert!(pp_err("#define X @\n").1.is_empty());
    assert_eq!(pp_err("#define X @\nX").1.len(), 1);
}

#[test]
fn pragmas_pass_through_in_order() {
    assert_eq!(
        pp("a\n#pragma pack_matrix(row_major)\nb\n#pragma dxc diagnostic ignored \"-Wfoo\"\n_Pragma(\"x y\") c"),
        "a #pragma[pack_matrix(row_major)] b #pragma[dxc diagnostic ignored \"-Wfoo\"] #pragma[x y] c"
    );
}

#[test]
fn includes_once_and_cycles() {
    let files = [
        ("a.h", "#pragma once\nint a;\n#include \"b.h\"\n"),
        ("b.h", "int b;\n"),
        ("loop.h", "#include \"loop.h\"\n"),
        ("guard.h", "#ifndef G\n#define G\nint g;\n#endif\n"),
    ];
    let (s, d) = run_with("#include \"a.h\"\n#include \"a.h\"\n#include <b.h>\nint m;", &PpOptions::default(), &files);
    assert!(!d.has_errors(), "{:?}", d.list);
    assert_eq!(s, "int a ; int b ; int b ; int m ;");
    let (s, _) = run_with("#include \"guard.h\"\n#include \"guard.h\"\n", &PpOptions::default(), &files);
    assert_eq!(s, "int g ;");
    let (_, d) = run_with("#include \"loop.h\"\n", &PpOptions::default(), &files);
    assert_eq!(d.list.iter().filter(|d| d.severity == Severity::Fatal).count(), 1);
    let (_, d) = run_with("#include \"missing.h\"\nx", &PpOptions::default(), &files);
    assert_eq!(d.list[0].message, "'missing.h' file not found");
    let (s, d) = run_with("#define H \"b.h\"\n#include H\n", &PpOptions::default(), &files);
    assert!(!d.has_errors());
    assert_eq!(s, "int b ;");
}

#[test]
fn expanded_tokens_carry_the_invocation_span() {
    let mut sm = SourceMap::new();
    let src = "#define F(x) (x + y)\nF(abc)";
    let id = sm.add("t.hlsl", src);
    let mut diags = Diagnostics::new();
    let toks = preprocess(&mut sm, id, &PpOptions::default(), None, &mut diags);
    let inv = &src[src.rfind("F(abc)").unwrap()..];
    for t in &toks {
        let s = sm.snippet(t.span);
        if &*t.text == "abc" {
            assert_eq!(s, "abc");
        } else {
            assert_eq!(s, inv);
        }
    }
}

#[test]
fn render_matches_clang_style() {
    let mut sm = SourceMap::new();
    let id = sm.add("m.hlsl", "float a;\n#include \"b.h\"\n  float c;\n#define E\nE x\n");
    let mut diags = Diagnostics::new();
    let mut h = Mem([("b.h".to_string(), "float b;\n".to_string())].into_iter().collect());
    let out = preprocess_full(&mut sm, id, &PpOptions::default(), Some(&mut h), &mut diags);
    assert_eq!(
        render_output(&sm, &out),
        "#line 1 \"m.hlsl\"\nfloat a;\n\n#line 1 \"b.h\"\nfloat b;\n#line 3 \"m.hlsl\"\n float c;\n\n  x\n\n"
    );
}

/// `__has_feature(name)` expands anywhere (as clang's builtin does), in `#if` and in code: 1 for
/// `hlsl_vk_buffer_pointer` when compiling to SPIR-V (`__spirv__` predefined), 0 otherwise and
/// for unknown names; without a parenthesized identifier it is an error.
#[test]
fn has_feature() {
    let src = "#if __has_feature(hlsl_vk_buffer_pointer)\nyes\n#else\nno\n#endif\n__has_feature(hlsl_vk_buffer_pointer) __has_feature(other)";
    assert_eq!(pp(src), "no 0 0");
    let spirv = PpOptions { predefined: vec![("__spirv__".into(), "1".into())], ..PpOptions::default() };
    let (out, d) = run_with(src, &spirv, &[]);
    assert!(!d.has_errors(), "{:?}", d.list);
    assert_eq!(out, "yes 1 0");
    let (_, errs) = pp_err("__has_feature(1)");
    assert!(errs.iter().any(|e| e.contains("requires a parenthesized identifier")), "{errs:?}");
}
