//! Target profiles (`-T ps_6_0`) and HLSL language versions (`-HV 2021`).

use std::fmt;

pub use hlslc_sema::entry::Stage;

/// What a profile compiles: a shader of a stage, or a root signature (`rootsig_1_x`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ProfileKind {
    /// A shader stage (`ps`, `vs`, `cs`, `lib`...).
    Shader(Stage),
    /// `rootsig_1_0` / `rootsig_1_1`: a root signature.
    RootSignature,
}

/// A target profile. Invariant: a shader profile's stage has a [`Stage::prefix`] and
/// `major == 6` (5.x and 4.x profiles are upgraded to 6.0, as dxc does); `minor` is
/// [`Profile::OFFLINE_MINOR`] for `lib_6_x`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Profile {
    /// The stage or root signature.
    pub kind: ProfileKind,
    /// The shader model's major version.
    pub major: u8,
    /// The shader model's minor version.
    pub minor: u8,
}

impl Profile {
    /// The minor version of `lib_6_x` (offline linking target), as DXIL encodes it.
    pub const OFFLINE_MINOR: u8 = 0xF;
    /// The highest shader model minor version accepted (6.10 is in preview in dxc).
    pub const MAX_MINOR: u8 = 10;

    /// Parses `ps_6_0`, `lib_6_x`, `rootsig_1_1`, ... Returns `None` for anything else.
    pub fn parse(text: &str) -> Option<Profile> {
        let mut parts = text.split('_');
        let prefix = parts.next()?;
        let major: u8 = parts.next()?.parse().ok()?;
        let minor_text = parts.next()?;
        if parts.next().is_some() {
            return None;
        }
        if prefix == "rootsig" {
            let minor: u8 = minor_text.parse().ok()?;
            return (major == 1 && minor <= 2).then_some(Profile { kind: ProfileKind::RootSignature, major, minor });
        }
        let stage = Stage::from_prefix(prefix)?;
        if minor_text == "x" {
            return (stage == Stage::Library && major == 6).then_some(Profile::shader(stage, major, Self::OFFLINE_MINOR));
        }
        let minor: u8 = minor_text.parse().ok()?;
        match major {
            // dxc compiles pre-6.0 profiles as 6.0.
            4 | 5 if minor <= 1 && !matches!(stage, Stage::Library | Stage::Mesh | Stage::Amplification) => {
                Some(Profile::shader(stage, 6, 0))
            }
            6 if minor <= Self::MAX_MINOR => Some(Profile::shader(stage, major, minor)),
            _ => None,
        }
    }

    /// A shader profile.
    pub fn shader(stage: Stage, major: u8, minor: u8) -> Profile {
        Profile { kind: ProfileKind::Shader(stage), major, minor }
    }

    /// The stage of a shader profile; `None` for a root signature.
    pub fn stage(&self) -> Option<Stage> {
        match self.kind {
            ProfileKind::Shader(s) => Some(s),
            ProfileKind::RootSignature => None,
        }
    }

    /// Shader model at least `major.minor`.
    pub fn at_least(&self, major: u8, minor: u8) -> bool {
        (self.major, self.minor) >= (major, minor)
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let prefix = match self.kind {
            ProfileKind::Shader(s) => s.prefix().unwrap_or("?"),
            ProfileKind::RootSignature => "rootsig",
        };
        if self.minor == Self::OFFLINE_MINOR {
            write!(f, "{prefix}_{}_x", self.major)
        } else {
            write!(f, "{prefix}_{}_{}", self.major, self.minor)
        }
    }
}

/// HLSL language version (`-HV`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum HlslVersion {
    /// HLSL 2016.
    V2016,
    /// HLSL 2017.
    V2017,
    /// HLSL 2018.
    V2018,
    /// HLSL 2021 (the default).
    V2021,
    /// `-HV 202x`.
    V202x,
    /// `-HV 202y`.
    V202y,
}

impl HlslVersion {
    /// The version `-HV` names (`2016`, `2021`, `202x`...).
    pub fn parse(text: &str) -> Option<HlslVersion> {
        Some(match text {
            "2015" | "2016" => HlslVersion::V2016,
            "2017" => HlslVersion::V2017,
            "2018" => HlslVersion::V2018,
            "2021" => HlslVersion::V2021,
            "202x" => HlslVersion::V202x,
            "202y" => HlslVersion::V202y,
            _ => return None,
        })
    }
    /// The value of `__HLSL_VERSION` (dxc numbers 202x as 2029 and 202y as 2030).
    pub fn number(self) -> u32 {
        match self {
            HlslVersion::V2016 => 2016,
            HlslVersion::V2017 => 2017,
            HlslVersion::V2018 => 2018,
            HlslVersion::V2021 => 2021,
            HlslVersion::V202x => 2029,
            HlslVersion::V202y => 2030,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_profiles() {
        assert_eq!(Profile::parse("ps_6_0"), Some(Profile::shader(Stage::Pixel, 6, 0)));
        assert_eq!(Profile::parse("lib_6_x").map(|p| p.minor), Some(Profile::OFFLINE_MINOR));
        assert_eq!(Profile::parse("cs_6_10").map(|p| p.minor), Some(10));
        assert_eq!(Profile::parse("vs_5_0"), Some(Profile::shader(Stage::Vertex, 6, 0)));
        assert_eq!(Profile::parse("rootsig_1_1").map(|p| p.kind), Some(ProfileKind::RootSignature));
        assert_eq!(Profile::parse("rootsig_1_1").unwrap().to_string(), "rootsig_1_1");
        for bad in ["", "ps", "ps_6", "ps_6_0_0", "xs_6_0", "ps_7_0", "ps_6_11", "cs_6_x", "ms_5_0", "ps_6_-1"] {
            assert_eq!(Profile::parse(bad), None, "{bad}");
        }
        assert_eq!(Profile::parse("lib_6_x").unwrap().to_string(), "lib_6_x");
        assert_eq!(Profile::parse("as_6_5").unwrap().to_string(), "as_6_5");
    }

    #[test]
    fn parses_versions() {
        assert_eq!(HlslVersion::parse("2021").map(HlslVersion::number), Some(2021));
        assert_eq!(HlslVersion::parse("202x").map(HlslVersion::number), Some(2029));
        assert_eq!(HlslVersion::parse("2019"), None);
    }
}
