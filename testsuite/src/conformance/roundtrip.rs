//! Round-trip mode: does hlslc's DXIL bitcode say what its DXIL text says?
//!
//! Of a positive file every hlslc command that compiles source to DXIL runs with its output
//! options replaced by `-Fo <tmp>.dxil -Fc <tmp>.ll`. The bitcode is taken out of the object file
//! (the `DXIL` part of a DXContainer, its `ILDB` part with `-Zi`, or bare bitcode), `llvm-dis`
//! (LLVM 14, which still reads LLVM 3.7 bitcode) turns it back into text, and that text must
//! equal hlslc's listing once both are [`normalize`]d (with `-Zi`, LLVM 14's reading of 3.7's
//! debug metadata is applied to the listing: see [`debug_upgrade`]). With `-Zi` the `DXIL` part
//! must also equal the listing without its debug information.
//!
//! Outcomes: `Pass` = every module round-trips; `Fail` = `llvm-dis` rejected the bitcode, the
//! object file holds no bitcode, or the texts differ (the detail names the first differing
//! line); `NotCompiled` = hlslc refused a command; `Unsupported` = no command compiles to DXIL,
//! or `llvm-dis` is not installed; `Crash`/`Timeout` as usual.

use super::assemble::assemble_args;
use super::debug_upgrade;
use super::run::{command_line, compile, first_error};
use super::script::{Paths, Stage, Tool};
use super::syntax::positive_compiles;
use super::{Config, Outcome};
use crate::process::{self, Spawn};
use std::collections::{BTreeSet, HashMap};
use std::path::Path;

/// The bitcode of an object file: the program of its `ILDB` part (the module with its debug
/// information, `-Zi`) or else of its `DXIL` part when it is a DXContainer (`DXBC` header, part
/// table, DXIL program header), the file itself when it is bare bitcode.
pub fn bitcode_of(object: &[u8]) -> Result<&[u8], String> {
    bitcode_part(object, b"ILDB").or_else(|_| bitcode_part(object, b"DXIL"))
}

/// The program of part `fourcc` (`DXIL` or `ILDB`, both a program header and bitcode).
fn bitcode_part<'a>(object: &'a [u8], fourcc: &[u8; 4]) -> Result<&'a [u8], String> {
    if object.starts_with(b"BC\xC0\xDE") {
        return Ok(object);
    }
    if !object.starts_with(b"DXBC") {
        return Err("neither a DXContainer nor bitcode".into());
    }
    let u32_at = |at: usize| -> Result<u32, String> {
        object.get(at..at + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).ok_or_else(|| format!("container ends at offset {at}"))
    };
    let parts = u32_at(28)? as usize;
    for i in 0..parts {
        let part = u32_at(32 + 4 * i)? as usize;
        if object.get(part..part + 4) != Some(&fourcc[..]) {
            continue;
        }
        let size = u32_at(part + 4)? as usize;
        let data = part + 8;
        // Program header: version, size in words, then the bitcode header ('DXIL', DXIL version,
        // bitcode offset from the bitcode header, bitcode size).
        let header = data + 8;
        if object.get(header..header + 4) != Some(b"DXIL") {
            return Err(format!("{} part at offset {part}: no 'DXIL' bitcode header at offset {header}", String::from_utf8_lossy(fourcc)));
        }
        let offset = u32_at(header + 8)? as usize;
        let len = u32_at(header + 12)? as usize;
        let start = header + offset;
        if start + len > data + size || start + len > object.len() {
            return Err(format!("{} part at offset {part}: bitcode at {start} (+{len}) runs past the part", String::from_utf8_lossy(fourcc)));
        }
        return Ok(&object[start..start + len]);
    }
    Err(format!("the container has no {} part", String::from_utf8_lossy(fourcc)))
}

/// A module's text reduced to what bitcode keeps: comments, blank lines and `source_filename`
/// dropped; unnamed block labels (`7:`, which LLVM 14 prints and 3.7 writes as a comment)
/// dropped; attributes of an attribute group sorted (their order follows each LLVM's attribute
/// enum); the `align` LLVM 14 adds to `atomicrmw`/`cmpxchg` dropped; local value and block
/// names renamed in order of appearance in each function; and the named struct definitions
/// taken as a set of those the module uses (`llvm-dis` prints only used types, in use order).
#[derive(Debug, PartialEq, Eq)]
pub struct Normalized {
    pub types: BTreeSet<String>,
    pub lines: Vec<String>,
}

fn strip_comment(line: &str) -> &str {
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => return line[..i].trim_end(),
            _ => {}
        }
    }
    line.trim_end()
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '$')
}

/// The `%name` / `%"quoted"` token at the start of `s` (which starts with `%`), and its length.
fn percent_token(s: &str) -> Option<usize> {
    let rest = &s[1..];
    if let Some(q) = rest.strip_prefix('"') {
        return q.find('"').map(|end| end + 3);
    }
    let len = rest.chars().take_while(|c| is_name_char(*c)).map(char::len_utf8).sum::<usize>();
    (len > 0).then_some(len + 1)
}

/// Renames the local `%` names of a function's lines (type names excepted) to `%vN`.
fn rename_locals(line: &str, types: &BTreeSet<String>, names: &mut HashMap<String, String>) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    let mut quoted = false;
    while let Some(c) = rest.chars().next() {
        if c == '"' {
            quoted = !quoted;
        }
        if c == '%' && !quoted {
            if let Some(len) = percent_token(rest) {
                let token = &rest[..len];
                if types.contains(token) {
                    out.push_str(token);
                } else {
                    let n = names.len();
                    out.push_str(names.entry(token.to_string()).or_insert_with(|| format!("%v{n}")));
                }
                rest = &rest[len..];
                continue;
            }
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// Float literals in one spelling: LLVM 3.7 (and dxc) print a float as `%e` (`5.078125e-01`)
/// when that reads back exactly, LLVM 14 only when 6 significant digits do, else both print the
/// double's bits (`0x3FE0400000000000`). Every `%e` literal becomes its hexadecimal form.
fn canonical_floats(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut quoted = false;
    let mut i = 0;
    let bytes = line.as_bytes();
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'"' {
            quoted = !quoted;
        }
        let starts_token = i == 0 || matches!(bytes[i - 1], b' ' | b'(' | b'[' | b'<' | b',');
        if !quoted && starts_token && (c == b'-' || c.is_ascii_digit()) {
            let end = line[i..].find(|ch: char| matches!(ch, ' ' | ',' | ')' | ']' | '>' | '}')).map_or(line.len(), |e| i + e);
            let token = &line[i..end];
            if token.contains('e') && token.contains('.') && !token.contains('x') {
                if let Ok(v) = token.parse::<f64>() {
                    out.push_str(&format!("0x{:016X}", v.to_bits()));
                    i = end;
                    continue;
                }
            }
        }
        let ch = line[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

fn sort_attribute_group(line: &str) -> Option<String> {
    let (head, body) = line.split_once(" = { ")?;
    if !head.starts_with("attributes #") {
        return None;
    }
    let body = body.strip_suffix(" }")?;
    let mut words: Vec<&str> = body.split(' ').collect();
    words.sort_unstable();
    Some(format!("{head} = {{ {} }}", words.join(" ")))
}

pub fn normalize(text: &str) -> Normalized {
    let mut lines: Vec<String> = Vec::new();
    let mut type_defs: Vec<(String, String)> = Vec::new();
    for raw in text.lines() {
        let line = strip_comment(raw);
        if line.trim().is_empty() || line.starts_with("source_filename") {
            continue;
        }
        if let Some(label) = line.strip_suffix(':') {
            if !label.is_empty() && label.chars().all(|c| c.is_ascii_digit()) {
                continue;
            }
        }
        if line.starts_with('%') {
            if let Some((name, _)) = line.split_once(" = type ") {
                type_defs.push((name.to_string(), line.to_string()));
                continue;
            }
        }
        let mut line = sort_attribute_group(line).unwrap_or_else(|| canonical_floats(line));
        if line.contains("atomicrmw ") || line.contains("cmpxchg ") {
            if let Some(at) = line.rfind(", align ") {
                if line[at + 8..].chars().all(|c| c.is_ascii_digit()) {
                    line.truncate(at);
                }
            }
        }
        lines.push(line);
    }
    // `-Zi`: LLVM 14 reads 3.7's debug metadata in its own form (see `debug_upgrade`).
    let lines: Vec<String> = debug_upgrade::upgrade(&lines.join("\n")).lines().map(debug_upgrade::backslashes).collect();
    let type_names: BTreeSet<String> = type_defs.iter().map(|(n, _)| n.clone()).collect();
    // Local names: per function, from `define` to the closing `}`; a named label `x:` is `%x`.
    let mut out = Vec::with_capacity(lines.len());
    let mut names: Option<HashMap<String, String>> = None;
    for line in lines {
        if line.starts_with("define ") {
            names = Some(HashMap::new());
        }
        let renamed = match names.as_mut() {
            Some(map) if !line.starts_with("define ") && !line.starts_with(' ') && line.ends_with(':') => {
                let label = format!("%{}", &line[..line.len() - 1]);
                format!("{}:", rename_locals(&label, &type_names, map))
            }
            Some(map) => {
                // The `@name` of the define line is global; only `%` tokens are renamed.
                rename_locals(&line, &type_names, map)
            }
            None => line.clone(),
        };
        if line == "}" {
            names = None;
        }
        out.push(renamed);
    }
    // Named struct definitions the rest of the module (or another used definition) refers to.
    let body = out.join("\n");
    let mut used: BTreeSet<String> = BTreeSet::new();
    let mut changed = true;
    while changed {
        changed = false;
        for (name, def) in &type_defs {
            if used.contains(def) {
                continue;
            }
            let referenced = mentions(&body, name) || type_defs.iter().any(|(n, d)| n != name && used.contains(d) && mentions(d.split_once(" = type ").map_or("", |x| x.1), name));
            if referenced {
                used.insert(def.clone());
                changed = true;
            }
        }
    }
    Normalized { types: used, lines: debug_upgrade::renumber(out) }
}

/// `true` if `text` contains the type name `name` as a whole token.
fn mentions(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(i, _)| !text[i + name.len()..].starts_with(is_name_char))
}

/// Why two normalized texts differ (`None`: they do not).
pub fn difference(ours: &Normalized, theirs: &Normalized) -> Option<String> {
    if ours.types != theirs.types {
        let only_ours = ours.types.difference(&theirs.types).next().cloned().unwrap_or_default();
        let only_theirs = theirs.types.difference(&ours.types).next().cloned().unwrap_or_default();
        return Some(format!("type definitions differ: hlslc `{only_ours}`, llvm-dis `{only_theirs}`"));
    }
    for (i, (a, b)) in ours.lines.iter().zip(&theirs.lines).enumerate() {
        if a != b {
            return Some(format!("line {}: hlslc `{}`, llvm-dis `{}`", i + 1, a.trim(), b.trim()));
        }
    }
    if ours.lines.len() != theirs.lines.len() {
        let (n, m) = (ours.lines.len(), theirs.lines.len());
        let extra = if n > m { &ours.lines[m] } else { &theirs.lines[n] };
        return Some(format!("{n} lines from hlslc, {m} from llvm-dis; first extra: `{}`", extra.trim()));
    }
    None
}

pub(super) fn run_roundtrip(pipelines: &[Vec<Stage>], paths: &Paths, cfg: &Config, tmp: &Path) -> (Outcome, String) {
    let compiles = match positive_compiles(pipelines) {
        Ok(c) => c,
        Err(negative) => return negative,
    };
    let Some(llvm_dis) = crate::tools::llvm_dis() else {
        return (Outcome::Unsupported, "llvm-dis (LLVM 14) not found".into());
    };
    let object = tmp.join("roundtrip.dxil");
    let listing = tmp.join("roundtrip.ll");
    let bitcode = tmp.join("roundtrip.bc");
    let mut ran = 0;
    for s in compiles {
        let Some(mut args) = assemble_args(&s.args, paths) else { continue };
        args.extend(["-Fo".to_string(), object.display().to_string(), "-Fc".to_string(), listing.display().to_string()]);
        let stage = Stage { nots: 0, tool: Tool::Hlslc, args, merge_stderr: false, stdin_file: None, stdout_file: None };
        let _ = std::fs::remove_file(&object);
        let _ = std::fs::remove_file(&listing);
        if let Err(bad) = compile(&stage, cfg, tmp) {
            return bad;
        }
        let (Ok(obj), Ok(text)) = (std::fs::read(&object), std::fs::read_to_string(&listing)) else {
            return (Outcome::Fail, format!("no object file or listing written\n  {}", command_line(&stage)));
        };
        let bc = match bitcode_of(&obj) {
            Ok(bc) => bc,
            Err(e) => return (Outcome::Fail, format!("object file: {e}\n  {}", command_line(&stage))),
        };
        // With `-Zi` the `ILDB` part holds the listing's module and the `DXIL` part the same
        // module without its debug information: both are read back.
        let mut checks = vec![(bc, text.clone(), "")];
        if let (Ok(_), Ok(stripped)) = (bitcode_part(&obj, b"ILDB"), bitcode_part(&obj, b"DXIL")) {
            checks.push((stripped, debug_upgrade::strip_debug(&text), " (DXIL part, without debug information)"));
        }
        for (bc, ours, which) in checks {
            if std::fs::write(&bitcode, bc).is_err() {
                return (Outcome::Fail, "cannot write the bitcode to the temporary folder".into());
            }
            let dargs = vec!["-o".to_string(), "-".to_string(), bitcode.display().to_string()];
            let d = process::run(&Spawn { program: &llvm_dis, args: &dargs, cwd: Some(tmp), merge_stderr: false, timeout: Some(cfg.timeout), ..Default::default() });
            if !d.exit.success() {
                let err = String::from_utf8_lossy(&d.stderr);
                return (Outcome::Fail, format!("llvm-dis{which}: {}\n  {}", first_error(&err), command_line(&stage)));
            }
            let theirs = String::from_utf8_lossy(&d.stdout);
            if let Some(diff) = difference(&normalize(&ours), &normalize(&theirs)) {
                return (Outcome::Fail, format!("{diff}{which}\n  {}", command_line(&stage)));
            }
        }
        ran += 1;
    }
    if ran == 0 {
        return (Outcome::Unsupported, "no hlslc command that compiles source to DXIL".into());
    }
    (Outcome::Pass, String::new())
}

/// The kind of a round-trip failure, with positions and names blanked.
pub fn error_kind(detail: &str) -> String {
    let first = detail.lines().next().unwrap_or("");
    super::run::blank_names(first.split_once(", llvm-dis").map_or(first, |x| x.0), true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_labels_and_local_names_do_not_count() {
        let ours = "; hello\ntarget triple = \"dxil-ms-dx\"\n\n%T = type { i32 }\n%U = type { float }\n\ndefine void @main(i32 %a) #0 {\n  %x = add i32 %a, 1\n  br label %next\n\n; <label>:2\nnext:\n  ret void   ; done\n}\n\nattributes #0 = { nounwind readnone }\n!0 = !{!\"a;b\", %T* undef}\n";
        let theirs = "; ModuleID = 'x'\nsource_filename = \"x\"\ntarget triple = \"dxil-ms-dx\"\n\n%T = type { i32 }\n\ndefine void @main(i32 %0) #0 {\n  %2 = add i32 %0, 1\n  br label %3\n\n3:\n  ret void\n}\n\nattributes #0 = { readnone nounwind }\n!0 = !{!\"a;b\", %T* undef}\n";
        let (a, b) = (normalize(ours), normalize(theirs));
        assert_eq!(difference(&a, &b).map(|_| ()), Some(()), "a named label is not an unnamed one");
        let theirs = theirs.replace("br label %3\n\n3:", "br label %next\n\nnext:");
        assert_eq!(difference(&a, &normalize(&theirs)), None);
        assert!(a.lines.contains(&"!0 = !{!\"a;b\", %T* undef}".to_string()), "a ';' inside a string is text: {:?}", a.lines);
        assert_eq!(a.types.len(), 1, "the unused %U is not compared: {:?}", a.types);
    }

    #[test]
    fn floats_compare_by_value() {
        let a = normalize("define void @f() {\n  %1 = fmul fast float 5.078125e-01, %0\n  ret void\n}\n");
        let b = normalize("define void @f() {\n  %1 = fmul fast float 0x3FE0400000000000, %0\n  ret void\n}\n");
        assert_eq!(difference(&a, &b), None);
        let c = normalize("define void @f() {\n  %1 = fmul fast float 5.078126e-01, %0\n  ret void\n}\n");
        assert!(difference(&a, &c).is_some());
        assert_eq!(canonical_floats("!{!\"1.0e+00\", i32 -1, float -0.000000e+00}"), "!{!\"1.0e+00\", i32 -1, float 0x8000000000000000}");
    }

    #[test]
    fn real_differences_are_reported() {
        let a = normalize("define void @f() {\n  %1 = fadd fast float 1.0, 2.0\n  ret void\n}\n");
        let b = normalize("define void @f() {\n  %1 = fadd float 1.0, 2.0\n  ret void\n}\n");
        let d = difference(&a, &b).expect("a dropped flag differs");
        assert!(d.contains("fadd fast"), "{d}");
        let c = normalize("%S = type { i32 }\ndefine void @f(%S* %p) {\n  ret void\n}\n");
        let e = normalize("%S = type { float }\ndefine void @f(%S* %p) {\n  ret void\n}\n");
        assert!(difference(&c, &e).unwrap().contains("type definitions"));
    }

    #[test]
    fn bitcode_comes_out_of_a_container() {
        let bc = b"BC\xC0\xDEabcd";
        assert_eq!(bitcode_of(bc).unwrap(), bc);
        // DXBC header (32 bytes + 1 part offset), then a DXIL part: program header and bitcode.
        let mut c = b"DXBC".to_vec();
        c.extend([0u8; 16]);
        c.extend(1u32.to_le_bytes()); // version
        c.extend(0u32.to_le_bytes()); // total size (not checked here)
        c.extend(1u32.to_le_bytes()); // one part
        c.extend(36u32.to_le_bytes()); // at offset 36
        c.extend(b"DXIL");
        c.extend((24u32 + bc.len() as u32).to_le_bytes());
        c.extend(0x60u32.to_le_bytes()); // ps_6_0
        c.extend(((24 + bc.len()) as u32 / 4).to_le_bytes());
        c.extend(b"DXIL");
        c.extend(0x100u32.to_le_bytes());
        c.extend(16u32.to_le_bytes()); // bitcode right after the 16-byte bitcode header
        c.extend((bc.len() as u32).to_le_bytes());
        c.extend(bc);
        assert_eq!(bitcode_of(&c).unwrap(), bc);
        assert!(bitcode_of(&c[..50]).is_err());
        assert!(bitcode_of(b"nothing").is_err());
    }

    #[test]
    fn dxc_container_yields_its_bitcode() {
        let path = crate::repo_root().join("../shared/tools/dxil-spirv/src/shaders/asm/control-flow-multi-break-with-non-idom-loop-header.dxil");
        let Ok(bytes) = std::fs::read(&path) else {
            println!("{} not found, skipped", path.display());
            return;
        };
        let bc = bitcode_of(&bytes).expect("dxc's container has a DXIL part");
        assert!(bc.starts_with(b"BC\xC0\xDE"));
    }
}
