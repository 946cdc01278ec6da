//! Literal parsing: C pp-numbers into integer or float literals, string and character literals
//! with their escapes resolved.
//!
//! Integers: decimal, hex (`0x`), octal (leading `0`), with suffixes `u`, `l`, `ul`/`lu`, `ll`,
//! `ull`/`llu` in any case. Floats: `1.`, `.5`, `1.5`, `1e-3`, `1.5E+2`, with suffixes `f`, `h`,
//! `l` in any case, and the fixed-size `f16`, `f32`, `f64` (also upper case). A value that does not fit 64 bits, a float that overflows to infinity, or a
//! spelling that is no number is an error message (the caller attaches the span).

use crate::ast::{FloatSuffix, IntSuffix};

/// A parsed number.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Number {
    Int(u64, IntSuffix),
    Float(f64, FloatSuffix),
}

fn int_suffix(s: &str) -> Option<IntSuffix> {
    Some(match s.to_ascii_lowercase().as_str() {
        "" => IntSuffix::None,
        "u" => IntSuffix::U,
        "l" => IntSuffix::L,
        "ul" | "lu" => IntSuffix::UL,
        "ll" => IntSuffix::LL,
        "ull" | "llu" => IntSuffix::ULL,
        _ => return None,
    })
}

fn float_suffix(s: &str) -> Option<FloatSuffix> {
    Some(match s {
        "" => FloatSuffix::None,
        "f" | "F" => FloatSuffix::F,
        "h" | "H" => FloatSuffix::H,
        "l" | "L" => FloatSuffix::L,
        // Fixed-size suffixes (HLSL 202x; the caller warns about them in older versions and
        // checks that `f16` has native 16-bit types).
        "f16" | "F16" => FloatSuffix::H,
        "f32" | "F32" => FloatSuffix::F,
        "f64" | "F64" => FloatSuffix::L,
        _ => return None,
    })
}

/// Parses a pp-number. `Err` holds the message.
pub fn parse_number(text: &str) -> Result<Number, String> {
    let b = text.as_bytes();
    if b.len() > 2 && b[0] == b'0' && (b[1] == b'x' || b[1] == b'X') {
        let digits_end = 2 + b[2..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
        if digits_end == 2 {
            return Err(format!("invalid hexadecimal literal '{text}'"));
        }
        let suffix = int_suffix(&text[digits_end..])
            .ok_or_else(|| format!("invalid suffix '{}' on integer constant", &text[digits_end..]))?;
        let value = u64::from_str_radix(&text[2..digits_end], 16)
            .map_err(|_| "integer literal is too large to be represented in any integer type".to_string())?;
        return Ok(Number::Int(value, suffix));
    }
    if b.len() > 2 && b[0] == b'0' && (b[1] == b'b' || b[1] == b'B') {
        let digits_end = 2 + b[2..].iter().take_while(|c| matches!(c, b'0' | b'1')).count();
        if digits_end == 2 {
            return Err(format!("invalid binary literal '{text}'"));
        }
        let suffix = int_suffix(&text[digits_end..])
            .ok_or_else(|| format!("invalid suffix '{}' on integer constant", &text[digits_end..]))?;
        let value = u64::from_str_radix(&text[2..digits_end], 2)
            .map_err(|_| "integer literal is too large to be represented in any integer type".to_string())?;
        return Ok(Number::Int(value, suffix));
    }
    let int_end = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let rest = &text[int_end..];
    let is_float = rest.starts_with('.') || rest.starts_with(['e', 'E']) && exponent_len(&rest[1..]) > 0;
    if !is_float {
        if int_end == 0 {
            return Err(format!("invalid number '{text}'"));
        }
        let suffix = int_suffix(rest).ok_or_else(|| format!("invalid suffix '{rest}' on integer constant"))?;
        let digits = &text[..int_end];
        let (radix, digits) = if digits.len() > 1 && digits.starts_with('0') { (8, &digits[1..]) } else { (10, digits) };
        if radix == 8 && digits.bytes().any(|c| c > b'7') {
            return Err(format!("invalid digit in octal literal '{text}'"));
        }
        let value = u64::from_str_radix(digits, radix)
            .map_err(|_| "integer literal is too large to be represented in any integer type".to_string())?;
        return Ok(Number::Int(value, suffix));
    }
    // Float: digits [. digits] [e[+-]digits] suffix
    let mut end = int_end;
    if b.get(end) == Some(&b'.') {
        end += 1;
        end += b[end..].iter().take_while(|c| c.is_ascii_digit()).count();
    }
    if int_end == 0 && end == 1 {
        return Err(format!("invalid number '{text}'"));
    }
    if matches!(b.get(end), Some(b'e' | b'E')) {
        let n = exponent_len(&text[end + 1..]);
        if n == 0 {
            return Err(format!("exponent has no digits in '{text}'"));
        }
        end += 1 + n;
    }
    let suffix_text = &text[end..];
    let suffix = float_suffix(suffix_text).ok_or_else(|| format!("invalid suffix '{suffix_text}' on floating constant"))?;
    let value: f64 = text[..end].parse().map_err(|_| format!("invalid number '{text}'"))?;
    if value.is_infinite() {
        return Err(format!("floating-point literal '{text}' is too large"));
    }
    Ok(Number::Float(value, suffix))
}

/// The fixed-size float suffix (`f16`, `F32`, ...) that ends a float pp-number, if any.
pub fn fixed_size_suffix(text: &str) -> Option<&str> {
    let b = text.as_bytes();
    if b.len() < 4 || text.starts_with("0x") || text.starts_with("0X") {
        return None;
    }
    let suffix = &text[text.len() - 3..];
    let head = &text[..text.len() - 3];
    let float_head = head.contains('.') || head.contains(['e', 'E']);
    (float_head && matches!(suffix, "f16" | "F16" | "f32" | "F32" | "f64" | "F64")).then_some(suffix)
}

/// Splits a pp-number that ends in a swizzle (`0.xxx`, `1.0.rgba`, `2.5f.x`) into the number and the
/// swizzle name: returns `(number text, swizzle)`, where for an integer part followed by `.` the
/// number keeps the `.` (a float, as `1.` is). `None` if the spelling does not end in a swizzle.
pub fn split_swizzle(text: &str) -> Option<(&str, &str)> {
    let dot = text.rfind('.')?;
    let swz = &text[dot + 1..];
    let is_swz = |set: &str| !swz.is_empty() && swz.len() <= 4 && swz.chars().all(|c| set.contains(c));
    if !(is_swz("xyzw") || is_swz("rgba")) {
        return None;
    }
    let head = &text[..dot];
    let radix_prefixed = head.len() > 2 && head.starts_with('0') && matches!(head.as_bytes()[1], b'x' | b'X' | b'b' | b'B');
    if radix_prefixed {
        // `0x04.xxx`: a hexadecimal (or binary) integer has no fraction, so the `.` is a member access.
        return parse_number(head).ok().map(|_| (head, swz));
    }
    if head.contains('.') || head.contains(['e', 'E']) && !head.starts_with("0x") {
        parse_number(head).ok().map(|_| (head, swz))
    } else {
        let with_dot = &text[..dot + 1];
        parse_number(with_dot).ok().map(|_| (with_dot, swz))
    }
}

/// Length of `[+-]digits` at the start of `s`, or 0 if there are no digits.
fn exponent_len(s: &str) -> usize {
    let b = s.as_bytes();
    let sign = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let digits = b[sign..].iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 {
        0
    } else {
        sign + digits
    }
}

/// Resolves the escapes of a string or character literal body (without quotes).
pub fn unescape(body: &str) -> Result<String, String> {
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else { return Err("unterminated escape sequence".into()) };
        let v = match e {
            'n' => '\n',
            't' => '\t',
            'r' => '\r',
            'a' => '\x07',
            'b' => '\x08',
            'f' => '\x0c',
            'v' => '\x0b',
            '\\' | '"' | '\'' | '?' => e,
            '\n' => continue,
            'x' => {
                let mut v: u32 = 0;
                let mut n = 0;
                while let Some(d) = chars.peek().and_then(|c| c.to_digit(16)) {
                    v = v.saturating_mul(16).saturating_add(d);
                    chars.next();
                    n += 1;
                }
                if n == 0 {
                    return Err("\\x used with no following hex digits".into());
                }
                char::from_u32(v.min(0xff)).unwrap_or('\u{fffd}')
            }
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|c| c.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                char::from_u32(v.min(0xff)).unwrap_or('\u{fffd}')
            }
            // Unknown escapes keep the character, as clang does (it only warns).
            other => other,
        };
        out.push(v);
    }
    Ok(out)
}

/// A character literal's value (`'a'`, `'\n'`): the code of its single character.
pub fn char_value(text: &str) -> Result<u64, String> {
    let body = text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')).unwrap_or(text);
    let s = unescape(body)?;
    let mut it = s.chars();
    match (it.next(), it.next()) {
        (Some(c), None) => Ok(c as u64),
        (None, _) => Err("empty character constant".into()),
        _ => Err("multi-character character constant".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(s: &str) -> (u64, IntSuffix) {
        match parse_number(s) {
            Ok(Number::Int(v, k)) => (v, k),
            other => panic!("{s}: {other:?}"),
        }
    }
    fn float(s: &str) -> (f64, FloatSuffix) {
        match parse_number(s) {
            Ok(Number::Float(v, k)) => (v, k),
            other => panic!("{s}: {other:?}"),
        }
    }

    #[test]
    fn integers() {
        assert_eq!(int("0"), (0, IntSuffix::None));
        assert_eq!(int("42u"), (42, IntSuffix::U));
        assert_eq!(int("0x1F"), (31, IntSuffix::None));
        assert_eq!(int("0b101u"), (5, IntSuffix::U));
        assert_eq!(int("0xffffffffU"), (0xffff_ffff, IntSuffix::U));
        assert_eq!(int("017"), (15, IntSuffix::None));
        assert_eq!(int("7ul"), (7, IntSuffix::UL));
        assert_eq!(int("7LU"), (7, IntSuffix::UL));
        assert_eq!(int("7ll"), (7, IntSuffix::LL));
        assert_eq!(int("7ull"), (7, IntSuffix::ULL));
        assert_eq!(int("18446744073709551615"), (u64::MAX, IntSuffix::None));
    }

    #[test]
    fn floats() {
        assert_eq!(float("1."), (1.0, FloatSuffix::None));
        assert_eq!(float(".5"), (0.5, FloatSuffix::None));
        assert_eq!(float("1e-3"), (0.001, FloatSuffix::None));
        assert_eq!(float("1.5f"), (1.5, FloatSuffix::F));
        assert_eq!(float("2.h"), (2.0, FloatSuffix::H));
        assert_eq!(float("1.0L"), (1.0, FloatSuffix::L));
        assert_eq!(float("1.5E+2F"), (150.0, FloatSuffix::F));
        assert_eq!(float("3e2"), (300.0, FloatSuffix::None));
    }

    #[test]
    fn malformed_and_out_of_range() {
        for s in ["18446744073709551616", "0x1_0000_0000_0000_0000", "0x", "1.0.0", "1e", "1.5q", "09", "1z", "1e999"] {
            assert!(parse_number(s).is_err(), "{s} should be rejected");
        }
        assert!(parse_number("0x10000000000000000").unwrap_err().contains("too large"));
    }

    #[test]
    fn swizzled_literals_split() {
        assert_eq!(split_swizzle("0.xxxx"), Some(("0.", "xxxx")));
        assert_eq!(split_swizzle("1.0.xxx"), Some(("1.0", "xxx")));
        assert_eq!(split_swizzle("0.5f.rg"), Some(("0.5f", "rg")));
        assert_eq!(split_swizzle("1.5"), None);
        assert_eq!(split_swizzle("1.xyzq"), None);
        assert_eq!(split_swizzle("0x04.xxx"), Some(("0x04", "xxx")));
        assert_eq!(split_swizzle("0xE8.rg"), Some(("0xE8", "rg")));
        assert_eq!(split_swizzle("0x4g.x"), None);
    }

    #[test]
    fn escapes() {
        assert_eq!(unescape(r#"a\n\t\"\x41\101\\"#).unwrap(), "a\n\t\"AA\\");
        assert_eq!(unescape(r"\q").unwrap(), "q");
        assert_eq!(char_value("'a'").unwrap(), 97);
        assert_eq!(char_value(r"'\0'").unwrap(), 0);
        assert!(char_value("'ab'").is_err());
    }
}
