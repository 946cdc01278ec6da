"""Expected values of the mixed-type compound assignment and constant shift cases (see
expected.py)."""
import math

from vals import f32, i32, u32


def int_compound_mixed():
    a = [-7, 100000, -123457, 1000001]
    b = [3, 5, 65537, 4000000000]
    out = []
    for x, y in zip(a, b):
        rem = i32(u32(x) % y)                      # int %= uint: unsigned remainder
        div = i32(u32(x) // 65537)                 # int /= 65537u: unsigned division
        mul = math.trunc(f32(f32(x) * 1.5))        # int *= 1.5: in float, truncated back
        add = math.trunc(f32(f32(x) + 0.75))       # int += 0.75: in float
        v0 = i32(u32(x) // y)                      # int2 /= uint2, component 0
        v1 = i32(u32(-x) // 7)                     # component 1
        out += [rem, div, mul, add, v0, v1]
    n = -8
    folded = [
        u32(0x750 << (42 & 31)),                   # 0x750u << 42u
        0x80000000 >> (33 & 31),                   # 0x80000000u >> 33u
        u32(n >> (33 & 31)),                       # (int)-8 >> 33u, arithmetic
        u32(1 << (32 & 31)),                       # 1u << 32u
    ]
    return "compound assignment computed in the usual-conversions type; constant shifts mask the count", (1, 1, 1), 1, [
        ("i32", a, None), ("u32", b, None), ("i32", [0] * 24, out), ("u32", [0] * 4, folded),
    ]


NAMES = {
    "int.compound.mixed": int_compound_mixed,
}
