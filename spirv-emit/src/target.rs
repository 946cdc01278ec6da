//! Target environments (`-fspv-target-env=`).

/// A target environment. Ordered: a later variant supports everything an earlier one does.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum TargetEnv {
    #[default]
    Vulkan1_0,
    Vulkan1_1,
    Vulkan1_1Spirv1_4,
    Vulkan1_2,
    Vulkan1_3,
    Vulkan1_4,
    /// `universal1.5`: SPIR-V 1.5 without Vulkan rules.
    Universal1_5,
}

impl TargetEnv {
    /// Parses dxc's spelling (`vulkan1.1spirv1.4`).
    pub fn parse(s: &str) -> Option<TargetEnv> {
        Some(match s {
            "vulkan1.0" => TargetEnv::Vulkan1_0,
            "vulkan1.1" => TargetEnv::Vulkan1_1,
            "vulkan1.1spirv1.4" => TargetEnv::Vulkan1_1Spirv1_4,
            "vulkan1.2" => TargetEnv::Vulkan1_2,
            "vulkan1.3" => TargetEnv::Vulkan1_3,
            "vulkan1.4" => TargetEnv::Vulkan1_4,
            "universal1.5" => TargetEnv::Universal1_5,
            _ => return None,
        })
    }

    /// The spelling `spirv-val --target-env` takes.
    pub fn as_str(self) -> &'static str {
        match self {
            TargetEnv::Vulkan1_0 => "vulkan1.0",
            TargetEnv::Vulkan1_1 => "vulkan1.1",
            TargetEnv::Vulkan1_1Spirv1_4 => "vulkan1.1spv1.4",
            TargetEnv::Vulkan1_2 => "vulkan1.2",
            TargetEnv::Vulkan1_3 => "vulkan1.3",
            TargetEnv::Vulkan1_4 => "vulkan1.4",
            TargetEnv::Universal1_5 => "spv1.5",
        }
    }

    /// The SPIR-V version (major, minor) a module for this target declares.
    pub fn spirv_version(self) -> (u8, u8) {
        match self {
            TargetEnv::Vulkan1_0 => (1, 0),
            TargetEnv::Vulkan1_1 => (1, 3),
            TargetEnv::Vulkan1_1Spirv1_4 => (1, 4),
            TargetEnv::Vulkan1_2 | TargetEnv::Universal1_5 => (1, 5),
            TargetEnv::Vulkan1_3 | TargetEnv::Vulkan1_4 => (1, 6),
        }
    }
}
