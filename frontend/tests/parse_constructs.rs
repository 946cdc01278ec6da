//! Parse tests per construct: each parses a snippet (lexed directly, no preprocessing) and checks
//! the AST shape, mostly through the `ast_dump` text.

use hlslc_frontend::ast::*;
use hlslc_frontend::ast_dump::dump;
use hlslc_frontend::diag::Diagnostics;
use hlslc_frontend::lexer::lex;
use hlslc_frontend::parser::{parse, ParseOptions};
use hlslc_frontend::SourceMap;
mod common;
use common::parse_ok;


fn dump_of(src: &str) -> String {
    dump(&parse_ok(src))
}

/// Asserts that every line of `expected` (trimmed) appears, in order, in the dump.
fn assert_dump_contains(src: &str, expected: &str) {
    let d = dump_of(src);
    let mut lines = d.lines().map(str::trim);
    for want in expected.lines().map(str::trim).filter(|l| !l.is_empty()) {
        assert!(lines.any(|l| l == want), "missing line `{want}` in dump of:\n{src}\n---\n{d}");
    }
}

fn first_func_body(tu: &TranslationUnit) -> &Block {
    tu.decls
        .iter()
        .find_map(|d| match d {
            Decl::Func(f) => f.body.as_ref(),
            _ => None,
        })
        .expect("a function with a body")
}

#[test]
fn globals_with_modifiers_semantics_registers() {
    assert_dump_contains(
        "static const float4 k = float4(1, 2, 3, 4);\n\
         groupshared uint cache[64];\n\
         Texture2D<float4> tex : register(t0, space1);\n\
         SamplerState samp : register(s2);\n\
         RWStructuredBuffer<uint> outBuf : register(u0);\n\
         row_major float4x4 m;",
        "VarDecl static const float4
         Declarator k
         Construct float4
         VarDecl groupshared uint
         Declarator cache[64]
         VarDecl Texture2D<float4>
         Declarator tex : register(t0, space1)
         Declarator samp : register(s2)
         VarDecl RWStructuredBuffer<uint>
         VarDecl row_major float4x4",
    );
}

#[test]
fn cbuffer_with_packoffset() {
    assert_dump_contains(
        "cbuffer CB : register(b0) { float4 a : packoffset(c0); float b : packoffset(c1.y); };",
        "BufferDecl cbuffer CB : register(b0)
         Declarator a : packoffset(c0)
         Declarator b : packoffset(c1.y)
         Empty",
    );
}

#[test]
fn entry_point_with_attributes_params_and_return_semantic() {
    assert_dump_contains(
        "[numthreads(8, 8, 1)] void cs(uint3 id : SV_DispatchThreadID) {}\n\
         [shader(\"pixel\")] float4 ps(in float2 uv : TEXCOORD0, nointerpolation uint k : K) : SV_Target { return 0; }\n\
         [[vk::binding(0, 1)]] Texture2D t;",
        "FuncDecl [numthreads(8, 8, 1)] void cs
         Param uint3 id : SV_DispatchThreadID
         FuncDecl [shader(\"pixel\")] float4 ps : SV_Target
         Param in float2 uv : TEXCOORD0
         Param nointerpolation uint k : K
         VarDecl [[vk::binding(0, 1)]] Texture2D",
    );
}

#[test]
fn contextual_modifiers_are_also_names() {
    assert_dump_contains(
        "[maxvertexcount(3)] void gs(triangle float4 p[3] : SV_Position, inout TriangleStream<float4> s) {\n\
           float sample = 1; float line = sample; uint indices[3];\n\
         }\n\
         void ms(out vertices V verts[3], out indices uint3 tris[1], in payload P pl) {}\n\
         struct V { float4 p : SV_Position; }; struct P { uint x; };",
        "Param triangle float4 p[3] : SV_Position
         Param inout TriangleStream<float4> s
         Declarator sample
         Declarator line
         Name sample
         Declarator indices[3]
         Param out vertices V verts[3]
         Param out indices uint3 tris[1]
         Param in payload P pl",
    );
}

#[test]
fn structs_methods_inheritance_and_out_of_line_definitions() {
    assert_dump_contains(
        "interface I { float get(); };\n\
         struct B { float b; };\n\
         class D : B, I { float x; static uint count; float get() const { return x; } };\n\
         uint D::count = 0;\n\
         float D::helper(float v) { return v; }\n\
         struct S; struct { int a; } anon;",
        "StructDecl interface I
         FuncDecl float get (prototype)
         StructDecl class D : B, I
         VarDecl static uint
         FuncDecl float get const
         Declarator D::count
         FuncDecl float D::helper
         StructDecl struct S (forward)
         VarDecl struct <anonymous>
         Declarator anon",
    );
}

#[test]
fn operator_overloads() {
    assert_dump_contains(
        "struct V { float x; V operator+(V o) { V r; r.x = x + o.x; return r; }\n\
           float operator[](uint i) { return x; } float operator()(float a) { return a; }\n\
           bool operator<(V o) { return x < o.x; } };",
        "FuncDecl V operator+
         FuncDecl float operator[]
         FuncDecl float operator()
         FuncDecl bool operator<
         Binary <",
    );
}

#[test]
fn namespaces_enums_typedefs_using() {
    assert_dump_contains(
        "namespace N { struct S { int a; }; static const int K = 2; }\n\
         enum Color { Red, Green = 2, Blue, };\n\
         enum class E : uint { A = 1 };\n\
         typedef float4 F4, F4A[2];\n\
         typedef struct { float a; } Anon;\n\
         using U = vector<float, 3>;\n\
         N::S g; F4 h; U u;\n\
         int f() { return N::K + (int)E::A + Red; }",
        "Namespace N
         EnumDecl Color
         Enumerator Green = 2
         EnumDecl class E : uint
         Typedef float4 F4, F4A[2]
         Typedef struct <anonymous> Anon
         Using vector<float, 3> U
         VarDecl N::S
         VarDecl F4
         VarDecl U
         Name N::K
         Cast int
         Name E::A",
    );
}

#[test]
fn templates() {
    assert_dump_contains(
        "template<typename T> T twice(T v) { return v + v; }\n\
         template<typename T, int N = 2> struct Arr { T data[N]; };\n\
         template<> float twice(float v);\n\
         Arr<float, 4> a;\n\
         float g(float x) { return twice<float>(x) + twice(x); }",
        "Template <typename T>
         FuncDecl T twice
         Template <typename T, int N = 2>
         StructDecl struct Arr

         VarDecl Arr<float, 4>
         Call twice <float>
         Call twice",
    );
}

#[test]
fn builtin_templates_and_nested_closers() {
    assert_dump_contains(
        "vector<float, 4> v; matrix<float, 2, 3> m; Texture2DMS<float4, 8> ms;\n\
         StructuredBuffer<vector<float, 2>> sb;\n\
         RWTexture2D<unorm float4> rw;\n\
         typedef vk::SpirvType<21, 8, 8, vk::Literal<vk::integral_constant<uint, 8> > > u8;",
        "VarDecl vector<float, 4>
         VarDecl matrix<float, 2, 3>
         VarDecl Texture2DMS<float4, 8>
         VarDecl StructuredBuffer<vector<float, 2>>
         VarDecl RWTexture2D<unorm float4>
         Typedef vk::SpirvType<21, 8, 8, vk::Literal<vk::integral_constant<uint, 8>>> u8",
    );
}

#[test]
fn less_than_and_greater_than_stay_comparisons() {
    assert_dump_contains(
        "bool f(int a, int b, int c) { return a < b && c > (a); }\nint g(int a) { return a >> 2; }",
        "Binary &&
         Binary <
         Binary >
         Binary >>",
    );
}

#[test]
fn casts_constructors_calls_members() {
    assert_dump_contains(
        "struct S { float a; };\n\
         ByteAddressBuffer buf;\n\
         float4 f(float3 x, float2 y) {\n\
           S s = (S)0; float3 c = (float3)x; float4 r = float4(x, 1);\n\
           float2 l = buf.Load<float2>(0); float w = x.xyz.x + s.a;\n\
           float t = (x).x; float4 z = 0.5.xxxx; unsigned int u = 1u; float d[2] = (float[2])y;\n\
           return r + sizeof(S) + sizeof(int[2]);\n\
         }",
        "Cast S
         Cast float3
         Construct float4
         MethodCall .Load <float2>
         Member .x
         Member .xyz
         Member .x
         Member .xxxx
         Literal 0.5
         VarDecl unsigned int
         Literal 1u
         Cast float[2]
         SizeOf S
         SizeOf int[2]",
    );
}

#[test]
fn init_lists_and_all_assignments() {
    assert_dump_contains(
        "void f() { int a[2][2] = {{1, 2}, {3, 4},}; int x = 0;\n\
          x += 1; x -= 1; x *= 2; x /= 2; x %= 3; x <<= 1; x >>= 1; x &= 1; x |= 1; x ^= 1;\n\
          x++; --x; x = x ? 1 : 2, x; }",
        "InitList
         InitList
         Literal 4
         Assign +=
         Assign -=
         Assign *=
         Assign /=
         Assign %=
         Assign <<=
         Assign >>=
         Assign &=
         Assign |=
         Assign ^=
         Unary ++ (postfix)
         Unary -- (prefix)
         Binary ,
         Assign =
         Ternary",
    );
}

#[test]
fn statements() {
    assert_dump_contains(
        "void f(int n) {\n\
           [unroll(4)] for (int i = 0; i < n; ++i) { if (i == 2) continue; else if (i == 3) break; }\n\
           [loop] while (n > 0) n--;\n\
           do { n++; } while (n < 10);\n\
           [branch] switch (n) { case 0: case 1: n = 2; break; default: break; }\n\
           for (;;) { discard; }\n\
           if (int d = n) { return; }\n\
           ;\n\
         }",
        "For [unroll(4)]
         Init
         DeclStmt
         Cond
         Step
         If
         Continue
         Else
         If
         Break
         While [loop]
         DoWhile
         Switch [branch]
         Case 0
         Case 1
         Default
         For
         Init <none>
         Cond <none>
         Discard
         DeclStmt
         If
         Name d
         Return
         Empty",
    );
}

#[test]
fn dangling_else_binds_to_the_inner_if() {
    let tu = parse_ok("void f(int a, int b) { if (a) if (b) a = 1; else a = 2; }");
    let body = first_func_body(&tu);
    let StmtKind::If { then, otherwise, .. } = &body.stmts[0].kind else { panic!("not an if") };
    assert!(otherwise.is_none(), "the outer if has no else");
    assert!(matches!(&then.kind, StmtKind::If { otherwise: Some(_), .. }), "the inner if takes the else");
}

#[test]
fn precedence_and_associativity() {
    let tu = parse_ok("int f(int a, int b, int c) { return a - b - c * 2; }");
    let body = first_func_body(&tu);
    let StmtKind::Return(Some(e)) = &body.stmts[0].kind else { panic!() };
    // (a - b) - (c * 2)
    let ExprKind::Binary { op: BinaryOp::Sub, lhs, rhs } = &e.kind else { panic!("{e:?}") };
    assert!(matches!(lhs.kind, ExprKind::Binary { op: BinaryOp::Sub, .. }));
    assert!(matches!(rhs.kind, ExprKind::Binary { op: BinaryOp::Mul, .. }));
}

/// Every binary operator level, and each node's span covering exactly its operands' tokens
/// (parentheses included), as one grammar level per precedence would give.
#[test]
fn binary_operators_fold_by_precedence_with_operand_spans() {
    let src = "bool f(int a, int b, int c) { return a || b && c | a ^ b & c == a < (b) << c + a * b; }";
    let tu = parse_ok(src);
    let body = first_func_body(&tu);
    let StmtKind::Return(Some(e)) = &body.stmts[0].kind else { panic!() };
    fn shape(e: &Expr, src: &str, out: &mut String) {
        match &e.kind {
            ExprKind::Binary { op, lhs, rhs } => {
                out.push('[');
                shape(lhs, src, out);
                out.push_str(&format!(" {} ", op.symbol()));
                shape(rhs, src, out);
                out.push_str(&format!("]@{}", &src[e.span.start as usize..e.span.end as usize]));
            }
            ExprKind::Name(p) => out.push_str(&p.parts[0].name),
            _ => out.push('?'),
        }
    }
    let mut got = String::new();
    shape(e, src, &mut got);
    let mul = "[a * b]@a * b";
    let add = format!("[c + {mul}]@c + a * b");
    let shl = format!("[b << {add}]@(b) << c + a * b");
    let lt = format!("[a < {shl}]@a < (b) << c + a * b");
    let eq = format!("[c == {lt}]@c == a < (b) << c + a * b");
    let and = format!("[b & {eq}]@b & c == a < (b) << c + a * b");
    let xor = format!("[a ^ {and}]@a ^ b & c == a < (b) << c + a * b");
    let or = format!("[c | {xor}]@c | a ^ b & c == a < (b) << c + a * b");
    let land = format!("[b && {or}]@b && c | a ^ b & c == a < (b) << c + a * b");
    let want = format!("[a || {land}]@a || b && c | a ^ b & c == a < (b) << c + a * b");
    assert_eq!(got, want);
    // Left associativity within a level, and a lower level after a higher one.
    let src = "int g(int a, int b, int c) { return a * b / c - a % b + c; }";
    let tu = parse_ok(src);
    let StmtKind::Return(Some(e)) = &first_func_body(&tu).stmts[0].kind else { panic!() };
    let mut got = String::new();
    shape(e, src, &mut got);
    assert_eq!(
        got,
        "[[[[a * b]@a * b / c]@a * b / c - [a % b]@a % b]@a * b / c - a % b + c]@a * b / c - a % b + c"
    );
}

#[test]
fn literals() {
    let tu = parse_ok("static const uint a = 0x1F; static const double b = 1.5l; static const half c = .5h; static const float d = 1e-3f; static const uint e = 017u;");
    let vals: Vec<ExprKind> = tu
        .decls
        .iter()
        .map(|d| match d {
            Decl::Var(v) => v.declarators[0].init.clone().unwrap().kind,
            _ => panic!(),
        })
        .collect();
    assert_eq!(vals[0], ExprKind::IntLit { value: 31, suffix: IntSuffix::None });
    assert_eq!(vals[1], ExprKind::FloatLit { value: 1.5, suffix: FloatSuffix::L });
    assert_eq!(vals[2], ExprKind::FloatLit { value: 0.5, suffix: FloatSuffix::H });
    assert_eq!(vals[3], ExprKind::FloatLit { value: 0.001, suffix: FloatSuffix::F });
    assert_eq!(vals[4], ExprKind::IntLit { value: 15, suffix: IntSuffix::U });
}

#[test]
fn pragmas_at_file_scope_are_kept() {
    let mut sm = SourceMap::new();
    let id = sm.add("t.hlsl", "x");
    let mut toks = lex(id, "int a; void f() { }");
    let mk = |text: &str| hlslc_frontend::Token {
        kind: hlslc_frontend::Tok::Pragma,
        text: text.into(),
        span: Default::default(),
        leading_space: false,
        line_start: true,
    };
    toks.insert(0, mk("pack_matrix(row_major)"));
    toks.insert(toks.len() - 1, mk("inside"));
    let mut diags = Diagnostics::new();
    let tu = parse(&toks, &ParseOptions::default(), &mut diags);
    assert!(!diags.has_errors());
    assert!(matches!(&tu.decls[0], Decl::Pragma { text, .. } if text == "pack_matrix(row_major)"));
    assert_eq!(tu.decls.iter().filter(|d| matches!(d, Decl::Pragma { .. })).count(), 1, "the pragma in a body is dropped");
}

#[test]
fn dump_is_deterministic() {
    let src = "struct S { float a; }; float4 main(S s : A) : SV_Target { return s.a; }";
    assert_eq!(dump_of(src), dump_of(src));
    assert_eq!(
        dump_of("int x = 1 + 2;"),
        "TranslationUnit\n  VarDecl int\n    Declarator x\n      Binary +\n        Literal 1\n        Literal 2\n"
    );
}

#[test]
fn struct_keyword_before_a_plain_name_is_a_forward_declaration() {
    let tu = parse_ok(
        "template <typename U> struct T { U u; };\n\
         typedef struct node_s node_t; typedef struct T<int> t_t;",
    );
    let kinds: Vec<bool> = tu
        .decls
        .iter()
        .filter_map(|d| match d {
            Decl::Typedef(t) => Some(matches!(&t.ty.kind, TypeKind::Struct(s) if s.members.is_none() && s.name.as_ref().map(|n| n.name.as_str()) == Some("node_s"))),
            _ => None,
        })
        .collect();
    // Only the plain name declares a struct; a template name stays a name.
    assert_eq!(kinds, [true, false]);
}
