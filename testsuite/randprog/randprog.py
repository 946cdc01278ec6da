#!/usr/bin/env python3
"""Random, well-typed HLSL compute shaders with an independent evaluator of HLSL semantics.

Each program is built as a small tree, printed as HLSL and evaluated here in Python, so the
expected output buffer never comes from hlslc. The programs cover integer and float arithmetic
(32-bit wrap-around, truncating division, shifts masked to the width, the usual arithmetic
conversions between int and uint), vectors and swizzles, structs, local arrays, control flow
(if/else, for loops with break/continue, switch with fallthrough, early returns), functions with
in/out/inout parameters, groupshared memory with a barrier, structured and byte-address buffers and
atomics.

Float values stay integers of magnitude <= 2048 (every float operation is clamped), so every
operation is exact in float32 whatever the device does about contraction or rounding modes.

    python3 randprog.py --seed 7 --out DIR           # DIR/rand.7.hlsl and DIR/rand.7.spec
    python3 randprog.py --seeds 0 100 --out DIR      # seeds 0..99
    python3 randprog.py --seed 7 --print             # the shader on stdout
"""
import argparse
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "exec"))
from vals import i32, u32, tdiv, trem, reverse32, fbits  # noqa: E402

THREADS = 8          # threads in the one workgroup
SLOTS = 8            # outputs per thread
IN_LEN = 64          # words of the input buffer
RAW_WORDS = 4        # words of the byte-address buffer each thread owns
FMAX = 2048.0
SLOTS2 = 10          # outputs per thread of phase C (Out2)
REC_WORDS = 4        # struct R { uint a; int2 b; float c; }: a, b.x, b.y, c (dxc's default
                     # vector-relaxed std430 aligns int2 to 4, SPIR-V.rst "Memory layout rules")
MAT_WORDS = 16       # struct M { row_major float2x3 r; float2x3 c; }: 2 rows of 16 bytes, 3 columns of 8
                     # (SPIR-V; --dxil: 12, DXIL packs a structured buffer's matrices tightly)
DXIL = False         # --dxil: the expected buffers of the program compiled to DXIL


# ---------------------------------------------------------------------------------------------
# Types: 'int', 'uint', 'float', 'bool', vectors 'int2'..'float4', struct 'S'.

def base(ty):
    return ty.rstrip("234")


def dim(ty):
    return int(ty[-1]) if ty[-1] in "234" else 1


def vec(b, n):
    return b if n == 1 else f"{b}{n}"


def norm(b, x):
    """A scalar of base type b after an operation."""
    if b == "int":
        return i32(x)
    if b == "uint":
        return u32(x)
    if b == "float":
        return float(x)
    return bool(x)


def fclamp(x):
    return max(-FMAX, min(FMAX, x))


# An unsuffixed integer literal as lit() prints it. HLSL gives such a literal the type `literal int`,
# and an operation whose operands are all literal ints stays literal: dxc folds it in 64 bits (the
# hlsl-specs proposal 0017 describes this legacy behaviour), so `2147483647 * 2` or `1 << 40` differ
# from the 32-bit int arithmetic this evaluator models. Operations never get only literal int
# operands: one of them is written as `int(...)` (see `typed`).
LIT_INT = re.compile(r"^(\d+|\(-\d+\)|\(-2147483647 - 1\))$")


def typed(a):
    """An operand that is an unsuffixed int literal, cast to int."""
    return (f"int({a[0]})", a[1]) if LIT_INT.match(a[0]) else a


def all_lit(*xs):
    return all(LIT_INT.match(x[0]) for x in xs)


def zfloat(a):
    """A float stored to memory as bits: never zero (an odd integer), since Vulkan does not require
    the sign of a zero to be kept without SignedZeroInfNanPreserve (lavapipe folds
    float(int(-0.0)) to -0.0)."""
    return f"(float)((int)({a[0]}) | 1)", lambda env, f=a[1]: float(int(f(env)) | 1)


def lit(b, v):
    if b == "int":
        if v == -2**31:
            return "(-2147483647 - 1)"
        return str(v) if v >= 0 else f"({v})"
    if b == "uint":
        return f"{v}u"
    if b == "float":
        return f"{v:.1f}" if v >= 0 else f"({v:.1f})"
    return "true" if v else "false"


# ---------------------------------------------------------------------------------------------
# Expressions: (hlsl text, evaluator env -> value). A value is a scalar, or a tuple for vectors.

class Fn:
    def __init__(self, name, params, ret, body):
        self.name, self.params, self.ret, self.body = name, params, ret, body


class Return(Exception):
    def __init__(self, value):
        self.value = value


class Break(Exception):
    pass


class Continue(Exception):
    pass


def dim_of(v):
    return len(v) if isinstance(v, tuple) else 1


def splat(v, n):
    return v if isinstance(v, tuple) else (v,) * n


def cw(b, n, f, *vals):
    """Component-wise f over values of n components (scalars splat)."""
    if n == 1:
        return norm(b, f(*vals))
    vs = [splat(v, n) for v in vals]
    return tuple(norm(b, f(*(v[i] for v in vs))) for i in range(n))


INT_OPS = ["+", "-", "*", "&", "|", "^", "<<", ">>", "/", "%"]


def assignable(scope):
    """Variables a statement may write: not loop counters (i*), not the thread index t or the
    neighbour's value w (main uses them after the generated statements)."""
    return [v for v in scope if not v.startswith("i") and v not in ("t", "w")]


class Gen:
    def __init__(self, seed, skip=()):
        self.r = random.Random(seed)
        self.seed = seed
        # Statements to leave out (ids in generation order): the reducer's handle. Generation
        # draws the same random numbers whatever is skipped, so ids are stable.
        self.skip = set(skip)
        self.stmt_count = 0
        self.fns = []
        self.uid = 0

    def name(self, p):
        self.uid += 1
        return f"{p}{self.uid}"

    # -- expressions ----------------------------------------------------------------------------

    def leaf(self, ty, scope):
        r = self.r
        cands = [v for v, t in scope.items() if t == ty]
        b, n = base(ty), dim(ty)
        choice = r.random()
        if cands and choice < 0.55:
            v = r.choice(cands)
            return v, lambda env, v=v: env[v]
        if b in ("int", "uint") and n == 1 and choice < 0.75:
            # A read of the input buffer, indexed by a variable or a constant.
            idx_vars = [v for v, t in scope.items() if t in ("int", "uint")]
            if idx_vars and r.random() < 0.7:
                iv = r.choice(idx_vars)
                t = f"In[((uint){iv}) & {IN_LEN - 1}u]"
                get = lambda env, iv=iv: u32(env[iv]) & (IN_LEN - 1)  # noqa: E731
            else:
                k = r.randrange(IN_LEN)
                t = f"In[{k}]"
                get = lambda env, k=k: k  # noqa: E731
            conv = "(int)" if b == "int" else ""
            return f"{conv}{t}", lambda env, get=get: norm(b, env["@In"][get(env)])
        if b == "int":
            vals = [r.choice([r.randint(-20, 20), r.randint(-2**31, 2**31 - 1), -2**31, 2**31 - 1, 0, 1, -1]) for _ in range(n)]
        elif b == "uint":
            vals = [r.choice([r.randint(0, 40), r.randint(0, 2**32 - 1), 0xFFFFFFFF, 0x80000000, 0, 1]) for _ in range(n)]
        else:
            vals = [float(r.randint(-40, 40)) for _ in range(n)]
        if n == 1:
            return lit(b, vals[0]), lambda env, v=vals[0]: v
        text = f"{ty}(" + ", ".join(lit(b, v) for v in vals) + ")"
        return text, lambda env, t=tuple(vals): t

    def expr(self, ty, scope, depth):
        r = self.r
        b, n = base(ty), dim(ty)
        if ty == "bool":
            return self.cond(scope, depth)
        if depth <= 0 or r.random() < 0.25:
            return self.leaf(ty, scope)
        k = r.random()
        if b == "float":
            return self.fexpr(ty, scope, depth, k)
        if k < 0.45:
            op = r.choice(INT_OPS)
            # Mixed signedness: int op uint is computed in uint (the usual arithmetic conversions;
            # shifts keep their left operand's type, so they are not mixed here).
            if b == "uint" and n == 1 and op not in ("<<", ">>") and r.random() < 0.25:
                a, c = self.expr("int", scope, depth - 1), self.expr("uint", scope, depth - 1)
                if r.random() < 0.5:
                    a, c = c, a
                return self.binop("uint", 1, op, a, c)
            a = self.expr(ty, scope, depth - 1)
            c = self.expr(ty, scope, depth - 1) if r.random() < 0.8 else self.expr(b, scope, depth - 1)
            return self.binop(b, n, op, a, c)
        if k < 0.55 and n == 1:
            src = r.choice(["int", "uint", "float"])
            a = self.expr(src, scope, depth - 1)
            if src == "float":
                if b == "uint":
                    return f"(uint)abs({a[0]})", lambda env, a=a: u32(int(abs(a[1](env))))
                return f"(int)({a[0]})", lambda env, a=a: i32(int(a[1](env)))
            return f"({b})({a[0]})", lambda env, a=a: norm(b, a[1](env))
        if k < 0.63:
            c = self.cond(scope, depth - 1)
            a, e = self.expr(ty, scope, depth - 1), self.expr(ty, scope, depth - 1)
            if all_lit(a, e):
                a = typed(a)
            return f"({c[0]} ? {a[0]} : {e[0]})", lambda env, c=c, a=a, e=e: a[1](env) if c[1](env) else e[1](env)
        if k < 0.72:
            src = vec(b, r.randint(2, 4))
            a = self.expr(src, scope, depth - 1)
            comps = [r.randrange(dim(src)) for _ in range(n)]
            sw = "".join("xyzw"[i] for i in comps)
            if n == 1:
                return f"({a[0]}).{sw}", lambda env, a=a, c=comps[0]: a[1](env)[c]
            return f"({a[0]}).{sw}", lambda env, a=a, cs=comps: tuple(a[1](env)[i] for i in cs)
        if k < 0.85:
            return self.intrinsic(b, n, scope, depth)
        if k < 0.92 and n == 1:
            a = typed(self.expr(ty, scope, depth - 1))
            if b == "int":
                return f"(-({a[0]}))", lambda env, a=a: i32(-a[1](env))
            return f"(~({a[0]}))", lambda env, a=a: u32(~a[1](env))
        calls = [f for f in self.fns if f.ret == ty and not any(d != "in" for _, _, d in f.params)]
        if calls and depth >= 1:
            f = r.choice(calls)
            args = [self.expr(t, scope, depth - 1) for _, t, _ in f.params]
            return (f"{f.name}(" + ", ".join(a[0] for a in args) + ")",
                    lambda env, f=f, args=args: self.call(f, [a[1](env) for a in args], env)[0])
        return self.leaf(ty, scope)

    def binop(self, b, n, op, a, c):
        r = self.r
        if all_lit(a, c):
            a = typed(a)
        if b == "uint":
            # Operands of another signedness convert to uint first.
            a = (a[0], lambda env, f=a[1]: cw("uint", n, lambda x: x, f(env)))
            c = (c[0], lambda env, f=c[1]: cw("uint", dim_of(f(env)), lambda x: x, f(env)))
        if op in ("/", "%"):
            one = "1u" if b == "uint" else "1"
            seven = "7u" if b == "uint" else "7"
            text = f"(({a[0]}) {op} ((({c[0]}) & {seven}) + {one}))"
            if b == "int":
                f = tdiv if op == "/" else trem
                return text, lambda env: cw(b, n, lambda x, y: f(x, (y & 7) + 1), a[1](env), c[1](env))
            return text, lambda env: cw(b, n, lambda x, y: (x // ((y & 7) + 1)) if op == "/" else (x % ((y & 7) + 1)), a[1](env), c[1](env))
        if op in ("<<", ">>"):
            masked = r.random() < 0.6
            text = f"(({a[0]}) {op} (({c[0]}){' & 31' if masked else ''}))"

            def sh(x, y):
                s = y & 31
                if op == "<<":
                    return x << s
                return (i32(x) >> s) if b == "int" else (u32(x) >> s)
            return text, lambda env: cw(b, n, sh, a[1](env), c[1](env))
        fns = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y,
               "&": lambda x, y: x & y, "|": lambda x, y: x | y, "^": lambda x, y: x ^ y}
        f = fns[op]
        if b == "uint":
            g = lambda x, y: f(u32(x), u32(y))  # noqa: E731 (int operands convert to uint)
        else:
            g = f
        return f"(({a[0]}) {op} ({c[0]}))", lambda env: cw(b, n, g, a[1](env), c[1](env))

    def fexpr(self, ty, scope, depth, k):
        r = self.r
        n = dim(ty)
        if k < 0.5:
            op = r.choice(["+", "-", "*"])
            a, c = self.expr(ty, scope, depth - 1), self.expr(ty if r.random() < 0.8 else "float", scope, depth - 1)
            f = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y}[op]
            return (f"clamp(({a[0]}) {op} ({c[0]}), -2048.0, 2048.0)",
                    lambda env: cw("float", n, lambda x, y: fclamp(f(x, y)), a[1](env), c[1](env)))
        if k < 0.65:
            a = self.expr(ty, scope, depth - 1)
            return f"floor(({a[0]}) * 0.5)", lambda env: cw("float", n, lambda x: (x * 0.5) // 1.0, a[1](env))
        if k < 0.8 and n == 1:
            src = r.choice(["int", "uint"])
            a = self.expr(src, scope, depth - 1)
            if src == "int":
                return f"(float)(({a[0]}) % 2048)", lambda env: float(trem(a[1](env), 2048))
            return f"(float)(({a[0]}) % 2048u)", lambda env: float(a[1](env) % 2048)
        if k < 0.9:
            fname = r.choice(["min", "max", "abs"])
            a, c = self.expr(ty, scope, depth - 1), self.expr(ty, scope, depth - 1)
            if fname == "abs":
                return f"abs({a[0]})", lambda env: cw("float", n, abs, a[1](env))
            f = min if fname == "min" else max
            return f"{fname}({a[0]}, {c[0]})", lambda env: cw("float", n, f, a[1](env), c[1](env))
        c = self.cond(scope, depth - 1)
        a, e = self.expr(ty, scope, depth - 1), self.expr(ty, scope, depth - 1)
        return f"({c[0]} ? {a[0]} : {e[0]})", lambda env: a[1](env) if c[1](env) else e[1](env)

    def intrinsic(self, b, n, scope, depth):
        r = self.r
        ty = vec(b, n)
        choices = ["min", "max"]
        if b == "int":
            # Not abs: abs(INT_MIN) is undefined in SPIR-V's SAbs.
            choices += ["clamp"]
        if b == "uint" and n == 1:
            choices += ["countbits", "reversebits", "firstbithigh", "firstbitlow"]
        fname = r.choice(choices)
        a = self.expr(ty, scope, depth - 1)
        if fname == "clamp":
            a = typed(a)
        if fname in ("min", "max"):
            c = self.expr(ty, scope, depth - 1)
            if all_lit(a, c):
                a = typed(a)
            f = min if fname == "min" else max
            return f"{fname}({a[0]}, {c[0]})", lambda env: cw(b, n, f, a[1](env), c[1](env))
        if fname == "abs":
            return f"abs({a[0]})", lambda env: cw(b, n, lambda x: abs(i32(x)), a[1](env))
        if fname == "clamp":
            lo, hi = sorted([r.randint(-100, 100), r.randint(-100, 100)])
            return f"clamp({a[0]}, {lit('int', lo)}, {lit('int', hi)})", lambda env: cw(b, n, lambda x: min(max(x, lo), hi), a[1](env))
        if fname == "countbits":
            return f"countbits({a[0]})", lambda env: bin(a[1](env)).count("1")
        if fname == "reversebits":
            return f"reversebits({a[0]})", lambda env: reverse32(a[1](env))
        if fname == "firstbithigh":
            return f"firstbithigh({a[0]})", lambda env: (a[1](env).bit_length() - 1) if a[1](env) else 0xFFFFFFFF
        return f"firstbitlow({a[0]})", lambda env: ((a[1](env) & -a[1](env)).bit_length() - 1) if a[1](env) else 0xFFFFFFFF

    def cond(self, scope, depth):
        r = self.r
        k = r.random()
        if depth > 0 and k < 0.25:
            a, c = self.cond(scope, depth - 1), self.cond(scope, depth - 1)
            if r.random() < 0.5:
                return f"({a[0]} && {c[0]})", lambda env: a[1](env) and c[1](env)
            return f"({a[0]} || {c[0]})", lambda env: a[1](env) or c[1](env)
        if depth > 0 and k < 0.32:
            a = self.cond(scope, depth - 1)
            return f"(!{a[0]})", lambda env: not a[1](env)
        b = r.choice(["int", "uint", "float"])
        a, c = self.expr(b, scope, max(depth - 1, 0)), self.expr(b, scope, max(depth - 1, 0))
        op = r.choice(["<", "<=", ">", ">=", "==", "!="])
        f = {"<": lambda x, y: x < y, "<=": lambda x, y: x <= y, ">": lambda x, y: x > y,
             ">=": lambda x, y: x >= y, "==": lambda x, y: x == y, "!=": lambda x, y: x != y}[op]
        return f"(({a[0]}) {op} ({c[0]}))", lambda env: f(a[1](env), c[1](env))

    # -- statements: (list of hlsl lines, executor env -> None) ------------------------------------

    def block(self, scope, depth, count, in_loop, in_fn):
        stmts = []
        for _ in range(count):
            sid = self.stmt_count
            self.stmt_count += 1
            st = self.stmt(scope, depth, in_loop, in_fn)
            stmts.append(([], lambda env: None) if sid in self.skip else st)
        lines = [l for s in stmts for l in s[0]]

        def run(env):
            for s in stmts:
                s[1](env)
        return lines, run

    def stmt(self, scope, depth, in_loop, in_fn):
        r = self.r
        k = r.random()
        if k < 0.22 or depth <= 0:
            ty = r.choice(["int", "uint", "float", "int2", "uint3", "float4", "uint", "int"])
            v = self.name("v")
            e = self.expr(ty, scope, 3)
            scope[v] = ty

            def run(env, v=v, e=e):
                env[v] = e[1](env)
            return [f"{ty} {v} = {e[0]};"], run
        if k < 0.48:
            return self.assign(scope)
        if k < 0.6:
            c = self.cond(scope, 2)
            t = self.block(dict(scope), depth - 1, r.randint(1, 3), in_loop, in_fn)
            e = self.block(dict(scope), depth - 1, r.randint(0, 2), in_loop, in_fn)
            lines = [f"if ({c[0]}) {{"] + ["    " + l for l in t[0]] + ["}"]
            if e[0]:
                lines[-1] = "} else {"
                lines += ["    " + l for l in e[0]] + ["}"]

            def run(env):
                (t if c[1](env) else e)[1](env)
            return lines, run
        if k < 0.7:
            return self.loop(scope, depth, in_fn)
        if k < 0.78:
            # No break/continue inside a switch: `break` would leave the switch, not the loop.
            return self.switch(scope, depth, False, in_fn)
        if k < 0.84 and in_loop:
            c = self.cond(scope, 1)
            which = r.choice(["break", "continue"])
            exc = Break if which == "break" else Continue

            def run(env):
                if c[1](env):
                    raise exc()
            return [f"if ({c[0]}) {which};"], run
        if k < 0.88 and in_fn:
            c = self.cond(scope, 1)
            e = self.expr(in_fn, scope, 2)

            def run(env):
                if c[1](env):
                    raise Return(e[1](env))
            return [f"if ({c[0]}) return {e[0]};"], run
        if k < 0.96:
            return self.call_stmt(scope)
        return self.assign(scope)

    def assign(self, scope):
        r = self.r
        targets = assignable(scope)
        if not targets:
            return [], lambda env: None
        v = r.choice(targets)
        ty = scope[v]
        b, n = base(ty), dim(ty)
        if n > 1 and r.random() < 0.4:
            # A swizzle write with distinct components.
            comps = r.sample(range(n), r.randint(1, n))
            e = self.expr(vec(b, len(comps)), scope, 2)
            sw = "".join("xyzw"[i] for i in comps)

            def run(env):
                val = splat(e[1](env), len(comps))
                cur = list(env[v])
                for i, c in enumerate(comps):
                    cur[c] = val[i]
                env[v] = tuple(cur)
            return [f"{v}.{sw} = {e[0]};"], run
        if b in ("int", "uint") and r.random() < 0.5:
            op = r.choice(INT_OPS)
            # The right side may be of the other signedness: v op= x computes in the usual
            # arithmetic conversion type and converts back.
            rty = vec("uint" if b == "int" else "int", n) if (n == 1 and op not in ("<<", ">>") and r.random() < 0.3) else ty
            e = self.expr(rty, scope, 2)
            ctype = "uint" if "uint" in (b, base(rty)) else "int"
            text, f = self.binop(ctype, n, op, (v, lambda env: env[v]), e)
            # text is "((v) op (e))"-shaped: print the compound form instead.
            rhs = text[len(f"(({v}) {op} "):-1]

            def run(env):
                env[v] = cw(b, n, lambda x: x, f(env))
            return [f"{v} {op}= {rhs};"], run
        e = self.expr(ty, scope, 3)

        def run(env):
            env[v] = e[1](env)
        return [f"{v} = {e[0]};"], run

    def loop(self, scope, depth, in_fn):
        r = self.r
        i = self.name("i")
        count = r.randint(1, 4)
        inner = dict(scope)
        inner[i] = "int"
        body = self.block(inner, depth - 1, r.randint(1, 3), True, in_fn)
        form = r.choice(["for", "while", "do"])
        if form == "for":
            lines = [f"for (int {i} = 0; {i} < {count}; ++{i}) {{"] + ["    " + l for l in body[0]] + ["}"]
        elif form == "while":
            # The counter steps at the top, so `continue` cannot skip it.
            lines = [f"int {i} = -1;", f"while (++{i} < {count}) {{"] + ["    " + l for l in body[0]] + ["}"]
        else:
            lines = [f"int {i} = -1;", "do {", f"    ++{i};"] + ["    " + l for l in body[0]] + [f"}} while ({i} + 1 < {count});"]

        def run(env):
            saved = dict(env)
            env[i] = 0
            while env[i] < count:
                try:
                    body[1](env)
                except Break:
                    break
                except Continue:
                    pass
                env[i] += 1
            # Variables declared in the loop go out of scope (their names are unique anyway).
            for k in list(env):
                if k not in saved and k != i:
                    del env[k]
        return lines, run

    def switch(self, scope, depth, in_loop, in_fn):
        r = self.r
        sel = self.expr("int", scope, 2)
        ncases = r.randint(2, 4)
        cases = []
        for c in range(ncases):
            body = self.block(dict(scope), depth - 1, r.randint(1, 2), in_loop, in_fn)
            falls = c < ncases - 1 and r.random() < 0.3
            cases.append((c, body, falls))
        default = self.block(dict(scope), depth - 1, r.randint(0, 2), in_loop, in_fn)
        lines = [f"switch (({sel[0]}) & 7) {{"]
        for c, body, falls in cases:
            lines.append(f"case {c}: {{")
            lines += ["    " + l for l in body[0]]
            lines.append("}" if falls else "    break;\n}".replace("\n", "\n"))
        lines.append("default: {")
        lines += ["    " + l for l in default[0]]
        lines += ["    break;", "}", "}"]
        lines = [x for l in lines for x in l.split("\n")]

        def run(env):
            v = sel[1](env) & 7
            start = next((k for k, (c, _, _) in enumerate(cases) if c == v), None)
            if start is None:
                default[1](env)
                return
            for c, body, falls in cases[start:]:
                body[1](env)
                if not falls:
                    return
        return lines, run

    def call_stmt(self, scope):
        r = self.r
        if not self.fns:
            return self.assign(scope)
        f = r.choice(self.fns)
        args, outs = [], []
        for pname, pty, d in f.params:
            if d == "in":
                args.append(self.expr(pty, scope, 2))
            else:
                cands = [v for v in assignable(scope) if scope[v] == pty]
                if not cands:
                    v = self.name("v")
                    init = self.expr(pty, scope, 1)
                    scope[v] = pty
                    return [f"{pty} {v} = {init[0]};"], (lambda env, v=v, init=init: env.__setitem__(v, init[1](env)))
                v = r.choice(cands)
                args.append((v, lambda env, v=v: env[v]))
                outs.append((len(args) - 1, v))
        dest = [v for v in assignable(scope) if scope[v] == f.ret]
        if len(set(o for _, o in outs)) != len(outs) or (dest and r.random() < 0.5 and False):
            return self.assign(scope)
        target = r.choice(dest) if dest and r.random() < 0.6 else None
        text = f"{f.name}(" + ", ".join(a[0] for a in args) + ")"
        if target and target in [o for _, o in outs]:
            target = None

        def run(env):
            ret, outvals = self.call(f, [a[1](env) for a in args], env)
            # Arguments are copied back in order after the call, then the result is assigned.
            for k, v in outs:
                env[v] = outvals[k]
            if target:
                env[target] = ret
        return [f"{target} = {text};" if target else f"{text};"], run

    def call(self, f, args, env):
        local = {k: v for k, v in env.items() if k.startswith("@")}
        for (pname, pty, d), a in zip(f.params, args):
            local[pname] = a if d != "out" else None
        try:
            f.body(local)
            raise AssertionError("function fell off its end")
        except Return as ret:
            return ret.value, [local[p] for p, _, _ in f.params]

    def function(self):
        r = self.r
        ret = r.choice(["int", "uint", "float", "uint2", "int"])
        params = []
        for _ in range(r.randint(1, 3)):
            d = r.choice(["in", "in", "inout", "out"])
            pty = r.choice(["int", "uint", "float", "int3", "uint"])
            params.append((self.name("p_in" if d == "in" else "p"), pty, d))
        scope = {p: t for p, t, _ in params}
        pre = []
        # out parameters are written before anything can return.
        for p, t, d in params:
            if d == "out":
                pre.append(self.leaf(t, {}))
        body = self.block(scope, 2, r.randint(2, 5), False, ret)
        fin = self.expr(ret, scope, 3)
        name = self.name("f")
        sig = ", ".join(f"{'' if d == 'in' else d + ' '}{t} {p}" for p, t, d in params)
        outs = [(p, t) for p, t, d in params if d == "out"]
        lines = [f"{ret} {name}({sig}) {{"]
        lines += [f"    {p} = {init[0]};" for (p, _), init in zip(outs, pre)]
        lines += ["    " + l for l in body[0]] + [f"    return {fin[0]};", "}"]

        def run(env):
            for (p, _), init in zip(outs, pre):
                env[p] = init[1](env)
            body[1](env)
            raise Return(fin[1](env))
        f = Fn(name, params, ret, run)
        self.fns.append(f)
        return lines

    # -- phase C: atomics' returned values, a struct in a buffer, matrices -------------------------

    def phase_c(self, scope):
        """Lines for the end of main and a function (env, mem) -> the thread's Out2 words.

        Everything here touches only memory the thread owns, so the values are deterministic:
        atomics on its own words of Own, Raw and Shared (after a second barrier), its element of
        Rec and Mat. mem holds the buffers' evaluator copies: own, raw, shared, rec, mat."""
        r = self.r
        e = lambda ty, d=2: self.expr(ty, scope, d)  # noqa: E731
        x = [e("uint") for _ in range(5)]
        swap = r.random() < 0.5
        cmp_text = "(t * 3u)" if swap else "(t * 3u + 1u)"
        amin = r.choice(["InterlockedMin", "InterlockedMax", "InterlockedAnd", "InterlockedXor"])
        araw = r.choice(["InterlockedOr", "InterlockedAdd", "InterlockedExchange"])
        lines = [
            "GroupMemoryBarrierWithGroupSync();",
            f"uint o1; InterlockedAdd(Own[t * 2u], {x[0][0]}, o1);",
            f"uint o2; InterlockedCompareExchange(Own[t * 2u + 1u], {cmp_text}, {x[1][0]}, o2);",
            f"uint o3; {amin}(Shared[t], {x[2][0]}, o3);",
            f"uint o4; Raw.{araw}(id.x * {RAW_WORDS * 4}u + 12u, {x[3][0]}, o4);",
            f"uint o5; InterlockedExchange(Own[t * 2u], {x[4][0]}, o5);",
        ]
        # A struct written whole and by member, read back by member.
        ra, rb, rc = e("uint"), e("int2"), zfloat(e("float"))
        part = e("int") if r.random() < 0.6 else None
        lines += ["R r0;", f"r0.a = {ra[0]};", f"r0.b = {rb[0]};", f"r0.c = {rc[0]};", "Rec[t] = r0;"]
        if part:
            lines.append(f"Rec[t].b.y = {part[0]};")
        lines.append("uint rq = Rec[t].a ^ (uint)Rec[t].b.y ^ (uint)(int)Rec[t].c;")
        # Float and int matrices: construction, row and element writes, mul both ways, transpose.
        fm = [e("float") for _ in range(4)]
        fv = [e("float") for _ in range(2)]
        row_w = (r.randrange(2), e("float2")) if r.random() < 0.5 else None
        elt_w = (r.randrange(2), r.randrange(2), e("float")) if r.random() < 0.5 else None
        left = r.random() < 0.5
        pick = r.randrange(2)
        lines.append(f"float2x2 m1 = float2x2({', '.join(a[0] for a in fm)});")
        if row_w:
            lines.append(f"m1[{row_w[0]}] = {row_w[1][0]};")
        if elt_w:
            lines.append(f"m1._m{elt_w[0]}{elt_w[1]} = {elt_w[2][0]};")
        vtext = f"float2({fv[0][0]}, {fv[1][0]})"
        mul_text = f"mul({vtext}, m1)" if left else f"mul(m1, {vtext})"
        tr = (r.randrange(2), r.randrange(2))
        lines.append(f"float fm = {mul_text}[{pick}] + transpose(m1)[{tr[0]}][{tr[1]}];")
        im = [e("int") for _ in range(4)]
        iv = [e("int") for _ in range(2)]
        lines.append(f"int2x2 im = int2x2({', '.join(a[0] for a in im)});")
        lines.append(f"int2 iv = mul(im, int2({iv[0][0]}, {iv[1][0]}));")
        mc = [zfloat(e("float")) for _ in range(6)]
        mi = (r.randrange(2), r.randrange(3), r.randrange(2), r.randrange(3))
        lines.append(f"float2x3 mc = float2x3({', '.join(a[0] for a in mc)});")
        lines += ["Mat[t].r = mc;", "Mat[t].c = mc;",
                  f"float mr = Mat[t].r[{mi[0]}][{mi[1]}] - Mat[t].c[{mi[2]}][{mi[3]}] + Mat[t].r._m12;"]
        outs = ["o1", "o2", "o3", "o4", "o5", "rq", "(uint)(int)fm", "(uint)iv.x", "(uint)iv.y", "(uint)(int)mr"]
        lines += [f"Out2[id.x * {SLOTS2}u + {k}u] = {o};" for k, o in enumerate(outs)]

        def run(env, mem):
            t = env["t"]
            xv = [u32(a[1](env)) for a in x]
            own, raw, shared = mem["own"], mem["raw"], mem["shared"]
            o1 = own[t * 2]
            own[t * 2] = u32(o1 + xv[0])
            o2 = own[t * 2 + 1]
            if o2 == u32(t * 3 if swap else t * 3 + 1):
                own[t * 2 + 1] = xv[1]
            o3 = shared[t]
            shared[t] = {"InterlockedMin": min, "InterlockedMax": max,
                         "InterlockedAnd": lambda p, q: p & q, "InterlockedXor": lambda p, q: p ^ q}[amin](o3, xv[2])
            w = t * RAW_WORDS + 3
            o4 = raw[w]
            raw[w] = {"InterlockedOr": lambda p, q: p | q, "InterlockedAdd": lambda p, q: u32(p + q),
                      "InterlockedExchange": lambda p, q: q}[araw](o4, xv[3])
            o5 = own[t * 2]
            own[t * 2] = xv[4]
            rec = [u32(ra[1](env)), *(u32(v) for v in rb[1](env)), fbits(rc[1](env))]
            if part:
                rec[2] = u32(part[1](env))
            mem["rec"][t * REC_WORDS:(t + 1) * REC_WORDS] = rec
            rq = u32(rec[0] ^ rec[2] ^ u32(int(rc[1](env))))
            m = [[fm[0][1](env), fm[1][1](env)], [fm[2][1](env), fm[3][1](env)]]
            if row_w:
                m[row_w[0]] = list(row_w[1][1](env))
            if elt_w:
                m[elt_w[0]][elt_w[1]] = elt_w[2][1](env)
            v = [fv[0][1](env), fv[1][1](env)]
            if left:
                prod = [v[0] * m[0][j] + v[1] * m[1][j] for j in range(2)]
            else:
                prod = [m[i][0] * v[0] + m[i][1] * v[1] for i in range(2)]
            fmv = prod[pick] + m[tr[1]][tr[0]]
            imv = [[i32(im[0][1](env)), i32(im[1][1](env))], [i32(im[2][1](env)), i32(im[3][1](env))]]
            ivv = [i32(iv[0][1](env)), i32(iv[1][1](env))]
            ivr = [i32(imv[i][0] * ivv[0] + imv[i][1] * ivv[1]) for i in range(2)]
            mcv = [[mc[3 * i + j][1](env) for j in range(3)] for i in range(2)]
            mat = [0] * MAT_WORDS
            for i in range(2):
                for j in range(3):
                    if DXIL:
                        mat[i * 3 + j] = fbits(mcv[i][j])    # row_major: row i at 12 * i
                        mat[6 + j * 2 + i] = fbits(mcv[i][j])  # column_major: column j at 24 + 8 * j
                    else:
                        mat[i * 4 + j] = fbits(mcv[i][j])    # row_major: row i at 16 * i
                        mat[8 + j * 2 + i] = fbits(mcv[i][j])  # column_major: column j at 32 + 8 * j
            mem["mat"][t * MAT_WORDS:(t + 1) * MAT_WORDS] = mat
            mrv = mcv[mi[0]][mi[1]] - mcv[mi[2]][mi[3]] + mcv[1][2]
            return [o1, o2, o3, o4, o5, rq, u32(int(fmv)), u32(ivr[0]), u32(ivr[1]), u32(int(mrv))]
        return lines, run

    # -- the program ----------------------------------------------------------------------------

    def program(self):
        r = self.r
        lines = [
            f"// Random program, seed {self.seed} (testsuite/randprog/randprog.py).",
            "[[vk::binding(0, 0)]] RWStructuredBuffer<uint> Out;",
            "[[vk::binding(1, 0)]] StructuredBuffer<uint> In;",
            "[[vk::binding(2, 0)]] RWByteAddressBuffer Raw;",
            "[[vk::binding(3, 0)]] RWStructuredBuffer<uint> Acc;",
            "struct R { uint a; int2 b; float c; };",
            "struct M { row_major float2x3 r; float2x3 c; };",
            "[[vk::binding(4, 0)]] RWStructuredBuffer<uint> Own;",
            "[[vk::binding(5, 0)]] RWStructuredBuffer<R> Rec;",
            "[[vk::binding(6, 0)]] RWStructuredBuffer<M> Mat;",
            "[[vk::binding(7, 0)]] RWStructuredBuffer<uint> Out2;",
            f"groupshared uint Shared[{THREADS}];",
            "struct S { int a; uint b; float c; };",
            "",
        ]
        for _ in range(r.randint(1, 4)):
            lines += self.function() + [""]
        scope = {"t": "uint", "s0.a": "int", "s0.b": "uint", "s0.c": "float"}
        pa = self.block(scope, 3, r.randint(3, 7), False, None)
        # Phase A's last value goes to groupshared memory; after the barrier each thread reads a
        # neighbour's.
        share = self.expr("uint", scope, 2)
        scope_b = dict(scope)
        scope_b["w"] = "uint"
        pb = self.block(scope_b, 3, r.randint(2, 5), False, None)
        out_tys = [r.choice(["int", "uint", "float"]) for _ in range(SLOTS)]
        outs = [self.expr(ty, scope_b, 3) for ty in out_tys]
        raw_v = self.expr("uint", scope_b, 2)
        atom_v = [self.expr("uint", scope_b, 2) for _ in range(3)]
        step = r.randint(1, THREADS - 1)
        # Phase C draws from its own stream, so the programs of earlier generator versions keep
        # their phases A and B.
        main_r = self.r
        self.r = random.Random(self.seed * 7919 + 1)
        pc = self.phase_c(dict(scope_b))
        self.r = main_r
        main = [
            f"[numthreads({THREADS}, 1, 1)]",
            "void main(uint3 id : SV_DispatchThreadID) {",
            "    uint t = id.x;",
            "    S s0;",
            "    s0.a = (int)In[t];",
            "    s0.b = In[t + 8] ^ t;",
            "    s0.c = (float)(s0.a % 100);",
        ]
        main += ["    " + l for l in pa[0]]
        main += [f"    Shared[t] = {share[0]};", "    GroupMemoryBarrierWithGroupSync();",
                 f"    uint w = Shared[(t + {step}u) % {THREADS}u];"]
        main += ["    " + l for l in pb[0]]
        main += [f"    Raw.Store(id.x * {RAW_WORDS * 4}u + ((w & 3u) * 4u), {raw_v[0]});",
                 f"    uint back = Raw.Load(id.x * {RAW_WORDS * 4}u + ((w & 3u) * 4u));"]
        main += [f"    InterlockedAdd(Acc[0], {atom_v[0][0]});",
                 f"    InterlockedMax(Acc[1], {atom_v[1][0]});",
                 f"    InterlockedXor(Acc[2], {atom_v[2][0]});"]
        for k, (ty, e) in enumerate(zip(out_tys, outs)):
            conv = {"float": "(uint)(int)", "int": "(uint)", "uint": ""}[ty]
            main.append(f"    Out[id.x * {SLOTS}u + {k}u] = {conv}({e[0]});")
        main.append(f"    Out[id.x * {SLOTS}u + {SLOTS - 1}u] += back + (uint)s0.a + s0.b + (uint)(int)s0.c;")
        main += ["    " + l for l in pc[0]]
        main.append("}")
        lines += main

        # Evaluation: phase A on every thread, the barrier, phase B on every thread.
        inp = [self.r.randint(0, 2**32 - 1) if self.r.random() < 0.5 else self.r.randint(0, 50) for _ in range(IN_LEN)]
        own = [self.r.randint(0, 2**32 - 1) if k % 2 == 0 else (k // 2) * 3 for k in range(THREADS * 2)]
        own0 = list(own)
        envs = []
        shared = [0] * THREADS
        for t in range(THREADS):
            env = {"@In": inp, "t": t}
            a = i32(inp[t])
            env["s0.a"], env["s0.b"], env["s0.c"] = a, u32(inp[t + 8] ^ t), float(trem(a, 100))
            pa[1](env)
            shared[t] = share[1](env)
            envs.append(env)
        out = [0] * (THREADS * SLOTS)
        raw = [0] * (THREADS * RAW_WORDS)
        acc = [0, 0, 0, 0]
        for t in range(THREADS):
            env = envs[t]
            env["w"] = shared[(t + step) % THREADS]
            pb[1](env)
            for k, e in enumerate(outs):
                v = e[1](env)
                out[t * SLOTS + k] = u32(int(v))
            addr = t * RAW_WORDS + (env["w"] & 3)
            raw[addr] = raw_v[1](env)
            back = raw[addr]
            acc[0] = u32(acc[0] + atom_v[0][1](env))
            acc[1] = max(acc[1], atom_v[1][1](env))
            acc[2] ^= atom_v[2][1](env)
            out[t * SLOTS + SLOTS - 1] = u32(out[t * SLOTS + SLOTS - 1] + back + u32(env["s0.a"]) + env["s0.b"] + u32(int(env["s0.c"])))
        mem = {"own": own, "raw": raw, "shared": shared, "rec": [0] * (THREADS * REC_WORDS), "mat": [0] * (THREADS * MAT_WORDS)}
        out2 = []
        for t in range(THREADS):
            out2 += pc[1](envs[t], mem)
        mem["out2"] = out2
        return "\n".join(lines) + "\n", inp, out, raw, acc, own0, mem


def write_case(seed, out_dir, skip=()):
    g = Gen(seed, skip)
    src, inp, out, raw, acc, own0, mem = g.program()
    # Struct members are kept in the evaluator as 's0.a' entries; the generator only reads them
    # through the fixed statements of main.
    spec = [
        f"# Random program, seed {seed}. Generated by testsuite/randprog/randprog.py: the expected",
        "# values come from its own evaluator of HLSL semantics, not from hlslc.",
        "dispatch 1 1 1",
        f"buffer 0 0 storage u32 = 0*{THREADS * SLOTS}",
        "buffer 0 1 storage u32 = " + " ".join(str(v) for v in inp),
        f"buffer 0 2 storage u32 = 0*{THREADS * RAW_WORDS}",
        "buffer 0 3 storage u32 = 0*4",
        "buffer 0 4 storage u32 = " + " ".join(str(v) for v in own0),
        f"buffer 0 5 storage u32 = 0*{THREADS * REC_WORDS}",
        f"buffer 0 6 storage u32 = 0*{THREADS * MAT_WORDS}",
        f"buffer 0 7 storage u32 = 0*{THREADS * SLOTS2}",
        "expect 0 0 u32 = " + " ".join(str(v) for v in out),
        "expect 0 2 u32 = " + " ".join(str(v) for v in raw),
        "expect 0 3 u32 = " + " ".join(str(v) for v in acc[:3]),
        "expect 0 4 u32 = " + " ".join(str(v) for v in mem["own"]),
        "expect 0 5 u32 = " + " ".join(str(v) for v in mem["rec"]),
        "expect 0 6 u32 = " + " ".join(str(v) for v in mem["mat"]),
        "expect 0 7 u32 = " + " ".join(str(v) for v in mem["out2"]),
    ]
    base_path = os.path.join(out_dir, f"rand.{seed}")
    with open(base_path + ".hlsl", "w") as f:
        f.write(src)
    with open(base_path + ".spec", "w") as f:
        f.write("\n".join(spec) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int)
    ap.add_argument("--seeds", type=int, nargs=2)
    ap.add_argument("--out")
    ap.add_argument("--print", action="store_true")
    ap.add_argument("--skip", default="", help="comma-separated statement ids to leave out (reducer)")
    ap.add_argument("--count", action="store_true", help="print the number of statements")
    ap.add_argument("--dxil", action="store_true", help="expect DXIL's buffer layouts (structured-buffer matrices packed)")
    a = ap.parse_args()
    if a.dxil:
        global DXIL, MAT_WORDS
        DXIL, MAT_WORDS = True, 12
    skip = [int(x) for x in a.skip.split(",") if x]
    seeds = [a.seed] if a.seed is not None else list(range(*a.seeds)) if a.seeds else [0]
    if a.count:
        g = Gen(seeds[0])
        g.program()
        print(g.stmt_count)
        return
    if a.print:
        for s in seeds:
            sys.stdout.write(Gen(s, skip).program()[0])
        return
    os.makedirs(a.out, exist_ok=True)
    for s in seeds:
        write_case(s, a.out, skip)


if __name__ == "__main__":
    main()
