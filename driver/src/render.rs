//! Text outputs of the front-end actions: `-P` and `-ast-dump`.
//!
//! These call the front end's renderers where they exist; until then they fall back to simple
//! local ones (marked below) so that the modes work end to end.

use hlslc_frontend::ast::TranslationUnit;
use hlslc_frontend::lexer::{Tok, Token};
use hlslc_frontend::source::SourceMap;

/// The preprocessed source for `-P`.
pub fn preprocessed(sm: &SourceMap, tokens: &[Token]) -> String {
    // Fallback until `hlslc_frontend::pp::render_preprocessed` lands: one token per original
    // spacing, a newline where a token started a line.
    let _ = sm;
    let mut out = String::with_capacity(tokens.len() * 4);
    for (i, t) in tokens.iter().enumerate() {
        if t.kind == Tok::Pragma {
            if !out.is_empty() && !out.ends_with('\n') {
                out.push('\n');
            }
            out.push_str("#pragma ");
            out.push_str(&t.text);
            out.push('\n');
            continue;
        }
        if i > 0 && t.line_start && !out.ends_with('\n') {
            out.push('\n');
        } else if t.leading_space && !out.is_empty() && !out.ends_with('\n') {
            out.push(' ');
        }
        out.push_str(&t.text);
    }
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// The syntax tree for `-ast-dump`.
pub fn ast(unit: &TranslationUnit) -> String {
    hlslc_frontend::ast_dump::dump(unit)
}
