#!/bin/sh
# Runs on a machine with a real Vulkan driver (an NVIDIA GPU here), from a copy of the repository
# root that carries .gpu/ and .gl/ (made by gpu-prepare.sh): the execution tests at -O0 and -O3
# and through DXIL, then the random programs through SPIR-V (both levels) and through DXIL, split
# over parallel processes. OUTDIR receives summary.txt, failures.txt and logs.tar.gz (every log). Environment: SEEDS (default 10000), DXIL_SEEDS
# (default 10000; 0: none), REDUCE_DXIL (seeds to shrink through DXIL), JOBS (default: the number of processors, less one), RUN_TIMEOUT (seconds a
# process of random programs may take, default 200).
#
#   sh testsuite/scripts/gpu-check.sh OUTDIR
set -u
dest=${1:?OUTDIR}
out=/tmp/gpu-check-logs
rm -rf "$out"; mkdir -p "$out" "$dest"
exec 3>&1 > "$dest/summary.txt" 2>&1
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
    [ -f "$icd" ] && export VK_DRIVER_FILES="$icd" && break
done
echo "Vulkan driver: ${VK_DRIVER_FILES:-none found}"
[ -f /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json ] && export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
built=$(cat .gpu/built-at)
if [ "$built" != "$(pwd)" ]; then
    mkdir -p "$(dirname "$built")"
    rm -rf "$built" && ln -s "$(pwd)" "$built"
fi
mkdir -p target/release && cp .gpu/conformance target/release/conformance
[ -x .gpu/dxil-spirv ] && export HLSLC_DXIL_SPIRV=$(pwd)/.gpu/dxil-spirv LD_LIBRARY_PATH=$(pwd)/.gpu
export HLSLC_EXEC_DEVICE=${HLSLC_EXEC_DEVICE:-NVIDIA}
seeds=${SEEDS:-10000}
dxil_seeds=${DXIL_SEEDS:-10000}
jobs=${JOBS:-$(($(nproc) - 1))}
[ "$jobs" -ge 1 ] || jobs=1

echo "== exec cases ($(date -u +%T))"
for t in exec_cases exec_cases_through_dxil; do
    timeout 120 .gpu/exec --exact "$t" --nocapture --test-threads=1 > "$out/$t.log" 2>&1
    echo "$t: exit $?"; grep -E "^exec|test result|Segmentation" "$out/$t.log"; tail -2 "$out/$t.log"
done

# REDUCE_DXIL="SEED ..." shrinks those random programs' failures through DXIL (randprog/reduce.py),
# in the background while the random programs run.
reducers=""
for seed in ${REDUCE_DXIL:-}; do
    HLSLC_RANDOM_DXIL=1 timeout "${RUN_TIMEOUT:-200}" python3 testsuite/randprog/reduce.py --dxil --seed "$seed" \
        --check 'HLSLC_RANDOM_CASES=$CASES .gpu/random_programs' > "$out/reduce.$seed.log" 2>&1 &
    reducers="$reducers $!"
done

# One range of seeds per process; each process writes its own log.
run_random() { # tag seeds extra-env
    tag=$1 n=$2; shift 2
    step=$(( (n + jobs - 1) / jobs )); i=0; pids=""
    while [ $((i * step)) -lt "$n" ]; do
        from=$((i * step)); to=$(( (i + 1) * step )); [ "$to" -gt "$n" ] && to=$n
        env "$@" HLSLC_RANDOM_SEEDS=$from..$to timeout "${RUN_TIMEOUT:-200}" .gpu/random_programs --nocapture > "$out/$tag.$i.log" 2>&1 &
        pids="$pids $!"; i=$((i + 1))
    done
    fails=0
    for p in $pids; do wait "$p" || fails=$((fails + 1)); done
    echo "$tag: $i processes, $fails failed"
    # The last count of each process (a process stopped by RUN_TIMEOUT has only progress lines).
    # Both lines read "progress|random programs A..B: P passed, F failed, C compiled only".
    for f in "$out"/$tag.*.log; do grep -E "^(progress|random programs) " "$f" | tail -1; done |
        sed 's/^random programs /progress /' |
        awk -v t="$tag" '{p+=$3; f+=$5; c+=$7} END {print t": "p" passed, "f" failed, "c" compiled only"}'
    grep -h "^FAIL seed" "$out"/$tag.*.log | head -40
}
echo "== random programs through SPIR-V, seeds 0..$seeds ($(date -u +%T))"
run_random spirv "$seeds" X=1
if [ -n "${HLSLC_DXIL_SPIRV:-}" ] && [ "$dxil_seeds" -gt 0 ]; then
    echo "== random programs through DXIL, seeds 0..$dxil_seeds ($(date -u +%T))"
    run_random dxil "$dxil_seeds" HLSLC_RANDOM_DXIL=1
fi
for p in $reducers; do wait "$p"; done
[ -d testsuite/randprog/reduced ] && cp -r testsuite/randprog/reduced "$out/"
for f in "$out"/reduce.*.log; do [ -f "$f" ] && { echo "--- $f"; tail -5 "$f"; }; done
echo "== done ($(date -u +%T))"
# The logs of failing processes, together, for the report.
grep -l "FAILED\|panicked" "$out"/*.log > "$out/failing-logs.txt" 2>/dev/null
for f in $(cat "$out/failing-logs.txt"); do echo "--- $f"; grep -A40 "random program runs failed\|^---- \|panicked" "$f" | head -80; done > "$out/failures.txt"
tar czf "$dest/logs.tar.gz" -C "$out" .
cp "$out/failures.txt" "$dest/"
exec 1>&3 2>&1
cat "$dest/summary.txt"; head -c 4000 "$dest/failures.txt"
exit 0
