//! The lexer: source text to preprocessing tokens, with logos.
//!
//! The lexer is pure: it reports nothing. Bytes it cannot make sense of become [`Tok::Error`]
//! tokens with an [`LexError`] saying why; the preprocessor reports those it meets in active code
//! (text in `#if 0` is allowed to hold anything, as in C).
//!
//! Numbers are lexed as C *pp-numbers* ([`Tok::Number`]: `1`, `1.5f`, `0x1F`, `1e-3`, `2.h`,
//! `1.0l`): whether one is an integer or a float, and what its suffix means, is decided by the
//! parser (`crate::literal`). Whitespace, comments and line continuations do not become tokens;
//! they set [`Token::leading_space`] and [`Token::line_start`] on the next token, which is all the
//! preprocessor needs (directives, stringizing, `-P` output).

use crate::fxhash::FxSet;
use crate::source::{FileId, Span};
use logos::Logos;
use std::rc::Rc;

/// Kinds of preprocessing token.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Tok {
    Ident,
    Number,
    Str,
    Char,
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Semi,
    Comma,
    Colon,
    ColonColon,
    Question,
    Dot,
    Ellipsis,
    Arrow,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Amp,
    Pipe,
    Caret,
    Tilde,
    Bang,
    Lt,
    Gt,
    Le,
    Ge,
    EqEq,
    Ne,
    AndAnd,
    OrOr,
    Shl,
    Shr,
    Assign,
    PlusAssign,
    MinusAssign,
    StarAssign,
    SlashAssign,
    PercentAssign,
    AmpAssign,
    PipeAssign,
    CaretAssign,
    ShlAssign,
    ShrAssign,
    PlusPlus,
    MinusMinus,
    Hash,
    HashHash,
    /// A `#pragma` line kept for later stages; `text` is everything after `pragma`, trimmed.
    /// Produced by the preprocessor, never by the lexer.
    Pragma,
    /// Bytes that are not a token; see [`Token::error`].
    Error(LexError),
}

/// Why a [`Tok::Error`] token is not a token.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LexError {
    /// A character that starts no token (NUL, `@`, `$`, a stray backslash, non-ASCII outside
    /// strings and comments).
    BadChar,
    UnterminatedComment,
    UnterminatedString,
    UnterminatedChar,
}

impl LexError {
    pub fn message(self) -> &'static str {
        match self {
            LexError::BadChar => "invalid character in source",
            LexError::UnterminatedComment => "unterminated /* comment",
            LexError::UnterminatedString => "missing terminating '\"' character",
            LexError::UnterminatedChar => "missing terminating ' character",
        }
    }
}

/// One preprocessing token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: Tok,
    /// The token's spelling (for a macro-pasted token, the pasted spelling).
    pub text: Rc<str>,
    /// Where the user wrote it: for tokens from a macro expansion, the span of the invocation.
    pub span: Span,
    /// Whitespace or a comment came before it on the same line.
    pub leading_space: bool,
    /// It is the first token of a line (after a newline not hidden by a line continuation).
    pub line_start: bool,
}

impl Token {
    pub fn is(&self, kind: Tok) -> bool {
        self.kind == kind
    }
    pub fn is_ident(&self, name: &str) -> bool {
        self.kind == Tok::Ident && &*self.text == name
    }
}

#[derive(Logos, Debug, Clone, Copy, PartialEq)]
enum Raw {
    #[regex(r"[ \t\x0B\x0C]+")]
    Space,
    #[regex(r"\\[ \t]*(\r\n|\n|\r)")]
    Splice,
    #[regex(r"\r\n|\n|\r")]
    Newline,
    #[regex(r"//[^\r\n]*")]
    LineComment,
    #[token("/*", block_comment)]
    BlockComment(bool),
    #[regex(r"[A-Za-z_][A-Za-z0-9_]*")]
    Ident,
    #[regex(r"\.?[0-9]([0-9A-Za-z_.]|[eEpP][+-])*")]
    Number,
    #[regex(r#""([^"\\\r\n]|\\[^\r\n]|\\\r?\n)*""#)]
    Str,
    #[regex(r#""([^"\\\r\n]|\\[^\r\n]|\\\r?\n)*"#)]
    UnterminatedStr,
    #[regex(r"'([^'\\\r\n]|\\[^\r\n])*'")]
    Char,
    #[regex(r"'([^'\\\r\n]|\\[^\r\n])*")]
    UnterminatedChar,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token(";")]
    Semi,
    #[token(",")]
    Comma,
    #[token(":")]
    Colon,
    #[token("::")]
    ColonColon,
    #[token("?")]
    Question,
    #[token(".")]
    Dot,
    #[token("...")]
    Ellipsis,
    #[token("->")]
    Arrow,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("%")]
    Percent,
    #[token("&")]
    Amp,
    #[token("|")]
    Pipe,
    #[token("^")]
    Caret,
    #[token("~")]
    Tilde,
    #[token("!")]
    Bang,
    #[token("<")]
    Lt,
    #[token(">")]
    Gt,
    #[token("<=")]
    Le,
    #[token(">=")]
    Ge,
    #[token("==")]
    EqEq,
    #[token("!=")]
    Ne,
    #[token("&&")]
    AndAnd,
    #[token("||")]
    OrOr,
    #[token("<<")]
    Shl,
    #[token(">>")]
    Shr,
    #[token("=")]
    Assign,
    #[token("+=")]
    PlusAssign,
    #[token("-=")]
    MinusAssign,
    #[token("*=")]
    StarAssign,
    #[token("/=")]
    SlashAssign,
    #[token("%=")]
    PercentAssign,
    #[token("&=")]
    AmpAssign,
    #[token("|=")]
    PipeAssign,
    #[token("^=")]
    CaretAssign,
    #[token("<<=")]
    ShlAssign,
    #[token(">>=")]
    ShrAssign,
    #[token("++")]
    PlusPlus,
    #[token("--")]
    MinusMinus,
    #[token("#")]
    #[token("%:")]
    Hash,
    #[token("##")]
    #[token("%:%:")]
    HashHash,
}

fn block_comment(lex: &mut logos::Lexer<Raw>) -> bool {
    let rest = lex.remainder();
    match rest.find("*/") {
        Some(i) => {
            lex.bump(i + 2);
            true
        }
        None => {
            lex.bump(rest.len());
            false
        }
    }
}

fn punct(raw: Raw) -> Option<Tok> {
    Some(match raw {
        Raw::LParen => Tok::LParen,
        Raw::RParen => Tok::RParen,
        Raw::LBracket => Tok::LBracket,
        Raw::RBracket => Tok::RBracket,
        Raw::LBrace => Tok::LBrace,
        Raw::RBrace => Tok::RBrace,
        Raw::Semi => Tok::Semi,
        Raw::Comma => Tok::Comma,
        Raw::Colon => Tok::Colon,
        Raw::ColonColon => Tok::ColonColon,
        Raw::Question => Tok::Question,
        Raw::Dot => Tok::Dot,
        Raw::Ellipsis => Tok::Ellipsis,
        Raw::Arrow => Tok::Arrow,
        Raw::Plus => Tok::Plus,
        Raw::Minus => Tok::Minus,
        Raw::Star => Tok::Star,
        Raw::Slash => Tok::Slash,
        Raw::Percent => Tok::Percent,
        Raw::Amp => Tok::Amp,
        Raw::Pipe => Tok::Pipe,
        Raw::Caret => Tok::Caret,
        Raw::Tilde => Tok::Tilde,
        Raw::Bang => Tok::Bang,
        Raw::Lt => Tok::Lt,
        Raw::Gt => Tok::Gt,
        Raw::Le => Tok::Le,
        Raw::Ge => Tok::Ge,
        Raw::EqEq => Tok::EqEq,
        Raw::Ne => Tok::Ne,
        Raw::AndAnd => Tok::AndAnd,
        Raw::OrOr => Tok::OrOr,
        Raw::Shl => Tok::Shl,
        Raw::Shr => Tok::Shr,
        Raw::Assign => Tok::Assign,
        Raw::PlusAssign => Tok::PlusAssign,
        Raw::MinusAssign => Tok::MinusAssign,
        Raw::StarAssign => Tok::StarAssign,
        Raw::SlashAssign => Tok::SlashAssign,
        Raw::PercentAssign => Tok::PercentAssign,
        Raw::AmpAssign => Tok::AmpAssign,
        Raw::PipeAssign => Tok::PipeAssign,
        Raw::CaretAssign => Tok::CaretAssign,
        Raw::ShlAssign => Tok::ShlAssign,
        Raw::ShrAssign => Tok::ShrAssign,
        Raw::PlusPlus => Tok::PlusPlus,
        Raw::MinusMinus => Tok::MinusMinus,
        Raw::Hash => Tok::Hash,
        Raw::HashHash => Tok::HashHash,
        _ => return None,
    })
}

/// Shares one `Rc<str>` among all tokens with the same spelling, so lexing allocates once per
/// distinct spelling rather than once per token (the preprocessor keeps one for a compilation).
#[derive(Default)]
pub struct Interner {
    set: FxSet<Rc<str>>,
}

impl Interner {
    pub fn new() -> Interner {
        Interner::default()
    }

    /// The shared spelling of `s`.
    #[inline]
    pub fn intern(&mut self, s: &str) -> Rc<str> {
        if let Some(r) = self.set.get(s) {
            return r.clone();
        }
        let r: Rc<str> = Rc::from(s);
        self.set.insert(r.clone());
        r
    }
}

/// Lexes one file's text into tokens (no end-of-file token). Never fails: see [`LexError`].
pub fn lex(file: FileId, text: &str) -> Vec<Token> {
    lex_with(file, text, &mut Interner::new())
}

/// [`lex`], sharing token spellings through `interner`.
pub fn lex_with(file: FileId, text: &str, interner: &mut Interner) -> Vec<Token> {
    let mut out = Vec::with_capacity(text.len() / 4);
    let mut lexer = Raw::lexer(text);
    let mut leading_space = false;
    let mut line_start = true;
    while let Some(raw) = lexer.next() {
        let range = lexer.span();
        let span = Span::new(file, range.start as u32, range.end as u32);
        let kind = match raw {
            Ok(Raw::Space) | Ok(Raw::Splice) | Ok(Raw::LineComment) | Ok(Raw::BlockComment(true)) => {
                leading_space = true;
                continue;
            }
            Ok(Raw::Newline) => {
                line_start = true;
                leading_space = false;
                continue;
            }
            Ok(Raw::BlockComment(false)) => Tok::Error(LexError::UnterminatedComment),
            Ok(Raw::Ident) => Tok::Ident,
            Ok(Raw::Number) => Tok::Number,
            Ok(Raw::Str) => Tok::Str,
            Ok(Raw::Char) => Tok::Char,
            Ok(Raw::UnterminatedStr) => Tok::Error(LexError::UnterminatedString),
            Ok(Raw::UnterminatedChar) => Tok::Error(LexError::UnterminatedChar),
            Ok(p) => punct(p).expect("every other raw token is a punctuator"),
            Err(()) => Tok::Error(LexError::BadChar),
        };
        out.push(Token { kind, text: interner.intern(lexer.slice()), span, leading_space, line_start });
        leading_space = false;
        line_start = false;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<(Tok, String)> {
        lex(FileId(0), s).into_iter().map(|t| (t.kind, t.text.to_string())).collect()
    }

    #[test]
    fn numbers_are_pp_numbers() {
        for n in ["1", "1.0f", "1.0h", "1.0l", "1u", "1l", "0x1F", "1e-3", ".5", "2.", "1.5e+10F", "0xffffffffu"] {
            assert_eq!(kinds(n), vec![(Tok::Number, n.to_string())], "{n}");
        }
    }

    #[test]
    fn punctuators_take_the_longest_match() {
        let k: Vec<Tok> = kinds("a<<=b>>c::d...##").into_iter().map(|x| x.0).collect();
        assert_eq!(
            k,
            vec![Tok::Ident, Tok::ShlAssign, Tok::Ident, Tok::Shr, Tok::Ident, Tok::ColonColon, Tok::Ident, Tok::Ellipsis, Tok::HashHash]
        );
    }

    #[test]
    fn flags_track_lines_spaces_comments_and_splices() {
        let t = lex(FileId(0), "a /* x\n */ b\nc \\\n d");
        assert!(t[0].line_start && !t[0].leading_space);
        assert!(!t[1].line_start && t[1].leading_space, "a newline inside a comment does not end the line");
        assert!(t[2].line_start);
        assert!(!t[3].line_start, "a line continuation joins lines");
    }

    #[test]
    fn bad_input_becomes_error_tokens() {
        assert_eq!(kinds("@")[0].0, Tok::Error(LexError::BadChar));
        assert_eq!(kinds("\0")[0].0, Tok::Error(LexError::BadChar));
        assert_eq!(kinds("/* never closed")[0].0, Tok::Error(LexError::UnterminatedComment));
        assert_eq!(kinds("\"abc")[0].0, Tok::Error(LexError::UnterminatedString));
        assert_eq!(kinds("'a")[0].0, Tok::Error(LexError::UnterminatedChar));
        assert_eq!(kinds("\"a\\\"b\"")[0].0, Tok::Str);
    }
}
