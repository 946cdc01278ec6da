#!/usr/bin/env python3
"""Shrinks a failing random program (randprog.py) to a small one that still fails.

Statements are left out one at a time, largest first, keeping each removal after which the program
still fails; a removal that makes the program fail to compile (a variable no longer declared) or
pass is undone. The evaluator recomputes the expected buffers for every candidate, so the reduced
case is as trustworthy as the original.

    python3 testsuite/randprog/reduce.py --seed N [--check CMD]

CMD is run with the candidate's folder in $CASES and must exit non-zero while the case still fails;
the default runs the random-program test on that folder:
    HLSLC_RANDOM_CASES=$CASES cargo test -q -p hlslc-testsuite --test random_programs
The result is written to testsuite/randprog/reduced/rand.N.{hlsl,spec} (a regression case to copy
into testsuite/exec/ once the bug is understood and fixed).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import randprog  # noqa: E402

DEFAULT_CHECK = "HLSLC_RANDOM_CASES=$CASES cargo test -q -p hlslc-testsuite --test random_programs"


def fails(seed, skip, check):
    d = tempfile.mkdtemp(prefix="hlslc-reduce-")
    try:
        try:
            randprog.write_case(seed, d, skip)
        except Exception:
            return False  # the evaluator itself cannot run the candidate
        r = subprocess.run(check, shell=True, env=dict(os.environ, CASES=d), capture_output=True, text=True)
        if r.returncode == 0:
            return False
        # A compile error from a removed declaration is not the failure we are after.
        return "cannot compile" not in r.stdout + r.stderr and "error:" not in r.stdout
    finally:
        shutil.rmtree(d, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--check", default=DEFAULT_CHECK)
    ap.add_argument("--dxil", action="store_true", help="the failure is through DXIL (sets HLSLC_RANDOM_DXIL for the check)")
    a = ap.parse_args()
    if a.dxil:
        randprog.DXIL, randprog.MAT_WORDS = True, 12
        os.environ["HLSLC_RANDOM_DXIL"] = "1"
    g = randprog.Gen(a.seed)
    g.program()
    total = g.stmt_count
    if not fails(a.seed, [], a.check):
        sys.exit(f"seed {a.seed} does not fail")
    skip = set()
    changed = True
    while changed:
        changed = False
        for sid in range(total):
            if sid in skip:
                continue
            if fails(a.seed, sorted(skip | {sid}), a.check):
                skip.add(sid)
                changed = True
                print(f"removed statement {sid} ({len(skip)} of {total} gone)", flush=True)
    out = os.path.join(HERE, "reduced")
    os.makedirs(out, exist_ok=True)
    randprog.write_case(a.seed, out, sorted(skip))
    print(f"reduced: {out}/rand.{a.seed}.hlsl (skip={','.join(map(str, sorted(skip)))})")


if __name__ == "__main__":
    main()
