"""Expected values of the matrix, layout, buffer, atomic and groupshared cases (see expected.py)."""
from vals import f32, i32, u32, fbits
import layout


def mat(rows, cols, vals):
    return [[vals[r * cols + c] for c in range(cols)] for r in range(rows)]


def matmul(a, b):
    return [[f32(sum(a[r][k] * b[k][c] for k in range(len(b)))) for c in range(len(b[0]))] for r in range(len(a))]


def matrix_mul_nonsquare():
    data = [1, 2, 3, 4, 5, 6, -1, 0.5, 2, -2, 0, 1, 1, -1, 2, 3, -2]
    data = [f32(x) for x in data]
    m = mat(2, 3, data[0:6])
    n = mat(3, 2, data[6:12])
    v3, v2 = data[12:15], data[15:17]
    mv = [c[0] for c in matmul(m, [[x] for x in v3])]
    vm = matmul([v2], m)[0]
    mn = matmul(m, n)
    nm = matmul(n, m)
    out = mv + vm + [x for r in mn for x in r] + [x for r in nm for x in r]
    out += [2 * m[1][2], 2 * m[0][1], f32(sum(x * x for x in v3))]
    return "mul(M, v), mul(v, M), mul(M, N) on 2x3/3x2, scalar*matrix, vector*vector", (1, 1, 1), 1, [
        ("f32", data, None), ("f32", [0.0] * 21, out),
    ]


def matrix_transpose_index():
    data = [f32(x) for x in range(1, 10)]
    m = mat(3, 3, data)
    i, j = 2, 0
    row = list(m[i])
    e = m[j][i]
    m[i][j] = -1.0
    m[2][0] = 50.0
    m[j] = [x * 2 for x in m[j]]
    out = row + [e] + [f32(m[b][a] + m[a][b] * 0.5) for a in range(3) for b in range(3)]
    return "matrix rows/elements with run-time indices, element writes, transpose", (1, 1, 1), 1, [
        ("f32", data, None), ("u32", [i, j], None), ("f32", [0.0] * 13, out),
    ]


def layout_reads(std140, base, words):
    """What the layout cases read from a T at byte `base` of `words` (see the shaders)."""
    t = layout.DOC_T
    off = {k: base + v for k, v in layout.offsets(t, std140).items()}
    members = dict(t[1])

    def at(byte):
        return words[byte // 4]

    out = [at(off["a_float"]), at(off["b_float3"]), at(off["b_float3"] + 8), at(off["c_S_float3"] + 4)]
    for name in ["d_float2x3", "e_float2x3"]:
        out += [at(layout.element(members[name], off[name], std140, r, c)) for r in range(2) for c in range(3)]
    out.append(at(layout.element(members["f_int_3"], off["f_int_3"], std140, 2)))
    g = members["g_float2_2"]
    out += [at(layout.element(g, off["g_float2_2"], std140, 1)), at(layout.element(g, off["g_float2_2"], std140, 0) + 4)]
    return out, off, members


def matrix_layout_structured():
    layout.self_check()
    size, _ = layout.size_align(layout.DOC_T, False)
    words = [fbits(k + 1) for k in range(2 * size // 4)]
    out, _, _ = layout_reads(False, size, words)
    # mul(In[0].d_float2x3, float3(1, 0, 0)).y is element [1][0] of element 0.
    _, off0, members = layout_reads(False, 0, words)
    out.append(words[layout.element(members["d_float2x3"], off0["d_float2x3"], False, 1, 0) // 4])
    # Through DXIL the structured buffer is tightly packed (dxc's layout): the same values there.
    layout.dx_self_check()
    return "DXC's documented struct (SPIR-V.rst) read from a StructuredBuffer (std430)", (1, 1, 1), 1, [
        ("u32", words, None), ("u32", [0] * 20, out),
    ], {"dxil": {0: layout.to_dx(layout.DOC_T, words, False, count=2)}}


def matrix_layout_cbuffer():
    layout.self_check()
    size, _ = layout.size_align(layout.DOC_T, True)
    words = [fbits(k + 1) for k in range(size // 4)]
    out, off, members = layout_reads(True, 0, words)
    out.append(words[layout.element(members["d_float2x3"], off["d_float2x3"], True, 0, 1) // 4])
    out.append(words[layout.element(members["e_float2x3"], off["e_float2x3"], True, 1, 2) // 4])
    return "DXC's documented struct (SPIR-V.rst) as cbuffer members (std140)", (1, 1, 1), 1, [
        ("u32", words, None, "uniform"), ("u32", [0] * 21, out),
    ]


def atomics_ops_originals():
    u = [10, 0xFFFF, 0x00F0, 0x1234, 8, 5, 1, 5]
    s = [3, -20, 7]
    u_after = [15, 0xF0F0, 0x0FF0, 0x1234 ^ 0xFFFF, 3, 0x80000000, 77, 2]
    orig = u[:7] + [5, 5, 3, u32(-20)]
    return "every Interlocked* op with its original value", (1, 1, 1), 1, [
        ("u32", u, u_after), ("i32", s, [-5, -5, -3]), ("u32", [0] * 11, orig),
    ]


def atomics_contended_minmax():
    vals = [((k * 37) % 64) * 3 + 5 for k in range(64)]
    return "64 threads: InterlockedMax/Min/Or on a buffer, InterlockedAdd on groupshared", (1, 1, 1), 1, [
        ("u32", vals, None), ("u32", [0, 0xFFFFFFFF, 0, 0], [max(vals), min(vals), 0xFFFFFFFF, sum(vals)]),
    ]


def groupshared_scan_prefix():
    vals = [(k * 7) % 10 + 1 for k in range(32)]
    pre = [sum(vals[:k + 1]) for k in range(32)]
    return "inclusive prefix sum in groupshared memory with barriers", (1, 1, 1), 1, [
        ("u32", vals, None), ("u32", [0] * 64, pre + pre[::-1]),
    ]


def bytebuffer_templated():
    w = [8, fbits(1.5), u32(-5), 12, 100, fbits(-2.25), 42, 0]
    u3 = w[4:7]
    out = [fbits(3.0), 5, u32(-12), u3[0] + 1, u3[1] + 1, u3[2] + 1, u3[2], u3[1], u3[0], w[0],
           w[5], w[6], u32(w[6] + w[5])]
    return "ByteAddressBuffer Load<T>/Store<T> with uint and uint2, Load3/Store3/Store4", (1, 1, 1), 1, [
        ("u32", w, None), ("u32", [0] * 13, out),
    ]


def bytebuffer_atomic():
    return "RWByteAddressBuffer InterlockedAdd/CompareExchange/Exchange", (1, 1, 1), 1, [
        ("u32", [0, 0, 11, 0, 5, 0], [0, 48, 12, 11, 99, 5]), ("u32", [0] * 16, [1] * 16),
    ]


def resources_arrays_nonuniform():
    sel = [2, 0, 1, 2]
    src = [[k * 10 + j for j in range(4)] for k in range(3)]
    out = [src[sel[g]][g] + 1000 * src[2][g] + 100000 * src[1][0] for g in range(4)]
    dst = [[0] * 4, [0] * 4]
    for g in range(4):
        dst[g & 1][g] = src[sel[g]][g ^ 3] * 10 + sel[g]
    return "arrays of buffers indexed per thread and by constants", (1, 1, 1), 4, [
        ("u32", sel, None),
        *[("u32", src[k], None, "storage", 1) for k in range(3)],
        # Only a descriptor array's first element can be expected; Back reads both.
        ("u32", [0] * 4, dst[0], "storage", 2),
        ("u32", [0] * 4, None, "storage", 2),
        ("u32", [0] * 4, out, "storage", 3),
        ("u32", [0] * 4, [dst[g & 1][g] for g in range(4)], "storage", 4),
    ]


NAMES = {
    "matrix.mul.nonsquare": matrix_mul_nonsquare,
    "matrix.transpose.index": matrix_transpose_index,
    "matrix.layout.structured": matrix_layout_structured,
    "matrix.layout.cbuffer": matrix_layout_cbuffer,
    "atomics.ops.originals": atomics_ops_originals,
    "atomics.contended.minmax": atomics_contended_minmax,
    "groupshared.scan.prefix": groupshared_scan_prefix,
    "bytebuffer.templated": bytebuffer_templated,
    "bytebuffer.atomic": bytebuffer_atomic,
    "resources.arrays.nonuniform": resources_arrays_nonuniform,
}
