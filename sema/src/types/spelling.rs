//! Spellings of built-in type names: `float`, `float3x4`, `min16uint2`, `uint64_t3`, `half`,
//! `unsigned int`, `dword`, `vector`, `matrix`, object type names.

use super::{ObjectKind, ScalarKind};

/// What a built-in type name means.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BuiltinName {
    Void,
    Scalar(ScalarKind),
    Vector(ScalarKind, u8),
    Matrix(ScalarKind, u8, u8),
    /// `vector` (with `<T, N>` or alone, meaning `float4`).
    VectorTemplate,
    /// `matrix` (with `<T, R, C>` or alone, meaning `float4x4`).
    MatrixTemplate,
    Object(ObjectKind),
    /// `string`.
    String,
}

/// The scalar kind of a base scalar spelling, with `-enable-16bit-types` applied.
fn scalar_base(name: &str, enable_16bit: bool) -> Option<ScalarKind> {
    use ScalarKind::*;
    Some(match name {
        "bool" => Bool,
        "int" | "int32_t" | "signed int" => Int,
        "dword" | "uint" | "uint32_t" | "unsigned int" | "unsigned" => UInt,
        // Packed 8-bit vectors are 32-bit integers to sema.
        "int8_t4_packed" | "uint8_t4_packed" => UInt,
        "int64_t" | "long" | "long long" => Int64,
        "uint64_t" | "unsigned long" | "unsigned long long" => UInt64,
        "int16_t" => Int16,
        "uint16_t" => UInt16,
        "float" | "float32_t" => Float,
        "double" | "float64_t" => Double,
        "float16_t" => Half,
        "half" => {
            if enable_16bit {
                Half
            } else {
                Float
            }
        }
        "min16float" => {
            if enable_16bit {
                Half
            } else {
                Min16Float
            }
        }
        "min10float" => {
            if enable_16bit {
                Half
            } else {
                Min10Float
            }
        }
        "min16int" => {
            if enable_16bit {
                Int16
            } else {
                Min16Int
            }
        }
        "min12int" => {
            if enable_16bit {
                Int16
            } else {
                Min12Int
            }
        }
        "min16uint" => {
            if enable_16bit {
                UInt16
            } else {
                Min16UInt
            }
        }
        _ => return None,
    })
}

/// Parses a built-in type name. `float3x4` is a 3-row 4-column matrix; vector and matrix suffixes
/// accept sizes 1..=4 only (`float5` is not a type). 16-bit types (`float16_t`, `int16_t`,
/// `uint16_t`) are accepted regardless of `-enable-16bit-types`; the checker reports their use
/// without it.
pub fn parse_builtin_name(name: &str, enable_16bit: bool) -> Option<BuiltinName> {
    match name {
        "void" => return Some(BuiltinName::Void),
        "vector" => return Some(BuiltinName::VectorTemplate),
        "matrix" => return Some(BuiltinName::MatrixTemplate),
        "string" => return Some(BuiltinName::String),
        _ => {}
    }
    if let Some(k) = scalar_base(name, enable_16bit) {
        return Some(BuiltinName::Scalar(k));
    }
    if let Some(kind) = ObjectKind::from_name(name) {
        return Some(BuiltinName::Object(kind));
    }
    if let Some(t) = with_signedness(name, enable_16bit) {
        return Some(t);
    }
    // `<base><N>` or `<base><R>x<C>`, where the base may itself end in digits (`uint64_t`,
    // `min16float`): try every split where the suffix is a size spelling.
    let bytes = name.as_bytes();
    let n = bytes.len();
    let digit = |b: u8| (b'1'..=b'4').contains(&b);
    if n >= 4 && bytes[n - 2] == b'x' && digit(bytes[n - 1]) && digit(bytes[n - 3]) {
        if let Some(k) = scalar_base(&name[..n - 3], enable_16bit) {
            return Some(BuiltinName::Matrix(k, bytes[n - 3] - b'0', bytes[n - 1] - b'0'));
        }
    }
    if n >= 2 && digit(bytes[n - 1]) {
        if let Some(k) = scalar_base(&name[..n - 1], enable_16bit) {
            return Some(BuiltinName::Vector(k, bytes[n - 1] - b'0'));
        }
    }
    None
}

/// `unsigned T` / `signed T` for an integer type `T` of any shape, as dxc allows them
/// (`unsigned dword3x4` is `uint3x4`, `unsigned min16int3` is `min16uint3`, `unsigned int64_t2`
/// is `uint64_t2`); `None` for other types (`unsigned float`) and for `min12int`, which has no
/// unsigned form.
fn with_signedness(name: &str, enable_16bit: bool) -> Option<BuiltinName> {
    use ScalarKind::*;
    let (rest, unsigned) = match name.strip_prefix("unsigned ") {
        Some(rest) => (rest, true),
        None => (name.strip_prefix("signed ")?, false),
    };
    let convert = |k: ScalarKind| -> Option<ScalarKind> {
        let (signed, uns) = match k {
            Int | UInt => (Int, UInt),
            Int64 | UInt64 => (Int64, UInt64),
            Int16 | UInt16 => (Int16, UInt16),
            Min16Int | Min16UInt => (Min16Int, Min16UInt),
            _ => return None,
        };
        Some(if unsigned { uns } else { signed })
    };
    Some(match parse_builtin_name(rest, enable_16bit)? {
        BuiltinName::Scalar(k) => BuiltinName::Scalar(convert(k)?),
        BuiltinName::Vector(k, n) => BuiltinName::Vector(convert(k)?, n),
        BuiltinName::Matrix(k, r, c) => BuiltinName::Matrix(convert(k)?, r, c),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ScalarKind::*;

    #[test]
    fn vectors_and_matrices() {
        assert_eq!(parse_builtin_name("float3x4", false), Some(BuiltinName::Matrix(Float, 3, 4)));
        assert_eq!(parse_builtin_name("min16uint2", false), Some(BuiltinName::Vector(Min16UInt, 2)));
        assert_eq!(parse_builtin_name("uint64_t3", false), Some(BuiltinName::Vector(UInt64, 3)));
        assert_eq!(parse_builtin_name("int16_t4x1", false), Some(BuiltinName::Matrix(Int16, 4, 1)));
        assert_eq!(parse_builtin_name("bool1", false), Some(BuiltinName::Vector(Bool, 1)));
        assert_eq!(parse_builtin_name("float5", false), None);
        assert_eq!(parse_builtin_name("float0", false), None);
        assert_eq!(parse_builtin_name("float4x5", false), None);
        assert_eq!(parse_builtin_name("floatx", false), None);
        assert_eq!(parse_builtin_name("x4", false), None);
    }

    #[test]
    fn signedness_prefixes_apply_to_every_integer_shape() {
        assert_eq!(parse_builtin_name("unsigned dword3x4", false), Some(BuiltinName::Matrix(UInt, 3, 4)));
        assert_eq!(parse_builtin_name("unsigned min16int3", false), Some(BuiltinName::Vector(Min16UInt, 3)));
        assert_eq!(parse_builtin_name("unsigned min16int3", true), Some(BuiltinName::Vector(UInt16, 3)));
        assert_eq!(parse_builtin_name("unsigned int64_t2", false), Some(BuiltinName::Vector(UInt64, 2)));
        assert_eq!(parse_builtin_name("unsigned int4x4", false), Some(BuiltinName::Matrix(UInt, 4, 4)));
        assert_eq!(parse_builtin_name("signed uint2", false), Some(BuiltinName::Vector(Int, 2)));
        assert_eq!(parse_builtin_name("unsigned float2", false), None);
        assert_eq!(parse_builtin_name("unsigned min12int", false), None);
        assert_eq!(parse_builtin_name("unsigned bool", false), None);
    }

    #[test]
    fn sixteen_bit_mapping() {
        assert_eq!(parse_builtin_name("half", false), Some(BuiltinName::Scalar(Float)));
        assert_eq!(parse_builtin_name("half", true), Some(BuiltinName::Scalar(Half)));
        assert_eq!(parse_builtin_name("min16float4", false), Some(BuiltinName::Vector(Min16Float, 4)));
        assert_eq!(parse_builtin_name("min16float4", true), Some(BuiltinName::Vector(Half, 4)));
        assert_eq!(parse_builtin_name("min12int", true), Some(BuiltinName::Scalar(Int16)));
        assert_eq!(parse_builtin_name("min16uint", true), Some(BuiltinName::Scalar(UInt16)));
    }

    #[test]
    fn other_spellings() {
        assert_eq!(parse_builtin_name("unsigned int", false), Some(BuiltinName::Scalar(UInt)));
        assert_eq!(parse_builtin_name("dword", false), Some(BuiltinName::Scalar(UInt)));
        assert_eq!(parse_builtin_name("int", false), Some(BuiltinName::Scalar(Int)));
        assert_eq!(parse_builtin_name("vector", false), Some(BuiltinName::VectorTemplate));
        assert_eq!(parse_builtin_name("Texture2D", false), Some(BuiltinName::Object(ObjectKind::Texture2D)));
        assert_eq!(parse_builtin_name("TextureCube", false), Some(BuiltinName::Object(ObjectKind::TextureCube)));
        assert_eq!(parse_builtin_name("S", false), None);
    }
}
