#!/bin/sh
# Prepares a run of the execution tests and the random programs on another machine with a real
# Vulkan driver (see gpu-check.sh, which runs there): release builds of the two test binaries and
# of the conformance binary (which runs as hlslc), dxil-spirv, and Debian's Vulkan loader, all
# under .gpu/ and .gl/ in the repository root (both ignored through .git/info/exclude).
#
#   testsuite/scripts/gpu-prepare.sh      # here, from the repository root
#   then, on the GPU machine, from a copy of the repository root carrying .gpu and .gl:
#   sh testsuite/scripts/gpu-check.sh OUTDIR
set -eu
root=$(pwd)
# Test binaries need no whole-program LTO (the release profile's, for the compiler's speed): without
# it they build in minutes instead of a quarter of an hour on a 2-core machine.
export CARGO_PROFILE_RELEASE_LTO=${CARGO_PROFILE_RELEASE_LTO:-off} CARGO_PROFILE_RELEASE_CODEGEN_UNITS=${CARGO_PROFILE_RELEASE_CODEGEN_UNITS:-16}
CARGO_INCREMENTAL=0 cargo test --release -p hlslc-testsuite --test random_programs --test exec --no-run 2>&1 | tail -3
CARGO_INCREMENTAL=0 cargo build --release -p hlslc-testsuite --bin conformance 2>&1 | tail -1
rm -rf .gpu && mkdir -p .gpu .gl
for t in random_programs exec; do
    bin=$(ls -t target/release/deps/$t-* | grep -v '\.d$' | head -1)
    cp "$bin" .gpu/$t
done
cp target/release/conformance .gpu/conformance
strip .gpu/random_programs .gpu/exec .gpu/conformance
dxs=${HLSLC_DXIL_SPIRV:-target/dxil-spirv/bin/dxil-spirv}
if [ -x "$dxs" ]; then
    cp "$dxs" "$(dirname "$dxs")"/libdxil-spirv-c-shared.so* .gpu/
fi
# The test binaries find the repository (testsuite/exec, randprog.py) and the conformance binary
# through the paths they were built at; gpu-check.sh links this path to the copy it runs in.
echo "$root" > .gpu/built-at
if ! ls .gl/libvulkan1_*.deb >/dev/null 2>&1; then
    o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
    mkdir -p /tmp/amd64/partial
    apt-get $o update >/dev/null && (cd .gl && apt-get $o download libvulkan1)
fi
du -sh .gpu .gl
