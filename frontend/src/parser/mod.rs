//! The parser (placeholder; the parser work replaces it).

use crate::ast::TranslationUnit;
use crate::diag::Diagnostics;
use crate::lexer::Token;

#[derive(Clone, Debug)]
pub struct ParseOptions {
    /// `-HV`: 2016, 2018, 2021 (default) or 202x.
    pub hlsl_version: u32,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions { hlsl_version: 2021 }
    }
}

pub fn parse(_tokens: &[Token], _opts: &ParseOptions, _diags: &mut Diagnostics) -> TranslationUnit {
    TranslationUnit::default()
}
