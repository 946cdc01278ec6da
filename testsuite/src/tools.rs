//! Finding the external tools the tests use: LLVM FileCheck and the SPIRV-Tools programs.

use std::path::{Path, PathBuf};

/// `name` in `$PATH`.
pub fn find_program(name: &str) -> Option<PathBuf> {
    if name.contains('/') {
        return Path::new(name).is_file().then(|| PathBuf::from(name));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file())
}

/// LLVM FileCheck: `$FILECHECK`, `FileCheck-<n>` or `FileCheck` in `$PATH`, or the newest
/// `/usr/lib/llvm-<n>/bin/FileCheck`.
pub fn filecheck() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("FILECHECK") {
        return Some(PathBuf::from(p));
    }
    for v in (10..=25).rev() {
        if let Some(p) = find_program(&format!("FileCheck-{v}")) {
            return Some(p);
        }
        let p = PathBuf::from(format!("/usr/lib/llvm-{v}/bin/FileCheck"));
        if p.is_file() {
            return Some(p);
        }
    }
    find_program("FileCheck")
}

/// A SPIRV-Tools program (`spirv-val`, `spirv-as`, `spirv-dis`).
pub fn spirv_tool(name: &str) -> Option<PathBuf> {
    find_program(name)
}
