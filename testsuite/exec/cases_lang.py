"""Expected values of the control-flow, function, struct and array cases (see expected.py)."""
from vals import f32, i32, u32, fbits

PRIMES = [2, 3, 5, 7, 11, 13]


def control_if_chain():
    xs = [-20, -3, 0, 4, 5, 12, 7, -5]
    out = []
    for x in xs:
        if x < -10:
            r = 0
        elif x < 0:
            r = 1
        elif x == 0:
            r = 2
        elif x < 10 and x != 5:
            r = 3
        else:
            r = 4
        nest = (20 if x % 2 == 0 else 21) if x > 0 else (30 if x > -5 else 0)
        calls = 0
        a = False
        if x > 0:
            calls += 1
            a = x > 5
        b = True
        if not x < 0:
            calls += 1
            b = -x > 5
        out += [r, nest, calls, int(a) + 2 * int(b)]
    return "if/else-if chains, nested ifs, short-circuit && and ||", (1, 1, 1), 1, [
        ("i32", xs, None), ("i32", [0] * 32, out),
    ]


def control_switch_fallthrough():
    xs = [0, 1, 2, 3, -1, 4, 5, -7]
    out = []
    for x in xs:
        r = {0: 11, 1: 10, 2: 100, 3: 100, -1: 7, 4: 6}.get(x, 1007)
        acc = 0
        for i in range(6):
            d = i - x
            if d == 0:
                continue
            acc += 100 if d == 1 else 1
            acc *= 2
        out += [r, acc]
    return "switch with fallthrough, default in the middle, break/continue in loops", (1, 1, 1), 1, [
        ("i32", xs, None), ("i32", [0] * 16, out),
    ]


def control_switch_int64():
    xs = [5, 0x100000005, 0x7FFFFFFF00000000, -1, -4294967296, 0x200000005, 4294967295, 0]
    labels = {5: 1, 0x100000005: 2, 0x7FFFFFFF00000000: 3, -1: 4, -4294967296: 5}
    words = []
    for x in xs:
        u = x & 0xFFFFFFFFFFFFFFFF
        words += [u & 0xFFFFFFFF, u >> 32]
    return "switch on a 64-bit selector with labels above 32 bits", (1, 1, 1), 1, [
        ("u32", words, None), ("u32", [0] * 8, [labels.get(x, 6) for x in xs]),
    ]


def control_loop_forms():
    ns = [0, 1, 7, 10]
    out = []
    for n in ns:
        odd = sum(i for i in range(n) if i % 2)
        w, steps = 1, 0
        while w < n:
            w *= 3
            steps += 1
        d = 5
        while d < n:
            d += 5
        pairs = sum(1 for a in range(5) for b in range(a + 1) if (a + b) % 3 == n % 3)
        out += [odd, steps, d, pairs, n * (n + 1) // 2]
    return "for/while/do-while, continue, break, nested loops, countdown", (1, 1, 1), 1, [
        ("u32", ns, None), ("u32", [0] * 20, out),
    ]


def control_return_early():
    xs = [3, -4, 0, 13, 25, 23, -200, 8]

    def find(t):
        for i, v in enumerate(xs):
            if v == t:
                return i
            if v < -100:
                return -2
        return -1

    def classify(v):
        if v < 0:
            return -1
        if v == 0:
            return 0
        while v > 10:
            v -= 10
            if v == 3:
                return 33
        return v

    init = [555] * 16
    out = []
    for k, v in enumerate(xs):
        out += init[2 * k:2 * k + 2] if v == 13 else [find(v + 1), classify(v)]
    return "early returns from loops, branches and the entry point", (1, 1, 1), 1, [
        ("i32", xs, None), ("i32", init, out),
    ]


def functions_inout_targets():
    In = [6, -3, 11, 4, 20]
    arr = [1, 2, 3]
    arr[In[3] % 3] *= 2
    t = In[0] * 2
    out = [In[0], In[1] * 2, In[2], arr[0] + arr[1] * 10 + arr[2] * 100, 10, 10,
           (t + 1000) + t * 10, 42, In[4] + 1, In[4] - 1]
    return "out/inout on components, elements, members, buffer elements; overloads", (1, 1, 1), 1, [
        ("i32", In, None), ("i32", [0] * 7 + [21, 0, 0], out),
    ]


def functions_fixcall_noinline():
    title, dispatch, n, buffers = functions_inout_targets()
    return "out/inout targets of [noinline] functions, -fspv-fix-func-call-arguments", dispatch, n, buffers, \
        ["-fspv-fix-func-call-arguments"]


def functions_noinline_values():
    In = [6, -3, 11, 4, 20]
    a, b, c = In[0], In[1], In[2]
    trunc = lambda x: int(x)  # noqa: E731 (HLSL float-to-int truncates toward zero, as int())
    pick_i = lambda v: v + 1000  # noqa: E731
    pick_f = lambda v: trunc(v * 10)  # noqa: E731

    def collatz(v):
        n = 0
        while v != 1 and n < 100:
            v = 3 * v + 1 if v & 1 else v // 2
            n += 1
        return n

    def sign_class(v):
        return -1 if v < 0 else 0 if v == 0 else 1

    outer = lambda v: pick_i(v) + pick_f(v * 0.5) + sign_class(v - 5)  # noqa: E731
    f = [x * 0.5 for x in (a, b, c)]
    out = [pick_i(a), pick_f(float(b)), b * c, a * c, collatz(c), sign_class(b), outer(a),
           trunc(f[0] * 4 + f[1] * 2 + f[2]), sign_class(0)]
    return "[noinline] functions on values: overloads, vectors, a loop, early returns, nested calls", \
        (1, 1, 1), 1, [("i32", In, None), ("i32", [0] * 9, out)]


def loops_unroll_counted():
    In = [3, -1, 4, 7]
    a0 = sum(In[i] * i for i in range(4))
    a1 = sum(In[x] * 10 + y for x in range(3) for y in range(2))
    a2, u = 0, 5
    while u > 1:
        a2 = a2 * 100 + u * In[u % 4]
        u -= 2
    a3 = sum(j * j for j in range(5) if j != 2)
    a4 = sum(In[k] + 1 for k in range(In[3] & 3))
    a5 = 0
    for t in range(4):
        if In[t] > 5:
            break
        a5 += In[t]
    return "[unroll] loops: counted, nested, stepping down, with continue; variable bound, break", (1, 1, 1), 1, [
        ("i32", In, None), ("i32", [0] * 6, [a0, a1, a2, a3, a4, a5]),
    ]


def struct_nested_copy():
    # Outer { Inner items[2] { int a; int b[2]; }; float f; }: 7 words, no padding (std430).
    src = [[(1, [2, 3]), (4, [5, 6]), 0.5], [(-1, [-2, -3]), (10, [20, 30]), -1.25]]

    def words(o):
        return [o[0][0], *o[0][1], o[1][0], *o[1][1], i32(fbits(o[2]))]

    def total(o):
        return o[0][0] + o[1][1][1]

    copies, out = [], []
    for t, o in enumerate(src):
        x = o[0][1][0]
        c = [list(o[0]), (x, [x + 1, 2 * x]), f32(o[2] + 1.5)]
        c[t] = (-9, list(c[t][1]))
        copies += words(c)
        out += [total(o), total(c), int(o[2] * 2)]
    init = words(src[0]) + words(src[1])
    return "nested structs with arrays: copies, returns, whole-struct stores", (1, 1, 1), 1, [
        ("i32", init, None), ("i32", [0] * 14, copies), ("i32", [0] * 6, out),
    ]


def array_local_dynamic():
    table = [3, 1, 4, 1, 5]
    xs = [5, 7, 12]
    out = []
    for t, x in enumerate(xs):
        grid = [[r * 10 + c + x for c in range(4)] for r in range(3)]
        i, j = x % 3, (x + 1) % 4
        grid[i][j] = 7
        row = list(grid[i])
        copy = list(row)
        copy[j] += 100
        out += [grid[i][j] + grid[2 - i][3 - j], sum(v * (k + 1) for k, v in enumerate(row)),
                row[0] + copy[j], table[(x + t) % 5]]
    return "local 1D/2D arrays with run-time indices, copies, by-value parameters", (1, 1, 1), 1, [
        ("u32", xs, None), ("u32", [0] * 12, out),
    ]


def globals_static_state():
    xs = [3, 10, 0, 7]
    out = []
    for x in xs:
        out += [100 + x + PRIMES[x % 6], 12]
    return "static globals, static const tables, function-scope statics", (1, 1, 1), 1, [
        ("u32", xs, None), ("u32", [0] * 8, out),
    ]


def assign_lvalue_results():
    xs = [4, -9, 0, 1000]
    out = []
    for x in xs:
        a, b, c, d = x, x * 3, 5, -2
        a += 1
        r0 = a
        a += 1
        a = b                 # ++a = b
        b += 2                # ++(++b)
        c += a
        d -= 1
        c = d                 # (c += a) = (d -= 1)
        b -= 1
        b *= 2                # twice(--b)
        a *= 2
        r1 = a
        m = [a, b, c, d]
        n = [v + 1 for v in m]
        out += [r0, b, c * 10 + d, r1, sum(n), m[0] - m[3]]
    return "prefix ++/-- and compound assignments as lvalues and as values", (1, 1, 1), 1, [
        ("i32", xs, None), ("i32", [0] * 24, out),
    ]


def struct_method_rvalue():
    xs = [1, -5, 0, 40000]
    out = []
    for x in xs:
        a, b = x, x * 2
        out += [a + b, a + b * 3, a + 100, a + b]
    return "methods called on function results (through a temporary)", (1, 1, 1), 1, [
        ("i32", xs, None), ("i32", [0] * 16, out),
    ]


def struct_static_members():
    xs = [1, 7, 0, 123456]
    out = []
    for v in xs:
        # `counter` is a static (private) variable: each invocation starts from 1000.
        out += [3, v * 3 + 1000, 1000 + v, 3 * v]
    return "static data members defined outside their struct", (1, 1, 1), 1, [
        ("u32", xs, None), ("u32", [0] * 16, out),
    ]


NAMES = {
    "control.if.chain": control_if_chain,
    "control.switch.fallthrough": control_switch_fallthrough,
    "control.switch.int64": control_switch_int64,
    "control.loop.forms": control_loop_forms,
    "control.return.early": control_return_early,
    "functions.inout.targets": functions_inout_targets,
    "functions.fixcall.noinline": functions_fixcall_noinline,
    "functions.noinline.values": functions_noinline_values,
    "loops.unroll.counted": loops_unroll_counted,
    "struct.nested.copy": struct_nested_copy,
    "array.local.dynamic": array_local_dynamic,
    "globals.static.state": globals_static_state,
    "assign.lvalue.results": assign_lvalue_results,
    "struct.method.rvalue": struct_method_rvalue,
    "struct.static.members": struct_static_members,
}
