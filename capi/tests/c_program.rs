//! Builds `testsuite/capi/test.c` with gcc against the shared library this package builds
//! (`libhlslc_capi.so`, next to this test's executable) and the hand-written header, then runs
//! it: SPIR-V magic, a DXIL container, located diagnostics for a bad shader, refused arguments,
//! the include callback, the session cache, threads. Skipped with a message when gcc is absent.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The folder holding `libhlslc_capi.so`: `target/<profile>/deps` beside this test, or its
/// parent (where cargo also copies it).
fn library_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let deps = exe.parent().expect("deps folder").to_path_buf();
    let name = format!("{}hlslc_capi{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX);
    for dir in [deps.clone(), deps.parent().unwrap_or(&deps).to_path_buf()] {
        if dir.join(&name).is_file() {
            return dir;
        }
    }
    panic!("{name} not found beside {}: cargo builds it with the test", exe.display());
}

#[test]
fn c_program_compiles_and_passes() {
    if Command::new("gcc").arg("--version").output().is_err() {
        eprintln!("skipped: gcc is not installed");
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let lib = library_dir();
    let exe = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hlslc_capi_test");
    let build = Command::new("gcc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-pthread", "-o"])
        .arg(&exe)
        .arg(root.join("testsuite/capi/test.c"))
        .arg("-I")
        .arg(root.join("capi/include"))
        .arg("-L")
        .arg(&lib)
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .arg("-lhlslc_capi")
        .output()
        .expect("run gcc");
    assert!(build.status.success(), "gcc failed:\n{}", String::from_utf8_lossy(&build.stderr));
    let run = Command::new(&exe).output().expect("run the C test program");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "C test program failed ({}):\n{stdout}\n{stderr}", run.status);
    assert!(stdout.contains("all C API checks passed"), "{stdout}");
    assert!(stdout.starts_with("hlslc "), "version line: {stdout}");
}
