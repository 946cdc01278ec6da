//! Links the command-line programs (`hlslc`, `hlsl2spirv`) as position-dependent executables on
//! Linux/glibc. A position-independent one makes the dynamic loader apply about 20,000 relative
//! relocations at every start and touch the pages they live in: a third of the instructions of
//! `hlslc --version` and 80 of the 345 page faults of a whole compile (callgrind and perf stat,
//! `driver/benches/compile.rs --process`). A compiler a build system runs thousands of times
//! pays that each time; the cost is that the executable's own code is not address-randomised
//! (the libraries it loads still are). The library crate and the tests are not affected.

fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
