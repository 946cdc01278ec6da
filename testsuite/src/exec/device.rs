//! Opening the Vulkan device the execution tests run on: a GPU when there is one, else Mesa's
//! lavapipe; `None` (tests then only compile) when no Vulkan driver is installed at all.

use super::vulkan::Gpu;
use std::path::Path;

/// Where a Vulkan driver is expected to be installed (Mesa's ICD files).
pub fn driver_installed() -> bool {
    ["/usr/share/vulkan/icd.d", "/etc/vulkan/icd.d"]
        .iter()
        .any(|d| std::fs::read_dir(d).is_ok_and(|mut rd| rd.next().is_some()))
        || std::env::var_os("VK_ICD_FILENAMES").is_some()
        || std::env::var_os("VK_DRIVER_FILES").is_some()
}

fn lavapipe_fallback() {
    let icd = Path::new("/usr/share/vulkan/icd.d/lvp_icd.x86_64.json");
    // Without a GPU the loader may find only drivers for absent hardware; name lavapipe.
    if icd.is_file() && std::env::var_os("VK_ICD_FILENAMES").is_none() && std::env::var_os("VK_DRIVER_FILES").is_none() {
        std::env::set_var("VK_ICD_FILENAMES", icd);
    }
}

/// The Vulkan device, `None` when no driver is installed. A driver that is installed but cannot
/// open a device panics: that is a broken test machine, not a skip.
pub fn open_gpu() -> Option<Gpu> {
    let gpu = match Gpu::new() {
        Ok(g) => Ok(g),
        Err(first) => {
            lavapipe_fallback();
            Gpu::new().map_err(|e| format!("{first}; with lavapipe: {e}"))
        }
    };
    match gpu {
        Ok(g) => {
            println!("exec: device {}", g.description);
            Some(g)
        }
        Err(e) if !driver_installed() => {
            println!("exec: no Vulkan device ({e}); execution skipped, shaders still compiled");
            None
        }
        Err(e) => panic!("a Vulkan driver is installed but no device could be opened: {e}"),
    }
}
