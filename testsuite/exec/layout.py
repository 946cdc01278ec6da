"""Buffer layouts of DXC's SPIR-V backend, written from SPIR-V.rst ("vector-relaxed" std140 for
cbuffers, std430 for structured buffers), independently of hlslc.

Types: "s" (a 32-bit scalar), ("v", n), ("m", rows, cols, row_major), ("a", elem, count),
("st", [(name, type), ...]). The rules:
- a vector's alignment is 8 (2 components) or 16 (3, 4); as a struct member it is placed at the
  alignment of its element (4) unless it would then straddle a 16-byte boundary ("relaxed");
- a matrix is an array of its major vectors (rows if row_major, else columns);
- an array's stride is its element's size rounded up to the element's alignment, and in std140
  arrays and structs are aligned to 16;
- a struct's alignment is the largest of its members', its size rounded up to it.
"""


def align_up(x, a):
    return (x + a - 1) // a * a


def size_align(t, std140):
    """(size, alignment) of a type."""
    if t == "s":
        return 4, 4
    kind = t[0]
    if kind == "v":
        n = t[1]
        return 4 * n, (8 if n == 2 else 16) if n > 1 else 4
    if kind == "m":
        _, rows, cols, row_major = t
        vec, count = (cols, rows) if row_major else (rows, cols)
        stride = array_stride(("v", vec), std140)
        return stride * count, array_align(("v", vec), std140)
    if kind == "a":
        return array_stride(t[1], std140) * t[2], array_align(t[1], std140)
    if kind == "st":
        off, align = 0, 4
        for _, m in t[1]:
            off = place(off, m, std140)
            size, a = size_align(m, std140)
            off += size
            align = max(align, a)
        if std140:
            align = align_up(align, 16)
        return align_up(off, align), align
    raise ValueError(t)


def array_align(elem, std140):
    a = size_align(elem, std140)[1]
    return align_up(a, 16) if std140 else a


def array_stride(elem, std140):
    size, _ = size_align(elem, std140)
    return align_up(size, array_align(elem, std140))


def place(off, t, std140):
    """The offset of a member of type t placed at or after `off`."""
    size, a = size_align(t, std140)
    if t != "s" and t[0] == "v":
        off = align_up(off, 4)
        if off // 16 != (off + size - 1) // 16:
            off = align_up(off, 16)
        return off
    if t != "s" and t[0] in ("a", "st"):
        a = array_align(t, std140) if std140 else a
    return align_up(off, a)


def offsets(st, std140):
    """{member name: offset} of a struct type."""
    out, off = {}, 0
    for name, m in st[1]:
        off = place(off, m, std140)
        out[name] = off
        off += size_align(m, std140)[0]
    return out


def element(t, base, std140, *index):
    """Byte offset of a matrix element [r][c], array element [i] or vector component [i]."""
    if t[0] == "m":
        _, rows, cols, row_major = t
        r, c = index
        vec = cols if row_major else rows
        stride = array_stride(("v", vec), std140)
        return base + (r * stride + c * 4 if row_major else c * stride + r * 4)
    if t[0] == "a":
        return base + index[0] * array_stride(t[1], std140)
    if t[0] == "v":
        return base + 4 * index[0]
    raise ValueError(t)


# The example of SPIR-V.rst, section "Memory layout rules", with its documented offsets.
S_FLOAT3 = ("st", [("f", ("v", 3))])
DOC_T = ("st", [
    ("a_float", "s"), ("b_float3", ("v", 3)), ("c_S_float3", S_FLOAT3),
    ("d_float2x3", ("m", 2, 3, False)), ("e_float2x3", ("m", 2, 3, True)),
    ("f_int_3", ("a", "s", 3)), ("g_float2_2", ("a", ("v", 2), 2)),
])
DOC_STD140 = [0, 4, 16, 32, 80, 112, 160]
DOC_STD430 = [0, 4, 16, 32, 64, 96, 112]


def self_check():
    for std140, want in [(True, DOC_STD140), (False, DOC_STD430)]:
        got = list(offsets(DOC_T, std140).values())
        assert got == want, f"layout model disagrees with SPIR-V.rst: {got} != {want}"
