//! DXIL containers on the command line: `-dumpbin` reads one (here dxc's own, shipped with the
//! dxil-spirv test tool) and lists its parts; a damaged one is an error naming the part and the
//! byte offset, with exit code 1 and no panic.

mod common;
use common::*;
use std::path::PathBuf;

fn dxc_container() -> Option<Vec<u8>> {
    let rel = "tools/dxil-spirv/src/shaders/asm/control-flow-multi-break-with-non-idom-loop-header.dxil";
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared").join(rel);
    match std::fs::read(&p).or_else(|_| std::fs::read(PathBuf::from("/work/shared").join(rel))) {
        Ok(b) => Some(b),
        Err(_) => {
            eprintln!("skipped: dxc's container {} is not present", p.display());
            None
        }
    }
}

#[test]
fn dumpbin_lists_the_parts_of_a_dxc_container() {
    let Some(bytes) = dxc_container() else { return };
    let dir = TempDir::new("dumpbin");
    let f = dir.file("shader.dxil", &bytes);
    let o = hlslc(&["-dumpbin", f.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    for part in ["SFI0", "ISG1", "OSG1", "PSV0", "STAT", "HASH", "DXIL"] {
        assert!(text.contains(&format!("; part {part} at byte")), "{part} missing:\n{text}");
    }
    assert!(text.contains("; numthreads("), "{text}");
    // -Fc puts the listing in a file instead.
    let listing = dir.path("dump.txt");
    let o = hlslc(&["-dumpbin", f.to_str().unwrap(), "-Fc", listing.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&listing).unwrap(), text);
}

#[test]
fn dumpbin_rejects_a_damaged_container_naming_part_and_offset() {
    let Some(mut bytes) = dxc_container() else { return };
    // The PSV0 part header is at byte 108; make its size run past the end.
    bytes[112..116].copy_from_slice(&1_000_000u32.to_le_bytes());
    let dir = TempDir::new("dumpbin-bad");
    let f = dir.file("bad.dxil", &bytes);
    let o = hlslc(&["-dumpbin", f.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    let err = stderr(&o);
    assert!(err.contains("at byte 112 (part PSV0)"), "{err}");
    assert!(stdout(&o).is_empty());
    // Not a container at all.
    let f = dir.file("text.dxil", "float4 main() : SV_Target { return 0; }");
    let o = hlslc(&["-dumpbin", f.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("expected the magic 'DXBC'"), "{}", stderr(&o));
}
