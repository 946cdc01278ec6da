//! The HLSL 2021 parser: preprocessed tokens to the AST ([`crate::ast`]).
//!
//! # How it works
//!
//! 1. **Limits** (`limits.rs`): one pass over the tokens refuses input whose brackets nest more
//!    than 256 deep, or that could build a tree deeper than [`limits::MAX_TREE_DEPTH`], with a
//!    "nesting too deep" diagnostic. After that no recursive walk of the tree (ours, sema's, the
//!    recursive `Drop` of its boxes) can overflow the stack.
//! 2. **The lexer hack** (`adapter.rs`). The grammar is LR(1) (lalrpop), and C-like syntax is only
//!    LR when the parser knows which identifiers name types: `(T)x` is a cast and `(x)` is not,
//!    `T(x)` constructs and `f(x)` calls, `T x;` declares and `a * b;` multiplies, `T<a> x` has
//!    template arguments and `a < b > c` compares. So before parsing:
//!    - a pre-pass ([`adapter::collect_names`]) collects the names the file declares as types:
//!      after `struct`/`class`/`interface`/`enum` (and `enum class`), the declarators of
//!      `typedef`, `using X =`, template parameters `typename T`/`class T`, and the last name of
//!      a dependent `typename A::B`; and the names of
//!      function templates (the first `name(` after a `template<...>` header);
//!    - the adapter turns each identifier into a keyword, a modifier, a `TypeName` (built-in
//!      spellings such as `float4x4`, `min16float3`, `uint64_t2`, every resource and object name,
//!      `vector`, `matrix`; plus the collected names) or a plain `Ident`. A name right after `.` is
//!      always an `Ident`. `unsigned int` becomes one `TypeName`.
//!    - Contextual modifiers (`sample`, `line`, `point`, `triangle`, `vertices`, `indices`,
//!      `primitives`, `payload`, `precise`, `linear`, `centroid`, `center`, `snorm`, `unorm`,
//!      `shared`, `lineadj`, `triangleadj`) are modifiers only when a type name or another
//!      modifier follows; otherwise they are names (`float sample;`, `v.line`).
//!      `register`/`packoffset` are keywords only between `:` and `(`.
//!    - `<` becomes a template-open token `t<` after a type name, after `template`, and after a
//!      non-type name when the brackets balance over type-like tokens and `(` follows (`f<int>(x)`,
//!      `buf.Load<float2>(0)`, `vk::RawBufferLoad<uint>(a)`); for an unknown plain name the
//!      arguments must also contain a type name, so `a < b > (c)` stays a comparison. The adapter
//!      keeps a stack of open template lists (with the bracket depth each opened at): a `>` at that
//!      depth closes it (`t>`), and `>>` is split into two `>` when it closes a list.
//!    - Numbers become `IntLit`/`FloatLit` tokens (`literal.rs`; a malformed or out-of-range number
//!      is a diagnostic), adjacent strings are concatenated, `#pragma` tokens are kept at file and
//!      namespace scope (becoming [`crate::ast::Decl::Pragma`]) and dropped elsewhere, and
//!      `Tok::Error` tokens are dropped (the preprocessor reports them).
//!
//!    Limits of the pre-pass: it does not know scopes. A type name is a type name everywhere in
//!    the file, so a variable, field or parameter that reuses a type's name (`S S;`, or a template
//!    parameter `T` reused as a variable elsewhere) does not parse; a member named like a type is
//!    fine after `.`. Types introduced by macros are seen after preprocessing, so they work.
//! 3. **The grammar** (`grammar.lalrpop`, generated at build time by `build.rs`) with error
//!    recovery: a broken statement or declaration is skipped up to its `;`, a broken block to its
//!    `}`, and a stray `}` at file scope is skipped, so one file reports several errors. An error
//!    within three tokens of where the previous recovery resumed is not reported (cascades).
//!    Messages name what was expected ("expected ';' after expression", "expected ')'"), not the
//!    LR token sets.
//!
//!    Decisions for templates and qualified names (each keeps the grammar LR(1)):
//!    - A qualifier may carry template arguments (`S<int>::value`, `typename F<T>::It`): the
//!      rule is `TypePath t< ... t> ::`, so the parser reduces `S` to a type path before the
//!      `t<` either way, and the arguments are kept per part in [`crate::ast::Path::scope_args`].
//!    - A specialization's head (`struct Tr<half> {`) goes through `TypePath TArgList` too, the
//!      prefix it shares with the elaborated type `struct Tr<half> x;`; `{` or `:` after the
//!      arguments makes it a definition. A function's (`float f<half>(half x)`) is the
//!      function name followed by optional template arguments; the adapter opens `t<` there
//!      because the name is a function template's and `(` follows the closing `>`.
//!    - `typename` may prefix a declaration's type, a parameter's type, and an abstract type
//!      (casts, template arguments); it changes nothing else (sema resolves the name either way).
//!    - `using namespace a::b;` and `using a::b;` (a type or not) are one declaration,
//!      [`crate::ast::Decl::Using`]; `using X = T;` stays an alias. `using` needs a qualified
//!      name so that `using X` followed by `=` or `[` is still an alias.
//!    - An unnamed template parameter (`template<class, class>`) gets a name no source can spell.

mod adapter;
mod helpers;
pub mod limits;
pub mod literal;
mod token;
pub mod toks;

lalrpop_util::lalrpop_mod!(
    #[allow(clippy::all, unused_parens, dead_code, unused_imports)]
    grammar,
    "/parser/grammar.rs"
);

use crate::ast::TranslationUnit;
use crate::diag::{Diagnostic, Diagnostics};
use crate::lexer::Token;
use crate::source::Span;
use lalrpop_util::ParseError;
use token::{NoError, PTok, Pos};
use toks::Toks;

#[derive(Clone, Debug)]
pub struct ParseOptions {
    /// `-HV`: 2016, 2018, 2021 (default) or 202x.
    pub hlsl_version: u32,
    /// `-enable-16bit-types`: the `f16` literal suffix needs it.
    pub enable_16bit: bool,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions { hlsl_version: 2021, enable_16bit: false }
    }
}

/// Parses preprocessed tokens. Never fails: errors go to `diags`, and the returned unit holds
/// what could be parsed (empty if the input was refused by a limit or could not be recovered).
pub fn parse(tokens: &[Token], opts: &ParseOptions, diags: &mut Diagnostics) -> TranslationUnit {
    let mut decls = Vec::new();
    if parse_each(tokens, opts, diags, &mut |d, _| decls.push(d)) {
        TranslationUnit { decls }
    } else {
        TranslationUnit::default()
    }
}

/// [`parse`], dropping the tokens once parsed: for a large source they would otherwise stay in
/// memory next to what comes after.
pub fn parse_owned(tokens: Vec<Token>, opts: &ParseOptions, diags: &mut Diagnostics) -> TranslationUnit {
    parse(&tokens, opts, diags)
}

/// Parses preprocessed tokens, handing each top-level declaration to `sink` as soon as it is
/// parsed, with whether the parse has been clean so far (no error recovered from before or
/// inside it). The whole syntax tree of a file then never has to exist at once: the driver
/// checks each declaration and drops it before the next is parsed (HLSL declares before use at
/// file scope). Returns false when the input was refused by a limit or the parser could not
/// recover; its errors are in `diags` either way.
///
/// The parser's tokens are made from `tokens` as the parser asks for them ([`adapter::Adapter`]):
/// a stream of them all, 80 bytes a token with its spelling, was the largest thing in memory
/// while a large source was parsed.
pub fn parse_each(tokens: &[Token], opts: &ParseOptions, diags: &mut Diagnostics, sink: &mut dyn FnMut(crate::ast::Decl, bool)) -> bool {
    parse_toks(Toks::Slice(tokens), opts, diags, sink)
}

/// [`parse_each`], freeing the tokens as the parser gets past them ([`toks`]).
pub fn parse_each_owned(tokens: Vec<Token>, opts: &ParseOptions, diags: &mut Diagnostics, sink: &mut dyn FnMut(crate::ast::Decl, bool)) -> bool {
    parse_toks(Toks::Chunks(toks::Chunks::from_vec(tokens)), opts, diags, sink)
}

fn parse_toks(tokens: Toks, opts: &ParseOptions, diags: &mut Diagnostics, sink: &mut dyn FnMut(crate::ast::Decl, bool)) -> bool {
    if let Some(d) = limits::check(&tokens) {
        diags.push(d);
        return false;
    }
    let names = adapter::collect_names(&tokens);
    let mut recovered = Vec::new();
    let mut stream = adapter::Adapter::new(tokens, &names, opts, diags);
    // After a declaration parsed cleanly, an error message can only be about the parser's
    // lookahead or a later token, so the tokens before the lookahead's may be freed.
    let (keep_from, made_from) = (stream.keep_from.clone(), stream.made_from.clone());
    let mut sink = |d: crate::ast::Decl, clean: bool| {
        if clean {
            keep_from.set(made_from.get());
        }
        sink(d, clean)
    };
    let result = grammar::TranslationUnitParser::new().parse(&mut recovered, &mut sink, stream.by_ref().map(Ok::<_, NoError>));
    let (texts, tokens, last) = stream.finish();
    let mut reporter = Reporter { texts: &texts, toks: &tokens, last, resume: None };
    for r in recovered {
        reporter.report(&r.error, &r.dropped_tokens, diags);
    }
    match result {
        Ok(()) => true,
        Err(e) => {
            reporter.report(&e, &[], diags);
            false
        }
    }
}

struct Reporter<'a> {
    texts: &'a adapter::Texts,
    toks: &'a Toks<'a>,
    last: Option<Pos>,
    /// Index of the last token skipped by the previous recovery.
    resume: Option<u32>,
}

impl Reporter<'_> {
    fn report(&mut self, e: &ParseError<Pos, PTok, NoError>, dropped: &[(Pos, PTok, Pos)], diags: &mut Diagnostics) {
        let (at, text, expected): (Option<Pos>, Option<&str>, &[String]) = match e {
            ParseError::UnrecognizedToken { token, expected } => {
                (Some(token.0), self.texts.get(self.toks, token.0.idx as usize), expected)
            }
            ParseError::UnrecognizedEof { expected, .. } => (None, None, expected),
            ParseError::InvalidToken { location } => (Some(*location), None, &[]),
            ParseError::ExtraToken { token } => (Some(token.0), self.texts.get(self.toks, token.0.idx as usize), &[]),
            ParseError::User { error } => match *error {},
        };
        let idx = at.map_or(u32::MAX, |p| p.idx);
        let suppressed = self.resume.is_some_and(|r| idx <= r.saturating_add(3));
        self.resume = Some(dropped.last().map_or(idx.saturating_sub(1), |d| d.0.idx));
        if suppressed {
            return;
        }
        let span = match at {
            Some(p) => p.span,
            None => self.last.map_or(Span::default(), |p| Span { start: p.span.end, ..p.span }),
        };
        diags.push(Diagnostic::error(message(text, expected)).at(span));
    }
}

/// A readable message from the offending token and the LR parser's expected terminals.
fn message(found: Option<&str>, expected: &[String]) -> String {
    let has = |s: &str| expected.iter().any(|e| e.trim_matches('"') == s);
    let found_text = match found {
        Some(t) => format!("'{t}'"),
        None => "end of file".to_string(),
    };
    if found.is_none() && has("}") {
        return "expected '}' at end of file".into();
    }
    if found == Some("}") && !has("}") {
        return "unexpected '}'".into();
    }
    if has(";") {
        if has("+") || has("*") || has("(") && has("[") && has(".") {
            return "expected ';' after expression".into();
        }
        if has("=") || has(",") {
            return "expected ';' at end of declaration".into();
        }
        return "expected ';'".into();
    }
    if has(")") {
        return "expected ')'".into();
    }
    if has("]") {
        return "expected ']'".into();
    }
    if found.is_none() && has("}") {
        return "expected '}'".into();
    }
    if has("t>") && !has("identifier") {
        return "expected '>'".into();
    }
    if has("identifier") && has("integer literal") {
        return format!("expected expression, found {found_text}");
    }
    if has("cbuffer") || has("typedef") {
        return format!("expected a declaration, found {found_text}");
    }
    if has("identifier") {
        return format!("expected identifier, found {found_text}");
    }
    if has("type name") {
        return format!("expected a type, found {found_text}");
    }
    if has("{") {
        return format!("expected '{{', found {found_text}");
    }
    if has(":") {
        return format!("expected ':', found {found_text}");
    }
    if has("(") {
        return format!("expected '(', found {found_text}");
    }
    format!("unexpected {found_text}")
}
