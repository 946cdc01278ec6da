//! The root signature language, tokenized and parsed as dxc does (`HLSLRootSignature.cpp`):
//! the same tokens (keywords case-insensitive, `t3`/`s0`/`u1`/`b2` registers, integers,
//! floats), the same defaults, and the same messages for a bad string, which the driver
//! reports as `root signature error - <message>`.
//!
//! ```text
//! RootSignature  := [Item {',' Item}] [',']
//! Item           := RootFlags(flag {'|' flag} | 0) | RootConstants(...) | CBV(...) | SRV(...)
//!                 | UAV(...) | DescriptorTable(...) | StaticSampler(...)
//! ```

use super::names::{self, lookup};
use super::*;

#[derive(Clone, Debug, PartialEq)]
enum Kind {
    Eol,
    Comma,
    LParen,
    RParen,
    Eq,
    Or,
    U32(u32),
    I32(i32),
    Float(f32),
    /// `t`, `s`, `u` or `b` and the register number.
    Reg(u8, u32),
    /// An identifier: a keyword when it spells one (case-insensitively).
    Word,
    /// Anything else (a malformed number, a stray character and the rest of the string).
    Unknown,
}

#[derive(Clone, Debug)]
struct Token {
    kind: Kind,
    text: String,
}

impl Token {
    fn is(&self, keyword: &str) -> bool {
        self.kind == Kind::Word && self.text.eq_ignore_ascii_case(keyword)
    }
}

fn is_separator(c: u8) -> bool {
    matches!(c, b',' | b'=' | b'|' | b'(' | b')' | b' ' | b'\t' | b'\n')
}

/// `_atoi64` of the leading digits (with an optional sign), saturated; `None` when there is no
/// digit at all.
fn atoi(s: &str) -> Option<i128> {
    let b = s.as_bytes();
    let (neg, start) = match b.first() {
        Some(b'-') => (true, 1),
        Some(b'+') => (false, 1),
        _ => (false, 0),
    };
    let digits: &[u8] = &b[start..b[start..].iter().position(|c| !c.is_ascii_digit()).map_or(b.len(), |p| p + start)];
    let mut v: i128 = 0;
    for &d in digits {
        v = (v * 10 + i128::from(d - b'0')).min(1 << 70);
    }
    Some(if neg { -v } else { v })
}

fn tokenize(s: &str) -> Vec<Token> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    loop {
        while i < b.len() && b[i] == b' ' {
            i += 1;
        }
        if i == b.len() {
            out.push(Token { kind: Kind::Eol, text: String::new() });
            return out;
        }
        let start = i;
        let c = b[i];
        let mut float = false;
        let mut bad = false;
        if is_separator(c) {
            i += 1;
        } else if c.is_ascii_digit() || c == b'+' || c == b'-' || c == b'.' {
            if c == b'+' || c == b'-' {
                i += 1;
            }
            let mut seen_digit = false;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
                seen_digit = true;
            }
            if i < b.len() && b[i] == b'.' {
                float = true;
                i += 1;
                if !seen_digit && !(i < b.len() && b[i].is_ascii_digit()) {
                    bad = true;
                }
                while !bad && i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                    seen_digit = true;
                }
            }
            if !seen_digit {
                bad = true;
            }
            if !bad && i < b.len() && (b[i] == b'e' || b[i] == b'E') {
                float = true;
                i += 1;
                if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
                    i += 1;
                }
                if !(i < b.len() && b[i].is_ascii_digit()) {
                    bad = true;
                }
                while !bad && i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
            }
            if !bad && i < b.len() && (b[i] == b'f' || b[i] == b'F') {
                float = true;
                i += 1;
            }
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
        } else {
            // dxc reads the rest of the string as one (unknown) token.
            i = b.len();
        }
        // Token boundaries fall on ASCII bytes, except for the rest-of-string token.
        let text = String::from_utf8_lossy(&b[start..i]).into_owned();
        let kind = classify(&text, float, bad);
        out.push(Token { kind, text });
    }
}

fn classify(text: &str, float: bool, bad: bool) -> Kind {
    let b = text.as_bytes();
    match b[0] {
        b',' => return Kind::Comma,
        b'(' => return Kind::LParen,
        b')' => return Kind::RParen,
        b'=' => return Kind::Eq,
        b'|' => return Kind::Or,
        _ => {}
    }
    let c = b[0];
    if c.is_ascii_digit() || c == b'+' || c == b'-' || c == b'.' {
        if bad {
            return Kind::Unknown;
        }
        if float {
            let t = text.trim_end_matches(['f', 'F']);
            return match t.parse::<f64>() {
                Ok(v) if v.is_finite() && v.abs() <= f64::from(f32::MAX) => Kind::Float(v as f32),
                _ => Kind::Unknown,
            };
        }
        let n = atoi(text).unwrap_or(0);
        if c == b'-' {
            return if (i128::from(i32::MIN)..=i128::from(i32::MAX)).contains(&n) { Kind::I32(n as i32) } else { Kind::Unknown };
        }
        return if (0..=i128::from(u32::MAX)).contains(&n) { Kind::U32(n as u32) } else { Kind::Unknown };
    }
    if b.len() > 1 && b[1].is_ascii_digit() && matches!(c, b't' | b's' | b'u' | b'b') {
        if let Some(n) = atoi(&text[1..]) {
            if (0..=i128::from(u32::MAX)).contains(&n) {
                return Kind::Reg(c, n as u32);
            }
        }
    }
    if c.is_ascii_alphabetic() || c == b'_' {
        return Kind::Word;
    }
    Kind::Unknown
}

type R<T> = Result<T, String>;

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    version: Version,
}

impl Parser {
    fn peek(&self) -> &Token {
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }
    fn get(&mut self) -> Token {
        let t = self.peek().clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }
    fn unexpected<T>(t: &Token) -> R<T> {
        Err(format!("Unexpected token '{}'", t.text))
    }
    fn expect(&mut self, kind: Kind) -> R<Token> {
        let t = self.get();
        if std::mem::discriminant(&t.kind) != std::mem::discriminant(&kind) {
            return Self::unexpected(&t);
        }
        Ok(t)
    }
    fn keyword(&mut self, kw: &str) -> R<()> {
        let t = self.get();
        if !t.is(kw) {
            return Self::unexpected(&t);
        }
        Ok(())
    }
    fn u32_value(&mut self) -> R<u32> {
        match self.expect(Kind::U32(0))?.kind {
            Kind::U32(n) => Ok(n),
            _ => unreachable!("expect checked the kind"),
        }
    }
    /// `name = <u32>`.
    fn assign_u32(&mut self, kw: &str) -> R<u32> {
        self.keyword(kw)?;
        self.expect(Kind::Eq)?;
        self.u32_value()
    }
    fn mark(seen: &mut bool, name: &str) -> R<()> {
        if *seen {
            return Err(format!("Parameter '{name}' can be specified only once"));
        }
        *seen = true;
        Ok(())
    }

    fn root_signature(&mut self) -> R<RootSignature> {
        let mut rs = RootSignature { version: Version::V1_1, flags: 0, params: Vec::new(), samplers: Vec::new() };
        let mut seen_flags = false;
        while self.peek().kind != Kind::Eol {
            let t = self.peek().clone();
            if t.is("RootFlags") {
                if seen_flags {
                    return Err("RootFlags cannot be specified more than once".into());
                }
                rs.flags = self.root_flags()?;
                seen_flags = true;
            } else if t.is("RootConstants") {
                rs.params.push(self.root_constants()?);
            } else if t.is("CBV") {
                rs.params.push(self.root_descriptor("CBV", b'b', PARAM_CBV)?);
            } else if t.is("SRV") {
                rs.params.push(self.root_descriptor("SRV", b't', PARAM_SRV)?);
            } else if t.is("UAV") {
                rs.params.push(self.root_descriptor("UAV", b'u', PARAM_UAV)?);
            } else if t.is("DescriptorTable") {
                rs.params.push(self.descriptor_table()?);
            } else if t.is("StaticSampler") {
                rs.samplers.push(self.static_sampler()?);
            } else {
                return Err(format!("Unexpected token '{}' when parsing root signature", t.text));
            }
            let t = self.get();
            if t.kind == Kind::Eol {
                break;
            }
            if t.kind != Kind::Comma {
                return Err(format!("Expected ',', found: '{}'", t.text));
            }
        }
        Ok(rs)
    }

    /// `flag {'|' flag}` until `end` (or `0`), for the three flag kinds.
    fn flags(&mut self, table: &[(&str, u32)], what: &str, stop_at_comma: bool) -> R<u32> {
        if let Kind::U32(n) = self.peek().kind {
            let t = self.get();
            if n != 0 {
                return Err(format!("{what} flag values can only be 0 or flag enum values, found: '{}'", t.text));
            }
            return Ok(0);
        }
        let mut flags = 0;
        loop {
            let t = self.get();
            let v = if t.kind == Kind::Word { lookup(table, &t.text) } else { None };
            match v {
                Some(v) => flags |= v,
                None => {
                    let lower = what.to_ascii_lowercase();
                    let article = if what.starts_with("Root signature") { "a root signature" } else { "a" };
                    let noun = if what.starts_with("Root signature") { "flag value".to_string() } else { format!("{} flag value", &lower) };
                    return Err(format!("Expected {article} {noun}, found: '{}'", t.text));
                }
            }
            let next = &self.peek().kind;
            if *next == Kind::RParen || (stop_at_comma && *next == Kind::Comma) {
                return Ok(flags);
            }
            self.expect(Kind::Or)?;
        }
    }

    fn root_flags(&mut self) -> R<u32> {
        self.keyword("RootFlags")?;
        self.expect(Kind::LParen)?;
        let flags = self.flags(names::ROOT_FLAGS, "Root signature", false)?;
        self.expect(Kind::RParen)?;
        Ok(flags)
    }

    /// The `, ... )` after an argument: true at `)`.
    fn after_argument(&mut self) -> R<bool> {
        let t = self.get();
        match t.kind {
            Kind::RParen => Ok(true),
            Kind::Comma => Ok(false),
            _ => Self::unexpected(&t),
        }
    }

    fn register(&mut self, want: u8) -> R<u32> {
        let t = self.get();
        let Kind::Reg(letter, n) = t.kind else {
            return Err(format!("Expected a register token (CBV, SRV, UAV, Sampler), found: '{}'", t.text));
        };
        if letter != want {
            let (what, reg) = match want {
                b'b' => ("CBV", "b#"),
                b't' => ("SRV", "t#"),
                b'u' => ("UAV", "u#"),
                _ => ("Sampler/StaticSampler", "s#"),
            };
            return Err(format!("Incorrect register type '{}' in {what} (expected {reg})", t.text));
        }
        Ok(n)
    }

    fn visibility(&mut self) -> R<u32> {
        self.keyword("visibility")?;
        self.expect(Kind::Eq)?;
        let t = self.get();
        match (t.kind == Kind::Word).then(|| lookup(names::VISIBILITY, &t.text)).flatten() {
            Some(v) => Ok(v),
            None => Err(format!("Unexpected visibility value: '{}'.", t.text)),
        }
    }

    fn root_constants(&mut self) -> R<Param> {
        self.keyword("RootConstants")?;
        self.expect(Kind::LParen)?;
        let (mut num, mut reg, mut space, mut vis) = (0, 0, 0, 0);
        let (mut s_num, mut s_reg, mut s_space, mut s_vis) = (false, false, false, false);
        loop {
            let t = self.peek().clone();
            if t.is("num32BitConstants") {
                Self::mark(&mut s_num, "num32BitConstants")?;
                num = self.assign_u32("num32BitConstants")?;
            } else if matches!(t.kind, Kind::Reg(b'b', _)) {
                Self::mark(&mut s_reg, "cbuffer register b#")?;
                reg = self.register(b'b')?;
            } else if t.is("space") {
                Self::mark(&mut s_space, "space")?;
                space = self.assign_u32("space")?;
            } else if t.is("visibility") {
                Self::mark(&mut s_vis, "visibility")?;
                vis = self.visibility()?;
            } else {
                return Self::unexpected(&t);
            }
            if self.after_argument()? {
                break;
            }
        }
        if !s_num {
            return Err("num32BitConstants must be defined for each RootConstants".into());
        }
        if !s_reg {
            return Err("Constant buffer register b# must be defined for each RootConstants".into());
        }
        Ok(Param { visibility: vis, kind: ParamKind::Constants { register: reg, space, num_values: num } })
    }

    fn version_allows_flags(&self, what: &str) -> R<()> {
        if self.version == Version::V1_0 {
            return Err(format!("{what} flags cannot be specified for root_sig_1_0"));
        }
        Ok(())
    }

    fn root_descriptor(&mut self, kw: &str, letter: u8, ty: u32) -> R<Param> {
        self.keyword(kw)?;
        self.expect(Kind::LParen)?;
        let (mut reg, mut space, mut flags, mut vis) = (0, 0, 0, 0);
        let (mut s_reg, mut s_flags, mut s_space, mut s_vis) = (false, false, false, false);
        loop {
            let t = self.peek().clone();
            if matches!(t.kind, Kind::Reg(l, _) if l != b's') {
                Self::mark(&mut s_reg, "shader register")?;
                reg = self.register(letter)?;
            } else if t.is("flags") {
                Self::mark(&mut s_flags, "flags")?;
                self.version_allows_flags("Root descriptor")?;
                self.keyword("flags")?;
                self.expect(Kind::Eq)?;
                flags = self.flags(names::DESCRIPTOR_FLAGS, "Root descriptor", true)?;
            } else if t.is("space") {
                Self::mark(&mut s_space, "space")?;
                space = self.assign_u32("space")?;
            } else if t.is("visibility") {
                Self::mark(&mut s_vis, "visibility")?;
                vis = self.visibility()?;
            } else {
                return Self::unexpected(&t);
            }
            if self.after_argument()? {
                break;
            }
        }
        if !s_reg {
            return Err("shader register must be defined for each CBV/SRV/UAV".into());
        }
        Ok(Param { visibility: vis, kind: ParamKind::Descriptor { ty, register: reg, space, flags } })
    }

    fn descriptor_table(&mut self) -> R<Param> {
        self.keyword("DescriptorTable")?;
        self.expect(Kind::LParen)?;
        let mut ranges = Vec::new();
        let (mut vis, mut s_vis) = (0, false);
        loop {
            let t = self.peek().clone();
            if t.is("CBV") {
                ranges.push(self.range("CBV", b'b', RANGE_CBV)?);
            } else if t.is("SRV") {
                ranges.push(self.range("SRV", b't', RANGE_SRV)?);
            } else if t.is("UAV") {
                ranges.push(self.range("UAV", b'u', RANGE_UAV)?);
            } else if t.is("Sampler") {
                ranges.push(self.range("Sampler", b's', RANGE_SAMPLER)?);
            } else if t.is("visibility") {
                Self::mark(&mut s_vis, "visibility")?;
                vis = self.visibility()?;
            } else {
                return Self::unexpected(&t);
            }
            if self.after_argument()? {
                break;
            }
        }
        Ok(Param { visibility: vis, kind: ParamKind::Table(ranges) })
    }

    fn range(&mut self, kw: &str, letter: u8, ty: u32) -> R<Range> {
        self.keyword(kw)?;
        self.expect(Kind::LParen)?;
        let mut r = Range { ty, num_descriptors: 1, base_register: 0, space: 0, flags: 0, offset: OFFSET_APPEND };
        let (mut s_reg, mut s_num, mut s_space, mut s_flags, mut s_offset) = (false, false, false, false, false);
        loop {
            let t = self.peek().clone();
            if matches!(t.kind, Kind::Reg(..)) {
                Self::mark(&mut s_reg, "shader register")?;
                r.base_register = self.register(letter)?;
            } else if t.is("numDescriptors") {
                Self::mark(&mut s_num, "numDescriptors")?;
                self.keyword("numDescriptors")?;
                self.expect(Kind::Eq)?;
                r.num_descriptors = if self.peek().is("unbounded") {
                    self.get();
                    UNBOUNDED
                } else {
                    self.u32_value()?
                };
            } else if t.is("space") {
                Self::mark(&mut s_space, "space")?;
                r.space = self.assign_u32("space")?;
            } else if t.is("flags") {
                Self::mark(&mut s_flags, "flags")?;
                self.version_allows_flags("Descriptor range")?;
                self.keyword("flags")?;
                self.expect(Kind::Eq)?;
                r.flags = self.flags(names::RANGE_FLAGS, "Descriptor range", true)?;
            } else if t.is("offset") {
                Self::mark(&mut s_offset, "offset")?;
                self.keyword("offset")?;
                self.expect(Kind::Eq)?;
                r.offset = if self.peek().is("DESCRIPTOR_RANGE_OFFSET_APPEND") {
                    self.get();
                    OFFSET_APPEND
                } else {
                    self.u32_value()?
                };
            } else {
                return Self::unexpected(&t);
            }
            if self.after_argument()? {
                break;
            }
        }
        if !s_reg {
            return Err("shader register must be defined for each CBV/SRV/UAV".into());
        }
        Ok(r)
    }

    fn float(&mut self) -> R<f32> {
        let t = self.get();
        match t.kind {
            Kind::U32(n) => Ok(n as f32),
            Kind::I32(n) => Ok(n as f32),
            Kind::Float(v) => Ok(v),
            _ => Err(format!("Expected float, found token '{}'", t.text)),
        }
    }

    /// `kw = VALUE` where VALUE is a keyword of `table`; `what` names it in the error.
    fn enum_value(&mut self, kw: &str, table: &[(&str, u32)], what: &str) -> R<u32> {
        self.keyword(kw)?;
        self.expect(Kind::Eq)?;
        let t = self.get();
        match (t.kind == Kind::Word).then(|| lookup(table, &t.text)).flatten() {
            Some(v) => Ok(v),
            None => Err(format!("Unexpected {what} value: '{}'.", t.text)),
        }
    }

    fn static_sampler(&mut self) -> R<StaticSampler> {
        self.keyword("StaticSampler")?;
        self.expect(Kind::LParen)?;
        let mut s = StaticSampler::new();
        let mut seen = [false; 13];
        // dxc reports a bad comparison function or border color as a texture address mode.
        const ADDR: &str = "texture address mode";
        loop {
            let t = self.peek().clone();
            let which = [
                "filter",
                "addressU",
                "addressV",
                "addressW",
                "mipLODBias",
                "maxAnisotropy",
                "comparisonFunc",
                "borderColor",
                "minLOD",
                "maxLOD",
                "space",
                "visibility",
            ]
            .iter()
            .position(|k| t.is(k));
            match which {
                Some(i) => {
                    let name = ["filter", "addressU", "addressV", "addressW", "mipLODBias", "maxAnisotropy", "comparisonFunc", "borderColor", "minLOD", "maxLOD", "space", "visibility"][i];
                    Self::mark(&mut seen[i], name)?;
                    match i {
                        0 => s.filter = self.enum_value(name, names::FILTERS, "filter")?,
                        1 => s.address_u = self.enum_value(name, names::ADDRESS_MODES, ADDR)?,
                        2 => s.address_v = self.enum_value(name, names::ADDRESS_MODES, ADDR)?,
                        3 => s.address_w = self.enum_value(name, names::ADDRESS_MODES, ADDR)?,
                        4 => {
                            self.keyword(name)?;
                            self.expect(Kind::Eq)?;
                            s.mip_lod_bias = self.float()?;
                        }
                        5 => s.max_anisotropy = self.assign_u32(name)?,
                        6 => s.comparison_func = self.enum_value(name, names::COMPARISONS, ADDR)?,
                        7 => s.border_color = self.enum_value(name, names::BORDER_COLORS, ADDR)?,
                        8 | 9 => {
                            self.keyword(name)?;
                            self.expect(Kind::Eq)?;
                            let v = self.float()?;
                            if i == 8 {
                                s.min_lod = v;
                            } else {
                                s.max_lod = v;
                            }
                        }
                        10 => s.space = self.assign_u32(name)?,
                        _ => s.visibility = self.visibility()?,
                    }
                }
                None if matches!(t.kind, Kind::Reg(b's', _)) => {
                    Self::mark(&mut seen[12], "sampler register s#")?;
                    s.register = self.register(b's')?;
                }
                None => return Self::unexpected(&t),
            }
            if self.after_argument()? {
                break;
            }
        }
        if !seen[12] {
            return Err("Sampler register s# must be defined for each static sampler".into());
        }
        Ok(s)
    }
}

/// Parses a root signature string for `version`. The error is dxc's message (without the
/// `root signature error - ` prefix the driver adds).
pub fn parse(text: &str, version: Version) -> Result<RootSignature, String> {
    let mut p = Parser { toks: tokenize(text), pos: 0, version };
    let mut rs = p.root_signature()?;
    // Parsed as 1.1, converted down: 1.0 has no descriptor or range flags (the parser refused
    // any written ones).
    rs.version = version;
    if version == Version::V1_0 {
        for p in &mut rs.params {
            match &mut p.kind {
                ParamKind::Table(ranges) => ranges.iter_mut().for_each(|r| r.flags = 0),
                ParamKind::Descriptor { flags, .. } => *flags = 0,
                ParamKind::Constants { .. } => {}
            }
        }
    }
    Ok(rs)
}
