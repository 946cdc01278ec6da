//! `#if` expressions: C's integer constant expressions on 64-bit values (`intmax_t` /
//! `uintmax_t` with the usual arithmetic conversions), evaluated on the macro-expanded line.
//! Identifiers left after expansion are 0 (`true` is 1, as in C++). Operands that are not
//! evaluated (`0 && x/0`, the untaken arm of `?:`) may divide by zero.
//!
//! Recursion is bounded: parentheses and `?:` nest at most [`MAX_DEPTH`] deep, binary operators
//! recurse once per precedence level, and unary operators are applied in a loop.

use crate::diag::Diagnostic;
use crate::lexer::{Tok, Token};
use crate::source::Span;

/// Deepest nesting of parentheses and conditional operators.
pub const MAX_DEPTH: usize = 256;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Val {
    /// The bits; read as `i64` unless `unsigned`.
    v: u64,
    unsigned: bool,
}

impl Val {
    fn int(v: i64) -> Val {
        Val { v: v as u64, unsigned: false }
    }
    fn bool(b: bool) -> Val {
        Val::int(b as i64)
    }
    fn truth(self) -> bool {
        self.v != 0
    }
}

fn err(message: impl Into<String>, span: Span) -> Diagnostic {
    Diagnostic::error(message).with_code("E0066").at(span)
}

/// Evaluates a whole `#if` line; `at` locates "expected value" at the end of the line.
pub(crate) fn evaluate(toks: &[Token], at: Span) -> Result<bool, Diagnostic> {
    let mut p = Parser { toks, pos: 0, depth: 0, at };
    let v = p.comma(true)?;
    if let Some(t) = toks.get(p.pos) {
        let m = if t.kind == Tok::RParen {
            "token is not a valid binary operator in a preprocessor subexpression (unbalanced ')')"
        } else {
            "token is not a valid binary operator in a preprocessor subexpression"
        };
        return Err(err(m, t.span));
    }
    Ok(v.truth())
}

struct Parser<'t> {
    toks: &'t [Token],
    pos: usize,
    depth: usize,
    at: Span,
}

fn precedence(k: Tok) -> Option<u8> {
    Some(match k {
        Tok::OrOr => 1,
        Tok::AndAnd => 2,
        Tok::Pipe => 3,
        Tok::Caret => 4,
        Tok::Amp => 5,
        Tok::EqEq | Tok::Ne => 6,
        Tok::Lt | Tok::Gt | Tok::Le | Tok::Ge => 7,
        Tok::Shl | Tok::Shr => 8,
        Tok::Plus | Tok::Minus => 9,
        Tok::Star | Tok::Slash | Tok::Percent => 10,
        _ => return None,
    })
}

impl Parser<'_> {
    fn peek(&self) -> Option<Tok> {
        self.toks.get(self.pos).map(|t| t.kind)
    }

    fn end_span(&self) -> Span {
        self.toks.get(self.pos).or(self.toks.last()).map_or(self.at, |t| t.span)
    }

    fn comma(&mut self, ev: bool) -> Result<Val, Diagnostic> {
        let mut v = self.cond(ev)?;
        while self.peek() == Some(Tok::Comma) {
            self.pos += 1;
            v = self.cond(ev)?;
        }
        Ok(v)
    }

    fn cond(&mut self, ev: bool) -> Result<Val, Diagnostic> {
        if self.depth >= MAX_DEPTH {
            return Err(err(format!("preprocessor expression nested more than {MAX_DEPTH} deep"), self.end_span()));
        }
        self.depth += 1;
        let c = self.binary(1, ev)?;
        let r = if self.peek() == Some(Tok::Question) {
            self.pos += 1;
            let t = c.truth();
            let a = self.comma(ev && t)?;
            if self.peek() != Some(Tok::Colon) {
                return Err(err("expected ':' in conditional expression", self.end_span()));
            }
            self.pos += 1;
            let b = self.cond(ev && !t)?;
            Val { v: if t { a.v } else { b.v }, unsigned: a.unsigned || b.unsigned }
        } else {
            c
        };
        self.depth -= 1;
        Ok(r)
    }

    fn binary(&mut self, min: u8, ev: bool) -> Result<Val, Diagnostic> {
        let mut lhs = self.unary(ev)?;
        while let Some(op) = self.peek() {
            let Some(prec) = precedence(op).filter(|&p| p >= min) else { break };
            let op_span = self.toks[self.pos].span;
            self.pos += 1;
            let rhs_ev = match op {
                Tok::AndAnd => ev && lhs.truth(),
                Tok::OrOr => ev && !lhs.truth(),
                _ => ev,
            };
            let rhs = self.binary(prec + 1, rhs_ev)?;
            lhs = apply(op, lhs, rhs, ev, op_span)?;
        }
        Ok(lhs)
    }

    fn unary(&mut self, ev: bool) -> Result<Val, Diagnostic> {
        let start = self.pos;
        while matches!(self.peek(), Some(Tok::Plus | Tok::Minus | Tok::Tilde | Tok::Bang)) {
            self.pos += 1;
        }
        let ops = start..self.pos;
        let mut v = self.primary(ev)?;
        for i in ops.rev() {
            v = match self.toks[i].kind {
                Tok::Minus => Val { v: v.v.wrapping_neg(), unsigned: v.unsigned },
                Tok::Tilde => Val { v: !v.v, unsigned: v.unsigned },
                Tok::Bang => Val::bool(!v.truth()),
                _ => v,
            };
        }
        Ok(v)
    }

    fn primary(&mut self, ev: bool) -> Result<Val, Diagnostic> {
        let Some(t) = self.toks.get(self.pos) else {
            return Err(err("expected value in expression", self.end_span()));
        };
        self.pos += 1;
        match t.kind {
            Tok::Number => parse_int(&t.text, t.span),
            Tok::Char => parse_char(&t.text, t.span),
            Tok::Ident => {
                if self.peek() == Some(Tok::LParen) {
                    return Err(err(format!("function-like macro '{}' is not defined", t.text), t.span));
                }
                Ok(Val::bool(&*t.text == "true"))
            }
            Tok::LParen => {
                let v = self.comma(ev)?;
                if self.peek() != Some(Tok::RParen) {
                    return Err(err("expected ')' in preprocessor expression", self.end_span()).with_label(t.span, "to match this '('"));
                }
                self.pos += 1;
                Ok(v)
            }
            Tok::Error(e) => Err(err(e.message(), t.span)),
            _ => Err(err("invalid token at start of a preprocessor expression", t.span)),
        }
    }
}

fn apply(op: Tok, a: Val, b: Val, ev: bool, span: Span) -> Result<Val, Diagnostic> {
    let unsigned = a.unsigned || b.unsigned;
    let lt = |x: Val, y: Val| if unsigned { x.v < y.v } else { (x.v as i64) < (y.v as i64) };
    Ok(match op {
        Tok::Star => Val { v: a.v.wrapping_mul(b.v), unsigned },
        Tok::Slash | Tok::Percent => {
            if b.v == 0 {
                if ev {
                    let what = if op == Tok::Slash { "division" } else { "remainder" };
                    return Err(err(format!("{what} by zero in preprocessor expression"), span));
                }
                return Ok(Val { v: 0, unsigned });
            }
            let v = match (op, unsigned) {
                (Tok::Slash, true) => a.v / b.v,
                (Tok::Slash, false) => (a.v as i64).wrapping_div(b.v as i64) as u64,
                (_, true) => a.v % b.v,
                (_, false) => (a.v as i64).wrapping_rem(b.v as i64) as u64,
            };
            Val { v, unsigned }
        }
        Tok::Plus => Val { v: a.v.wrapping_add(b.v), unsigned },
        Tok::Minus => Val { v: a.v.wrapping_sub(b.v), unsigned },
        Tok::Shl | Tok::Shr => {
            // As clang: the amount is limited to 63 (a negative amount reads as huge).
            let sh = b.v.min(63) as u32;
            let v = match (op, a.unsigned) {
                (Tok::Shl, _) => a.v << sh,
                (_, true) => a.v >> sh,
                (_, false) => ((a.v as i64) >> sh) as u64,
            };
            Val { v, unsigned: a.unsigned }
        }
        Tok::Lt => Val::bool(lt(a, b)),
        Tok::Gt => Val::bool(lt(b, a)),
        Tok::Le => Val::bool(!lt(b, a)),
        Tok::Ge => Val::bool(!lt(a, b)),
        Tok::EqEq => Val::bool(a.v == b.v),
        Tok::Ne => Val::bool(a.v != b.v),
        Tok::Amp => Val { v: a.v & b.v, unsigned },
        Tok::Caret => Val { v: a.v ^ b.v, unsigned },
        Tok::Pipe => Val { v: a.v | b.v, unsigned },
        Tok::AndAnd => Val::bool(a.truth() && b.truth()),
        Tok::OrOr => Val::bool(a.truth() || b.truth()),
        _ => return Err(err("token is not a valid binary operator in a preprocessor subexpression", span)),
    })
}

/// An integer pp-number: decimal, `0x` hex, `0b` binary or `0` octal, with `u`/`l`/`ll`
/// suffixes. A value too large for `i64` is unsigned, as in clang.
fn parse_int(text: &str, span: Span) -> Result<Val, Diagnostic> {
    let bytes = text.as_bytes();
    let (radix, start) = match bytes {
        [b'0', b'x' | b'X', ..] => (16, 2),
        [b'0', b'b' | b'B', ..] => (2, 2),
        [b'0', ..] => (8, 0),
        _ => (10, 0),
    };
    let digits_end = bytes[start..].iter().position(|b| !(*b as char).is_digit(radix)).map_or(bytes.len(), |p| p + start);
    let digits = &text[start..digits_end];
    let suffix = &text[digits_end..];
    let looks_float = text.contains('.')
        || (radix != 16 && suffix.starts_with(['e', 'E']))
        || (radix == 16 && text.contains(['p', 'P']));
    if looks_float {
        return Err(err("floating point literal in preprocessor expression", span));
    }
    if radix == 8 && suffix.starts_with(|c: char| c.is_ascii_digit()) {
        return Err(err(format!("invalid digit '{}' in octal constant", &suffix[..1]), span));
    }
    let lower = suffix.to_ascii_lowercase();
    let unsigned_suffix = match lower.as_str() {
        "" | "l" | "ll" => false,
        "u" | "ul" | "lu" | "ull" | "llu" => true,
        _ => return Err(err(format!("invalid suffix '{suffix}' on integer constant"), span)),
    };
    if digits.is_empty() && radix != 8 {
        return Err(err(format!("invalid suffix '{}' on integer constant", &text[1..]), span));
    }
    let mut v: u64 = 0;
    for c in digits.chars() {
        let d = c.to_digit(radix).unwrap_or(0) as u64;
        v = match v.checked_mul(radix as u64).and_then(|x| x.checked_add(d)) {
            Some(x) => x,
            None => return Err(err("integer literal is too large to be represented in any integer type", span)),
        };
    }
    Ok(Val { v, unsigned: unsigned_suffix || v > i64::MAX as u64 })
}

/// A character constant: its value as an `int` (one byte sign-extended as a `char`; several
/// bytes packed big-endian into 32 bits).
fn parse_char(text: &str, span: Span) -> Result<Val, Diagnostic> {
    let inner = text.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')).unwrap_or("");
    let b = inner.as_bytes();
    let mut vals: Vec<u32> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            vals.push(b[i] as u32);
            i += 1;
            continue;
        }
        i += 1;
        let Some(&c) = b.get(i) else { break };
        i += 1;
        let v = match c {
            b'n' => 10,
            b't' => 9,
            b'r' => 13,
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            b'0'..=b'7' => {
                let mut v = (c - b'0') as u32;
                let mut n = 1;
                while n < 3 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                    v = v * 8 + (b[i] - b'0') as u32;
                    i += 1;
                    n += 1;
                }
                v
            }
            b'x' => {
                let mut v: u32 = 0;
                let mut any = false;
                while i < b.len() && b[i].is_ascii_hexdigit() {
                    v = v.wrapping_mul(16).wrapping_add((b[i] as char).to_digit(16).unwrap_or(0));
                    i += 1;
                    any = true;
                }
                if !any {
                    return Err(err("\\x used with no following hex digits", span));
                }
                v
            }
            other => other as u32,
        };
        if v > 0xff {
            return Err(err("hex escape sequence out of range", span));
        }
        vals.push(v);
    }
    match vals.as_slice() {
        [] => Err(err("empty character constant", span)),
        [one] => Ok(Val::int(*one as u8 as i8 as i64)),
        many => {
            let packed = many.iter().fold(0u32, |acc, &v| (acc << 8) | v);
            Ok(Val::int(packed as i32 as i64))
        }
    }
}
