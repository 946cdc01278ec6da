//! Golden tests of parse diagnostics: each `tests/parse/NAME.hlsl` is lexed and parsed (no
//! preprocessing) and its rendered diagnostics must equal `tests/parse/NAME.diag` exactly.
//! `BLESS=1 cargo test -p hlslc-frontend --test parse_diags` rewrites the `.diag` files.

use hlslc_frontend::diag::Diagnostics;
use hlslc_frontend::lexer::lex;
use hlslc_frontend::parser::{parse, ParseOptions};
use hlslc_frontend::SourceMap;
use std::path::Path;

fn render(name: &str, src: &str) -> String {
    let mut sm = SourceMap::new();
    let id = sm.add(name, src.to_string());
    let toks = lex(id, src);
    let mut diags = Diagnostics::new();
    parse(&toks, &ParseOptions::default(), &mut diags);
    diags.render(&sm)
}

#[test]
fn golden_parse_diagnostics() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parse");
    let bless = std::env::var_os("BLESS").is_some();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/parse exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "hlsl"))
        .collect();
    files.sort();
    assert!(files.len() >= 8, "expected the golden inputs in {}", dir.display());
    let mut failures = Vec::new();
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let src = std::fs::read_to_string(f).unwrap();
        let got = render(&name, &src);
        let expected_path = f.with_extension("diag");
        if bless {
            std::fs::write(&expected_path, &got).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if got != expected {
            failures.push(format!("{name}:\n--- expected\n{expected}--- got\n{got}"));
        }
    }
    assert!(failures.is_empty(), "{} mismatches (BLESS=1 to update):\n{}", failures.len(), failures.join("\n"));
}
