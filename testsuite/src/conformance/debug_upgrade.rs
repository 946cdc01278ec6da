//! What LLVM 14 makes of LLVM 3.7's debug metadata, for the round-trip comparison.
//!
//! With `-Zi` hlslc's listing holds debug metadata in LLVM 3.7's form (as dxc's does), and the
//! bitcode says the same in 3.7's encoding. `llvm-dis` (LLVM 14) reads that bitcode and upgrades
//! the old records as its metadata loader does, so its text differs from the listing where the
//! format changed between 3.7 and 14, not where the bitcode is wrong:
//!
//! - `DICompileUnit` loses `subprograms:`; each subprogram of that list names its unit instead
//!   (`unit: !cu`). `emissionKind: 1` is printed by name (`FullDebug`).
//! - `DISubprogram`'s `isLocal`, `isDefinition` and `isOptimized` become `spFlags:`
//!   (`DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized`), printed after `flags:`
//!   and followed by `unit:`; a definition is `distinct`; `function: <ty> @f` becomes the
//!   attachment `!dbg !sp` of `define ... @f(...)`; `variables:` is `retainedNodes:`.
//! - The old `subprograms:` list is gone, and the nodes are numbered anew.
//! - A backslash in a string is printed `\\` (3.7: `\5C`).
//!
//! [`upgrade`] applies the first two to hlslc's listing; [`renumber`] numbers the metadata of
//! both texts by first reference (depth first, from the module's non-metadata lines; nodes
//! nothing references after them, in their old order) and puts the nodes last in that order; [`backslashes`] spells
//! backslashes as 3.7 does. Nothing else is rewritten, so any other difference still counts.

use std::collections::HashMap;

/// `!N` at the start of `s` (which starts with `!`): N and the length of the token.
fn md_ref(s: &str) -> Option<(usize, usize)> {
    if !s.starts_with('!') {
        return None;
    }
    let digits: String = s[1..].chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits.is_empty() {
        return None;
    }
    Some((digits.parse().ok()?, digits.len() + 1))
}

/// `!N = <body>`: N and the body.
fn md_def(line: &str) -> Option<(usize, &str)> {
    let (id, len) = md_ref(line).filter(|_| line.starts_with('!'))?;
    line[len..].strip_prefix(" = ").map(|body| (id, body))
}

/// Rewrites every `!N` reference outside strings with `f(N)`.
fn map_refs(line: &str, mut f: impl FnMut(usize) -> String) -> String {
    let mut out = String::with_capacity(line.len());
    let mut quoted = false;
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        if c == '"' {
            quoted = !quoted;
        }
        if c == '!' && !quoted {
            if let Some((id, len)) = md_ref(rest) {
                out.push_str(&f(id));
                rest = &rest[len..];
                continue;
            }
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

fn refs_of(line: &str) -> Vec<usize> {
    let mut ids = Vec::new();
    map_refs(line, |id| {
        ids.push(id);
        String::new()
    });
    ids
}

/// The `key: value` fields of `Name(fields)`, split at top-level commas.
fn fields(args: &str) -> Vec<String> {
    let (mut out, mut cur, mut depth, mut quoted) = (Vec::new(), String::new(), 0i32, false);
    for c in args.chars() {
        match c {
            '"' => quoted = !quoted,
            '(' | '[' | '{' | '<' if !quoted => depth += 1,
            ')' | ']' | '}' | '>' if !quoted => depth -= 1,
            ',' if !quoted && depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// `(prefix, "Name", fields)` of a specialized node body `[distinct ]!Name(fields)`.
fn specialized(body: &str) -> Option<(bool, &str, Vec<String>)> {
    let (distinct, rest) = match body.strip_prefix("distinct ") {
        Some(r) => (true, r),
        None => (false, body),
    };
    let rest = rest.strip_prefix('!')?;
    let open = rest.find('(')?;
    let args = rest[open + 1..].strip_suffix(')')?;
    Some((distinct, &rest[..open], fields(args)))
}

fn value<'a>(fields: &'a [String], key: &str) -> Option<&'a str> {
    fields.iter().find_map(|f| f.strip_prefix(key).and_then(|r| r.strip_prefix(": ")))
}

/// hlslc's LLVM 3.7 listing with its debug metadata in the form LLVM 14 reads it back as.
pub fn upgrade(text: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let defs: HashMap<usize, usize> = lines.iter().enumerate().filter_map(|(i, l)| md_def(l).map(|(id, _)| (id, i))).collect();
    // Subprograms listed by a compile unit, with that unit.
    let mut unit_of: HashMap<usize, usize> = HashMap::new();
    let mut dropped = Vec::new();
    for i in 0..lines.len() {
        let Some((cu, body)) = md_def(&lines[i]) else { continue };
        let Some((distinct, "DICompileUnit", mut fs)) = specialized(body) else { continue };
        if let Some(list) = value(&fs, "subprograms").and_then(|v| md_ref(v)).map(|(id, _)| id) {
            if let Some(&at) = defs.get(&list) {
                for sp in refs_of(md_def(&lines[at]).map_or("", |(_, b)| b)) {
                    unit_of.insert(sp, cu);
                }
                dropped.push(at);
            }
        }
        fs.retain(|f| !f.starts_with("subprograms: "));
        for f in fs.iter_mut() {
            let kind = match f.as_str() {
                "emissionKind: 0" => "NoDebug",
                "emissionKind: 1" => "FullDebug",
                "emissionKind: 2" => "LineTablesOnly",
                _ => continue,
            };
            *f = format!("emissionKind: {kind}");
        }
        lines[i] = format!("!{cu} = {}!DICompileUnit({})", if distinct { "distinct " } else { "" }, fs.join(", "));
    }
    // Subprograms: flags, unit, and the function they describe.
    let mut attach: HashMap<String, usize> = HashMap::new();
    for i in 0..lines.len() {
        let Some((sp, body)) = md_def(&lines[i]) else { continue };
        let Some((distinct, "DISubprogram", fs)) = specialized(body) else { continue };
        let yes = |k: &str| value(&fs, k) == Some("true");
        let definition = yes("isDefinition");
        let flags: Vec<&str> = [(yes("isLocal"), "DISPFlagLocalToUnit"), (definition, "DISPFlagDefinition"), (yes("isOptimized"), "DISPFlagOptimized")]
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, name)| *name)
            .collect();
        if let Some(f) = value(&fs, "function") {
            if let Some(at) = f.rfind(" @") {
                attach.insert(f[at + 1..].to_string(), sp);
            }
        }
        let mut kept: Vec<String> = fs
            .iter()
            .filter(|f| !["isLocal: ", "isDefinition: ", "isOptimized: ", "function: "].iter().any(|k| f.starts_with(k)))
            .map(|f| f.replacen("variables: ", "retainedNodes: ", 1))
            .collect();
        let at = kept.iter().position(|f| ["templateParams: ", "declaration: ", "retainedNodes: "].iter().any(|k| f.starts_with(k))).unwrap_or(kept.len());
        let mut extra = Vec::new();
        if !flags.is_empty() {
            extra.push(format!("spFlags: {}", flags.join(" | ")));
        }
        if let Some(cu) = unit_of.get(&sp) {
            extra.push(format!("unit: !{cu}"));
        }
        kept.splice(at..at, extra);
        let distinct = distinct || definition;
        lines[i] = format!("!{sp} = {}!DISubprogram({})", if distinct { "distinct " } else { "" }, kept.join(", "));
    }
    for line in lines.iter_mut() {
        if !line.starts_with("define ") {
            continue;
        }
        let Some(name) = line.split_once(" @").map(|(_, r)| r) else { continue };
        let name = match name.strip_prefix('"') {
            Some(q) => format!("@\"{}\"", &q[..q.find('"').unwrap_or(q.len())]),
            None => format!("@{}", &name[..name.find('(').unwrap_or(name.len())]),
        };
        if let (Some(sp), Some(head)) = (attach.get(&name), line.strip_suffix(" {")) {
            *line = format!("{head} !dbg !{sp} {{");
        }
    }
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        if !dropped.contains(&i) {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// Numbers metadata nodes by first reference (see the module comment).
pub fn renumber(lines: Vec<String>) -> Vec<String> {
    let mut defs: HashMap<usize, String> = HashMap::new();
    let mut others = Vec::new();
    for line in lines {
        match md_def(&line) {
            Some((id, body)) => {
                defs.insert(id, body.to_string());
            }
            None => others.push(line),
        }
    }
    if defs.is_empty() {
        return others;
    }
    let mut new_id: HashMap<usize, usize> = HashMap::new();
    let mut order: Vec<usize> = Vec::new();
    for line in &others {
        for root in refs_of(line) {
            // Depth first, operands in order, without recursion.
            let mut stack = vec![root];
            while let Some(id) = stack.pop() {
                if new_id.contains_key(&id) {
                    continue;
                }
                new_id.insert(id, order.len());
                order.push(id);
                if let Some(body) = defs.get(&id) {
                    stack.extend(refs_of(body).into_iter().rev());
                }
            }
        }
    }
    let mut unreferenced: Vec<usize> = defs.keys().copied().filter(|id| !new_id.contains_key(id)).collect();
    unreferenced.sort_unstable();
    for id in unreferenced {
        new_id.insert(id, order.len());
        order.push(id);
    }
    let rename = |id: usize| match new_id.get(&id) {
        Some(n) => format!("!{n}"),
        None => format!("!?{id}"),
    };
    let mut out: Vec<String> = others.iter().map(|l| map_refs(l, rename)).collect();
    for id in order {
        if let Some(body) = defs.get(&id) {
            out.push(format!("!{} = {}", new_id[&id], map_refs(body, rename)));
        }
    }
    out
}

/// hlslc's `-Zi` listing without its debug information, as the `DXIL` part of the container
/// holds the module (the `ILDB` part keeps it): no `!dbg` attachments, no `llvm.dbg.cu` and
/// `dx.source.*` named metadata, and no node that only those reached.
pub fn strip_debug(text: &str) -> String {
    let mut kept: Vec<String> = Vec::new();
    for line in text.lines() {
        if line.starts_with("!llvm.dbg.cu = ") || line.starts_with("!dx.source.") {
            continue;
        }
        let mut line = line.to_string();
        while let Some(at) = line.find(", !dbg !") {
            let digits = line[at + 8..].chars().take_while(|c| c.is_ascii_digit()).count();
            line.replace_range(at..at + 8 + digits, "");
        }
        kept.push(line);
    }
    let defs: HashMap<usize, usize> = kept.iter().enumerate().filter_map(|(i, l)| md_def(l).map(|(id, _)| (id, i))).collect();
    let mut reached: std::collections::HashSet<usize> = std::collections::HashSet::new();
    let mut stack: Vec<usize> = kept.iter().filter(|l| md_def(l).is_none()).flat_map(|l| refs_of(l)).collect();
    while let Some(id) = stack.pop() {
        if reached.insert(id) {
            if let Some(&at) = defs.get(&id) {
                stack.extend(refs_of(md_def(&kept[at]).map_or("", |(_, b)| b)));
            }
        }
    }
    let mut out = String::new();
    for line in kept {
        if md_def(&line).is_none_or(|(id, _)| reached.contains(&id)) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

/// A backslash inside a string as LLVM 3.7 prints it (`\5C`; LLVM 14 prints `\\`).
pub fn backslashes(line: &str) -> String {
    if !line.contains("\\\\") {
        return line.to_string();
    }
    let mut out = String::with_capacity(line.len());
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '"' {
            quoted = !quoted;
        }
        if c == '\\' && quoted && chars.peek() == Some(&'\\') {
            chars.next();
            out.push_str("\\5C");
            continue;
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    // The -Zi metadata of a pixel shader as hlslc prints it, and as llvm-dis-14 printed the
    // bitcode hlslc wrote for it (HLSLFileCheck/dxil/debug/array_piece.hlsl, shortened).
    const OURS: &str = "define void @main() {\n  %1 = fadd fast float %0, %0, !dbg !9\n  ret void\n}\n!llvm.dbg.cu = !{!0}\n!dx.source.contents = !{!7}\n!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, producer: \"hlslc\", isOptimized: false, runtimeVersion: 0, emissionKind: 1, enums: !2, subprograms: !3)\n!1 = !DIFile(filename: \"a.hlsl\", directory: \"\")\n!2 = !{}\n!3 = !{!4}\n!4 = !DISubprogram(name: \"main\", scope: !1, file: !1, line: 13, type: !5, isLocal: false, isDefinition: true, scopeLine: 13, flags: DIFlagPrototyped, isOptimized: false, function: void ()* @main)\n!5 = !DISubroutineType(types: !6)\n!6 = !{null}\n!7 = !{!\"a.hlsl\", !\"x\\5C0A\"}\n!9 = !DILocation(line: 15, column: 6, scope: !4)\n";
    const THEIRS: &str = "define void @main() !dbg !4 {\n  %1 = fadd fast float %0, %0, !dbg !7\n  ret void\n}\n!llvm.dbg.cu = !{!0}\n!dx.source.contents = !{!3}\n!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, producer: \"hlslc\", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, enums: !2)\n!1 = !DIFile(filename: \"a.hlsl\", directory: \"\")\n!2 = !{}\n!3 = !{!\"a.hlsl\", !\"x\\\\0A\"}\n!4 = distinct !DISubprogram(name: \"main\", scope: !1, file: !1, line: 13, type: !5, scopeLine: 13, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0)\n!5 = !DISubroutineType(types: !6)\n!6 = !{null}\n!7 = !DILocation(line: 15, column: 6, scope: !4)\n";

    fn canonical(text: &str) -> Vec<String> {
        renumber(text.lines().map(backslashes).collect())
    }

    #[test]
    fn llvm_14s_reading_of_3_7_debug_info_is_the_same_module() {
        assert_eq!(canonical(&upgrade(OURS)), canonical(THEIRS));
    }

    #[test]
    fn a_changed_debug_location_still_differs() {
        let wrong = THEIRS.replace("line: 15, column: 6", "line: 15, column: 7");
        assert_ne!(canonical(&upgrade(OURS)), canonical(&wrong));
        let unattached = THEIRS.replace("@main() !dbg !4 {", "@main() {");
        assert_ne!(canonical(&upgrade(OURS)), canonical(&unattached));
        let local = THEIRS.replace("spFlags: DISPFlagDefinition", "spFlags: DISPFlagLocalToUnit | DISPFlagDefinition");
        assert_ne!(canonical(&upgrade(OURS)), canonical(&local));
    }

    #[test]
    fn the_stripped_module_has_no_debug_metadata() {
        assert_eq!(strip_debug("\n\n"), "\n\n", "empty lines are lines");
        let stripped = strip_debug(OURS);
        assert!(stripped.contains("%1 = fadd fast float %0, %0\n"), "{stripped}");
        assert!(!stripped.contains("DI") && !stripped.contains("!dbg") && !stripped.contains("!llvm.dbg.cu"), "{stripped}");
        assert!(!stripped.lines().any(|l| l.starts_with('!')), "nodes only debug metadata reached go: {stripped}");
    }

    #[test]
    fn numbering_follows_first_reference() {
        let lines = vec!["!a = !{!5}".to_string(), "!5 = !{!2, !9}".to_string(), "!9 = !{}".to_string(), "!2 = !{!\"!7\"}".to_string(), "!7 = !{}".to_string()];
        assert_eq!(renumber(lines), vec!["!a = !{!0}", "!0 = !{!1, !2}", "!1 = !{!\"!7\"}", "!2 = !{}", "!3 = !{}"]);
    }
}
