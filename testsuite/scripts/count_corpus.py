#!/usr/bin/env python3
"""Counts DXC's lit tests independently of the conformance runner, to cross-check its totals.

    python3 testsuite/scripts/count_corpus.py [CORPUS_DIR] [SUITE...]

For each suite folder (default: the five suites the runner knows) it counts, the way lit reads
files rather than the way our runner does: test files (extension .hlsl/.hlsli/.hlsl2spv with a
`RUN:` line anywhere in a line), RUN lines (a trailing backslash joins the next RUN line), files
marked XFAIL, files with a REQUIRES line, and files whose every RUN line starts with `not`
(negative tests). Compare "files" with the runner's total and "xfail" with its XFAIL count
(`conformance <suite> --verbose` prints per-file reasons).
"""
import os
import re
import sys

SUITES = ["CodeGenSPIRV", "HLSLFileCheck", "CodeGenDXIL", "SemaHLSL", "CodeGenHLSL"]
EXTS = (".hlsl", ".hlsli", ".hlsl2spv")
RUN = re.compile(r"RUN:(.*)$")


def run_lines(text):
    lines, pending = [], None
    for raw in text.splitlines():
        m = RUN.search(raw)
        if not m:
            if pending is not None:
                lines.append(pending)
                pending = None
            continue
        part = m.group(1).strip()
        cont = part.endswith("\\")
        part = part[:-1].strip() if cont else part
        acc = (pending + " " + part).strip() if pending else part
        if cont:
            pending = acc
        else:
            lines.append(acc)
            pending = None
    if pending:
        lines.append(pending)
    return [l for l in lines if l.strip()]


def count(folder):
    c = {"files": 0, "run_lines": 0, "xfail": 0, "requires": 0, "all_not": 0, "other_ext_with_run": 0}
    for root, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(root, name)
            try:
                with open(path, "rb") as f:
                    text = f.read().decode("utf-8", "replace")
            except OSError:
                continue
            lines = run_lines(text)
            if not lines:
                continue
            if not name.endswith(EXTS):
                c["other_ext_with_run"] += 1
                continue
            c["files"] += 1
            c["run_lines"] += len(lines)
            if re.search(r"XFAIL:\s*\S", text):
                c["xfail"] += 1
            if re.search(r"REQUIRES:", text):
                c["requires"] += 1
            if all(l.split()[0] == "not" for l in lines if l.split()):
                c["all_not"] += 1
    return c


def main():
    args = sys.argv[1:]
    here = os.path.dirname(os.path.abspath(__file__))
    corpus = os.path.normpath(os.path.join(here, "..", "..", "..", "shared", "corpus", "dxc"))
    if args and os.path.isdir(args[0]) and not os.path.isdir(os.path.join(corpus, args[0])):
        corpus, args = args[0], args[1:]
    if not os.path.isdir(corpus):
        print(f"no corpus at {corpus}")
        return
    suites = args or SUITES
    keys = ["files", "run_lines", "xfail", "requires", "all_not", "other_ext_with_run"]
    print("%-40s " % "suite" + " ".join("%9s" % k[:9] for k in keys))
    for s in suites:
        c = count(os.path.join(corpus, s))
        print("%-40s " % s + " ".join("%9d" % c[k] for k in keys))


if __name__ == "__main__":
    main()
