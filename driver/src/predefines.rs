//! The macros dxc defines before reading the source.
//!
//! HLSL-specific: `__hlsl_dx_compiler`, `__DXC_VERSION_*`, `__HLSL_VERSION`, the `__SHADER_STAGE_*`
//! constants (DXIL shader-kind numbers), `__SHADER_TARGET_STAGE/MAJOR/MINOR` for the `-T` profile,
//! `__HLSL_ENABLE_16_BIT` with `-enable-16bit-types`, and `__spirv__` /
//! `__SPIRV_MAJOR_VERSION__` / `__SPIRV_MINOR_VERSION__` with `-spirv`. dxc's front end is clang
//! 3.7, which also defines `__clang__`, the byte-order macros and the `__FLT_*` / `__DBL_*`
//! floating-point limits; those are defined too, as some headers test them.

use crate::options::Options;
use crate::profile::{HlslVersion, Stage};

/// The dxc release whose behaviour hlslc follows, reported by `__DXC_VERSION_*`.
pub const DXC_VERSION: (u32, u32, u32, u32) = (1, 8, 2505, 0);

/// `(name, body)` pairs, in definition order.
pub fn predefined_macros(options: &Options) -> Vec<(String, String)> {
    let mut m: Vec<(String, String)> = Vec::with_capacity(64);
    let mut def = |name: &str, body: String| m.push((name.to_string(), body));

    def("__hlsl_dx_compiler", "1".into());
    def("__DXC_VERSION_MAJOR", DXC_VERSION.0.to_string());
    def("__DXC_VERSION_MINOR", DXC_VERSION.1.to_string());
    def("__DXC_VERSION_RELEASE", DXC_VERSION.2.to_string());
    def("__DXC_VERSION_COMMITS", DXC_VERSION.3.to_string());
    let version = if options.backward_compat { HlslVersion::V2016 } else { options.hlsl_version };
    def("__HLSL_VERSION", version.number().to_string());
    if options.enable_16bit_types {
        def("__HLSL_ENABLE_16_BIT", "1".into());
    }
    for (name, stage) in [
        ("__SHADER_STAGE_VERTEX", Stage::Vertex),
        ("__SHADER_STAGE_PIXEL", Stage::Pixel),
        ("__SHADER_STAGE_GEOMETRY", Stage::Geometry),
        ("__SHADER_STAGE_HULL", Stage::Hull),
        ("__SHADER_STAGE_DOMAIN", Stage::Domain),
        ("__SHADER_STAGE_COMPUTE", Stage::Compute),
        ("__SHADER_STAGE_AMPLIFICATION", Stage::Amplification),
        ("__SHADER_STAGE_MESH", Stage::Mesh),
        ("__SHADER_STAGE_LIBRARY", Stage::Library),
    ] {
        def(name, (stage as u32).to_string());
    }
    if let Some((p, stage)) = options.profile.and_then(|p| Some((p, p.stage()?))) {
        def("__SHADER_TARGET_STAGE", (stage as u32).to_string());
        def("__SHADER_TARGET_MAJOR", p.major.to_string());
        def("__SHADER_TARGET_MINOR", p.minor.to_string());
    }
    if options.spirv {
        let (major, minor) = options.spirv_options.target_env.spirv_version();
        def("__spirv__", "1".into());
        def("__SPIRV_MAJOR_VERSION__", major.to_string());
        def("__SPIRV_MINOR_VERSION__", minor.to_string());
    }

    def("__llvm__", "1".into());
    def("__clang__", "1".into());
    def("__clang_major__", "3".into());
    def("__clang_minor__", "7".into());
    def("__clang_patchlevel__", "0".into());
    def("__ORDER_LITTLE_ENDIAN__", "1234".into());
    def("__ORDER_BIG_ENDIAN__", "4321".into());
    def("__ORDER_PDP_ENDIAN__", "3412".into());
    def("__BYTE_ORDER__", "__ORDER_LITTLE_ENDIAN__".into());
    def("__LITTLE_ENDIAN__", "1".into());
    def("__FLT_RADIX__", "2".into());
    // IEEE single and double limits, as C's <float.h> names them.
    for (prefix, suffix, v) in [
        ("FLT", "F", ["1.40129846e-45", "6", "9", "1.19209290e-7", "24", "38", "128", "3.40282347e+38", "-37", "-125", "1.17549435e-38"]),
        (
            "DBL",
            "",
            [
                "4.9406564584124654e-324",
                "15",
                "17",
                "2.2204460492503131e-16",
                "53",
                "308",
                "1024",
                "1.7976931348623157e+308",
                "-307",
                "-1021",
                "2.2250738585072014e-308",
            ],
        ),
    ] {
        let n = |s: &str| format!("__{prefix}_{s}__");
        def(&n("DENORM_MIN"), format!("{}{suffix}", v[0]));
        def(&n("HAS_DENORM"), "1".into());
        def(&n("DIG"), v[1].into());
        def(&n("DECIMAL_DIG"), v[2].into());
        def(&n("EPSILON"), format!("{}{suffix}", v[3]));
        def(&n("HAS_INFINITY"), "1".into());
        def(&n("HAS_QUIET_NAN"), "1".into());
        def(&n("MANT_DIG"), v[4].into());
        def(&n("MAX_10_EXP"), v[5].into());
        def(&n("MAX_EXP"), v[6].into());
        def(&n("MAX"), format!("{}{suffix}", v[7]));
        def(&n("MIN_10_EXP"), format!("({})", v[8]));
        def(&n("MIN_EXP"), format!("({})", v[9]));
        def(&n("MIN"), format!("{}{suffix}", v[10]));
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Profile;

    fn get<'a>(m: &'a [(String, String)], name: &str) -> Option<&'a str> {
        m.iter().find(|(n, _)| n == name).map(|(_, b)| b.as_str())
    }

    #[test]
    fn target_macros_follow_the_profile() {
        let mut o = Options::for_profile(Profile::parse("cs_6_4").unwrap());
        let m = predefined_macros(&o);
        assert_eq!(get(&m, "__SHADER_TARGET_STAGE"), get(&m, "__SHADER_STAGE_COMPUTE"));
        assert_eq!(get(&m, "__SHADER_TARGET_MAJOR"), Some("6"));
        assert_eq!(get(&m, "__SHADER_TARGET_MINOR"), Some("4"));
        assert_eq!(get(&m, "__HLSL_VERSION"), Some("2021"));
        assert_eq!(get(&m, "__spirv__"), None);
        assert_eq!(get(&m, "__HLSL_ENABLE_16_BIT"), None);
        o.spirv = true;
        o.enable_16bit_types = true;
        o.backward_compat = true;
        o.spirv_options.target_env = crate::options::TargetEnv::Vulkan1_2;
        let m = predefined_macros(&o);
        assert_eq!(get(&m, "__spirv__"), Some("1"));
        assert_eq!(get(&m, "__SPIRV_MINOR_VERSION__"), Some("5"));
        assert_eq!(get(&m, "__HLSL_ENABLE_16_BIT"), Some("1"));
        assert_eq!(get(&m, "__HLSL_VERSION"), Some("2016"));
    }

    #[test]
    fn stage_numbers_are_dxil_shader_kinds() {
        let m = predefined_macros(&Options::default());
        assert_eq!(get(&m, "__SHADER_STAGE_PIXEL"), Some("0"));
        assert_eq!(get(&m, "__SHADER_STAGE_VERTEX"), Some("1"));
        assert_eq!(get(&m, "__SHADER_STAGE_LIBRARY"), Some("6"));
        assert_eq!(get(&m, "__SHADER_STAGE_MESH"), Some("13"));
        assert_eq!(get(&m, "__SHADER_STAGE_AMPLIFICATION"), Some("14"));
        assert_eq!(get(&m, "__SHADER_TARGET_STAGE"), None);
    }
}
