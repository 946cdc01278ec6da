//! `register(cN)` on a global (issue #12): the global sits at byte 16 N of `$Globals`, the
//! globals without one follow the end of the last placed one, in declaration order (dxc's
//! constant buffer allocation), in SPIR-V and in DXIL; in SPIR-V, a `register(c)` global that
//! starts inside the one before it (in register order) is dxc's "found offset overlap" error, at
//! its `register`. Expected offsets are worked out by hand below (fxc packing, 16-byte rows).

mod common;
use common::*;

/// `a` pinned at c2 (32), `b` at c0 (0), `c` and `d` unpinned: after the end of `a` (36), `c`
/// (a float) at 36, `d` (a float4, which may not cross a row) at 48.
const MIXED: &str = "float c;\n\
    float a : register(c2);\n\
    float b : register(c0);\n\
    float4 d;\n\
    float4 main() : SV_Target { return float4(a, b, c, 0) + d; }\n";

#[test]
fn spirv_places_register_c_globals_and_the_others_after_them() {
    let dir = TempDir::new("regc");
    let f = dir.file("m.hlsl", MIXED);
    let o = hlslc(&["-spirv", "-T", "ps_6_0", "-E", "main", "-fvk-use-dx-layout", f.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    // Members in declaration order: c, a, b, d.
    for (i, off) in [(0, 36), (1, 32), (2, 0), (3, 48)] {
        let line = format!("OpMemberDecorate %type__Globals {i} Offset {off}\n");
        assert!(text.contains(&line), "missing `{line}` in:\n{text}");
    }
}

#[test]
fn spirv_register_c_overlap_is_an_error_at_the_register() {
    // In register order: x c0 (0..4), v c1 (16..64: float4[3]), y c2 (32) inside v, z c5
    // (80) free. Reported once, for y, at `register` (line 3, column 11).
    let src = "float x : register(c0);\n\
        float4 v[3] : register(c1);\n\
        float y : register(c2);\n\
        float z : register(c5);\n\
        float4 main() : SV_Target { return v[0] + x + y + z; }\n";
    let dir = TempDir::new("regc");
    let f = dir.file("e.hlsl", src);
    let o = hlslc(&["-spirv", "-T", "ps_6_0", "-E", "main", "-fvk-use-dx-layout", f.to_str().unwrap()]);
    assert_ne!(code(&o), 0);
    let err = stderr(&o);
    assert!(err.contains("e.hlsl:3:11: error: found offset overlap when processing register(c2) assignment"), "{err}");
    assert_eq!(err.matches("found offset overlap").count(), 1, "{err}");
}

#[test]
fn dxil_reads_register_c_globals_at_their_rows() {
    // Rows: b row 0, a row 2 (32), c row 2 (36) component 1, d row 3 (48).
    let text = dxil_text(MIXED, "ps_6_0", false);
    let loads: Vec<&str> = text.lines().filter(|l| l.contains("@dx.op.cbufferLoadLegacy")).collect();
    let rows: Vec<String> = loads
        .iter()
        .filter_map(|l| l.split("  ;").next()?.rsplit_once(", i32 ").map(|(_, r)| r.trim_end_matches(')').to_string()))
        .collect();
    for r in ["0", "2", "3"] {
        assert!(rows.iter().any(|x| x == r), "no row {r} read: {rows:?}\n{text}");
    }
    assert!(!rows.iter().any(|x| x == "1"), "row 1 is empty: {rows:?}\n{text}");
}
