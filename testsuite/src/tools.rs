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

/// LLVM 14's `llvm-as` (`llvm-as-14`, or `llvm-as` in `$PATH`): the closest assembler to DXIL's
/// LLVM 3.7 dialect, used to check that printed DXIL parses.
pub fn llvm_as() -> Option<PathBuf> {
    find_program("llvm-as-14").or_else(|| find_program("/usr/lib/llvm-14/bin/llvm-as")).or_else(|| find_program("llvm-as"))
}

/// Assembles `text` with [`llvm_as`] and returns its error output on failure; `Ok(false)` when
/// the tool is missing.
pub fn llvm_as_check(text: &str) -> Result<bool, String> {
    let Some(tool) = llvm_as() else { return Ok(false) };
    let args = vec!["-o".to_string(), "/dev/null".to_string(), "-".to_string()];
    let out = crate::process::run(&crate::process::Spawn {
        program: &tool,
        args: &args,
        cwd: None,
        env: &[],
        stdin: Some(text.as_bytes()),
        merge_stderr: true,
        timeout: Some(std::time::Duration::from_secs(60)),
    });
    if out.exit == crate::process::Exit::Code(0) {
        Ok(true)
    } else {
        Err(String::from_utf8_lossy(&out.stdout).into_owned())
    }
}

/// The dxil-spirv converter (DXIL container → SPIR-V), a test tool built from
/// `../shared/tools/dxil-spirv` into `target/dxil-spirv/bin` (see `.ci/run`): `$HLSLC_DXIL_SPIRV`,
/// that build, or `dxil-spirv` in `$PATH`.
pub fn dxil_spirv() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("HLSLC_DXIL_SPIRV") {
        return Some(PathBuf::from(p));
    }
    let built = crate::repo_root().join("target/dxil-spirv/bin/dxil-spirv");
    if built.is_file() {
        return Some(built);
    }
    find_program("dxil-spirv")
}

/// LLVM 14's `llvm-dis` (`llvm-dis-14`, or `llvm-dis` in `$PATH`): reads LLVM 3.7 bitcode, which
/// LLVM 15 and later (opaque pointers) no longer print as DXIL's typed pointers.
pub fn llvm_dis() -> Option<PathBuf> {
    find_program("llvm-dis-14").or_else(|| find_program("/usr/lib/llvm-14/bin/llvm-dis")).or_else(|| find_program("llvm-dis"))
}
