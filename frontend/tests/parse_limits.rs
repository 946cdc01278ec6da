//! Deep or huge input gives a diagnostic, never a stack overflow or a panic. These run on the
//! test harness's threads (2 MiB stacks), so they also check that the deepest tree the limits let
//! through can be dumped and dropped there.

use hlslc_frontend::ast_dump::dump;
use hlslc_frontend::diag::Diagnostics;
use hlslc_frontend::lexer::lex;
use hlslc_frontend::parser::{limits, parse, ParseOptions};
use hlslc_frontend::SourceMap;

fn run(src: &str) -> (usize, Vec<String>) {
    let mut sm = SourceMap::new();
    let id = sm.add("deep.hlsl", src.to_string());
    let toks = lex(id, src);
    let mut diags = Diagnostics::new();
    let tu = parse(&toks, &ParseOptions::default(), &mut diags);
    let dumped = dump(&tu);
    (dumped.len(), diags.list.iter().map(|d| d.message.clone()).collect())
}

fn assert_too_deep(src: &str) {
    let (_, msgs) = run(src);
    assert!(msgs.iter().any(|m| m.starts_with("nesting too deep")), "{msgs:?}");
}

#[test]
fn ten_thousand_parentheses() {
    let src = format!("int x = {}1{};", "(".repeat(10_000), ")".repeat(10_000));
    assert_too_deep(&src);
}

#[test]
fn ten_thousand_blocks_and_unclosed_brackets() {
    assert_too_deep(&format!("void f() {}{}", "{".repeat(10_000), "}".repeat(10_001)));
    assert_too_deep(&"[".repeat(10_000));
    assert_too_deep(&"{".repeat(10_000));
}

#[test]
fn long_operator_and_unary_chains() {
    assert_too_deep(&format!("int x = a{};", "+a".repeat(100_000)));
    assert_too_deep(&format!("int x = {}a;", "-".repeat(100_000)));
    assert_too_deep(&format!("int x = {}a;", "!~".repeat(50_000)));
    assert_too_deep(&format!("void f() {{ x = a{}; }}", ".b".repeat(100_000)));
    // A chain that ends in a syntax error must not overflow while the partial tree is dropped.
    assert_too_deep(&format!("int x = a{} );", "*a".repeat(100_000)));
}

#[test]
fn long_else_if_chain() {
    let mut src = String::from("void f(int a) { if (a == 0) a = 1;");
    for i in 0..10_000 {
        src.push_str(&format!(" else if (a == {i}) a = 1;"));
    }
    src.push_str(" }");
    assert_too_deep(&src);
}

#[test]
fn deepest_accepted_trees_dump_and_drop() {
    let n = limits::MAX_BRACKET_DEPTH - 2;
    let (len, msgs) = run(&format!("int x = {}1{};", "(".repeat(n), ")".repeat(n)));
    assert!(msgs.is_empty(), "{msgs:?}");
    assert!(len > 0);
    let ops = limits::MAX_TREE_DEPTH - 10;
    let (len, msgs) = run(&format!("void f() {{ x = a{}; }}", "+a".repeat(ops)));
    assert!(msgs.is_empty(), "{msgs:?}");
    assert!(len > ops * 10, "the dump has a line per node");
}

#[test]
fn long_flat_input_is_fine() {
    // Many statements and a big initializer list are flat, not deep.
    let body: String = (0..20_000).map(|i| format!("x += {i};")).collect();
    let (_, msgs) = run(&format!("void f() {{ int x = 0; {body} }}"));
    assert!(msgs.is_empty(), "{msgs:?}");
    let list: Vec<String> = (0..20_000).map(|i| format!("-{i}.5")).collect();
    let (_, msgs) = run(&format!("static const float t[20000] = {{{}}};", list.join(", ")));
    assert!(msgs.is_empty(), "{msgs:?}");
}

/// Found by reading the adapter for the fuzzer: a run of contextual modifiers (`sample`, `line`,
/// ...) was classified by recursing once per token and rescanning the rest of the run for each
/// token, so 200,000 of them overflowed the stack (and a longer run took quadratic time).
#[test]
fn long_run_of_contextual_modifiers() {
    let (_, msgs) = run(&format!("{} float x;", "sample ".repeat(200_000)));
    assert!(msgs.is_empty(), "{msgs:?}");
    let (_, msgs) = run(&format!("{} = 1;", "line ".repeat(200_000)));
    assert!(!msgs.is_empty());
}
