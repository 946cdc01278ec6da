//! Source string → preprocess → parse → sema.
#![allow(dead_code)]

use hlslc_frontend::{parser, pp, Diagnostics, SourceMap};
use hlslc_sema::{analyze, tast::Module, SemaOptions};

pub struct Outcome {
    pub module: Option<Module>,
    pub diags: Diagnostics,
    pub rendered: String,
}

pub fn run_with(src: &str, opts: &SemaOptions) -> Outcome {
    let mut sm = SourceMap::new();
    let f = sm.add("t.hlsl", src);
    let mut diags = Diagnostics::new();
    let toks = pp::preprocess(&mut sm, f, &pp::PpOptions::default(), None, &mut diags);
    let tu = parser::parse(&toks, &parser::ParseOptions::default(), &mut diags);
    assert!(!diags.has_errors(), "front end failed: {}", diags.render(&sm));
    let module = analyze(&tu, opts, &mut diags);
    let rendered = diags.render(&sm);
    Outcome { module, diags, rendered }
}

pub fn run(src: &str) -> Outcome {
    run_with(src, &SemaOptions::default())
}

/// Checks `src` and returns the module, failing with the diagnostics when there are errors.
pub fn ok(src: &str) -> Module {
    let o = run(src);
    match o.module {
        Some(m) => m,
        None => panic!("unexpected errors:\n{}", o.rendered),
    }
}

/// Checks `src`, expecting errors; returns the rendered diagnostics.
pub fn err(src: &str) -> String {
    let o = run(src);
    assert!(o.module.is_none(), "expected errors, got none for:\n{src}");
    o.rendered
}
