//! Writing output files so that a failure never leaves a partial one: the bytes go to a temporary
//! file beside the target, which is then renamed over it.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Makes temporary names unique between threads of one process.
static COUNTER: AtomicU64 = AtomicU64::new(0);

fn temp_path(target: &Path) -> PathBuf {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
    let tmp = format!(".{name}.hlslc-{}-{n}.tmp", std::process::id());
    match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.join(tmp),
        _ => PathBuf::from(tmp),
    }
}

/// Writes `bytes` to `target` atomically (on one file system).
pub fn write_atomic(target: &Path, bytes: &[u8]) -> io::Result<()> {
    let tmp = temp_path(target);
    let result = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        // No fsync: the rename already guarantees that no reader sees a partial file, and a
        // compiler a build system runs thousands of times must not wait on the disk.
        drop(f);
        fs::rename(&tmp, target)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_and_replaces() {
        let dir = std::env::temp_dir().join(format!("hlslc-out-test-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let target = dir.join("a.bin");
        write_atomic(&target, b"one").unwrap();
        write_atomic(&target, b"two").unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"two");
        // A missing folder fails without leaving anything behind.
        assert!(write_atomic(&dir.join("missing/x.bin"), b"x").is_err());
        let left: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left, vec![std::ffi::OsString::from("a.bin")]);
        fs::remove_dir_all(&dir).unwrap();
    }
}
