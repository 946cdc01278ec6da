//! Our disassembler against SPIRV-Tools' `spirv-dis`: every `.spvasm` in `tests/disasm` is
//! assembled with `spirv-as`, then disassembled by both, and the texts must be identical.

mod common;

use hlslc_spirv::disasm::disassemble;
use std::path::Path;

fn check_file(path: &Path) {
    let words = common::assemble(path, "spv1.5");
    let name = path.file_stem().unwrap().to_string_lossy().to_string();
    let theirs = common::spirv_dis(&words, &name);
    let ours = disassemble(&words).expect("disassemble");
    assert!(ours == theirs, "{}: {}", path.display(), common::first_difference(&ours, &theirs));
}

#[test]
fn matches_spirv_dis_on_hand_written_modules() {
    if common::tool("spirv-as").is_none() || common::tool("spirv-dis").is_none() {
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/disasm");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "spvasm"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "expected the test modules in {}", dir.display());
    for f in &files {
        check_file(f);
    }
}

#[test]
fn generator_and_version_header() {
    if common::tool("spirv-as").is_none() || common::tool("spirv-dis").is_none() {
        return;
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/disasm/types.spvasm");
    let mut words = common::assemble(&src, "spv1.5");
    for (tool, misc) in [(14u32, 0u32), (15, 7), (36, 1), (37, 0), (200, 65535)] {
        words[2] = (tool << 16) | misc;
        words[1] = 0x0001_0300;
        let theirs = common::spirv_dis(&words, "header");
        let ours = disassemble(&words).unwrap();
        assert_eq!(ours.lines().take(5).collect::<Vec<_>>(), theirs.lines().take(5).collect::<Vec<_>>());
    }
}

#[test]
fn rejects_garbage_without_panicking() {
    assert!(disassemble(&[]).is_err());
    assert!(disassemble(&[1, 2, 3, 4, 5, 6]).is_err());
    assert!(disassemble(&[0x0723_0203, 0x0001_0000, 0, 10, 0, 0xffff_ffff]).is_err());
}

/// Truncated and corrupted binaries give an error or some text, never a panic.
#[test]
fn corrupted_binaries_do_not_panic() {
    if common::tool("spirv-as").is_none() {
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/disasm");
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for name in ["constants", "control_flow", "image", "types", "decorations", "misc", "debug_info"] {
        let words = common::assemble(&dir.join(format!("{name}.spvasm")), "spv1.5");
        for len in 0..words.len() {
            let _ = disassemble(&words[..len]);
        }
        for _ in 0..1500 {
            let mut w = words.clone();
            let i = 5 + (next() as usize) % (w.len() - 5);
            w[i] = match next() % 4 {
                0 => next() as u32,
                1 => w[i] ^ (1 << (next() % 32)),
                2 => (w[i] & 0xffff) | (((next() % 8) as u32) << 16),
                _ => 0,
            };
            let _ = disassemble(&w);
        }
    }
}
