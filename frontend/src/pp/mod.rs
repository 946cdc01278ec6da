//! The C preprocessor, C99 style as DXC's clang front end runs it.
//!
//! # How it works
//!
//! Each file is lexed once into pp-tokens ([`crate::lexer::lex`]). The preprocessor keeps a stack
//! of token *sources*: files (the main file at the bottom, `#include`d files above it) and macro
//! expansions (a buffer of tokens still to be rescanned). Reading a token pops it from the top
//! source; a `#` that starts a line of a file runs a directive (`directives.rs`); an identifier
//! naming an enabled macro pushes the macro's expansion (`expand.rs`). Everything else goes to
//! the output. Nothing recurses on the input's shape except argument pre-expansion, which is
//! depth-limited; conditionals, includes and expansions live on explicit stacks.
//!
//! * Blue paint: while a macro's expansion is on the stack the macro is *disabled*; an identifier
//!   naming a disabled macro, read from a macro buffer, is marked `no_expand` for good (clang's
//!   rule, which is C's). Exhausted buffers are popped (re-enabling their macro) when a read
//!   goes past them, e.g. while collecting arguments, so `f(2)(9)` with `#define f(a) a*g` /
//!   `#define g(a) f(a)` gives `2*9*g` as in gcc and clang.
//! * Spans: tokens of a macro body carry the span of the invocation (the name, or name to `)`);
//!   tokens that came from arguments keep their own span (they are user text too).
//! * Limits: include depth ([`MAX_INCLUDE_DEPTH`]), nested macro calls inside macro arguments
//!   ([`MAX_ARG_NESTING`]), total expansion work ([`MAX_EXPANSION_WORK`]) and output size
//!   ([`MAX_OUTPUT_TOKENS`]) end preprocessing with a fatal diagnostic.
//! * `-P` output: [`render_output`] prints what `dxc -P` prints (clang's `-E` printer with
//!   `#line` markers).

mod directives;
mod expand;
mod expr;
mod include;
mod lines;
mod macros;
mod render;

pub use lines::{FileChange, FileChangeKind, LineDirective, LineMap};
pub use render::{render_output, render_preprocessed};

use crate::diag::{Diagnostic, Diagnostics};
use crate::lexer::{lex_with, Interner, Tok, Token};
use crate::source::{FileId, SourceMap, Span};
use expand::{FileKind, FileSrc, Source};
use include::FileKey;
use macros::{Builtin, MacroDef, MacroTable};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::rc::Rc;

/// A `-D` or `-U` from the command line, in command-line order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CmdDefine {
    /// `-DNAME` (value `1`) or `-DNAME=VALUE` (`NAME(x)=...` defines a function-like macro; the
    /// value ends at its first newline, as in clang).
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
    /// Macros the compiler defines before anything else (`__HLSL_VERSION`, `__spirv__`, ...), as
    /// `(name, body)`; `name` may be `F(x)` for a function-like macro. They live in a
    /// `<built-in>` file and are processed before the command-line defines.
    pub predefined: Vec<(String, String)>,
    /// A macro to expand after the main file, as if its name were written on a last line
    /// (`-rootsig-define NAME`, `-T rootsig_1_x -E NAME`): the expansion's tokens go to
    /// [`Preprocessed::expanded`], not to the parser's tokens.
    pub expand_after: Option<String>,
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

/// Deepest `#include` nesting.
pub const MAX_INCLUDE_DEPTH: usize = 200;
/// Deepest nesting of macro invocations inside macro arguments (each level pre-expands the
/// arguments of the one around it).
pub const MAX_ARG_NESTING: usize = 256;
/// Most tokens all macro expansions together may produce (guards against exponential macros).
pub const MAX_EXPANSION_WORK: usize = 1 << 25;
/// Most tokens the preprocessor may output.
pub const MAX_OUTPUT_TOKENS: usize = 1 << 23;

/// The result of preprocessing: the tokens the parser sees plus what `-P` output and `#line`-aware
/// diagnostics need.
#[derive(Clone, Debug, Default)]
pub struct Preprocessed {
    pub tokens: Vec<Token>,
    /// `#line` directives seen.
    pub lines: LineMap,
    /// Entering and leaving files and `#line` renumbering, in output order.
    pub file_changes: Vec<FileChange>,
    /// The main file.
    pub main: FileId,
    /// The tokens of [`PpOptions::expand_after`], when that macro is defined at the end of the
    /// main file (`None` when it is not, or when no macro was asked for).
    pub expanded: Option<Vec<Token>>,
}

/// Preprocesses `main` and returns the tokens the parser sees (directives executed, macros
/// expanded, `#pragma` lines kept as `Tok::Pragma` tokens).
pub fn preprocess(
    sm: &mut SourceMap,
    main: FileId,
    opts: &PpOptions,
    includes: Option<&mut dyn IncludeHandler>,
    diags: &mut Diagnostics,
) -> Vec<Token> {
    preprocess_full(sm, main, opts, includes, diags).tokens
}

/// [`preprocess`], also returning the line information `-P` output needs ([`render_output`]).
pub fn preprocess_full(
    sm: &mut SourceMap,
    main: FileId,
    opts: &PpOptions,
    includes: Option<&mut dyn IncludeHandler>,
    diags: &mut Diagnostics,
) -> Preprocessed {
    // Reborrow the handler so that its trait-object lifetime can shrink to this call.
    let includes: Option<&mut dyn IncludeHandler> = match includes {
        Some(h) => Some(h),
        None => None,
    };
    let mut pp = Pp::new(sm, opts, includes, diags, main);
    pp.run();
    let expanded = opts.expand_after.as_deref().and_then(|name| pp.expand_after(name));
    Preprocessed { tokens: pp.out, lines: pp.lines, file_changes: pp.changes, main, expanded }
}

/// An open conditional (`#if` ... `#endif`).
pub(crate) struct Cond {
    /// Some group of this conditional was (or is being) included.
    pub taken: bool,
    pub seen_else: bool,
    /// The `#if`/`#ifdef`/`#ifndef`, for "unterminated conditional".
    pub span: Span,
}

/// The preprocessor's state for one compilation.
pub(crate) struct Pp<'a> {
    pub sm: &'a mut SourceMap,
    pub opts: &'a PpOptions,
    pub handler: Option<&'a mut dyn IncludeHandler>,
    pub diags: &'a mut Diagnostics,
    pub macros: MacroTable,
    pub stack: Vec<Source>,
    pub out: Vec<Token>,
    pub conds: Vec<Cond>,
    pub lines: LineMap,
    pub changes: Vec<FileChange>,
    pub once: HashSet<FileKey>,
    pub file_ids: HashMap<FileKey, FileId>,
    pub tok_cache: HashMap<FileId, Rc<Vec<Token>>>,
    /// Token spellings, shared by all files of the compilation.
    pub interner: Interner,
    pub main: FileId,
    pub counter: u64,
    /// A fatal diagnostic was reported: stop.
    pub fatal: bool,
    /// Tokens produced by expansions so far.
    pub work: usize,
    /// Current depth of argument pre-expansion.
    pub arg_depth: usize,
    /// Collecting macro arguments (directives there are restricted).
    pub collecting: usize,
    /// Number of file sources on the stack.
    pub file_depth: usize,
    /// A macro that expanded to nothing passes its whitespace to the next token.
    pub pending_space: bool,
    pub pending_line_start: bool,
}

impl<'a> Pp<'a> {
    fn new(
        sm: &'a mut SourceMap,
        opts: &'a PpOptions,
        handler: Option<&'a mut dyn IncludeHandler>,
        diags: &'a mut Diagnostics,
        main: FileId,
    ) -> Pp<'a> {
        let mut macros = MacroTable::default();
        for (name, kind) in [
            ("__LINE__", Builtin::Line),
            ("__FILE__", Builtin::File),
            ("__COUNTER__", Builtin::Counter),
            ("__INCLUDE_LEVEL__", Builtin::IncludeLevel),
            ("__BASE_FILE__", Builtin::BaseFile),
            ("__has_feature", Builtin::HasFeature),
        ] {
            macros.define(MacroDef::builtin(name, kind));
        }
        let cap = sm.file(main).text.len() / 5 + 16;
        Pp {
            sm,
            opts,
            handler,
            diags,
            macros,
            stack: Vec::new(),
            out: Vec::with_capacity(cap),
            conds: Vec::new(),
            lines: LineMap::default(),
            changes: Vec::new(),
            once: HashSet::new(),
            file_ids: HashMap::new(),
            tok_cache: HashMap::new(),
            interner: Interner::new(),
            main,
            counter: 0,
            fatal: false,
            work: 0,
            arg_depth: 0,
            collecting: 0,
            file_depth: 0,
            pending_space: false,
            pending_line_start: false,
        }
    }

    /// The tokens of a file, lexed once per compilation.
    pub fn tokens_of(&mut self, file: FileId) -> Rc<Vec<Token>> {
        if let Some(t) = self.tok_cache.get(&file) {
            return t.clone();
        }
        let toks = Rc::new(lex_with(file, &self.sm.file(file).text, &mut self.interner));
        self.tok_cache.insert(file, toks.clone());
        toks
    }

    pub fn push_file(&mut self, file: FileId, kind: FileKind, dir: Option<PathBuf>, key: Option<FileKey>) {
        let toks = self.tokens_of(file);
        self.file_depth += 1;
        self.stack.push(Source::File(FileSrc { file, toks, pos: 0, cond_base: self.conds.len(), dir, kind, key }));
    }

    pub fn report(&mut self, d: Diagnostic) {
        if d.severity == crate::diag::Severity::Fatal {
            self.fatal = true;
        }
        self.diags.push(d);
    }

    fn run(&mut self) {
        let main_name: Rc<str> = Rc::from(self.sm.file(self.main).name.as_str());
        let dir = include::parent_dir(&main_name);
        let key = if self.opts.use_filesystem && std::path::Path::new(&*main_name).is_file() {
            include::key_for_path(std::path::Path::new(&*main_name))
        } else {
            FileKey::Virtual(main_name.to_string())
        };
        self.push_file(self.main, FileKind::Main, dir, Some(key));
        self.changes.push(FileChange {
            before_token: 0,
            kind: FileChangeKind::Enter { include_line: None },
            line: 1,
            name: main_name,
        });
        // Predefined macros, then the command line, are read before the main file (clang's
        // predefines buffer). They are pushed above it: the last pushed is read first.
        let cmdline = self.command_line_text();
        if !cmdline.is_empty() {
            let id = self.sm.add("<command line>", cmdline);
            self.push_file(id, FileKind::Predefined, None, None);
        }
        let mut builtin = String::new();
        for (name, body) in &self.opts.predefined {
            define_line(&mut builtin, name, Some(body));
        }
        if !builtin.is_empty() {
            let id = self.sm.add("<built-in>", builtin);
            self.push_file(id, FileKind::Predefined, None, None);
        }
        self.main_loop();
    }

    /// Expands macro `name` (if defined and nothing fatal happened) from a one-line file of its
    /// own, returning the tokens it produced.
    fn expand_after(&mut self, name: &str) -> Option<Vec<Token>> {
        if self.fatal || !self.macros.is_defined(name) {
            return None;
        }
        let mark = self.out.len();
        let id = self.sm.add("<expanded macro>", format!("{name}\n"));
        self.push_file(id, FileKind::Predefined, None, None);
        self.main_loop();
        Some(self.out.split_off(mark))
    }

    fn command_line_text(&self) -> String {
        let mut text = String::new();
        for d in &self.opts.defines {
            match d {
                CmdDefine::Define { name, value } => define_line(&mut text, name, value.as_deref()),
                CmdDefine::Undef(name) => {
                    text.push_str("#undef ");
                    text.push_str(name);
                    text.push('\n');
                }
            }
        }
        text
    }

    /// Sends a token to the output (reporting bad characters met in active code).
    pub fn emit(&mut self, tok: Token) {
        if let Tok::Error(e) = tok.kind {
            self.report(Diagnostic::error(e.message()).with_code("E0050").at(tok.span));
        }
        if self.out.len() >= MAX_OUTPUT_TOKENS {
            self.report(
                Diagnostic::fatal(format!("preprocessed output exceeds {MAX_OUTPUT_TOKENS} tokens"))
                    .with_code("E0051")
                    .at(tok.span),
            );
            return;
        }
        self.out.push(tok);
    }
}

/// `-DNAME=VALUE` as a `#define` line: `NAME` alone means `1`; the value stops at a newline.
fn define_line(out: &mut String, name: &str, value: Option<&str>) {
    out.push_str("#define ");
    out.push_str(name);
    out.push(' ');
    match value {
        None => out.push('1'),
        Some(v) => out.push_str(v.split(['\n', '\r']).next().unwrap_or("")),
    }
    out.push('\n');
}
