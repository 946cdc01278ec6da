"""Expected values of the mixed-type compound assignment, constant shift, 16/64-bit bit
intrinsic and packed-math cases (see expected.py). 64-bit values travel as two 32-bit words,
low word first."""
import math
import struct

from vals import f32, i32, u32


def lo_hi(v):
    v &= (1 << 64) - 1
    return [v & 0xFFFFFFFF, v >> 32]


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


def msb(v):
    return v.bit_length() - 1 if v else 0xFFFFFFFF


def lsb(v):
    return (v & -v).bit_length() - 1 if v else 0xFFFFFFFF


def signed(v, bits):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def smsb(v, bits):
    s = signed(v, bits)
    return msb(~s if s < 0 else s)


def reverse(v, bits):
    return int(format(v & ((1 << bits) - 1), "0%db" % bits)[::-1], 2)


def sign(v):
    return u32((v > 0) - (v < 0))


def intrinsics_bits_wide():
    u = [0, 0x0000010000008000, 0xFFFFFFFFFFFFFFF0, 0x8000000000000001, 0x00000000F0001234]
    words = []
    out = []
    for v in u:
        words += lo_hi(v)
        h = v & 0xFFFF
        r = reverse(v, 64)
        out += [msb(v), lsb(v), smsb(v, 64), r & 0xFFFFFFFF, r >> 32, sign(signed(v, 64)),
                msb(h), lsb(h), smsb(h, 16), reverse(h, 16), reverse(h, 16), sign(signed(h, 16)),
                bin(v).count("1")]
    return "firstbithigh/firstbitlow/reversebits/sign/countbits on 64- and 16-bit ints", (1, 1, 1), 1, [
        ("u32", words, None), ("u32", [0] * len(out), out),
    ]


def intrinsics_packed():
    color = [f32(x) for x in [0.0, 0.5, 1.0, 0.25, 0.999, 0.1, 0.75, 1.0]]
    scale = f32(255.002)
    ub = []
    for c in range(2):
        x = color[4 * c:4 * c + 4]
        ub += [math.trunc(f32(x[i] * scale)) for i in (2, 1, 0, 3)]
    a = [0xFFFFFFFF, 0x00000001, 0x80000000, 0xFFFFFFFF]
    b = [0x00000001, 0x00000002, 0x80000000, 0x7FFFFFFF]
    add = []
    add2 = lo_hi((a[0] | a[1] << 32) + (b[0] | b[1] << 32))
    add += add2
    for p in range(2):
        add += lo_hi((a[2 * p] | a[2 * p + 1] << 32) + (b[2 * p] | b[2 * p + 1] << 32))
    x, y, acc = 0x01FF807F, 0x02FE7F80, 1000

    def bytes_of(v, sgn):
        return [signed(v >> (8 * i), 8) if sgn else (v >> (8 * i)) & 0xFF for i in range(4)]
    udot = u32(sum(p * q for p, q in zip(bytes_of(x, False), bytes_of(y, False))) + acc)
    sdot = u32(sum(p * q for p, q in zip(bytes_of(x, True), bytes_of(y, True))) - acc)
    fx = [f32(v) for v in [2.75, -2.75, 0.5, -7.0]]
    frac = [f32(math.modf(v)[0]) for v in fx]
    whole = [f32(math.modf(v)[1]) for v in fx]
    return "D3DCOLORtoUBYTE4, AddUint64 (uint2, uint4), dot4add_u8packed/i8packed, modf", (1, 1, 1), 1, [
        ("f32", color, None), ("u32", a + b + [x, y, acc], None),
        ("i32", [0] * 8, ub), ("u32", [0] * 8, add + [udot, sdot]), ("f32", [0.0] * 8, frac + whole),
    ], ["-T", "cs_6_4"]  # dot4add_*8packed are SM 6.4 (dxc and the DXIL path refuse them before)


def intrinsics_msad4_frexp_pack():
    # msad4: window i of the 8-byte source (x | y << 32) starts at byte i; reference bytes that
    # are 0 are skipped (HLSL's definition of msad4).
    ref, sx, sy = 0x10FF0080, 0x80402010, 0x01F00804
    accum = [1, 2, 3, 1000]
    src = sx | sy << 32
    rb = [(ref >> (8 * j)) & 0xFF for j in range(4)]
    msad = []
    for i in range(4):
        total = accum[i]
        for j in range(4):
            sb = (src >> (8 * (i + j))) & 0xFF
            if rb[j]:
                total += abs(rb[j] - sb)
        msad.append(u32(total))
    # frexp: mantissa in [0.5, 1) with the sign of x, exponent as float (C's frexp).
    fx = [f32(v) for v in [12.5, -0.375, 1.0, 3.0e-5]]
    fr = [math.frexp(v) for v in fx]
    mant = [f32(m) for m, _ in fr]
    exps = [float(e) for _, e in fr]
    # dxc's DXIL lowering of frexp (HLOperationLower.cpp translateFrexp; HLSLFileCheck
    # intrinsics/basic/frexp.hlsl checks `and i32 ..., 8388607`) keeps the 23 mantissa bits and
    # ORs in the exponent of 0.5: the sign is dropped, the mantissa is |m|.
    dxil_mant = [abs(m) for m in mant]
    # pack/unpack: low bytes (truncation), or clamped to [-128, 127] / [0, 255] first.
    v = [-129, 300, 5, -2]
    def pack(vals):
        return sum((b & 0xFF) << (8 * k) for k, b in enumerate(vals))
    packed = [
        pack(v),
        pack([u32(x) for x in v]),
        pack([min(max(x, -128), 127) for x in v]),
        pack([min(max(x, 0), 255) for x in v]),
    ]
    word = 0x80FF7F01
    unpacked = [signed(word >> (8 * k), 8) for k in range(4)] + [(word >> (8 * k)) & 0xFF for k in range(4)]
    return "msad4, frexp, pack_s8/u8, pack_clamp_s8/u8, unpack_s8s32/u8u32", (1, 1, 1), 1, [
        ("u32", [ref, sx, sy] + accum + [word], None), ("f32", fx, None), ("i32", v, None),
        ("u32", [0] * 4, msad), ("f32", [0.0] * 8, mant + exps), ("u32", [0] * 4, packed),
        ("i32", [0] * 8, unpacked),
    ], {"args": ["-T", "cs_6_6"], "dxil_expect": {4: (
        "dxc's frexp (translateFrexp) masks the mantissa with 0x007fffff, dropping the sign: |mantissa|",
        dxil_mant + exps)}}


def int_compound_mixed_width():
    a, s, c = -10, -8, 7
    b, n, m = 3, 33, 0xF0F0F0F0
    v = [
        i32(a - b),                                # int -= uint (same bits either way)
        s >> (n & 31),                             # int >>= uint: arithmetic, count mod 32
        i32(c << (n & 31)),                        # int <<= uint
        i32(a & m), i32(a | m), i32(a ^ m),        # int &=, |=, ^= uint
        u32(b - c),                                # uint -= int: wraps
        m >> (c & 31),                             # uint >>= int: logical
        m % u32(a),                                # uint %= int: unsigned
        m // u32(s),                               # uint /= int: unsigned
        math.trunc(f32(f32(m) / 2.5)),             # uint /= 2.5: float, truncated back
        i32(((a % (1 << 64)) // b) & 0xFFFFFFFF),  # int /= uint64_t: unsigned 64-bit
    ]
    words = [u32(x) for x in v]
    words += lo_hi(int(a / b))                     # int64_t /= uint: signed (truncating)
    words += lo_hi(a - b * int(a / b))             # int64_t %= uint: signed
    words += lo_hi(m * (s % (1 << 64)))            # uint64_t *= int: int widens to uint64
    words += lo_hi(1 << (65 & 63))                 # 1ull << 65
    words += lo_hi(-8 >> (65 & 63))                # (int64_t)-8 >> 65u, arithmetic
    words += lo_hi(0x8000000000000000 >> (127 & 63))
    return "compound assignment with mixed signedness and width, shifts, constant 64-bit shifts", (1, 1, 1), 1, [
        ("i32", [a, s, c], None), ("u32", [b, n, m], None), ("u32", [0] * len(words), words),
    ]


def intrinsics_dot2add():
    def h(x):
        return struct.unpack("<e", struct.pack("<e", x))[0]
    rows = [(1.5, -2.25, 3.0, 0.5, 10.0), (0.125, 4.0, 8.0, -0.75, -1.0), (2.0, 3.0, 0.25, 0.5, 1000.0078125)]
    out = []
    for a0, a1, b0, b1, acc in rows:
        p0, p1 = h(h(a0) * h(b0)), h(h(a1) * h(b1))  # the products round to half
        out.append(f32(f32(f32(p0) + f32(p1)) + f32(acc)))
    return "dot2add: half products, float sums", (1, 1, 1), 1, [
        ("f32", [f32(x) for r in rows for x in r], None), ("f32", [0.0] * 3, out),
    ], ["-T", "cs_6_4", "-enable-16bit-types"]


NAMES = {
    "int.compound.mixed": int_compound_mixed,
    "int.compound.mixed_width": int_compound_mixed_width,
    "intrinsics.dot2add": intrinsics_dot2add,
    "intrinsics.msad4.frexp.pack": intrinsics_msad4_frexp_pack,
    "intrinsics.bits.wide": intrinsics_bits_wide,
    "intrinsics.packed": intrinsics_packed,
}
