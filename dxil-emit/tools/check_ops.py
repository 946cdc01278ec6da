#!/usr/bin/env python3
"""Check dxil-emit/ops.txt against the opcode tables of DXIL.rst.

Usage: check_ops.py <DXIL.rst> <ops.txt> [--fill-docs]

Verifies that every op of DXIL.rst's CoreOps and ExperimentalOps tables appears in ops.txt with
the same name and opcode, and that no op of ops.txt is missing from DXIL.rst. With --fill-docs,
writes each op's `doc:` line from DXIL.rst's description (used once to seed the table; rerun when
DXIL.rst is updated). Exit status 1 on any mismatch.
"""
import re
import sys


def rst_ops(path):
    ops = {}
    feature = None
    in_table = False
    for line in open(path, encoding="utf-8"):
        m = re.match(r"Opcode Table (\w+), id=(\d+):", line)
        if m:
            feature = int(m.group(2))
            in_table = True
            continue
        if not in_table:
            continue
        if line.startswith(".. OPCODES-RST:END"):
            in_table = False
            continue
        m = re.match(r"^(\d+)\s+(\S+)\s+(.*)$", line.rstrip("\n"))
        if m:
            opcode = int(m.group(1))
            ops[m.group(2).rstrip("_")] = (opcode, m.group(3).strip())
    return ops


def main():
    rst, table = sys.argv[1], sys.argv[2]
    fill = "--fill-docs" in sys.argv
    ref = rst_ops(rst)
    out, errors, seen = [], [], set()
    feature = 0
    lines = open(table, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^partition (0x[0-9a-fA-F]+)", line)
        if m:
            feature = int(m.group(1), 16)
        m = re.match(r"^op (\d+) (\w+)", line)
        if fill and line.startswith("  doc:"):
            i += 1
            continue
        out.append(line)
        if m:
            idx, name = int(m.group(1)), m.group(2)
            opcode = (feature << 16) | idx
            seen.add(name)
            if name not in ref:
                errors.append(f"{name}: not in DXIL.rst")
            elif ref[name][0] != opcode:
                errors.append(f"{name}: opcode {opcode} but DXIL.rst says {ref[name][0]}")
            elif fill:
                out.append(f"  doc: {ref[name][1]}")
            else:
                j = i + 1
                doc = None
                while j < len(lines) and lines[j].startswith("  "):
                    if lines[j].startswith("  doc: "):
                        doc = lines[j][len("  doc: "):]
                    j += 1
                if doc != ref[name][1]:
                    errors.append(f"{name}: doc differs from DXIL.rst")
        i += 1
    for name in sorted(set(ref) - seen):
        errors.append(f"{name}: in DXIL.rst but missing from the table")
    if fill:
        open(table, "w", encoding="utf-8").write("\n".join(out))
    for e in errors:
        print(e, file=sys.stderr)
    print(f"{len(seen)} ops checked, {len(errors)} problems")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
