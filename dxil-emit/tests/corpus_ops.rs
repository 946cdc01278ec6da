//! Cross-checks the op table against dxc's own output: every `dx.op` call with dxc's trailing
//! comment in the CHECK lines of the DXC test corpus (`../shared/corpus/dxc`, `.hlsl` files only:
//! `.ll` files are hand-written inputs, some deliberately invalid) must agree with the table on
//! the opcode's name, its `dx.op.<class>` and its parameter names. Skipped when the corpus is not
//! present.

use hlslc_dxil::ops::DxilOp;
use std::path::{Path, PathBuf};

fn hlsl_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            hlsl_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "hlsl") {
            out.push(p);
        }
    }
}

/// `(class, opcode, comment)` from a line like
/// `call float @dx.op.unary.f32(i32 13, float %x)  ; Sin(value)`.
fn parse_call(line: &str) -> Option<(String, i64, String)> {
    let at = line.find("@dx.op.")?;
    let rest = &line[at + "@dx.op.".len()..];
    let paren = rest.find('(')?;
    let class = rest[..paren].split('.').next()?.to_string();
    let args = rest[paren + 1..].strip_prefix("i32 ")?;
    let end = args.find(|c: char| c != '-' && !c.is_ascii_digit())?;
    let opcode: i64 = args[..end].parse().ok()?;
    let semi = rest.rfind("  ; ")?;
    let comment = rest[semi + 4..].trim().to_string();
    if !comment.ends_with(')') || !comment.contains('(') || comment.contains(' ') {
        return None;
    }
    Some((class, opcode, comment))
}

#[test]
fn table_agrees_with_dxc_output_in_the_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/dxc");
    let root = if root.exists() { root } else { PathBuf::from("/work/shared/corpus/dxc") };
    if !root.exists() {
        eprintln!("DXC corpus not found; skipping");
        return;
    }
    let mut files = Vec::new();
    hlsl_files(&root, &mut files);
    let (mut checked, mut problems) = (0usize, Vec::new());
    let mut seen_ops = std::collections::BTreeSet::new();
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else { continue };
        for line in text.lines().filter(|l| l.contains("CHECK")) {
            let Some((class, opcode, comment)) = parse_call(line) else { continue };
            checked += 1;
            let Some(op) = DxilOp::from_opcode(opcode as u32) else {
                problems.push(format!("{}: unknown opcode {opcode}", f.display()));
                continue;
            };
            let info = op.info();
            seen_ops.insert(info.name);
            // Opaque (unmodelled) signatures carry no parameter names: compare the name only.
            let comment_ok = match info.signature {
                hlslc_dxil::ops::Signature::Opaque => comment.starts_with(&format!("{}(", info.name)),
                _ => info.call_comment() == comment,
            };
            if info.class != class || !comment_ok {
                problems.push(format!(
                    "{}: dxc prints {class} / {comment}, table has {} / {}",
                    f.display(),
                    info.class,
                    info.call_comment()
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{} of {checked} calls disagree:\n{}", problems.len(), problems.join("\n"));
    assert!(checked > 100, "only {checked} dx.op calls found in the corpus");
    eprintln!("{checked} dx.op calls covering {} distinct ops agree with the table", seen_ops.len());
}
