#!/usr/bin/env python3
"""Writes the .spec files of the HLSL execution cases: inputs and the values expected after the run.

The expected values are computed here, in Python, from HLSL's semantics (32-bit wrap-around,
truncating division, float32 rounding), independently of hlslc. Run from anywhere:

    python3 testsuite/exec/expected.py          # rewrite the .spec files
    python3 testsuite/exec/expected.py --check  # exit 1 if a committed .spec differs
"""
import math
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


from vals import f32, i32, u32, tdiv, trem  # noqa: E402


def fmt(ty, v):
    if ty == "f32":
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(f32(v))
    if ty == "u32" and v > 0xFFFF:
        return hex(v)
    return str(v)


def line(what, set_, binding, ty, values, extra="", kind="storage"):
    """A `buffer` (storage or uniform) or `expect` line of a spec."""
    head = f"{what} {set_} {binding}" + (f" {kind} {ty}" if what.endswith("buffer") else f" {ty}") + extra
    return head + " = " + " ".join(fmt(ty, v) for v in values)


def int_divmod_signed():
    a = [7, -7, 7, -7, 13, -13, 0, 100]
    b = [2, 2, -2, -2, 5, 5, 3, -7]
    return "Signed / and % truncate toward zero", (1, 1, 1), 1, [
        ("i32", a, None), ("i32", b, None),
        ("i32", [0] * 8, [tdiv(x, y) for x, y in zip(a, b)]),
        ("i32", [0] * 8, [trem(x, y) for x, y in zip(a, b)]),
    ]


def uint_divmod_wide():
    a = [7, 0xFFFFFFFF, 100, 0x80000000]
    b = [2, 16, 7, 3]
    return "Unsigned / and % above 2^31", (1, 1, 1), 1, [
        ("u32", a, None), ("u32", b, None),
        ("u32", [0] * 4, [x // y for x, y in zip(a, b)]),
        ("u32", [0] * 4, [x % y for x, y in zip(a, b)]),
    ]


def int_overflow_wrap():
    a = [2147483647, -2147483648, 65536, 123456789]
    b = [1, -1, 65536, 1000]
    return "32-bit +, -, * wrap around", (1, 1, 1), 1, [
        ("i32", a, None), ("i32", b, None),
        ("i32", [0] * 4, [i32(x + y) for x, y in zip(a, b)]),
        ("i32", [0] * 4, [i32(x - y) for x, y in zip(a, b)]),
        ("i32", [0] * 4, [i32(x * y) for x, y in zip(a, b)]),
    ]


def float_arith_basic():
    a = [f32(v) for v in [1.5, -2.25, 1e20, 0.1]]
    b = [f32(v) for v in [0.5, 4.0, 1e20, 3.0]]
    return "float +, *, / (1e20 * 1e20 overflows to inf)", (1, 1, 1), 1, [
        ("f32", a, None), ("f32", b, None),
        ("f32", [0] * 4, [f32(x + y) for x, y in zip(a, b)]),
        ("f32", [0] * 4, [f32(x * y) for x, y in zip(a, b)]),
        ("f32", [0] * 4, [f32(x / y) for x, y in zip(a, b)]),
    ]


def convert_float_to_int_trunc():
    f = [f32(v) for v in [1.9, -1.9, 2.5, -2.5, 1e9]]
    return "float -> int / uint truncate toward zero", (1, 1, 1), 1, [
        ("f32", f, None),
        ("i32", [0] * 5, [int(x) for x in f]),
        ("u32", [0] * 5, [int(abs(x)) for x in f]),
    ]


def convert_int_to_float_round():
    i = [16777217, -3, 2147483647, -16777219]
    u = [0xFFFFFFFF, 16777217, 3, 0x80000001]
    return "int / uint -> float round to nearest even", (1, 1, 1), 1, [
        ("i32", i, None), ("u32", u, None),
        ("f32", [0] * 4, [f32(float(x)) for x in i]),
        ("f32", [0] * 4, [f32(float(x)) for x in u]),
    ]


def swizzle_vector_mixed():
    v = [f32(x) for x in [1, 2, 3, 4, -0.5, 0.25, 8, 16]]
    rev, mix = [], []
    for k in range(2):
        x, y, z, w = v[4 * k:4 * k + 4]
        rev += [w, z, y, x]
        mix += [y * 2, x * 2, z, z]
    return "read and write swizzles", (1, 1, 1), 1, [
        ("f32", v, None), ("f32", [0] * 8, rev), ("f32", [0] * 8, mix),
    ]


def groupshared_reduction_sum():
    data = list(range(1, 129))
    return "groupshared tree reduction, 2 groups of 64", (2, 1, 1), 1, [
        ("u32", data, None), ("u32", [0] * 2, [sum(data[:64]), sum(data[64:])]),
    ]


def bitops_shift_count():
    x = [0xF0F0, 0x80000001, 1, 0xFFFFFFF0]
    s = [3, 33, 31, 4]
    bits = []
    for v in x:
        bits += [bin(v).count("1"), int(format(v, "032b")[::-1], 2), v.bit_length() - 1 if v else 0xFFFFFFFF]
    return "shifts (amount mod 32) and bit intrinsics", (1, 1, 1), 1, [
        ("u32", x, None), ("u32", s, None),
        ("u32", [0] * 4, [u32(v << (n & 31)) for v, n in zip(x, s)]),
        ("u32", [0] * 4, [v >> (n & 31) for v, n in zip(x, s)]),
        ("i32", [0] * 4, [i32(v) >> (n & 31) for v, n in zip(x, s)]),
        ("u32", [0] * 12, bits),
    ]


def control_loop_collatz():
    def steps(n):
        k = 0
        while n != 1 and k < 1000:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            k += 1
        return k
    n = [1, 6, 7, 27]
    return "loops with break/continue (Collatz steps)", (1, 1, 1), 1, [
        ("u32", n, None), ("u32", [0] * 4, [steps(v) for v in n]),
    ]


def intrinsics_math_minmax():
    i = [-5, 3, 17, -42]
    f = [f32(v) for v in [-1.25, 2.75, 0.0, -3.5]]
    io, fo = [], []
    for v in i:
        io += [abs(v), min(v, 2), max(v, -3), min(max(v, -10), 10)]
    for v in f:
        fo += [f32(math.floor(v)), f32(v - math.floor(v)), f32(v + 0.25 * (10.0 - v))]
    return "abs/min/max/clamp (int), floor/frac/lerp (float)", (1, 1, 1), 1, [
        ("i32", i, None), ("f32", f, None), ("i32", [0] * 16, io), ("f32", [0] * 12, fo),
    ]


def struct_array_dynamic():
    a = [3, 5, 7, 9]
    b = [2, 4, 6, 8]
    arr = [10, 20, 30, 40]
    pairs = []
    for x, y in zip(a, b):
        pairs += [x, y]
    return "struct loaded from a structured buffer, local array indexed dynamically", (1, 1, 1), 1, [
        ("u32", pairs, None),
        ("u32", [0] * 4, [u32(x * y + arr[(x + i) % 4]) for i, (x, y) in enumerate(zip(a, b))]),
    ]


def functions_out_inout():
    v = [11, -4, -17, 5]
    q = tdiv(v[2], v[3])
    return "inout swap and out parameters", (1, 1, 1), 1, [
        ("i32", v, None), ("i32", [0] * 4, [v[1], v[0], q, v[2] - q * v[3]]),
    ]


def matrix_mul_forms():
    m = [f32(x) for x in [1.0, 2.0, 3.0, 4.0]]   # rows (1, 2) and (3, 4)
    v = [f32(x) for x in [0.5, -1.0]]
    M = [[m[0], m[1]], [m[2], m[3]]]
    vm = [f32(v[0] * M[0][c] + v[1] * M[1][c]) for c in range(2)]
    mv = [f32(M[r][0] * v[0] + M[r][1] * v[1]) for r in range(2)]
    mm = [f32(sum(M[r][k] * M[k][c] for k in range(2))) for r in range(2) for c in range(2)]
    tr = [M[0][0], M[1][0], M[0][1], M[1][1]]
    return "mul(v, M), mul(M, v), mul(M, M) and transpose on float2x2", (1, 1, 1), 1, [
        ("f32", m + v + [0.0, 0.0], None),
        ("f32", [0.0] * 12, vm + mv + mm + tr),
    ]


def bytebuffer_load_store():
    words = [1, 2, 3, 4, 0, 0, 0, 0]
    out = list(words)
    out[4] = u32(words[0] + words[2])
    out[5] = u32(words[1] + words[3])
    out[6] = u32(words[1] * 3)
    return "ByteAddressBuffer Load/Load4/Store/Store2 at byte offsets", (1, 1, 1), 1, [
        ("u32", words, out),
    ]


def atomics_original_unique():
    n = 64
    return "InterlockedAdd returns each original value exactly once", (1, 1, 1), 1, [
        ("u32", [0], [n]), ("u32", [0] * n, [1] * n),
    ]


def intrinsics_geometric():
    a = [f32(x) for x in [1.0, 2.0, 3.0, 0.0]]
    b = [f32(x) for x in [-2.0, 0.5, 4.0, 0.0]]
    dot = f32(a[0] * b[0] + a[1] * b[1] + a[2] * b[2])
    cross = [f32(a[1] * b[2] - a[2] * b[1]), f32(a[2] * b[0] - a[0] * b[2]), f32(a[0] * b[1] - a[1] * b[0])]
    length = f32(math.sqrt(a[0] ** 2 + a[1] ** 2 + a[2] ** 2))
    norm = [f32(x / length) for x in a[:3]]
    return "dot, cross, length, normalize, sqrt, saturate", (1, 1, 1), 1, [
        ("f32", a + b, None),
        ("f32", [0.0] * 10, [dot] + cross + [length] + norm + [f32(math.sqrt(2.0)), 1.0]),
    ]


NAMES = {
    "int.divmod.signed": int_divmod_signed,
    "uint.divmod.wide": uint_divmod_wide,
    "int.overflow.wrap": int_overflow_wrap,
    "float.arith.basic": float_arith_basic,
    "convert.float_to_int.trunc": convert_float_to_int_trunc,
    "convert.int_to_float.round": convert_int_to_float_round,
    "swizzle.vector.mixed": swizzle_vector_mixed,
    "groupshared.reduction.sum": groupshared_reduction_sum,
    "bitops.shift.count": bitops_shift_count,
    "control.loop.collatz": control_loop_collatz,
    "intrinsics.math.minmax": intrinsics_math_minmax,
    "struct.array.dynamic": struct_array_dynamic,
    "functions.out_inout": functions_out_inout,
    "matrix.mul.forms": matrix_mul_forms,
    "bytebuffer.load.store": bytebuffer_load_store,
    "atomics.original.unique": atomics_original_unique,
    "intrinsics.geometric": intrinsics_geometric,
}


import cases_intr  # noqa: E402
import cases_lang  # noqa: E402
import cases_math  # noqa: E402
import cases_memory  # noqa: E402
import cases_places  # noqa: E402
import cases_vulkan  # noqa: E402

for _module in (cases_math, cases_lang, cases_memory, cases_places, cases_intr, cases_vulkan):
    NAMES.update(_module.NAMES)


def spec_text(name):
    title, dispatch, _, buffers, *rest = NAMES[name]()
    # An optional fifth element: the hlslc arguments (a list), or a dict of extras: "args",
    # "push" ([(type, words)]: push-constant data; ("address", binding): a buffer's device
    # address), "specialize" ([(SpecId, type, value)]) and "dxil" (see below).
    extra = (rest[0] if isinstance(rest[0], dict) else {"args": rest[0]}) if rest else {}
    out = [f"# {title}.", "# Generated by expected.py (values computed in Python, not by hlslc)."]
    if extra.get("args"):
        out.append("args " + " ".join(extra["args"]))
    out.append("dispatch %d %d %d" % dispatch)
    for ty, values in extra.get("push", []):
        if ty == "address":
            # The 64-bit device address of the buffer at binding `values` (set 0).
            out.append(f"push address 0 {values}")
        else:
            out.append(f"push {ty} = " + " ".join(fmt(ty, v) for v in values))
    for spec_id, ty, v in extra.get("specialize", []):
        out.append(f"specialize {spec_id} {ty} = {fmt(ty, v)}")
    # A buffer is (type, initial, expected[, kind[, binding]]); without a binding, its index.
    # Buffers with the same binding are the elements of a descriptor array.
    binding = lambda i, rest: rest[1] if len(rest) > 1 else i  # noqa: E731
    for i, (ty, init, _, *rest) in enumerate(buffers):
        out.append(line("buffer", 0, binding(i, rest), ty, init, kind=rest[0] if rest else "storage"))
    # "dxil" ({buffer index: words}): the initial contents through DXIL, where dxc's DXIL layout
    # of the buffer differs from the SPIR-V one.
    for i, words in sorted(extra.get("dxil", {}).items()):
        ty, _, _, *rest = buffers[i]
        out.append(line("dxil buffer", 0, binding(i, rest), ty, words, kind=rest[0] if rest else "storage"))
    for i, (ty, _, expected, *rest) in enumerate(buffers):
        if expected is not None:
            out.append(line("expect", 0, binding(i, rest), ty, expected, " ~1e-6" if ty == "f32" else ""))
    # "dxil_expect" ({buffer index: (why, values)}): what dxc's DXIL lowering computes where it
    # differs from its SPIR-V one; the reason goes into the spec as a comment.
    for i, (why, values) in sorted(extra.get("dxil_expect", {}).items()):
        ty, _, _, *rest = buffers[i]
        out.append(f"# through DXIL: {why}")
        out.append(line("dxil expect", 0, binding(i, rest), ty, values, " ~1e-6" if ty == "f32" else ""))
    # "dxil_root_constants" ((space, register, why)): the CBV that holds the push constants
    # through DXIL (Direct3D 12 root constants); "dxil_push" ([(type, words)]): its words when
    # the cbuffer packing differs from the push-constant layout.
    if "dxil_root_constants" in extra:
        space, register, why = extra["dxil_root_constants"]
        out.append(f"# through DXIL: {why}")
        out.append(f"dxil root-constants {space} {register}")
    for ty, values in extra.get("dxil_push", []):
        out.append(f"dxil push {ty} = " + " ".join(fmt(ty, v) for v in values))
    if "dxil_na" in extra:
        out.append("dxil not-applicable " + extra["dxil_na"])
    return "\n".join(out) + "\n"


def main():
    check = "--check" in sys.argv
    bad = 0
    for name in NAMES:
        path = os.path.join(HERE, name + ".spec")
        text = spec_text(name)
        if check:
            try:
                with open(path) as f:
                    old = f.read()
            except OSError:
                old = None
            if old != text:
                print(f"{path}: differs from what expected.py computes")
                bad += 1
        else:
            with open(path, "w") as f:
                f.write(text)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
