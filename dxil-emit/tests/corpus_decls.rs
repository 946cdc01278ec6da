//! Cross-checks generated `dx.op` declarations against the ones dxc wrote in the DXC test corpus:
//! for every `declare <ret> @dx.op.<class>.<suffix>(<params>) #N` with its `attributes #N`
//! group in the same file, some op of that class must produce exactly that function type and
//! those attributes. Inputs of optimizer pass tests (`passes/` directories) are skipped: they are
//! hand-written IR with ad-hoc attributes, not dxc output. Skipped when the corpus is not present.

use hlslc_dxil::ir::Module;
use hlslc_dxil::ops::{sig, DxilVersion, Overload, ScalarKind, Signature, OP_TABLE};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n == "passes") {
                continue;
            }
            files(&p, out);
        } else if p.extension().is_some_and(|e| e == "ll" || e == "hlsl") {
            out.push(p);
        }
    }
}

fn scalar(s: &str) -> Option<ScalarKind> {
    ScalarKind::ALL.into_iter().find(|k| k.suffix() == s)
}

/// The overload a `dx.op` name suffix denotes; `None` for user structs (not checked here).
fn overload_from_suffix(m: &mut Module, suffix: Option<&str>) -> Option<Overload> {
    let Some(s) = suffix else { return Some(Overload::None) };
    if let Some(k) = scalar(s) {
        return Some(Overload::Scalar(k));
    }
    if let Some(rest) = s.strip_prefix('v') {
        let split = rest.find(|c: char| !c.is_ascii_digit())?;
        let n: u32 = rest[..split].parse().ok()?;
        return Some(Overload::Vector(scalar(&rest[split..])?, n));
    }
    if s.starts_with("dx.types.") {
        let t = m.types.named_struct(s, None);
        return Some(Overload::Object(t));
    }
    None
}

#[test]
fn declarations_agree_with_dxc_output_in_the_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/dxc");
    let root = if root.exists() { root } else { PathBuf::from("/work/shared/corpus/dxc") };
    if !root.exists() {
        eprintln!("DXC corpus not found; skipping");
        return;
    }
    let mut list = Vec::new();
    files(&root, &mut list);
    let (mut checked, mut problems) = (0usize, Vec::new());
    for f in &list {
        let Ok(text) = std::fs::read_to_string(f) else { continue };
        let lines: Vec<&str> = text.lines().map(|l| if l.starts_with("declare") || l.starts_with("attributes #") { l } else { "" }).collect();
        let groups: HashMap<&str, &str> = lines
            .iter()
            .filter_map(|l| l.strip_prefix("attributes "))
            .filter_map(|l| l.split_once(" = { "))
            .map(|(n, body)| (n, body.trim_end_matches(" }")))
            .collect();
        for l in lines.iter().filter(|l| l.starts_with("declare") && l.contains("@dx.op.")) {
            let Some(at) = l.find(" @dx.op.") else { continue };
            let ret = &l["declare ".len()..at];
            let rest = &l[at + " @dx.op.".len()..];
            let Some(paren) = rest.find('(') else { continue };
            let name = &rest[..paren];
            let Some(close) = rest.rfind(')') else { continue };
            let params = &rest[paren + 1..close];
            let group = rest[close + 1..].trim();
            let Some(attrs) = groups.get(group) else { continue };
            let (class, suffix) = match name.split_once('.') {
                Some((c, s)) => (c, Some(s)),
                None => (name, None),
            };
            let mut m = Module::new_dxil();
            let Some(o) = overload_from_suffix(&mut m, suffix) else { continue };
            let want_ty = format!("{ret} ({params})");
            checked += 1;
            let mut found_type = false;
            let mut ok = false;
            for info in OP_TABLE.iter().filter(|i| i.class == class && matches!(i.signature, Signature::Known { .. })) {
                if info.is_overloaded() == (o == Overload::None) {
                    continue;
                }
                let Some(fty) = sig::op_function_type(&mut m, info, o) else { continue };
                if hlslc_dxil::print::type_text(&m, fty) != want_ty {
                    continue;
                }
                found_type = true;
                let mut a = sig::op_attrs(info, DxilVersion::new(1, 9));
                a.sort();
                let text: Vec<&str> = a.iter().filter_map(|x| x.keyword()).collect();
                if text.join(" ") == *attrs {
                    ok = true;
                }
            }
            if !ok {
                let what = if found_type { "attributes" } else { "type" };
                problems.push(format!("{}: {what} of @dx.op.{name}: dxc has `{want_ty}` {{ {attrs} }}", f.display()));
            }
        }
    }
    problems.sort();
    problems.dedup();
    assert!(problems.is_empty(), "{} of {checked} declarations disagree:\n{}", problems.len(), problems.join("\n"));
    assert!(checked > 50, "only {checked} declarations found");
    eprintln!("{checked} dx.op declarations agree with the table");
}
