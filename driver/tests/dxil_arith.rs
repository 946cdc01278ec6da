//! DXIL arithmetic that must match dxc's choice of operation type: compound assignments computed
//! in the type of the usual arithmetic conversions, and constant shifts whose count wraps at the
//! width of the shifted type.

mod common;
use common::{assert_in_order, dxil_text as dxil};


#[test]
fn compound_assignment_converts_to_the_operation_type_and_back() {
    let text = dxil(
        r#"
RWStructuredBuffer<int> O;
RWStructuredBuffer<uint> U;
[numthreads(1, 1, 1)]
void main() {
    int v = O[0];
    v %= U[0];
    O[1] = v;
    int w = O[2];
    w /= 65537u;
    O[3] = w;
    int x = O[4];
    x *= 1.5;
    O[5] = x;
    uint y = U[1];
    y /= 3;
    U[2] = y;
}
"#,
        "cs_6_0",
        false,
    );
    assert_in_order(
        &text,
        &["= urem i32 %", "= udiv i32 %", ", 65537", "= sitofp i32 %", "= fmul fast float %", ", 1.500000e+00", "= fptosi float %", "= udiv i32 %"],
    );
    assert!(!text.contains("srem") && !text.contains("sdiv"), "{text}");
}

#[test]
fn constant_shift_counts_wrap_at_the_type_width() {
    let text = dxil(
        r#"
RWStructuredBuffer<uint> U;
RWStructuredBuffer<uint16_t> S;
[numthreads(1, 1, 1)]
void main() {
    U[0] = 0x750u << 42u;
    uint64_t one = 1;
    U[1] = (uint)((one << 45) >> 20);
    uint16_t h = 1;
    S[0] = h << (uint16_t)17;
}
"#,
        "cs_6_2",
        true,
    );
    // 42 & 31 = 10; a 64-bit shift keeps 45 (2^45 >> 20 = 2^25); 17 & 15 = 1.
    assert_in_order(&text, &["i32 1916928", "i32 33554432", "i16 2"]);
}
