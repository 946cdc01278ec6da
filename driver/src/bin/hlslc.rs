//! `hlslc`: the dxc-compatible command line. Everything happens in `hlslc::cli`.

fn main() {
    std::process::exit(hlslc::cli::main_hlslc());
}
