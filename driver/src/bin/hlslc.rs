//! `hlslc`: the dxc-compatible command line. Everything happens in `hlslc::cli`.

fn main() {
    hlslc::cli::tune_allocator();
    std::process::exit(hlslc::cli::main_hlslc());
}
