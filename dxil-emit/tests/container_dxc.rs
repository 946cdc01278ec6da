//! The container reader on a container written by dxc itself (shipped with the dxil-spirv test
//! tool, `../shared/tools/dxil-spirv/src/shaders/asm/`): every part parses, the offsets and sizes
//! add up, and dxc's `HASH` part is the MD5 of its program bitcode, as hlslc computes it.
//! Skipped with a message when the file is not there.

use hlslc_dxil::container::{dump, md5, reader};
use std::path::PathBuf;

fn dxc_container() -> Option<Vec<u8>> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/tools/dxil-spirv/src/shaders/asm/control-flow-multi-break-with-non-idom-loop-header.dxil");
    let p = if p.exists() { p } else { PathBuf::from("/work/shared/tools/dxil-spirv/src/shaders/asm/control-flow-multi-break-with-non-idom-loop-header.dxil") };
    match std::fs::read(&p) {
        Ok(b) => Some(b),
        Err(_) => {
            eprintln!("skipped: dxc's container {} is not present", p.display());
            None
        }
    }
}

#[test]
fn dxc_container_parses_part_by_part() {
    let Some(bytes) = dxc_container() else { return };
    let c = reader::check_all(&bytes).expect("dxc's container parses");
    let names: Vec<&str> = c.parts.iter().map(|p| p.fourcc.as_str()).collect();
    assert_eq!(names, ["SFI0", "ISG1", "OSG1", "PSV0", "STAT", "HASH", "DXIL"]);
    // Parts follow one another with no gaps: each starts 8 bytes (its header) after the
    // previous one ends, the first right after the 7-entry offset table.
    let mut at = 32 + 4 * 7;
    for p in &c.parts {
        assert_eq!(p.offset, at + 8, "part {}", p.fourcc);
        at = p.offset + p.data.len();
    }
    assert_eq!(at, bytes.len());
    let dxil = reader::program(c.part("DXIL").unwrap()).unwrap();
    assert_eq!((dxil.kind, dxil.major, dxil.minor), (5, 6, 0), "a cs_6_0 program");
    assert_eq!(dxil.dxil_version, (1, 0));
    let psv = reader::psv(c.part("PSV0").unwrap()).unwrap();
    assert_eq!(psv.runtime_info_size, 52, "validator 1.8 writes PSV version 3");
    assert_eq!(psv.stage, 5);
    assert_eq!(psv.entry_name.as_deref(), Some("main"));
    let hash = c.part("HASH").unwrap();
    assert_eq!(&hash.data[..4], &[0, 0, 0, 0], "flags: the hash does not include the source");
    assert_eq!(&hash.data[4..], &md5::md5(dxil.bitcode), "dxc's shader hash is the MD5 of the DXIL part's bitcode");
}

#[test]
fn dxc_container_dumps() {
    let Some(bytes) = dxc_container() else { return };
    let text = dump::dump(&bytes).unwrap();
    assert!(text.contains("; part DXIL at byte 1680, 2000 bytes"), "{text}");
    assert!(text.contains("; DXIL: cs_6_0, DXIL 1.0"), "{text}");
    assert!(text.contains("; entry function: main"), "{text}");
}

#[test]
fn truncated_and_corrupted_containers_name_the_part_and_offset() {
    let Some(bytes) = dxc_container() else { return };
    // Every prefix of the container is rejected without a panic.
    for n in (0..bytes.len()).step_by(7) {
        assert!(reader::check_all(&bytes[..n]).is_err(), "prefix of {n} bytes accepted");
    }
    // A part size that runs past the end.
    let mut bad = bytes.clone();
    let psv_size_at = 108 + 4;
    bad[psv_size_at..psv_size_at + 4].copy_from_slice(&100_000u32.to_le_bytes());
    let e = reader::check_all(&bad).unwrap_err();
    assert_eq!((e.part.as_str(), e.offset), ("PSV0", psv_size_at), "{e}");
    // A program header whose size disagrees with the part.
    let mut bad = bytes.clone();
    bad[1688 + 4] ^= 1;
    let e = reader::check_all(&bad).unwrap_err();
    assert_eq!((e.part.as_str(), e.offset), ("DXIL", 1688 + 4), "{e}");
    // Bitcode without the LLVM magic.
    let mut bad = bytes.clone();
    bad[1688 + 24] = b'X';
    let e = reader::check_all(&bad).unwrap_err();
    assert_eq!(e.part, "DXIL");
    assert!(e.to_string().contains("LLVM magic"), "{e}");
    // The wrong magic.
    let mut bad = bytes;
    bad[0] = b'Q';
    assert_eq!(reader::check_all(&bad).unwrap_err().offset, 0);
}
