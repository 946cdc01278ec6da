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


# dxc's DXIL layouts, for the DXIL path of the cases whose data depends on the layout:
# - constant buffers ("legacy" packing, dxc's AlignBaseOffset / AlignBufferOffsetInLegacy): a
#   scalar or vector is aligned to 4 and moves to the next 16-byte register if it would cross
#   one; a matrix is one register per column (per row if row_major), each holding a row (column),
#   and starts a register if it has more than one (a one-register matrix packs as a vector);
#   arrays and structs start a register, array elements are 16-byte aligned;
# - structured buffers: tightly packed 32-bit components, a matrix column by column (row by row
#   if row_major).

def dx_size(t, cbuffer):
    """Size in bytes of a type in dxc's DXIL layout (not rounded up to a register)."""
    return dx_leaves(t, 0, cbuffer)[1]


def dx_leaves(t, base, cbuffer):
    """([byte offset of each scalar, in logical order], end offset) of t placed at `base`."""
    if t == "s":
        return [base], base + 4
    kind = t[0]
    if kind == "v":
        return [base + 4 * i for i in range(t[1])], base + 4 * t[1]
    if kind == "m":
        _, rows, cols, row_major = t
        if not cbuffer:
            at = [base + 4 * (r * cols + c if row_major else c * rows + r) for r in range(rows) for c in range(cols)]
            return at, base + 4 * rows * cols
        regs, comps = (rows, cols) if row_major else (cols, rows)
        at = [base + (r * 16 + c * 4 if row_major else c * 16 + r * 4) for r in range(rows) for c in range(cols)]
        return at, base + (regs - 1) * 16 + comps * 4
    if kind == "a":
        size = dx_size(t[1], cbuffer)
        stride = align_up(size, 16) if cbuffer else size
        at = []
        for i in range(t[2]):
            at += dx_leaves(t[1], base + i * stride, cbuffer)[0]
        return at, base + (t[2] - 1) * stride + size if t[2] else base
    if kind == "st":
        at, off = [], base
        for _, m in t[1]:
            off = dx_place(off, m, cbuffer)
            sub, off = dx_leaves(m, off, cbuffer)
            at += sub
        return at, off
    raise ValueError(t)


def dx_place(off, t, cbuffer):
    """The offset of a member of type t placed at or after `off` in dxc's DXIL layout."""
    if not cbuffer:
        return off
    if t == "s" or t[0] == "v" or (t[0] == "m" and (t[1] if t[3] else t[2]) == 1):
        size = dx_size(t, True)
        if off % 16 + size > 16:
            return align_up(off, 16)
        return off
    return align_up(off, 16)


def vk_leaves(t, base, std140):
    """Byte offsets of each scalar of t at `base` in the SPIR-V layouts above, in logical order."""
    if t == "s":
        return [base]
    kind = t[0]
    if kind == "v":
        return [base + 4 * i for i in range(t[1])]
    if kind == "m":
        _, rows, cols, _ = t
        return [element(t, base, std140, r, c) for r in range(rows) for c in range(cols)]
    if kind == "a":
        out = []
        for i in range(t[2]):
            out += vk_leaves(t[1], element(t, base, std140, i), std140)
        return out
    if kind == "st":
        out = []
        for name, off in offsets(t, std140).items():
            out += vk_leaves(dict(t[1])[name], base + off, std140)
        return out
    raise ValueError(t)


def to_dx(t, words, std140, count=1, dx_t=None):
    """The words of `count` consecutive t in the SPIR-V layout (`words`) moved to dxc's DXIL
    layout (cbuffer when std140, else structured buffer) of `dx_t` (default t; the same scalars
    in the same order), so that every scalar reads the same."""
    dx_t = dx_t or t
    vk_size = size_align(t, std140)[0]
    dx_stride = dx_size(dx_t, std140)
    if std140 and count > 1:
        dx_stride = align_up(dx_stride, 16)
    out = [0] * ((dx_stride * count + 3) // 4)
    for e in range(count):
        vk, dx = vk_leaves(t, e * vk_size, std140), dx_leaves(dx_t, e * dx_stride, std140)[0]
        assert len(vk) == len(dx), (t, dx_t)
        for a, b in zip(vk, dx):
            out[b // 4] = words[a // 4]
    return out


def dx_self_check():
    """fxc's packing of the cbuffer in exec/cbuffer.dx_layout.hlsl (its comments) and of the
    one-register matrices (dxc's AlignBaseOffset), and the packed structured-buffer DOC_T."""
    cb = ("st", [("a", "s"), ("m", ("m", 1, 3, False)), ("b", "s"), ("r", ("m", 2, 1, True)), ("c", "s")])
    at, _ = dx_leaves(cb, 0, True)
    assert at == [0, 16, 32, 48, 52, 64, 80, 84], at
    one = ("st", [("a", "s"), ("m", ("m", 3, 1, False)), ("n", ("m", 1, 2, True))])
    assert dx_leaves(one, 0, True)[0] == [0, 4, 8, 12, 16, 20], dx_leaves(one, 0, True)
    assert dx_size(DOC_T, False) == 104
