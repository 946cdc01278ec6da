//! Generates the parser from `src/parser/grammar.lalrpop` into `OUT_DIR` (never edited by hand).

fn main() {
    println!("cargo:rerun-if-changed=src/parser/grammar.lalrpop");
    lalrpop::Configuration::new()
        .use_cargo_dir_conventions()
        .emit_rerun_directives(true)
        .process_file("src/parser/grammar.lalrpop")
        .expect("the grammar must build");
}
