#!/usr/bin/env python3
"""One-time importer: rewrites DXC's gen_intrin_main.txt signatures into our intrinsics.def
format (see the header of intrinsics.def). Run: python3 import_gen_intrin.py <gen_intrin_main.txt>
> intrinsics.def. The output is then maintained by hand as our data."""
import re, sys

HEADER = """# hlslc intrinsic table: every HLSL intrinsic function and built-in object method.
#
# Format (read by build.rs):
#   [Group]                      a group: `Intrinsics` (free functions), `VkIntrinsics` (vk::),
#                                `DxIntrinsics` (dx::) or `<Object>Methods` (methods of objects)
#   name(params) -> ret {attrs} => lowering
#   params: `dir type name` separated by `, `; dir is in, out, inout, ref (an lvalue that is read
#           and written, for Interlocked*) or groupshared; `...` ends a variadic list
#   type:   [match(L, C)] base[<layout>]
#           base: a component kind or class (bool, int, uint, u64, float, double, numeric,
#                 float_like, any, any_int, ... or an object/special name such as sampler, udt)
#           layout: absent = scalar; `<>` = any shape; `<N>` = vector of N (`<c>` names a size
#                 that must agree with other uses of `c`); `<R, C>` = matrix
#           match(L, C): layout taken from parameter L and component from parameter C
#                 (0 = return value, 1.. = parameters, -1 = the object's template type,
#                 -2 = its first element's component, -3 = the function template argument)
#           $N = exactly the type of parameter N; $classT / $funcT / $funcT2 = the object / call
#                 template type
#   attrs:  rn (readnone), ro (readonly), wv (wave-sensitive), unsigned_op=X (use op X when the
#           overload is unsigned), overload=N, min_sm=X.Y, hidden, class_prefix
#   lowering: DXC's lowering name of the overload (for emitters' reference only)
"""

decl = re.compile(r'^\s*(?P<ret>.+?)\s*\[\[(?P<attrs>[^\]]*)\]\]\s*(?P<name>\w+)\s*\((?P<params>.*)\)\s*(?::\s*(?P<op>\w+))?\s*;\s*$')

def conv_type(t):
    t = t.strip()
    t = re.sub(r'\$match<\s*(-?\d+)\s*,\s*(-?\d+)\s*>\s*', lambda m: f'match({m.group(1)}, {m.group(2)}) ', t)
    t = re.sub(r'\$type(\d+)', r'$\1', t)
    t = re.sub(r'<\s*([^>]*?)\s*>', lambda m: '<' + ', '.join(x.strip() for x in m.group(1).split(',') if x.strip()) + '>', t)
    return re.sub(r'\s+', ' ', t)

def conv_param(p):
    p = p.strip()
    if p == '...':
        return '...'
    words = p.split()
    dirs = []
    while words and words[0] in ('in', 'out', 'inout', 'ref', 'groupshared', 'col_major', 'row_major'):
        dirs.append(words.pop(0))
    name = words.pop()
    d = [x for x in dirs if x not in ('col_major', 'row_major')] or ['in']
    mods = [x for x in dirs if x in ('col_major', 'row_major')]
    ty = conv_type(' '.join(words))
    return ' '.join(d + mods + [ty, name])

def split_params(s):
    parts, depth, cur = [], 0, ''
    for ch in s:
        if ch == '<': depth += 1
        if ch == '>': depth -= 1
        if ch == ',' and depth == 0:
            parts.append(cur); cur = ''
        else:
            cur += ch
    parts.append(cur)
    return parts

out = [HEADER]
ns = []
for line in open(sys.argv[1]):
    s = line.strip()
    m = re.match(r'^namespace\s+(\w+)\s*\{', s)
    if m:
        ns.append(m.group(1)); out.append(f'\n[{m.group(1)}]'); continue
    if s.startswith('} namespace'):
        ns.pop()
        if ns: out.append(f'\n[{ns[-1]}]')
        continue
    if not s or s.startswith('//') or not ns:
        continue
    m = decl.match(s)
    if not m:
        print('skipped: ' + s, file=sys.stderr); continue
    params = [conv_param(p) for p in split_params(m.group('params')) if p.strip()]
    attrs = ', '.join(a.strip() for a in m.group('attrs').split(',') if a.strip())
    r = f"{m.group('name')}({', '.join(params)}) -> {conv_type(m.group('ret'))}"
    if attrs: r += f' {{{attrs}}}'
    if m.group('op'): r += f" => {m.group('op')}"
    out.append(r)
print('\n'.join(out))
