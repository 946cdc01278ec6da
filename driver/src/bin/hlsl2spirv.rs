//! `hlsl2spirv [-T profile] [-E entry] [-D..] [-I..] in.hlsl -o out.spv`. See `hlsl2spirv -help`.

fn main() {
    hlslc::cli::tune_allocator();
    std::process::exit(hlslc::cli::main_hlsl2spirv());
}
