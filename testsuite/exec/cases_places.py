"""Expected values of the cases on places: matrix elements and rows, templated byte-address
buffer loads and stores of every kind of type, and resource variables (see expected.py)."""
import struct

from vals import f32, u32, fbits
import layout


def matrix_elements_assign():
    inp = [f32(x) for x in [1.5, -2, 3, 4.25, 5, -6, 7, 8, 9]]
    i, j = 0, 2
    idx = [i, j, fbits(1.5), fbits(-2.0), fbits(0.25), fbits(8.0)]
    m = [inp[0:3], inp[3:6]]
    m[0][0], m[1][1] = 10.0, 11.0
    m[1][2] = 12.0
    m[1][0] = 13.0
    m[i][j] = 14.0
    m[0][2] += 100
    m[j - 1][i + 1] *= 2
    m[1][0], m[0][1] = m[0][1], m[1][0]
    r = inp[0:3]        # float1x3: one row
    c = inp[3:6]        # float3x1: one column
    r[j] = 20.0
    r[0] += 1           # r[i][0], i = 0
    c[j] = 30.0
    c[0] = 31.0
    row = r             # r[i]: the only row, whatever i is
    col = c[j - 1]      # c[j - 1][i]: i indexes the only column
    sq = [inp[0:3], inp[3:6], inp[6:9]]
    trow = [sq[k][j] for k in range(3)]
    out = [x for rw in m for x in rw] + row + c + [col] + trow
    f = [[1.5, -2.0], [0.25, 8.0]]
    bits = [fbits(inp[0]), fbits(inp[1]), fbits(inp[2]), fbits(inp[3]), fbits(m[1][2]), fbits(m[0][0]),
            fbits(f[0][1] + f[1][0]), fbits(f[1][1]), fbits(-2.0)]
    return "matrix element/swizzle writes, 1xN/Nx1 rows, transpose row, asuint/asint/asfloat of matrices", \
        (1, 1, 1), 1, [
            ("f32", inp, None), ("u32", idx, None), ("f32", [0] * len(out), out), ("u32", [0] * 9, bits),
        ]




def matrix_cbuffer_vectors():
    layout.self_check()
    v = lambda n: ("v", n) if n > 1 else "s"  # noqa: E731  (1xN / Nx1 matrices are vectors)
    cb = ("st", [("a", "s"), ("b", v(3)), ("c", v(3)), ("d", v(3)), ("e", v(3)), ("g", v(2)),
                 ("h", v(2)), ("k", v(1))])
    off = layout.offsets(cb, True)
    size, _ = layout.size_align(cb, True)
    words = [fbits(n + 1) for n in range(size // 4)]

    def at(name, comp=0):
        return words[(off[name] + 4 * comp) // 4]

    i, j = 0, 2
    out = [at("a"),
           at("b", 0), at("b", 2), at("b", 1), at("b", j), at("b", 1),
           at("c", 1), at("c", 2), at("c", j), at("c", i),
           at("d", 1), at("d", j),
           at("e", 2), at("e", j), at("e", 1),
           at("g", 1), at("g", i), at("h", 1), at("h", i + 1),
           at("k") * 2, at("b", 2)]
    floats = [struct.unpack("<f", struct.pack("<I", w))[0] for w in out]
    floats[19] = f32(struct.unpack("<f", struct.pack("<I", at("k")))[0] * 2)
    # Through DXIL the cbuffer has dxc's packing of the matrices themselves: the same values,
    # moved to where that layout puts them.
    m = lambda r, c, row_major=False: ("m", r, c, row_major)  # noqa: E731
    dx = ("st", [("a", "s"), ("b", m(1, 3)), ("c", m(3, 1)), ("d", m(1, 3, True)), ("e", m(3, 1, True)),
                 ("g", m(1, 2)), ("h", m(2, 1)), ("k", m(1, 1))])
    layout.dx_self_check()
    return "1xN/Nx1 cbuffer matrices as vectors: elements, rows, swizzles", (1, 1, 1), 1, [
        ("u32", words, None, "uniform"), ("u32", [i, j], None), ("f32", [0] * len(floats), floats),
    ], {"dxil": {0: layout.to_dx(cb, words, True, dx_t=dx)}}




def f64bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def bytebuffer_templated_types():
    w = [0] * 40
    w[0] = 4
    w[1], w[2], w[3] = fbits(1.5), u32(-7), 5                 # f at 4, n at 8, t at 12
    w[4:7] = [fbits(x) for x in (0.5, -1.0, 2.25)]             # v at 16
    mvals = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]                 # m at 28, column-major
    for c in range(3):
        for r in range(2):
            w[7 + c * 2 + r] = fbits(mvals[r][c])
    s = [fbits(-3.5), 9, u32(-1), 2, fbits(0.25), fbits(0.5), fbits(0.75), fbits(1.0)]  # S at 64
    w[16:24] = s
    w[24:27] = [fbits(x) for x in (7.0, 8.0, 9.0)]             # a at 96
    d = f64bits(3.25)
    w[28], w[29] = d & 0xFFFFFFFF, d >> 32                     # d at 112
    w[30], w[31] = 0xFFFFFFFF, 1                               # q = 0x1_FFFFFFFF at 120
    im = [[11, -12], [13, -14]]                                # im at 128, column-major
    for c in range(2):
        for r in range(2):
            w[32 + c * 2 + r] = u32(im[r][c])
    out = [0xAAAAAAAA] * 43                                  # words not stored keep their value
    out[0] = fbits(3.0)
    out[1] = 7
    out[2] = 0
    out[3:6] = [fbits(2.25), fbits(-1.0), fbits(0.5)]
    for c in range(3):                                         # m * 2 at 24
        for r in range(2):
            out[6 + c * 2 + r] = fbits(mvals[r][c] * 2)
    tr = [[mvals[r][c] for r in range(2)] for c in range(3)]   # transpose(m): 3x2 at 48
    for c in range(2):
        for r in range(3):
            out[12 + c * 3 + r] = fbits(tr[r][c])
    s2 = list(s)
    s2[0] = fbits(-2.5)
    s2[3] = 9
    s2[7] = fbits(6.0)
    out[20:28] = s2                                            # S at 80
    out[28:31] = w[24:27]                                      # a at 112
    d2 = f64bits(6.5)
    out[32], out[33] = d2 & 0xFFFFFFFF, d2 >> 32               # at 128
    out[34], out[35] = 0, 2                                    # q + 1 at 136
    out[36], out[37] = u32(13), u32(-14)                       # im[1] at 144
    for c in range(2):                                         # im at 152
        for r in range(2):
            out[38 + c * 2 + r] = u32(im[r][c])
    out[42] = fbits(6.0)                                       # m[1][2] at 168
    return "ByteAddressBuffer Load<T>/Store<T> of float, int, bool, vectors, matrices, struct, array, " \
        "double, uint64_t", (1, 1, 1), 1, [("u32", w, None), ("u32", [0xAAAAAAAA] * 43, out)]


def hbits(x):
    return struct.unpack("<H", struct.pack("<e", x))[0]


def bytebuffer_templated_half():
    def word(lo, hi):
        return (hi << 16) | lo
    pad = 0xAAAA
    w = [0,
         word(40000, hbits(1.5)),                  # u at 4, h at 6
         word(0x10000 - 300, 0x7777),              # s at 8
         word(1, 2), word(3, 0xBEEF),              # v at 12
         word(hbits(0.5), hbits(-4.0))]            # hv at 20
    out = [word(pad, hbits(3.0)),                  # h * 2 at 2
           word(40001, pad),                       # u + 1 at 4
           word(pad, 0x10000 - 300),               # s at 10
           word(pad, 3), word(2, 1),               # v.zyx at 14
           word(hbits(-4.0), hbits(0.5)),          # hv.yx at 20
           u32(-300),                              # (uint)(int)s at 24
           word(pad, pad)]
    return "ByteAddressBuffer Load<T>/Store<T> of half, uint16_t, int16_t and their vectors at 2-byte " \
        "offsets", (1, 1, 1), 1, [("u32", w, None), ("u32", [word(pad, pad)] * 8, out)], ["-T", "cs_6_2", "-enable-16bit-types"]


def cbuffer_packoffset():
    # packoffset(cN.c): byte 16 N + 4 c of the buffer, whatever the layout rule would give.
    words = [3 * n + 1 for n in range(24)]

    def at(reg, comp, count):
        first = (16 * reg + 4 * comp) // 4
        return words[first:first + count]
    out = at(0, 1, 1) + at(1, 2, 2) + at(2, 0, 4) + at(5, 0, 3)
    return "packoffset places cbuffer members", (1, 1, 1), 1, [
        ("u32", words, None, "uniform"), ("u32", [0] * len(out), out),
    ]


def cbuffer_dx_layout():
    # Byte offsets from fxc's reflection rules (16-byte rows; an element of a column-major 1xN
    # matrix or a row-major Nx1 matrix gets its own row; nothing crosses a row): a 0, m 16/32/48,
    # b 52, r 64/80, c 84, d0 96, d1 128.
    words = [fbits(float(i)) for i in range(40)]
    words[24], words[25] = 0, 0x40080000     # d0.x = 3.0 (little-endian double at byte 96)
    words[32], words[33] = 0, 0x40040000     # d1.x = 2.5 at byte 128
    w = lambda off: float(off // 4)          # noqa: E731  (the float stored at byte `off`)
    a = w(0)
    m = [w(16), w(32), w(48)]
    out = [a] + m + [w(52), w(64), w(80), w(84), m[1] + m[2], m[int(a) % 3], 3.0, 2.5]
    return "fxc's cbuffer packing with -fvk-use-dx-layout", (1, 1, 1), 1, [
        ("u32", words, None, "uniform"), ("f32", [0.0] * len(out), out),
    ], ["-fvk-use-dx-layout"]


NAMES = {
    "cbuffer.dx_layout": cbuffer_dx_layout,
    "cbuffer.packoffset": cbuffer_packoffset,
    "matrix.elements.assign": matrix_elements_assign,
    "matrix.cbuffer.vectors": matrix_cbuffer_vectors,
    "bytebuffer.templated.types": bytebuffer_templated_types,
    "bytebuffer.templated.half": bytebuffer_templated_half,
}


def resources_locals_arrays():
    a, b = [1, 100], [200, 201]
    arr = [[10, 11], [20, 21], [30, 31]]
    counters = [10, 5]
    i = a[0]
    out = [a[1], b[1], arr[i][0], arr[i + 1][1]]
    y = arr[2 - i]
    out += [arr[k][0] + y[0] for k in range(3)]
    c0 = counters[i]            # IncrementCounter: the value before
    counters[i] += 1
    c1 = counters[i]
    counters[i] += 1
    counters[0] -= 1            # DecrementCounter: the value after
    c2 = counters[0]
    counted0 = [0] * 8
    counted0[c2 - 5] = 77       # Counted[i - 1], i = 1
    c3 = counters[i]            # through a local alias of Counted[i]
    counters[i] += 1
    out += [c0, c1, c2, c3]
    out += [sum(a) + 10 * sum(b)]
    log, log_counter = [0] * 4, 2
    pushed = []
    for v in (5, 6):            # push(Log, v): the counter's old value is the slot
        log[log_counter] = v
        pushed.append(log_counter)
        log_counter += 1
    out += [pushed[0] * 100 + pushed[1]]
    return "resource locals reassigned, run-time indexed buffer arrays, counters of buffer-array elements, " \
        "buffer parameters", \
        (1, 1, 1), 1, [
            ("u32", a, None, "storage", 0), ("u32", b, None, "storage", 1),
            ("u32", arr[0], None, "storage", 2), ("u32", arr[1], None, "storage", 2), ("u32", arr[2], None, "storage", 2),
            ("u32", [0] * len(out), out, "storage", 3),
            ("u32", [0] * 8, counted0, "storage", 4), ("u32", [0] * 8, None, "storage", 4),
            ("u32", [10], [counters[0]], "storage", 5), ("u32", [5], None, "storage", 5),
            ("u32", [0] * 4, log, "storage", 6), ("u32", [2], [log_counter], "storage", 7),
        ]


NAMES["resources.locals.arrays"] = resources_locals_arrays


def resources_structs_flow():
    x, y = [7, 8, 9], [2, 3, 4]
    ga, gb = [5, 6, 7], [11, 12, 13]        # GA (binding 2), GB (binding 3): G = { GA, GB }
    p = {"a": x, "b": y}
    out = [p["a"][0] + p["b"][1]]
    q = {"a": ga, "b": p["b"]}              # a copy of p, then q.a = G.a
    out.append(q["a"][1] * q["b"][1])       # dot2(q, 1)
    out.append(ga[0] * gb[0])               # dot2(G, 0)
    out.append(gb[1])                       # n.p = G; n.dst[..] = n.p.b[1]
    bufs = [y, gb]
    out.append(bufs[0][0] + 10 * bufs[1][0])  # pick(bufs, 0)
    out.append(p["b"][0])                   # second(p)[0]
    s = x if x[0] > 5 else y
    out.append(s[1] if x[0] > 5 else s[1] + 1000)
    out.append(ga[2])                       # G.a on both arms
    out.append(y[0])                        # switch (2): case 2 takes Y
    first = x[1] * 2                        # static f = x * 2, initialized by the first call only
    out.append(first * 100 + first)
    log, counter = [0] * 4, 1
    n = counter                             # IncrementCounter gives the value before
    counter += 1
    log[n] = 42
    out.append(n)
    return "structs of buffers (local, global, parameters), buffer arrays from initializer lists, " \
        "a function returning a buffer and its counter, a buffer local assigned in both arms of a branch " \
        "or in a constant switch, a static local initialized once", \
        (1, 1, 1), 1, [
            ("u32", x, None, "storage", 0), ("u32", y, None, "storage", 1),
            ("u32", ga, None, "storage", 2), ("u32", gb, None, "storage", 3),
            ("u32", [0] * len(out), out, "storage", 4),
            ("u32", [0] * 4, log, "storage", 5), ("u32", [1], [counter], "storage", 6),
        ]


NAMES["resources.structs.flow"] = resources_structs_flow


def resources_structs_mixed():
    a, b = [7, 8, 9], [2, 3, 4]                 # A (binding 0), B (binding 1)
    m = {"src": a, "scale": 3, "extra": [5, 7]}
    out = [m["src"][1] * m["scale"]]
    m2 = dict(m, src=b, scale=10)               # a copy of m, then two members changed
    out.append(m["src"][0] + m["scale"] + m2["src"][0] * m2["scale"])
    out.append(m["src"][2] * (m["scale"] + 1) + m["extra"][1])  # shade(m, 2) changes its own copy
    out.append(m["scale"])                      # ... not m
    p = {"m": dict(m2), "base": 100}            # p.m = m2; p.dst = Out
    out.append(p["m"]["src"][2] + p["base"] + p["m"]["extra"][0])
    arr = [dict(m), dict(m2)]
    arr[1]["extra"] = [1, 2]
    out.append(arr[0]["src"][0] * arr[1]["scale"] + arr[1]["extra"][1])
    out.append(b[1])                            # pickB(t): an out resource parameter
    out.append(b[0] * 4)                        # m3.scale = 4; pickB(m3.src)
    out.append(b[1] * 5)                        # m3.bump(); m3.get(1)
    out.append(a[2] * 5 * 2 + b[0] * 10)        # m3.src = A; m3.twice(2) + arr[1].get(0)
    out.append(a[0] * 5 + b[2])                 # m3.buffer()[0] * m3.scale + arr[1].buffer()[2]
    return "structs that mix buffers and data: initializer lists, copies, member writes, nested " \
        "structs, arrays of them, a by-value parameter the callee changes, out resource parameters, methods", \
        (1, 1, 1), 1, [
            ("u32", a, None, "storage", 0), ("u32", b, None, "storage", 1),
            ("u32", [0] * len(out), out, "storage", 2),
        ]


NAMES["resources.structs.mixed"] = resources_structs_mixed
