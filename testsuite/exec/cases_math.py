"""Expected values of the arithmetic, conversion and intrinsic cases (see expected.py)."""
import math

from vals import f32, i32, u32, tdiv, trem, fbits, smsb, reverse32


def int_arith_compound():
    a = [5, -7, 2147483647, -100]
    b = [3, 9, 1, -2147483648]
    out = []
    for x, y in zip(a, b):
        r = i32(x + y)
        r = i32(r * 3)
        r = i32(r - x)
        r = i32(-r)
        r = i32(r ^ y)
        r = i32(r | 1)
        r = i32(r & ~4)
        out += [i32(r - 1), i32(2 * r + 1), i32(7 * (r - 1))]
    return "compound assignment, unary operators, ++/-- on int", (1, 1, 1), 1, [
        ("i32", a, None), ("i32", b, None), ("i32", [0] * 12, out),
    ]


def int_divmod_vector():
    a = [[7, -7, 13, -13], [100, -100, 0, 2147483647]]
    b = [[2, 2, -5, -5], [7, -7, 3, -1]]
    C = [tdiv(x, y) for x, y in zip([-7, 7, -7, 7], [2, -2, -2, 2])]
    D = [trem(x, y) for x, y in zip([-7, 7, -7, 7], [3, -3, -3, 3])]
    out = []
    for t in range(2):
        x, y = a[t], b[t]
        out += [tdiv(p, q) for p, q in zip(x, y)]
        out += [trem(p, q) for p, q in zip(x, y)]
        c = [tdiv(p, q) for p, q in zip(x, y[::-1])]
        c = [trem(p, q) for p, q in zip(c, [3, -3, 5, -5])]
        out += c
        out += C if t == 0 else D
    return "int4 / and %, /= and %=, folded constants", (1, 1, 1), 1, [
        ("i32", a[0] + a[1], None), ("i32", b[0] + b[1], None), ("i32", [0] * 32, out),
    ]


def float_rem_fmod():
    a = [f32(v) for v in [5.5, -5.5, 5.5, -5.5]]
    b = [f32(v) for v in [2.0, 2.0, -2.0, -2.0]]
    out = []
    for x, y in zip(a, b):
        c = f32(f32(f32(-x - y) * 0.5) / 4.0)
        out += [math.fmod(x, y), math.fmod(x, y), c, f32(x - y * 2)]
    return "float % and fmod (sign of the dividend), compound float ops", (1, 1, 1), 1, [
        ("f32", a, None), ("f32", b, None), ("f32", [0.0] * 16, out),
    ]


def convert_bitcast_asuint():
    f = [1.0, -2.5, -0.0, 3.0e38]
    u = [0x3F800000, 0xC0490FDB, 0x7F800000, 0x40490FDB]
    bits = [fbits(x) for x in f] + [0xFFFFFFFF]
    floats = [struct_float(w) for w in u]
    return "asuint/asint/asfloat bit casts", (1, 1, 1), 1, [
        ("f32", f, None), ("u32", u, None), ("u32", [0] * 5, bits), ("f32", [0.0] * 4, floats),
    ]


def struct_float(w):
    import struct
    return struct.unpack("<f", struct.pack("<I", w))[0]


def convert_bool_select():
    ints = [0, 5, -3, -2147483648]
    fl = [f32(v) for v in [0.0, 0.0, -0.5, 2.0]]
    out = []
    for i, f in zip(ints, fl):
        bi, bf = i != 0, f != 0.0
        a = [i, i32(2 * i), i32(-i)]
        sel = [x if x > 0 else d for x, d in zip(a, [100, 200, 300])]
        out += [int(bi) + 2 * int(bf), u32(i) >> 28, int(f32(float(bi) * 3.0 + f)),
                i32(sum(sel)), int(bi and not bf), 0]
    return "bool conversions, int<->uint, vector ternary", (1, 1, 1), 1, [
        ("i32", ints, None), ("f32", fl, None), ("i32", [0] * 24, out),
    ]


def int_compare_minmax_unsigned():
    a = [1, 0x80000000, 0xFFFFFFFF, 5]
    b = [0xFFFFFFFF, 7, 0x7FFFFFFF, 5]
    out = []
    for x, y in zip(a, b):
        sx, sy = i32(x), i32(y)
        flags = (x < y) | (sx < sy) << 1 | (x >= y) << 2 | (sx == sy) << 3
        out += [min(x, y), max(x, y), min(max(x, 10), 0x90000000), u32(min(sx, sy)), u32(max(sx, sy)), flags]
    return "unsigned vs signed min/max/clamp/compare", (1, 1, 1), 1, [
        ("u32", a, None), ("u32", b, None), ("u32", [0] * 24, out),
    ]


def intrinsics_round_sign():
    f = [f32(v) for v in [2.5, -2.5, 0.3, -0.7, 1.5, 0.5]]
    ints = [-7, 0, 9, -1, 3, -2147483647]
    fo, io = [], []
    for x, i in zip(f, ints):
        fo += [float(round(x)), float(math.trunc(x)), float(math.ceil(x)), 1.0 if x >= 0.5 else 0.0,
               min(max(x, 0.0), 1.0), f32(x * 2.0 - 1.0)]
        sgn = (x > 0) - (x < 0)
        io += [sgn, ((i > 0) - (i < 0)) * 10 + abs(i)]
    return "round (half to even), trunc, ceil, step, saturate, mad, sign, abs", (1, 1, 1), 1, [
        ("f32", f, None), ("i32", ints, None), ("f32", [0.0] * 36, fo), ("i32", [0] * 12, io),
    ]


def intrinsics_bits_signed():
    u = [0x00F0, 0xFFFFFF00, 0x80000000, 0]
    out = []
    for v in u:
        low = (v & -v).bit_length() - 1 if v else 0xFFFFFFFF
        out += [smsb(v), v.bit_length() - 1 if v else 0xFFFFFFFF, low, bin(v).count("1"), reverse32(v)]
    return "firstbithigh (int and uint), firstbitlow, countbits, reversebits", (1, 1, 1), 1, [
        ("u32", u, None), ("u32", [0] * 20, out),
    ]


def intrinsics_float_vector():
    a = [f32(v) for v in [1.5, -2.0, 3.25, -0.75]]
    b = [f32(v) for v in [-1.0, 4.0, 5.0, 0.5]]
    hi = [0.5, 1.0, 2.0, 3.0]
    t = [0.0, 0.25, 0.5, 1.0]
    out = [min(x, y) for x, y in zip(a, b)] + [max(x, y) for x, y in zip(a, b)]
    out += [min(max(x, -1.0), h) for x, h in zip(a, hi)]
    out += [abs(f32(x - y)) for x, y in zip(a, b)]
    out += [f32(x + s * f32(y - x)) for x, y, s in zip(a, b, t)]
    out += [f32(x - math.floor(x)) for x in a]
    ia = [math.trunc(x) for x in a[:3]]
    ib = [math.trunc(x) for x in b[:3]]
    dots = [sum(x * y for x, y in zip(ia, ib)), ia[0] * -3 + ia[1] * 5]
    return "float vector min/max/clamp/abs/lerp/frac, int dot", (1, 1, 1), 1, [
        ("f32", a + b, None), ("f32", [0.0] * 24, out), ("i32", [0] * 2, dots),
    ]


def vector_splat_truncate():
    v = [f32(x) for x in [1.0, -2.0, 3.5, 8.0]]
    s = 2.5
    i = [-3, 7, 0, 1]
    out = [f32(x * 3 + s) for x in v]
    out += [v[3], v[2], v[2], v[0]]
    out += [f32(x / 2) for x in i]
    out += [float(x < s) + 10.0 * (y != 0) for x, y in zip(v, i)]
    out += [f32(p - q) for p, q in zip([v[0], 1.0, v[1], v[2]], [v[0], v[0], 0.5, 0.5])]
    return "splat, truncation, int->float vectors, comparisons as floats", (1, 1, 1), 1, [
        ("f32", v, None), ("f32", [0.0] * 20, out),
    ]


def vector_swizzle_write():
    v0 = [1.0, 2.0, 3.0, 4.0]
    v1 = [5.0, 6.0, 7.0, 8.0]
    v = list(v0)
    v[0], v[2] = 10.0, 20.0
    v[1] += 1.0
    v[0] += 2.0
    v[3] *= 3.0
    out = v + [v[2], v[0], 4.0, 4.0]
    w = list(v1)
    w[3], w[0] = -1.0, -2.0
    w[1] += 100.0
    return "swizzles as lvalues, swizzle of swizzle, scalar swizzle", (1, 1, 1), 1, [
        ("f32", v0 + v1, None), ("f32", [0.0] * 12, out + w),
    ]


NAMES = {
    "int.arith.compound": int_arith_compound,
    "int.divmod.vector": int_divmod_vector,
    "float.rem.fmod": float_rem_fmod,
    "convert.bitcast.asuint": convert_bitcast_asuint,
    "convert.bool.select": convert_bool_select,
    "int.compare.minmax_unsigned": int_compare_minmax_unsigned,
    "intrinsics.round.sign": intrinsics_round_sign,
    "intrinsics.bits.signed": intrinsics_bits_signed,
    "intrinsics.float.vector": intrinsics_float_vector,
    "vector.splat.truncate": vector_splat_truncate,
    "vector.swizzle.write": vector_swizzle_write,
}
