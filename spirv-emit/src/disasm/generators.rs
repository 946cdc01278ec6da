//! Generator tool names from the Khronos SPIR-V registry (`spir-v.xml`), as `spirv-dis` prints
//! them in the `; Generator:` header line (vendor, then tool).

const GENERATORS: &[&str] = &[
    "Khronos",
    "LunarG",
    "Valve",
    "Codeplay",
    "NVIDIA",
    "ARM",
    "Khronos LLVM/SPIR-V Translator",
    "Khronos SPIR-V Tools Assembler",
    "Khronos Glslang Reference Front End",
    "Qualcomm",
    "AMD",
    "Intel",
    "Imagination",
    "Google Shaderc over Glslang",
    "Google spiregg",
    "Google rspirv",
    "X-LEGEND Mesa-IR/SPIR-V Translator",
    "Khronos SPIR-V Tools Linker",
    "Wine VKD3D Shader Compiler",
    "Tellusim Clay Shader Compiler",
    "W3C WebGPU Group WHLSL Shader Translator",
    "Google Clspv",
    "Google MLIR SPIR-V Serializer",
    "Google Tint Compiler",
    "Google ANGLE Shader Compiler",
    "Netease Games Messiah Shader Compiler",
    "Xenia Xenia Emulator Microcode Translator",
    "Embark Studios Rust GPU Compiler Backend",
    "gfx-rs community Naga",
    "Mikkosoft Productions MSP Shader Compiler",
    "SpvGenTwo community SpvGenTwo SPIR-V IR Tools",
    "Google Skia SkSL",
    "TornadoVM SPIRV Beehive Toolkit",
    "DragonJoker ShaderWriter",
    "Rayan Hatout SPIRVSmith",
    "Saarland University Shady",
    "Taichi Graphics Taichi",
];

/// `Google spiregg` for tool 14; `Unknown(N)` for tools not in the table.
pub fn generator_name(tool: u32) -> String {
    match GENERATORS.get(tool as usize) {
        Some(n) => (*n).to_string(),
        None => format!("Unknown({tool})"),
    }
}
