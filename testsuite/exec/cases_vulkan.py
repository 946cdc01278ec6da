"""Expected values of the Vulkan-specific cases: push constants and specialization constants (see
expected.py). Push-constant bytes are laid out here with layout.py's std430 rules (DXC lays push
constants out as storage buffers), independently of hlslc."""
from vals import f32, i32, u32, fbits, tdiv, trem
import layout


def words_of(struct_type, values):
    """The 32-bit words of a std430 struct holding `values` ({member: [(kind, value), ...]})."""
    offs = layout.offsets(struct_type, False)
    size = layout.size_align(struct_type, False)[0]
    words = [0] * (size // 4)
    for name, comps in values.items():
        t = dict(struct_type[1])[name]
        for i, (kind, v) in enumerate(comps):
            if t != "s" and t[0] == "a":
                at = offs[name] + i * layout.array_stride(t[1], False)
            else:
                at = offs[name] + 4 * i
            words[at // 4] = fbits(v) if kind == "f" else u32(v)
    return words


def cbuffer_words(struct_type, words):
    """The std430 `words` of a struct moved to dxc's cbuffer packing (each scalar at its DXIL
    cbuffer offset), rounded up to a 16-byte register."""
    vk = layout.vk_leaves(struct_type, 0, False)
    dx, end = layout.dx_leaves(struct_type, 0, True)
    out = [0] * (layout.align_up(end, 16) // 4)
    for a, b in zip(vk, dx):
        out[b // 4] = words[a // 4]
    return out


# dxc ignores [[vk::push_constant]] when compiling to DXIL ("'push_constant' attribute ignored"):
# the block is an ordinary constant buffer, and what Direct3D 12 has for push constants is root
# constants, a CBV whose words the root signature holds. hlslc gives the block b0 in space 0.
ROOT_CONSTANTS = "dxc ignores [[vk::push_constant]] (a warning), so the block is a CBV at b0, space0; Direct3D 12 gives it as root constants (dxil-spirv --root-constant maps them to push constants)"

PC = ("st", [("a", "s"), ("v", ("v", 3)), ("b", "s"), ("u2", ("v", 2)), ("arr", ("a", "s", 3)), ("i4", ("v", 4))])


def push_constant_layout():
    a, v, b, u2, arr, i4 = 4, [1.5, -2.25, 3.0], 0.125, [7, 0xFFFFFFF0], [10.5, 20.25, -30.0], [-1, 2, -3, 0x7FFFFFFF]
    push = words_of(PC, {
        "a": [("u", a)], "v": [("f", x) for x in v], "b": [("f", b)], "u2": [("u", x) for x in u2],
        "arr": [("f", x) for x in arr], "i4": [("i", x) for x in i4],
    })
    out_u = [a, u2[0], u2[1]] + [u32(x) for x in i4] + [u32(a + u2[1])]
    out_f = v + [b] + arr + [f32(arr[a % 3] + arr[2])]
    return "[[vk::push_constant]] struct with std430 padding, vectors and an array", (1, 1, 1), 1, [
        ("u32", [0] * 8, out_u), ("f32", [0.0] * 8, out_f),
    ], {"push": [("u32", push)], "dxil_root_constants": (0, 0, ROOT_CONSTANTS + "; the struct is a $Globals member, in cbuffer packing"),
        "dxil_push": [("u32", cbuffer_words(PC, push))]}


S = ("st", [("scale", ("v", 2)), ("count", "s"), ("bias", ("v", 4))])


def push_constant_cbuffer():
    scale, count, bias = [0.5, 9.0], 4, [1.0, -1.0, 2.5, 100.0]
    push = words_of(S, {"scale": [("f", x) for x in scale], "count": [("u", count)], "bias": [("f", x) for x in bias]})
    out = [f32(scale[0] * i + bias[i % 4]) for i in range(count)] + [scale[1], f32(bias[3] + count)]
    return "[[vk::push_constant]] ConstantBuffer<S>, members and the whole value", (1, 1, 1), 1, [
        ("f32", [0.0] * 6, out),
    ], {"push": [("u32", push)], "dxil_root_constants": (0, 0, ROOT_CONSTANTS + "; S packs the same in a cbuffer"),
        "dxil_push": [("u32", cbuffer_words(S, push))]}


def spec_outputs(k, flag, scale, u):
    return [
        ("i32", [0] * 6, [k, i32(k + 3), 1 if flag else 2, i32(u32(u * 2)), i32(k + k * 10), i32(u32(u * 3))]),
        ("f32", [0.0] * 2, [f32(scale * 2.0), f32(scale + k)]),
    ]


NO_SPEC_CONSTANTS = ("DXIL has no specialization constants: dxc ignores [[vk::constant_id]] "
                     "(\"'constant_id' attribute ignored\"), so no pipeline value can reach the shader")


def spec_constant_default():
    return "specialization constants at their default values", (1, 1, 1), 1, spec_outputs(5, False, 1.5, 7)


def spec_constant_override():
    k, flag, scale, u = -4, True, 0.25, 100
    return "specialization constants set by the pipeline", (1, 1, 1), 1, spec_outputs(k, flag, scale, u), {
        "specialize": [(0, "i32", k), (1, "u32", 1), (2, "f32", scale), (3, "u32", u)],
        "dxil_na": NO_SPEC_CONSTANTS,
    }


def spec_constant_remainder():
    k, inp = -7, [2, -9]
    out = [trem(k, 2), trem(k, -3), tdiv(k, 2), trem(k, inp[0]), trem(inp[1], k), trem(inp[1], inp[0])]
    return "a specialization constant's signed % and / with a negative value, and % at run time", (1, 1, 1), 1, [
        ("i32", [0] * 6, out),
        ("i32", inp, None),
    ], {"specialize": [(0, "i32", k)], "dxil_na": NO_SPEC_CONSTANTS}


def local_size_outputs(x, groups, size=16):
    """Each invocation writes 100 * its x in the group + 10 * its group + SV_GroupIndex at
    group * X + its x: with the group size X the pipeline chose, slots 0 .. groups * X - 1."""
    out = [0] * size
    for g in range(groups):
        for t in range(x):
            out[g * x + t] = 100 * t + 10 * g + t
    return [("u32", [0] * size, out)]


def spec_constant_local_size_default():
    return "[numthreads] sized by a specialization constant, at its default (2)", (3, 1, 1), 1, \
        local_size_outputs(2, 3), {"args": ["-fspv-target-env=vulkan1.3"]}


def spec_constant_local_size_override():
    return "[numthreads] sized by a specialization constant set by the pipeline (4)", (3, 1, 1), 1, \
        local_size_outputs(4, 3), {"args": ["-fspv-target-env=vulkan1.3"], "specialize": [(7, "u32", 4)],
                                   "dxil_na": NO_SPEC_CONSTANTS}


NO_BUFFER_POINTERS = ("vk::BufferPointer exists only with -spirv: without it dxc has no vk namespace "
                      "(\"use of undeclared identifier 'vk'\", HLSLFileCheck hlsl/namespace/vk-namespace.hlsl)")


def buffer_pointer():
    # Two 32-byte Nodes {uint4 head; float scale; uint count; uint2 pad} at binding 0, read and
    # written through their device address; raw words at binding 1.
    f = fbits
    nodes = [10, 20, 30, 40, f(1.5), 7, 0, 0, 100, 200, 300, 400, f(0.0), 0, 0, 0]
    raw = [1, 2, 3, 4, f(2.5), 6, 7, 8]
    k = 5
    after = list(nodes)
    out = [nodes[1], f(1.5 * 2.0), nodes[0] + nodes[3]]
    after[5] = nodes[5] + k                 # count += k
    out.append(nodes[2])                    # InterlockedAdd returns the old head.z
    after[2] = nodes[2] + 5
    out.append(nodes[8])                    # the second Node, 32 bytes on
    out += [raw[2], raw[4]]                 # RawBufferLoad at bytes 8 and 16
    raw_after = list(raw)
    raw_after[3] = 99                       # RawBufferStore at byte 12
    out.append(nodes[9] if k > 3 else nodes[1])
    out.append(nodes[10])                   # a uint pointer to byte 40: the second head.z
    return "vk::BufferPointer and raw buffer loads/stores through device addresses", (1, 1, 1), 1, [
        ("u32", nodes, after), ("u32", raw, raw_after), ("u32", [0] * len(out), out),
    ], {"push": [("address", 0), ("address", 1), ("u32", [k])], "dxil_na": NO_BUFFER_POINTERS}


def buffer_pointer_list():
    # Nodes {uint value; uint next_index; NodeP next} (16 bytes); the walk starts at node 0.
    nodes = [(5, 2), (7, 0xFFFFFFFF), (11, 3), (13, 1)]
    words = [w for v, k in nodes for w in (v, k, 0, 0)]
    visited, i = [], 0
    while i != 0xFFFFFFFF and len(visited) < 8:
        visited.append(nodes[i][0])
        i = nodes[i][1]
    out = visited + [0] * (8 - len(visited)) + [len(visited), sum(visited)]
    return "a linked list of vk::BufferPointers built and walked in device memory", (1, 1, 1), 1, [
        ("u32", words, None), ("u32", [0] * 10, out),
    ], {"push": [("address", 0)], "dxil_na": NO_BUFFER_POINTERS}


NAMES = {
    "vk.buffer_pointer": buffer_pointer,
    "vk.buffer_pointer.list": buffer_pointer_list,
    "vk.push_constant.layout": push_constant_layout,
    "vk.push_constant.cbuffer": push_constant_cbuffer,
    "vk.spec_constant.default": spec_constant_default,
    "vk.spec_constant.override": spec_constant_override,
    "vk.spec_constant.remainder": spec_constant_remainder,
    "vk.spec_constant.local_size": spec_constant_local_size_default,
    "vk.spec_constant.local_size.override": spec_constant_local_size_override,
}
