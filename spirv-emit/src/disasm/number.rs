//! Number formatting as SPIRV-Tools prints literals.
//!
//! Zero and normal floats print like C++ `ostream << value` with `precision(max_digits10)` (9 for
//! 32-bit, 17 for 64-bit), i.e. `%.Ng` without trailing zeros. Subnormals, infinities and NaNs,
//! and every 16-bit float, print as hex floats in SPIRV-Tools' own style (`0x1.8p+0`).

/// `%.{precision}g` as C's printf (and C++ streams in the default float field) writes it.
pub fn format_g(v: f64, precision: usize) -> String {
    let p = precision.max(1);
    if v == 0.0 {
        return if v.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    let sci = format!("{:.*e}", p - 1, v);
    let (mantissa, exp) = match sci.split_once('e') {
        Some((m, e)) => (m.to_string(), e.parse::<i32>().unwrap_or(0)),
        None => (sci.clone(), 0),
    };
    if exp < -4 || exp >= p as i32 {
        let m = trim_fraction(&mantissa);
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{m}e{sign}{:02}", exp.unsigned_abs())
    } else {
        let decimals = (p as i32 - 1 - exp).max(0) as usize;
        trim_fraction(&format!("{:.*}", decimals, v)).to_string()
    }
}

fn trim_fraction(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

/// SPIRV-Tools' hex-float rendering of an IEEE value with the given field widths.
fn hex_float(bits: u64, exp_bits: u32, frac_bits: u32) -> String {
    let bias = (1i64 << (exp_bits - 1)) - 1;
    let nibbles = frac_bits.div_ceil(4);
    let overflow = nibbles * 4 - frac_bits;
    let sign = bits >> (exp_bits + frac_bits) & 1 == 1;
    let exponent = (bits >> frac_bits) & ((1u64 << exp_bits) - 1);
    let mut fraction = (bits & ((1u64 << frac_bits) - 1)) << overflow;
    let is_zero = exponent == 0 && fraction == 0;
    let is_denorm = exponent == 0 && !is_zero;
    let mut int_exponent = if is_zero { 0 } else { exponent as i64 - bias };
    let top_bit = 1u64 << (frac_bits + overflow - 1);
    let represent_mask = (1u64 << (frac_bits + overflow)) - 1;
    if is_denorm {
        while fraction & top_bit == 0 {
            fraction <<= 1;
            int_exponent -= 1;
        }
        fraction <<= 1;
        fraction &= represent_mask;
    }
    let mut n = nibbles;
    while n > 0 && fraction & 0xf == 0 {
        fraction >>= 4;
        n -= 1;
    }
    let mut s = String::new();
    if sign {
        s.push('-');
    }
    s.push_str("0x");
    s.push(if is_zero { '0' } else { '1' });
    if n > 0 {
        s.push_str(&format!(".{:0width$x}", fraction, width = n as usize));
    }
    s.push('p');
    if int_exponent >= 0 {
        s.push('+');
    }
    s.push_str(&int_exponent.to_string());
    s
}

pub fn format_f16(bits: u16) -> String {
    hex_float(bits as u64, 5, 10)
}

pub fn format_f32(bits: u32) -> String {
    let v = f32::from_bits(bits);
    if v == 0.0 || v.is_normal() {
        format_g(v as f64, 9)
    } else {
        hex_float(bits as u64, 8, 23)
    }
}

pub fn format_f64(bits: u64) -> String {
    let v = f64::from_bits(bits);
    if v == 0.0 || v.is_normal() {
        format_g(v, 17)
    } else {
        hex_float(bits, 11, 52)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn general_format() {
        assert_eq!(format_f32(0.5f32.to_bits()), "0.5");
        assert_eq!(format_f32((-1.0f32).to_bits()), "-1");
        assert_eq!(format_f32(0.1f32.to_bits()), "0.100000001");
        assert_eq!(format_f32(1e10f32.to_bits()), "1e+10");
        assert_eq!(format_f32(1e-5f32.to_bits()), "9.99999975e-06");
        assert_eq!(format_f32(123456789.0f32.to_bits()), "123456792");
        assert_eq!(format_f32((-0.0f32).to_bits()), "-0");
        assert_eq!(format_f64(0.1f64.to_bits()), "0.10000000000000001");
        assert_eq!(format_f64(1e100f64.to_bits()), "1e+100");
        assert_eq!(format_f64(2.5f64.to_bits()), "2.5");
    }

    #[test]
    fn hex_floats() {
        assert_eq!(format_f16(0x3e00), "0x1.8p+0");
        assert_eq!(format_f16(0x3c00), "0x1p+0");
        assert_eq!(format_f16(0x0000), "0x0p+0");
        assert_eq!(format_f16(0xbc00), "-0x1p+0");
        assert_eq!(format_f32(f32::INFINITY.to_bits()), "0x1p+128");
        assert_eq!(format_f32(f32::NEG_INFINITY.to_bits()), "-0x1p+128");
        assert_eq!(format_f32(0x7fc0_0000), "0x1.8p+128");
        // Smallest subnormal: 2^-149.
        assert_eq!(format_f32(1), "0x1p-149");
    }
}
