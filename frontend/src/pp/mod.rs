//! The C preprocessor (placeholder: passes tokens through; the preprocessor work replaces it).

use crate::diag::Diagnostics;
use crate::lexer::{lex, Token};
use crate::source::{FileId, SourceMap};
use std::path::PathBuf;

/// A `-D` or `-U` from the command line, in command-line order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CmdDefine {
    /// `-DNAME` (value `1`) or `-DNAME=VALUE`.
    Define { name: String, value: Option<String> },
    Undef(String),
}

#[derive(Clone, Debug, Default)]
pub struct PpOptions {
    pub defines: Vec<CmdDefine>,
    /// `-I` folders, searched after the including file's folder.
    pub include_dirs: Vec<PathBuf>,
    /// Look for included files on the file system (off for sandboxed library use: then only the
    /// include handler is asked).
    pub use_filesystem: bool,
}

/// A file supplied by an [`IncludeHandler`].
#[derive(Clone, Debug)]
pub struct IncludedFile {
    /// Name used in diagnostics and `__FILE__`.
    pub name: String,
    pub text: String,
}

/// Library users' hook for `#include`, asked after the file system search fails.
pub trait IncludeHandler {
    /// `name` as written between the quotes or angle brackets; `includer` is the display name of
    /// the including file.
    fn include(&mut self, name: &str, includer: &str, angled: bool) -> Option<IncludedFile>;
}

/// Preprocesses `main` and returns the tokens the parser sees (directives executed, macros
/// expanded, `#pragma` lines kept as `Tok::Pragma` tokens).
pub fn preprocess(
    sm: &mut SourceMap,
    main: FileId,
    _opts: &PpOptions,
    _includes: Option<&mut dyn IncludeHandler>,
    _diags: &mut Diagnostics,
) -> Vec<Token> {
    lex(main, &sm.file(main).text)
}
