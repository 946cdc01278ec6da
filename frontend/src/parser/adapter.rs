//! The token adapter: preprocessing tokens to parser tokens (the "lexer hack"; see `mod.rs`).
//!
//! Two linear passes over the tokens: [`collect_names`] finds the identifiers the file declares as
//! types (and the names of function templates), then [`adapt`] classifies every token using those
//! sets and one token of context on each side.

use super::literal::{char_value, fixed_size_suffix, parse_number, split_swizzle, unescape, Number};
use crate::source::Span;
use super::token::*;
use crate::diag::{Diagnostic, Diagnostics};
use crate::lexer::{Tok, Token};
use crate::fxhash::FxSet;
use super::toks::Toks;
use std::cell::Cell;
use std::rc::Rc;

/// Names the file declares.
#[derive(Default, Debug)]
pub struct Names {
    /// Declared by `struct`/`class`/`interface`/`enum`/`typedef`/`using X =`/`typename T`.
    pub types: FxSet<Rc<str>>,
    /// Functions declared after a `template<...>` header.
    pub template_fns: FxSet<Rc<str>>,
}

fn is_ident(t: Option<&Token>) -> bool {
    t.is_some_and(|t| t.kind == Tok::Ident)
}

fn kind(t: Option<&Token>) -> Option<Tok> {
    t.map(|t| t.kind)
}

/// Index just past the `>` matching the `<` at `open` (tokens between checked only for balance),
/// or `None` if a `;`, `{` or `}` comes first.
fn skip_angles(toks: &Toks, open: usize) -> Option<usize> {
    let mut depth: i32 = 0;
    let mut i = open;
    while i < toks.len() {
        match toks[i].kind {
            Tok::Lt => depth += 1,
            Tok::Gt => depth -= 1,
            Tok::Shr => depth -= 2,
            Tok::Semi | Tok::LBrace | Tok::RBrace => return None,
            _ => {}
        }
        i += 1;
        if depth <= 0 {
            return Some(i);
        }
    }
    None
}

/// The pre-pass: which identifiers name types. It does not know scopes, so a name declared as a
/// type anywhere is a type name everywhere in the file (see `mod.rs` for the consequences).
pub fn collect_names(toks: &Toks) -> Names {
    let mut names = Names::default();
    let n = toks.len();
    let mut i = 0;
    while i < n {
        if toks[i].kind != Tok::Ident {
            i += 1;
            continue;
        }
        let after_dot = i > 0 && toks[i - 1].kind == Tok::Dot;
        match &*toks[i].text {
            _ if after_dot => {}
            "struct" | "class" | "interface" | "enum" => {
                let mut j = i + 1;
                if &*toks[i].text == "enum" && toks.get(j).is_some_and(|t| t.is_ident("class") || t.is_ident("struct")) {
                    j += 1;
                }
                // Attributes between the keyword and the name: `struct [raypayload] P { ... }`.
                while kind(toks.get(j)) == Some(Tok::LBracket) {
                    let mut depth = 0i32;
                    while let Some(t) = toks.get(j) {
                        match t.kind {
                            Tok::LBracket => depth += 1,
                            Tok::RBracket => depth -= 1,
                            _ => {}
                        }
                        j += 1;
                        if depth == 0 {
                            break;
                        }
                    }
                }
                if is_ident(toks.get(j)) && keyword(&toks[j].text).is_none() {
                    names.types.insert(toks[j].text.clone());
                }
            }
            "typename" => {
                // `typename T`, and the last name of `typename A::B<C>::D` (a dependent name that
                // `typename` says is a type).
                let mut j = i + 1;
                while is_ident(toks.get(j)) {
                    let mut k = j + 1;
                    if kind(toks.get(k)) == Some(Tok::Lt) {
                        match skip_angles(toks, k) {
                            Some(end) => k = end,
                            None => break,
                        }
                    }
                    if kind(toks.get(k)) != Some(Tok::ColonColon) {
                        names.types.insert(toks[j].text.clone());
                        break;
                    }
                    if j == i + 1 {
                        names.types.insert(toks[j].text.clone());
                    }
                    j = k + 1;
                }
            }
            "using" => {
                if is_ident(toks.get(i + 1)) && matches!(kind(toks.get(i + 2)), Some(Tok::Assign | Tok::LBracket)) {
                    names.types.insert(toks[i + 1].text.clone());
                }
            }
            "typedef" => {
                // Every identifier at bracket depth 0 followed by `,`, `;` or `[` is a new name.
                let mut depth = 0i32;
                let mut j = i + 1;
                while j < n {
                    match toks[j].kind {
                        Tok::LParen | Tok::LBracket | Tok::LBrace => depth += 1,
                        Tok::RParen | Tok::RBracket | Tok::RBrace => depth -= 1,
                        Tok::Semi if depth <= 0 => break,
                        Tok::Ident if depth == 0 => {
                            if matches!(kind(toks.get(j + 1)), Some(Tok::Comma | Tok::Semi | Tok::LBracket)) {
                                names.types.insert(toks[j].text.clone());
                            }
                        }
                        _ => {}
                    }
                    if depth < 0 {
                        break;
                    }
                    j += 1;
                }
            }
            "template" if kind(toks.get(i + 1)) == Some(Tok::Lt) => {
                if let Some(mut j) = skip_angles(toks, i + 1) {
                    let is_type = toks.get(j).is_some_and(|t| t.is_ident("struct") || t.is_ident("class"));
                    // A function template: the first identifier followed by `(` at depth 0.
                    let mut angle = 0i32;
                    while !is_type && j + 1 < n {
                        match toks[j].kind {
                            Tok::Semi | Tok::LBrace | Tok::Assign | Tok::LParen => break,
                            Tok::Lt => angle += 1,
                            Tok::Gt => angle -= 1,
                            Tok::Shr => angle -= 2,
                            Tok::Ident if angle <= 0 && toks[j + 1].kind == Tok::LParen => {
                                names.template_fns.insert(toks[j].text.clone());
                                break;
                            }
                            _ => {}
                        }
                        j += 1;
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    names
}

/// The adapted stream: `(start, token, end)` triples for the generated parser, and each token's
/// spelling for messages (indexed by [`Pos::idx`]).
/// The parser's tokens, made one input token at a time as the parser asks for them (so a large
/// source never holds a second, larger copy of its token stream), and the spelling of each for
/// the parser's error messages.
pub struct Adapter<'a, 't> {
    toks: Toks<'t>,
    names: &'a Names,
    opts: &'a super::ParseOptions,
    diags: &'a mut Diagnostics,
    /// Bracket depth at which each open template argument list started.
    templates: Vec<usize>,
    depth: usize,
    /// One entry per open `{`: whether it is a namespace body (pragmas are kept there).
    braces: Vec<bool>,
    run_memo: Option<(usize, usize, bool)>,
    /// The next input token.
    i: usize,
    out: Out,
    /// The first token an error message may still need the spelling of: chunks of `toks`
    /// below it (and below the tokens the adapter looks back at) are freed. Set through
    /// [`parse_each`](super::parse_each)'s sink after each cleanly parsed declaration.
    pub keep_from: Rc<Cell<usize>>,
    /// The input token the tokens handed out last were made from.
    pub made_from: Rc<Cell<usize>>,
    last: Option<Pos>,
}

struct Out {
    /// Made but not yet handed to the parser (one input token can make up to three).
    pending: std::collections::VecDeque<(Pos, PTok, Pos)>,
    /// The spelling of every token made so far, by index.
    texts: Texts,
    /// The input token being adapted: the spelling of what it makes is usually its own or the
    /// next one's.
    base: usize,
}

impl Out {
    fn push(&mut self, toks: &Toks, tok: PTok, span: crate::source::Span, text: Rc<str>) {
        let idx = self.texts.refs.len() as u32;
        self.pending.push_back((Pos { idx, span }, tok, Pos { idx, span }));
        let end = toks.len().min(self.base + 3);
        let input = (self.base..end).find(|&j| Rc::ptr_eq(&toks[j].text, &text));
        let r = match input {
            Some(j) if j < OWN as usize => j as u32,
            _ => {
                self.texts.own.push(text);
                OWN | (self.texts.own.len() - 1) as u32
            }
        };
        self.texts.refs.push(r);
    }
}

/// Marks an entry of [`Texts::refs`] that indexes [`Texts::own`].
const OWN: u32 = 1 << 31;

/// The spelling of each token made, by index, for the parser's error messages: the index of the
/// input token whose spelling it is (4 bytes a token instead of 16 for an `Rc<str>` each, which
/// were a tenth of the memory of a large parse), or for a spelling made here (a split number,
/// concatenated strings, half of `>>`) an index into `own`.
pub struct Texts {
    refs: Vec<u32>,
    own: Vec<Rc<str>>,
}

impl Texts {
    /// The spelling of token `idx`; `toks` are the parser's input tokens.
    pub fn get<'t>(&'t self, toks: &'t Toks, idx: usize) -> Option<&'t str> {
        let r = *self.refs.get(idx)?;
        if r & OWN != 0 {
            self.own.get((r & !OWN) as usize).map(|t| &**t)
        } else {
            toks.get(r as usize).map(|t| &*t.text)
        }
    }
}

impl<'a, 't> Adapter<'a, 't> {
    pub fn new(toks: Toks<'t>, names: &'a Names, opts: &'a super::ParseOptions, diags: &'a mut Diagnostics) -> Self {
        Adapter {
            toks,
            names,
            opts,
            diags,
            templates: Vec::new(),
            depth: 0,
            braces: Vec::new(),
            run_memo: None,
            i: 0,
            out: Out { pending: Default::default(), texts: Texts { refs: Vec::new(), own: Vec::new() }, base: 0 },
            last: None,
            keep_from: Rc::new(Cell::new(0)),
            made_from: Rc::new(Cell::new(0)),
        }
    }

    /// Adapts what the parser did not ask for (so its diagnostics, e.g. a malformed literal after
    /// an unrecoverable syntax error, are still reported), then gives back each token's spelling
    /// and the position of the last token.
    pub fn finish(mut self) -> (Texts, Toks<'t>, Option<Pos>) {
        while self.next().is_some() {}
        (self.out.texts, self.toks, self.last)
    }
}

impl Iterator for Adapter<'_, '_> {
    type Item = (Pos, PTok, Pos);
    fn next(&mut self) -> Option<(Pos, PTok, Pos)> {
        loop {
            if let Some(t) = self.out.pending.pop_front() {
                self.last = Some(t.0);
                return Some(t);
            }
            if self.i >= self.toks.len() {
                return None;
            }
            self.made_from.set(self.i);
            // `step` looks back at most three tokens.
            self.toks.free_below(self.keep_from.get().min(self.i).saturating_sub(8));
            self.step();
        }
    }
}

/// Effect-framework object types (D3DX effects), which dxc parses and ignores.
fn effect_object_type(s: &str) -> bool {
    matches!(
        s,
        "BlendState" | "DepthStencilState" | "RasterizerState" | "RenderTargetView" | "DepthStencilView"
            | "VertexShader" | "PixelShader" | "GeometryShader" | "HullShader" | "DomainShader" | "ComputeShader"
    )
}

/// Index just past the `}` matching the `{` at `open` (or the end of the tokens).
fn skip_braces(toks: &Toks, open: usize) -> usize {
    let mut depth = 0usize;
    for j in open..toks.len() {
        match toks[j].kind {
            Tok::LBrace => depth += 1,
            Tok::RBrace => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return j + 1;
                }
            }
            _ => {}
        }
    }
    toks.len()
}

/// Effect syntax dxc skips with a warning, at the start of a declaration (token `i`):
/// a declaration of an effect object (`BlendState B { ... };`, `RenderTargetView r = v;`) is
/// dropped whole, and a state block after a declarator (`SamplerState s { Filter = ...; };`) is
/// dropped, keeping the declaration. Returns the index just past what is dropped, or `None` to
/// adapt token `i` normally.
fn effect_syntax(toks: &Toks, i: usize, prev: Option<Tok>, names: &Names, diags: &mut Diagnostics) -> Option<usize> {
    let t = &toks[i];
    if t.kind == Tok::LBrace && i >= 2 {
        // `Type name {` at a declaration's start: a state block.
        let (ty, name) = (&toks[i - 2], &toks[i - 1]);
        let before = if i >= 3 { Some(toks[i - 3].kind) } else { None };
        let starts = matches!(before, None | Some(Tok::Semi | Tok::LBrace | Tok::RBrace));
        if starts && ty.kind == Tok::Ident && name.kind == Tok::Ident && keyword(&ty.text).is_none()
            && keyword(&name.text).is_none() && is_type_name(names, &ty.text)
        {
            diags.push(Diagnostic::warning(
                "effect state block ignored - effect syntax is deprecated. To use braces as an initializer use them with equal signs.",
            ).at(t.span));
            return Some(skip_braces(toks, i));
        }
        return None;
    }
    let starts = matches!(prev, None | Some(Tok::Semi | Tok::LBrace | Tok::RBrace));
    if !(starts && t.kind == Tok::Ident && effect_object_type(&t.text) && !names.types.contains(&*t.text)) {
        return None;
    }
    if kind(toks.get(i + 1)) != Some(Tok::Ident) {
        return None;
    }
    let mut j = i;
    while j < toks.len() && toks[j].kind != Tok::Semi {
        j = if toks[j].kind == Tok::LBrace { skip_braces(toks, j) } else { j + 1 };
    }
    diags.push(Diagnostic::warning("effect object ignored - effect syntax is deprecated").at(t.span));
    Some((j + 1).min(toks.len()))
}

fn is_type_name(names: &Names, s: &str) -> bool {
    is_builtin_type(s) || names.types.contains(s)
}

/// Legacy lowercase type names that real shaders also use as variable names (`texture`,
/// `sampler`, `string`, `vector`, `matrix`): they are types only before `<`, a name, or `(`.
fn weak_type_name(s: &str) -> bool {
    matches!(
        s,
        "texture" | "sampler" | "string" | "vector" | "matrix" | "Texture" | "texture1D" | "texture2D" | "texture3D"
            | "textureCUBE" | "sampler1D" | "sampler2D" | "sampler3D" | "samplerCUBE"
    )
}

/// Whether the token at `i` can start a declaration's type: a type name, a modifier, `unsigned`,
/// `struct`/`class`, `::`, or a contextual modifier followed by one of these (through any run of
/// contextual modifiers). Every token of a run that the walk passes has the same answer, so
/// `memo` keeps `(first, last, answer)` of the last walk: a long run is walked once, not once
/// per token (which was quadratic, and recursed once per token).
fn starts_type(names: &Names, toks: &Toks, i: usize, memo: &mut Option<(usize, usize, bool)>) -> bool {
    if let Some((first, last, answer)) = *memo {
        if (first..=last).contains(&i) {
            return answer;
        }
    }
    let mut j = i;
    let answer = loop {
        if starts_type_plain(names, toks, j) {
            break true;
        }
        match toks.get(j) {
            Some(t) if t.kind == Tok::Ident && contextual_modifier(&t.text).is_some() => j += 1,
            _ => break false,
        }
    };
    *memo = Some((i, j, answer));
    answer
}

fn starts_type_plain(names: &Names, toks: &Toks, i: usize) -> bool {
    let Some(t) = toks.get(i) else { return false };
    t.kind == Tok::Ident
        && (is_type_name(names, &t.text)
            || reserved_modifier(&t.text).is_some()
            || matches!(&*t.text, "unsigned" | "struct" | "class"))
}

/// Whether `<` at `open`, after a name that is not a type, opens template arguments: the
/// brackets balance over type-like tokens only and `(` follows the closing `>`.
fn template_call_follows(names: &Names, toks: &Toks, open: usize, require_type: bool) -> bool {
    let mut depth = 0i32;
    let mut saw_type = false;
    for k in open..toks.len().min(open.saturating_add(64)) {
        let t = &toks[k];
        match t.kind {
            Tok::Lt => depth += 1,
            Tok::Gt => depth -= 1,
            Tok::Shr => depth -= 2,
            Tok::Ident => saw_type |= is_type_name(names, &t.text) || t.is_ident("unsigned"),
            Tok::Number | Tok::Comma | Tok::ColonColon | Tok::LBracket | Tok::RBracket => {}
            _ => return false,
        }
        if depth <= 0 {
            return depth == 0 && kind(toks.get(k + 1)) == Some(Tok::LParen) && (saw_type || !require_type);
        }
    }
    false
}

/// Converts preprocessing tokens to parser tokens. Literal errors go to `diags`.
/// DXC's checks of a fixed-size float suffix (`1.0f32`): an extension before HLSL 202x, and
/// `f16` needs native 16-bit types.
fn fixed_size_suffix_checks(suffix: &str, span: Span, opts: &super::ParseOptions, diags: &mut Diagnostics) {
    if opts.hlsl_version < 2029 {
        diags.push(
            Diagnostic::warning(format!("fixed-size floating-point literal suffix '{suffix}' is a HLSL 202x extension"))
                .at(span),
        );
    }
    if suffix.ends_with("16") && !opts.enable_16bit {
        diags.push(
            Diagnostic::error(format!("16-bit floating-point literal suffix '{suffix}' requires '-enable-16bit-types'"))
                .at(span),
        );
    }
}

impl Adapter<'_, '_> {
    /// Adapts the input token at `self.i` (and those it absorbs), advancing past them.
    fn step(&mut self) {
        let (toks, names, opts) = (&self.toks, self.names, self.opts);
        let diags = &mut *self.diags;
        let out = &mut self.out;
        out.base = self.i;
        let mut i = self.i;
        let mut depth = self.depth;
        let templates = &mut self.templates;
        let braces = &mut self.braces;
        let run_memo = &mut self.run_memo;
        'body: {
            let t = &toks[i];
            let prev = if i > 0 { Some(toks[i - 1].kind) } else { None };
            let next = kind(toks.get(i + 1));
            if let Some(resume) = effect_syntax(toks, i, prev, names, diags) {
                i = resume;
                break 'body;
            }
            match t.kind {
                Tok::Ident => {
                    let s: &str = &t.text;
                    let mut open_template = false;
                    let tok = if prev == Some(Tok::Dot) {
                        open_template = next == Some(Tok::Lt) && template_call_follows(names, toks, i + 1, false);
                        PTok::Ident(s.to_string())
                    } else if let Some(kw) = keyword(s) {
                        if kw == Kw::Template && next == Some(Tok::Lt) {
                            open_template = true;
                        }
                        PTok::Kw(kw)
                    } else if (s == "register" || s == "packoffset") && prev == Some(Tok::Colon) && next == Some(Tok::LParen) {
                        PTok::Kw(if s == "register" { Kw::Register } else { Kw::PackOffset })
                    } else if s == "const" {
                        PTok::Const
                    } else if let Some(m) = reserved_modifier(s) {
                        PTok::Mod(m)
                    } else if let Some(m) = contextual_modifier(s).filter(|_| starts_type(names, toks, i + 1, run_memo)) {
                        PTok::Mod(m)
                    } else if s == "unsigned" || s == "signed" {
                        // `unsigned int` etc. become one type name; a lone `unsigned` means `unsigned int`.
                        let mut span = t.span;
                        let name = match toks.get(i + 1) {
                            Some(nx) if nx.kind == Tok::Ident && is_builtin_type(&nx.text) => {
                                span = span.to(nx.span);
                                i += 1;
                                format!("{s} {}", nx.text)
                            }
                            _ => format!("{s} int"),
                        };
                        out.push(toks, PTok::TypeName(name), span, t.text.clone());
                        i += 1;
                        break 'body;
                    } else if is_type_name(names, s)
                        && (!weak_type_name(s) || names.types.contains(s) || matches!(next, Some(Tok::Lt | Tok::Ident | Tok::LParen)))
                    {
                        open_template = toks.get(i + 1).is_some_and(|t| t.kind == Tok::Lt);
                        PTok::TypeName(s.to_string())
                    } else {
                        if next == Some(Tok::Lt) {
                            let known = names.template_fns.contains(s) || prev == Some(Tok::ColonColon);
                            open_template = template_call_follows(names, toks, i + 1, !known);
                        }
                        PTok::Ident(s.to_string())
                    };
                    out.push(toks, tok, t.span, t.text.clone());
                    if open_template {
                        out.push(toks, PTok::TLt, toks[i + 1].span, toks[i + 1].text.clone());
                        templates.push(depth);
                        i += 1;
                    }
                }
                Tok::Number => {
                    if let Some((num, swz)) = split_swizzle(&t.text) {
                        // `1.0.xxx`: a literal, `.`, and a swizzle name.
                        let b = t.span.start + num.len() as u32;
                        let tok = match parse_number(num) {
                            Ok(Number::Float(v, s)) => PTok::Float(FloatTok(v, s)),
                            Ok(Number::Int(v, s)) => PTok::Int(IntTok(v, s)),
                            Err(_) => PTok::Int(IntTok(0, crate::ast::IntSuffix::None)),
                        };
                        out.push(toks, tok, Span { end: b, ..t.span }, Rc::from(num));
                        let dot_end = if num.ends_with('.') { b } else { b + 1 };
                        out.push(toks, PTok::P(Tok::Dot), Span { start: dot_end.saturating_sub(1), end: dot_end, ..t.span }, Rc::from("."));
                        out.push(toks, PTok::Ident(swz.to_string()), Span { start: dot_end, ..t.span }, Rc::from(swz));
                        i += 1;
                        break 'body;
                    }
                    let tok = match parse_number(&t.text) {
                        Ok(Number::Int(v, s)) => PTok::Int(IntTok(v, s)),
                        Ok(Number::Float(v, s)) => {
                            if let Some(suffix) = fixed_size_suffix(&t.text) {
                                fixed_size_suffix_checks(suffix, t.span, opts, diags);
                            }
                            PTok::Float(FloatTok(v, s))
                        }
                        Err(msg) => {
                            diags.push(Diagnostic::error(msg).at(t.span));
                            PTok::Int(IntTok(0, crate::ast::IntSuffix::None))
                        }
                    };
                    out.push(toks, tok, t.span, t.text.clone());
                }
                Tok::Char => {
                    let v = char_value(&t.text).unwrap_or_else(|msg| {
                        diags.push(Diagnostic::error(msg).at(t.span));
                        0
                    });
                    out.push(toks, PTok::Int(IntTok(v, crate::ast::IntSuffix::None)), t.span, t.text.clone());
                }
                Tok::Str => {
                    // Adjacent string literals are one literal.
                    let mut s = String::new();
                    let mut span = t.span;
                    while let Some(st) = toks.get(i).filter(|t| t.kind == Tok::Str) {
                        let body = st.text.get(1..st.text.len().saturating_sub(1)).unwrap_or("");
                        match unescape(body) {
                            Ok(v) => s.push_str(&v),
                            Err(msg) => diags.push(Diagnostic::error(msg).at(st.span)),
                        }
                        span = span.to(st.span);
                        i += 1;
                    }
                    out.push(toks, PTok::Str(s), span, t.text.clone());
                    break 'body;
                }
                Tok::Pragma => {
                    if depth == braces.len() && braces.iter().all(|&ns| ns) {
                        out.push(toks, PTok::Pragma(t.text.trim().to_string()), t.span, t.text.clone());
                    }
                }
                // The preprocessor reports bad bytes in active code.
                Tok::Error(_) => {}
                Tok::LParen | Tok::LBracket | Tok::LBrace => {
                    if t.kind == Tok::LBrace {
                        let ns = i >= 2 && toks[i - 2].is_ident("namespace") && toks[i - 1].kind == Tok::Ident;
                        braces.push(ns);
                    }
                    depth += 1;
                    out.push(toks, PTok::P(t.kind), t.span, t.text.clone());
                }
                Tok::RParen | Tok::RBracket | Tok::RBrace => {
                    if t.kind == Tok::RBrace {
                        braces.pop();
                    }
                    depth = depth.saturating_sub(1);
                    while templates.last().is_some_and(|&d| d > depth) {
                        templates.pop();
                    }
                    out.push(toks, PTok::P(t.kind), t.span, t.text.clone());
                }
                Tok::Semi => {
                    while templates.last().is_some_and(|&d| d >= depth) {
                        templates.pop();
                    }
                    out.push(toks, PTok::P(t.kind), t.span, t.text.clone());
                }
                Tok::Gt if templates.last() == Some(&depth) => {
                    templates.pop();
                    out.push(toks, PTok::TGt, t.span, t.text.clone());
                }
                Tok::Shr if templates.last() == Some(&depth) => {
                    templates.pop();
                    let (a, b) = split_span(t.span);
                    out.push(toks, PTok::TGt, a, Rc::from(">"));
                    if templates.last() == Some(&depth) {
                        templates.pop();
                        out.push(toks, PTok::TGt, b, Rc::from(">"));
                    } else {
                        out.push(toks, PTok::P(Tok::Gt), b, Rc::from(">"));
                    }
                }
                k => out.push(toks, PTok::P(k), t.span, t.text.clone()),
            }
            i += 1;
        }
        self.i = i;
        self.depth = depth;
    }
}

fn split_span(s: Span) -> (Span, Span) {
    let mid = if s.end > s.start { s.start + 1 } else { s.start };
    (Span { end: mid, ..s }, Span { start: mid, ..s })
}
