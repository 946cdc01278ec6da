//! hlslc front end: source map and spans, diagnostics, the C preprocessor, the lexer, the parser
//! and the AST. See `../shared/STYLE.md` for where this sits in the pipeline.

pub mod ast;
pub mod ast_dump;
pub mod diag;
pub mod fxhash;
pub mod lexer;
pub mod source;

pub use diag::{Diagnostic, Diagnostics, Label, Severity};
pub use lexer::{Tok, Token};
pub use source::{FileId, SourceMap, Span};
pub mod parser;
pub mod pp;
