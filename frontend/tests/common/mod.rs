//! Parsing a snippet for the parser tests: lexed directly (no preprocessing), named `t.hlsl`.
#![allow(dead_code)]

use hlslc_frontend::ast::TranslationUnit;
use hlslc_frontend::diag::Diagnostics;
use hlslc_frontend::lexer::lex;
use hlslc_frontend::parser::{parse, ParseOptions};
use hlslc_frontend::SourceMap;

/// The parsed unit, whether there were errors, and every diagnostic rendered.
pub fn parse_src(src: &str) -> (TranslationUnit, bool, String) {
    let mut sm = SourceMap::new();
    let id = sm.add("t.hlsl", src);
    let toks = lex(id, src);
    let mut diags = Diagnostics::new();
    let tu = parse(&toks, &ParseOptions::default(), &mut diags);
    (tu, diags.has_errors(), diags.render(&sm))
}

/// The parsed unit and its rendered warnings, failing on any error.
pub fn parse_warned(src: &str) -> (TranslationUnit, String) {
    let (tu, errors, text) = parse_src(src);
    assert!(!errors, "unexpected errors for:\n{src}\n{text}");
    (tu, text)
}

/// The parsed unit, failing on any error.
pub fn parse_ok(src: &str) -> TranslationUnit {
    parse_warned(src).0
}
