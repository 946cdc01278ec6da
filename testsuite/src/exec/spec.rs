//! The case format of execution tests: `exec/<name>.spec`, plain text, one statement per line:
//!
//! ```text
//! # a comment
//! args -fspv-target-env=vulkan1.1       # extra hlslc arguments (.hlsl shaders only)
//! dispatch 2 1 1                        # workgroups in x y z
//! buffer 0 0 storage i32 = 7 -7 7 -7    # set binding kind type = initial values
//! buffer 0 1 storage u32 = 0*4          # value*count repeats a value
//! buffer 0 2 uniform f32 = 1.5 0 0 0    # uniform buffers: the data is the std140 bytes
//! buffer 0 4 storage u32 = 1             # buffers that repeat a set and binding are the
//! buffer 0 4 storage u32 = 2             # elements of a descriptor array, in this order
//! expect 0 1 i32 = 1 -1 -1 1            # contents after the run (a prefix of the buffer; of
//!                                       # the first element of a descriptor array)
//! expect 0 3 f32 ~1e-6 = 0.5 nan        # float tolerance, relative to max(1, |expected|)
//! push u32 = 7 0 0 0                    # push-constant bytes (appended, from offset 0)
//! push address 0 1                      # the 64-bit device address of buffer 0 1 (8 bytes,
//!                                       # appended; the buffer gets SHADER_DEVICE_ADDRESS)
//! specialize 3 i32 = -5                 # specialization constant with SpecId 3 = -5
//! dxil buffer 0 2 uniform u32 = 1 0 0 0 # through DXIL, buffer 0 2 starts with these words
//!                                       # instead (dxc's DXIL layout of the same values)
//! dxil expect 0 1 f32 = 0.75            # through DXIL, this replaces the `expect` of buffer
//!                                       # 0 1 (where dxc's DXIL lowering computes other
//!                                       # values than its SPIR-V: the line says why)
//! dxil root-constants 0 0               # through DXIL, the CBV of register space 0, b0 is
//!                                       # given as root constants: the push-constant words
//! dxil push u32 = 4 0 0 0               # ... which these words replace (cbuffer packing)
//! dxil not-applicable <reason>          # the case has no DXIL meaning: the DXIL path reports
//!                                       # it as not applicable, with the reason, and runs nothing
//! ```
//!
//! Types are 32-bit: `i32`, `u32` (decimal or `0x` hex) and `f32` (`nan`, `inf`, `-inf` allowed).
//! The shader is `<name>.hlsl` (compiled with `hlslc -spirv -T cs_6_0 -E main` plus `args`) or
//! `<name>.spvasm` (assembled with `spirv-as`); entry point `main`.

use std::fmt;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Scalar {
    I32,
    U32,
    F32,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Storage,
    Uniform,
}

/// A buffer bound to the shader.
#[derive(Clone, Debug, PartialEq)]
pub struct Buffer {
    pub set: u32,
    pub binding: u32,
    pub kind: Kind,
    /// Initial contents, little-endian 32-bit words.
    pub words: Vec<u32>,
}

/// Expected contents of a buffer after the dispatch.
#[derive(Clone, Debug, PartialEq)]
pub struct Expect {
    pub set: u32,
    pub binding: u32,
    pub scalar: Scalar,
    /// Expected words (compared as `scalar`).
    pub words: Vec<u32>,
    /// For `f32`: allowed error, relative to `max(1, |expected|)`.
    pub tolerance: f32,
    /// Line of the spec, for messages.
    pub line: usize,
}

/// A parsed case.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Spec {
    pub args: Vec<String>,
    pub dispatch: [u32; 3],
    pub buffers: Vec<Buffer>,
    pub expects: Vec<Expect>,
    /// Push-constant data (words from offset 0); empty: no push-constant range.
    pub push: Vec<u32>,
    /// Specialization constants: (SpecId, 32-bit value).
    pub specialize: Vec<(u32, u32)>,
    /// Device addresses in the push constants: (index of the low word in `push`, set, binding).
    pub addresses: Vec<(usize, u32, u32)>,
    /// `dxil buffer` lines: the initial contents of a declared buffer for the DXIL path, where
    /// dxc's DXIL layout (packed structured buffers, fxc's cbuffer packing) puts the same values
    /// elsewhere than SPIR-V's.
    pub dxil_buffers: Vec<Buffer>,
    /// `dxil expect` lines: the expectation of a buffer on the DXIL path, in place of its
    /// `expect` (dxc's DXIL and SPIR-V lowerings of the same intrinsic can differ).
    pub dxil_expects: Vec<Expect>,
    /// `dxil root-constants space register`: the CBV that the DXIL path gives as root
    /// constants (dxil-spirv's `--root-constant`), holding the push-constant words.
    pub dxil_root_constants: Option<(u32, u32)>,
    /// `dxil push`: the push-constant words on the DXIL path, when the cbuffer packing of the
    /// block differs from its SPIR-V layout.
    pub dxil_push: Option<Vec<u32>>,
    /// `dxil not-applicable <reason>`: why the case has no DXIL meaning.
    pub dxil_not_applicable: Option<String>,
}

impl Spec {
    /// The spec as the DXIL path runs it: the `dxil buffer` contents in place of the buffers'.
    pub fn for_dxil(&self) -> Spec {
        let mut s = self.clone();
        for d in &self.dxil_buffers {
            if let Some(b) = s.buffers.iter_mut().find(|b| (b.set, b.binding) == (d.set, d.binding)) {
                b.words = d.words.clone();
            }
        }
        for d in &self.dxil_expects {
            if let Some(e) = s.expects.iter_mut().find(|e| (e.set, e.binding) == (d.set, d.binding)) {
                *e = d.clone();
            }
        }
        if let Some(p) = &self.dxil_push {
            s.push = p.clone();
        }
        s
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

fn scalar(s: &str) -> Result<Scalar, String> {
    match s {
        "i32" => Ok(Scalar::I32),
        "u32" => Ok(Scalar::U32),
        "f32" => Ok(Scalar::F32),
        _ => Err(format!("unknown type '{s}' (i32, u32, f32)")),
    }
}

/// One value as its bit pattern.
pub fn parse_value(ty: Scalar, s: &str) -> Result<u32, String> {
    let bad = || format!("'{s}' is not a {ty:?} value");
    match ty {
        Scalar::I32 => s.parse::<i32>().map(|v| v as u32).map_err(|_| bad()),
        Scalar::U32 => match s.strip_prefix("0x") {
            Some(h) => u32::from_str_radix(h, 16).map_err(|_| bad()),
            None => s.parse::<u32>().map_err(|_| bad()),
        },
        Scalar::F32 => match s {
            "nan" => Ok(f32::NAN.to_bits()),
            "inf" => Ok(f32::INFINITY.to_bits()),
            "-inf" => Ok(f32::NEG_INFINITY.to_bits()),
            _ => s.parse::<f32>().map(f32::to_bits).map_err(|_| bad()),
        },
    }
}

fn values(ty: Scalar, items: &[&str]) -> Result<Vec<u32>, String> {
    let mut out = Vec::new();
    for item in items {
        let (v, n) = match item.split_once('*') {
            Some((v, n)) => (v, n.parse::<usize>().map_err(|_| format!("bad repeat count in '{item}'"))?),
            None => (*item, 1),
        };
        if n > 1 << 20 {
            return Err(format!("repeat count too large in '{item}'"));
        }
        let w = parse_value(ty, v)?;
        out.extend(std::iter::repeat_n(w, n));
    }
    Ok(out)
}

fn num(s: Option<&&str>, what: &str) -> Result<u32, String> {
    s.and_then(|s| s.parse().ok()).ok_or_else(|| format!("expected {what}"))
}

pub fn parse(text: &str) -> Result<Spec, SpecError> {
    let mut spec = Spec { dispatch: [1, 1, 1], ..Default::default() };
    let mut saw_dispatch = false;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let err = |message: String| SpecError { line, message };
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        // `args` keeps its words whole: an option may be spelled `-fspv-target-env=vulkan1.3`.
        if let Some(rest) = content.strip_prefix("args").filter(|r| r.is_empty() || r.starts_with(char::is_whitespace)) {
            spec.args.extend(rest.split_whitespace().map(str::to_string));
            continue;
        }
        let (head, data) = match content.split_once('=') {
            Some((h, d)) => (h, Some(d)),
            None => (content, None),
        };
        let words: Vec<&str> = head.split_whitespace().collect();
        let data: Vec<&str> = data.map(|d| d.split_whitespace().collect()).unwrap_or_default();
        let dxil = words[0] == "dxil";
        let words = if dxil { &words[1..] } else { &words[..] };
        match (dxil, words.first()) {
            (true, Some(&"not-applicable")) => {
                let reason = content.split_once("not-applicable").map(|(_, r)| r.trim()).unwrap_or("");
                if reason.is_empty() {
                    return Err(err("dxil not-applicable takes a reason".into()));
                }
                spec.dxil_not_applicable = Some(reason.to_string());
                continue;
            }
            (true, Some(&"root-constants")) => {
                let [_, space, register] = words[..] else {
                    return Err(err("dxil root-constants takes: space register".into()));
                };
                let space = num(Some(&space), "a register space").map_err(err)?;
                let register = num(Some(&register), "a register number").map_err(err)?;
                spec.dxil_root_constants = Some((space, register));
                continue;
            }
            (true, Some(&"push")) => {
                let [_, ty] = words[..] else {
                    return Err(err("dxil push takes: type = values".into()));
                };
                let ty = scalar(ty).map_err(err)?;
                let p = spec.dxil_push.get_or_insert_with(Vec::new);
                p.extend(values(ty, &data).map_err(err)?);
                if p.len() > 32 {
                    return Err(err("more than 128 bytes of push constants".into()));
                }
                continue;
            }
            (true, Some(&"buffer" | &"expect")) | (false, _) => {}
            (true, _) => return Err(err("dxil takes: buffer ..., expect ..., root-constants space register, push type = values, or not-applicable reason".into())),
        }
        match words[0] {
            "args" => spec.args.extend(words[1..].iter().map(|s| s.to_string())),
            "dispatch" => {
                if words.len() != 4 {
                    return Err(err("dispatch takes x y z".into()));
                }
                for k in 0..3 {
                    spec.dispatch[k] = num(words.get(k + 1), "a workgroup count").map_err(err)?;
                }
                saw_dispatch = true;
            }
            "buffer" => {
                let [_, set, binding, kind, ty] = words[..] else {
                    return Err(err("buffer takes: set binding storage|uniform type = values".into()));
                };
                let kind = match kind {
                    "storage" => Kind::Storage,
                    "uniform" => Kind::Uniform,
                    k => return Err(err(format!("unknown buffer kind '{k}'"))),
                };
                let ty = scalar(ty).map_err(err)?;
                let b = Buffer {
                    set: num(Some(&set), "a set number").map_err(err)?,
                    binding: num(Some(&binding), "a binding number").map_err(err)?,
                    kind,
                    words: values(ty, &data).map_err(err)?,
                };
                if b.words.is_empty() {
                    return Err(err("a buffer needs initial values".into()));
                }
                if dxil {
                    if !spec.buffers.iter().any(|o| (o.set, o.binding, o.kind) == (b.set, b.binding, b.kind)) {
                        return Err(err(format!("dxil buffer {} {} names no buffer declared before it", b.set, b.binding)));
                    }
                    spec.dxil_buffers.push(b);
                    continue;
                }
                // A repeated binding is the next element of a descriptor array: same kind, and
                // right after the previous element.
                let same = |o: &Buffer| (o.set, o.binding) == (b.set, b.binding);
                let is_next_element = spec.buffers.last().is_some_and(|o| same(o) && o.kind == b.kind);
                if spec.buffers.iter().any(same) && !is_next_element {
                    return Err(err(format!("binding {} {} given twice (not as the next element of a descriptor array)", b.set, b.binding)));
                }
                spec.buffers.push(b);
            }
            "expect" => {
                let (tol, rest) = match words.last().and_then(|w| w.strip_prefix('~')) {
                    Some(t) => (Some(t.parse::<f32>().map_err(|_| err(format!("bad tolerance '~{t}'")))?), &words[..words.len() - 1]),
                    None => (None, &words[..]),
                };
                let [_, set, binding, ty] = rest[..] else {
                    return Err(err("expect takes: set binding type [~tolerance] = values".into()));
                };
                let scalar = scalar(ty).map_err(err)?;
                if tol.is_some() && scalar != Scalar::F32 {
                    return Err(err("a tolerance is for f32 only".into()));
                }
                let set = num(Some(&set), "a set number").map_err(err)?;
                let binding = num(Some(&binding), "a binding number").map_err(err)?;
                if dxil && !spec.expects.iter().any(|e| (e.set, e.binding) == (set, binding)) {
                    return Err(err(format!("dxil expect {set} {binding} replaces no expect line before it")));
                }
                let target = if dxil { &mut spec.dxil_expects } else { &mut spec.expects };
                target.push(Expect {
                    set,
                    binding,
                    scalar,
                    words: values(scalar, &data).map_err(err)?,
                    tolerance: tol.unwrap_or(0.0),
                    line,
                });
            }
            "push" if words.get(1) == Some(&"address") => {
                let [_, _, set, binding] = words[..] else {
                    return Err(err("push address takes: set binding".into()));
                };
                if spec.push.len() % 2 != 0 {
                    return Err(err("a device address must start at an 8-byte offset".into()));
                }
                let set = num(Some(&set), "a set number").map_err(err)?;
                let binding = num(Some(&binding), "a binding number").map_err(err)?;
                spec.addresses.push((spec.push.len(), set, binding));
                spec.push.extend([0, 0]);
                if spec.push.len() > 32 {
                    return Err(err("more than 128 bytes of push constants".into()));
                }
            }
            "push" => {
                let [_, ty] = words[..] else {
                    return Err(err("push takes: type = values".into()));
                };
                let ty = scalar(ty).map_err(err)?;
                spec.push.extend(values(ty, &data).map_err(err)?);
                if spec.push.len() > 32 {
                    return Err(err("more than 128 bytes of push constants".into()));
                }
            }
            "specialize" => {
                let [_, id, ty] = words[..] else {
                    return Err(err("specialize takes: id type = value".into()));
                };
                let id = num(Some(&id), "a SpecId").map_err(err)?;
                let ty = scalar(ty).map_err(err)?;
                let v = values(ty, &data).map_err(err)?;
                let [v] = v[..] else {
                    return Err(err("specialize takes one value".into()));
                };
                if spec.specialize.iter().any(|(i, _)| *i == id) {
                    return Err(err(format!("SpecId {id} given twice")));
                }
                spec.specialize.push((id, v));
            }
            other => return Err(err(format!("unknown statement '{other}'"))),
        }
    }
    let err = |message: &str| SpecError { line: 0, message: message.into() };
    if !saw_dispatch {
        return Err(err("no dispatch line"));
    }
    if spec.expects.is_empty() {
        return Err(err("no expect line"));
    }
    for &(_, set, binding) in &spec.addresses {
        if !spec.buffers.iter().any(|b| (b.set, b.binding) == (set, binding)) {
            return Err(err("push address names a buffer the spec does not declare"));
        }
    }
    for d in &spec.dxil_expects {
        let Some(e) = spec.expects.iter().find(|e| (e.set, e.binding) == (d.set, d.binding)) else { continue };
        if (e.scalar, e.words.len()) != (d.scalar, d.words.len()) {
            return Err(SpecError { line: d.line, message: "a dxil expect has the type and the number of values of the expect it replaces".into() });
        }
    }
    if spec.dxil_push.is_some() && spec.dxil_root_constants.is_none() {
        return Err(err("dxil push without dxil root-constants"));
    }
    for e in spec.expects.iter().chain(&spec.dxil_expects) {
        let Some(b) = spec.buffers.iter().find(|b| (b.set, b.binding) == (e.set, e.binding)) else {
            return Err(SpecError { line: e.line, message: format!("no buffer {} {}", e.set, e.binding) });
        };
        if e.words.len() > b.words.len() {
            return Err(SpecError { line: e.line, message: "more expected values than the buffer holds".into() });
        }
    }
    Ok(spec)
}

/// Compares a buffer's contents after the run with an expectation; `Err` lists the mismatches.
pub fn check(e: &Expect, actual: &[u32]) -> Result<(), String> {
    let mut bad = Vec::new();
    for (i, (&want, &got)) in e.words.iter().zip(actual).enumerate() {
        let ok = match e.scalar {
            Scalar::F32 => {
                let (w, g) = (f32::from_bits(want), f32::from_bits(got));
                (w.is_nan() && g.is_nan()) || w == g || (w - g).abs() <= e.tolerance * w.abs().max(1.0)
            }
            _ => want == got,
        };
        if !ok {
            bad.push(format!("[{i}] expected {}, got {}", show(e.scalar, want), show(e.scalar, got)));
        }
    }
    if actual.len() < e.words.len() {
        bad.push(format!("buffer has {} words, expected at least {}", actual.len(), e.words.len()));
    }
    if bad.is_empty() {
        return Ok(());
    }
    let n = bad.len();
    bad.truncate(16);
    Err(format!("buffer {} {} (spec line {}): {n} mismatch(es)\n  {}", e.set, e.binding, e.line, bad.join("\n  ")))
}

fn show(s: Scalar, w: u32) -> String {
    match s {
        Scalar::I32 => (w as i32).to_string(),
        Scalar::U32 => w.to_string(),
        Scalar::F32 => format!("{:?}", f32::from_bits(w)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_case() {
        let s = parse("dispatch 2 1 1\nargs -O0\nbuffer 0 0 storage i32 = -1 2*3 # x\nbuffer 1 0 uniform f32 = 0.5\nexpect 0 0 i32 = -1 2\nexpect 1 0 f32 ~1e-3 = 0.5\n").unwrap();
        assert_eq!(s.dispatch, [2, 1, 1]);
        assert_eq!(s.args, ["-O0"]);
        assert_eq!(s.buffers[0].words, [u32::MAX, 2, 2, 2]);
        assert_eq!(s.buffers[1].kind, Kind::Uniform);
        assert_eq!(s.expects[1].tolerance, 1e-3);
    }

    #[test]
    fn repeated_bindings_are_descriptor_arrays() {
        let s = parse("dispatch 1 1 1\nbuffer 0 2 storage u32 = 1\nbuffer 0 2 storage u32 = 2 3\nexpect 0 2 u32 = 1\n").unwrap();
        assert_eq!(s.buffers.len(), 2);
        assert_eq!(s.buffers[1].words, vec![2, 3]);
    }

    #[test]
    fn dxil_buffers_replace_contents_on_the_dxil_path_only() {
        let s = parse("dispatch 1 1 1\nbuffer 0 0 uniform u32 = 1 2 3 4\ndxil buffer 0 0 uniform u32 = 1 0 0 0 2\nbuffer 0 1 storage u32 = 0\nexpect 0 1 u32 = 0\n").unwrap();
        assert_eq!(s.buffers[0].words, [1, 2, 3, 4]);
        assert_eq!(s.for_dxil().buffers[0].words, [1, 0, 0, 0, 2]);
        assert_eq!(s.for_dxil().buffers[1].words, [0]);
        // Naming no buffer declared before it (or of another kind), or not a buffer.
        assert!(parse("dispatch 1 1 1\ndxil buffer 0 1 storage u32 = 1\nbuffer 0 1 storage u32 = 0\nexpect 0 1 u32 = 0\n").is_err());
        assert!(parse("dispatch 1 1 1\nbuffer 0 1 storage u32 = 0\ndxil buffer 0 1 uniform u32 = 1\nexpect 0 1 u32 = 0\n").is_err());
        assert!(parse("dispatch 1 1 1\nbuffer 0 1 storage u32 = 0\ndxil expect 0 1 u32 = 1\nexpect 0 1 u32 = 0\n").is_err());
    }

    #[test]
    fn dxil_lines_change_the_dxil_path_only() {
        let base = "dispatch 1 1 1\nbuffer 0 1 storage f32 = 0 0\nexpect 0 1 f32 = -0.75 1\n";
        let s = parse(&format!("{base}dxil expect 0 1 f32 = 0.75 1\n")).unwrap();
        assert_eq!(s.expects[0].words, [(-0.75f32).to_bits(), 1f32.to_bits()]);
        assert_eq!(s.for_dxil().expects[0].words, [0.75f32.to_bits(), 1f32.to_bits()]);
        // The replacement keeps the type and the number of values.
        assert!(parse(&format!("{base}dxil expect 0 1 f32 = 0.75\n")).is_err());
        assert!(parse(&format!("{base}dxil expect 0 1 u32 = 0 1\n")).is_err());
        let s = parse(&format!("push u32 = 1 2\n{base}dxil root-constants 0 3\ndxil push u32 = 1 0 0 0 2\n")).unwrap();
        assert_eq!((s.push.clone(), s.dxil_root_constants), (vec![1, 2], Some((0, 3))));
        assert_eq!(s.for_dxil().push, [1, 0, 0, 0, 2]);
        assert!(parse(&format!("{base}dxil push u32 = 1\n")).is_err(), "dxil push needs root constants");
        let s = parse(&format!("{base}dxil not-applicable DXIL has no such thing # comment\n")).unwrap();
        assert_eq!(s.dxil_not_applicable.as_deref(), Some("DXIL has no such thing"));
        assert!(parse(&format!("{base}dxil not-applicable\n")).is_err(), "a reason is required");
        assert!(parse(&format!("{base}dxil dispatch 1 1 1\n")).is_err());
    }

    #[test]
    fn push_address_reserves_two_words() {
        let s = parse("dispatch 1 1 1\npush u32 = 7 8\npush address 0 1\npush u32 = 9\nbuffer 0 1 storage u32 = 0\nexpect 0 1 u32 = 0\n").unwrap();
        assert_eq!(s.push, [7, 8, 0, 0, 9]);
        assert_eq!(s.addresses, [(2, 0, 1)]);
        // Misaligned, or naming no buffer.
        assert!(parse("dispatch 1 1 1\npush u32 = 7\npush address 0 1\nbuffer 0 1 storage u32 = 0\nexpect 0 1 u32 = 0\n").is_err());
        assert!(parse("dispatch 1 1 1\npush address 0 3\nbuffer 0 1 storage u32 = 0\nexpect 0 1 u32 = 0\n").is_err());
    }

    #[test]
    fn rejects_bad_specs() {
        for (text, line) in [
            ("dispatch 1 1\n", 1),
            ("dispatch 1 1 1\nbuffer 0 0 storage q32 = 1\n", 2),
            ("dispatch 1 1 1\nbuffer 0 0 storage u32 = -1\n", 2),
            ("dispatch 1 1 1\nbuffer 0 0 storage u32 = 1\nexpect 0 1 u32 = 1\n", 3),
            ("dispatch 1 1 1\nbuffer 0 0 storage u32 = 1\nexpect 0 0 u32 = 1 2\n", 3),
            ("dispatch 1 1 1\nbuffer 0 0 storage u32 = 1\n", 0),
            ("dispatch 1 1 1\nbuffer 0 0 storage u32 = 1\nbuffer 0 1 storage u32 = 1\nbuffer 0 0 storage u32 = 1\n", 4),
            ("dispatch 1 1 1\nbuffer 0 0 storage u32 = 1\nbuffer 0 0 uniform u32 = 1\n", 3),
        ] {
            assert_eq!(parse(text).map_err(|e| e.line), Err(line), "{text}");
        }
    }

    #[test]
    fn compares_with_tolerance() {
        let e = Expect { set: 0, binding: 0, scalar: Scalar::F32, words: vec![1.0f32.to_bits(), f32::NAN.to_bits()], tolerance: 1e-6, line: 1 };
        assert!(check(&e, &[1.0f32.to_bits(), f32::NAN.to_bits()]).is_ok());
        assert!(check(&e, &[(1.0f32 + 1e-7).to_bits(), f32::NAN.to_bits()]).is_ok());
        assert!(check(&e, &[1.001f32.to_bits(), 0]).unwrap_err().contains("2 mismatch"));
    }
}
