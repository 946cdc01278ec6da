//! Running a command line: read the input, compile, report, write the outputs, exit code.

use super::output::write_atomic;
use super::{help_text, parse_args, CliError, CliErrorKind, Invocation, Tool};
use crate::infer::infer_profile;
use crate::options::{Action, OutputKind};
use crate::{compile, compile_bytes, input, CompileResult, Output};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// Stack of the thread that compiles: deep but legal input must not overflow it.
const STACK_SIZE: usize = 256 << 20;

/// `hlslc` with the process's arguments; returns the exit code.
pub fn main_hlslc() -> i32 {
    main_with(Tool::Hlslc)
}

/// `hlsl2spirv` with the process's arguments; returns the exit code.
pub fn main_hlsl2spirv() -> i32 {
    main_with(Tool::Hlsl2spirv)
}

fn main_with(tool: Tool) -> i32 {
    let mut args = Vec::new();
    for a in std::env::args_os().skip(1) {
        match a.into_string() {
            Ok(s) => args.push(s),
            Err(bad) => {
                eprintln!("{}: error: argument is not valid UTF-8: {}", tool.name(), bad.to_string_lossy());
                return 1;
            }
        }
    }
    let worker = std::thread::Builder::new().stack_size(STACK_SIZE).spawn(move || {
        let (stdout, stderr) = (io::stdout(), io::stderr());
        run(tool, &args, &mut stdout.lock(), &mut stderr.lock())
    });
    match worker.map(|h| h.join()) {
        Ok(Ok(code)) => code,
        Ok(Err(_)) => 101, // the panic message has been printed
        Err(e) => {
            eprintln!("{}: error: cannot start the compiler thread: {e}", tool.name());
            1
        }
    }
}

/// `hlslc` with `args` (without the program name), writing to `out` and `err`.
pub fn run_hlslc(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    run(Tool::Hlslc, args, out, err)
}

/// `hlsl2spirv` with `args` (without the program name), writing to `out` and `err`.
pub fn run_hlsl2spirv(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    run(Tool::Hlsl2spirv, args, out, err)
}

fn run(tool: Tool, args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let name = tool.name();
    match run_inner(tool, args, out, err) {
        Ok(code) => code,
        Err(e) => {
            let _ = writeln!(err, "{name}: error: {}", e.message);
            if e.kind == CliErrorKind::Usage && args.is_empty() {
                let _ = writeln!(err, "{name}: use -help to list the options");
            }
            1
        }
    }
}

fn usage(message: String) -> CliError {
    CliError::new(CliErrorKind::Usage, message)
}

fn run_inner(tool: Tool, args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, CliError> {
    let inv = parse_args(tool, args)?;
    if inv.help {
        write_stdout(out, help_text(tool).as_bytes())?;
        return Ok(0);
    }
    if inv.version {
        write_stdout(out, format!("{}\n", crate::version()).as_bytes())?;
        return Ok(0);
    }
    if let Some(e) = super::status::refusal(&inv) {
        return Err(e);
    }
    if inv.options.other.iter().any(|(n, _)| n == "dumpbin") {
        return dump_container(&inv, out);
    }
    // As dxc (`Args.getLastArgValue(OPT_INPUT)`): of several positional arguments the last is the
    // input and the others are ignored; DXC's own tests rely on it (`-T lib_6_8 external file.hlsl`).
    let Some(input) = inv.inputs.last().cloned() else {
        return Err(usage("no input file".into()));
    };
    let bytes = read_input(&input)?;
    let mut result = compile_input(tool, &inv, &input, bytes);
    let rendered = result.render_diagnostics();
    match &inv.outputs.errors {
        Some(path) => write_file(path, rendered.as_bytes())?,
        None => {
            let _ = err.write_all(rendered.as_bytes());
        }
    }
    if !result.succeeded() {
        return Ok(1);
    }
    let start = std::time::Instant::now();
    write_outputs(tool, &inv, &input, &result, out)?;
    if inv.time_report {
        result.times.add(crate::timing::Phase::Serialize, start.elapsed());
        let _ = err.write_all(result.times.report().as_bytes());
    }
    Ok(0)
}

/// `-dumpbin`: the input is a DXIL container (ours or dxc's); its parts are listed on stdout or
/// in the `-Fc` file. A container that does not parse is an error naming the part and offset.
fn dump_container(inv: &Invocation, out: &mut dyn Write) -> Result<i32, CliError> {
    let Some(input) = inv.inputs.last() else {
        return Err(usage("no input file".into()));
    };
    let bytes = read_input(input)?;
    if extracting(inv) {
        let c = hlslc_dxil::container::reader::parse(&bytes).map_err(|e| usage(format!("{input}: {e}")))?;
        return extract_root_signature(inv, &c).map(|()| 0);
    }
    let text = hlslc_dxil::container::dump::dump(&bytes).map_err(|e| CliError::new(CliErrorKind::Usage, format!("{input}: {e}")))?;
    match &inv.outputs.listing {
        Some(path) => write_file(path, text.as_bytes())?,
        None => write_stdout(out, text.as_bytes())?,
    }
    Ok(0)
}

fn read_input(input: &str) -> Result<Vec<u8>, CliError> {
    let cannot = |e: io::Error| usage(format!("cannot read input file '{input}': {e}"));
    if input == "-" {
        let mut bytes = Vec::new();
        io::stdin().read_to_end(&mut bytes).map_err(cannot)?;
        return Ok(bytes);
    }
    if Path::new(input).is_dir() {
        return Err(usage(format!("cannot read input file '{input}': it is a directory")));
    }
    std::fs::read(input).map_err(cannot)
}

fn compile_input(tool: Tool, inv: &Invocation, input: &str, bytes: Vec<u8>) -> CompileResult {
    let mut options = inv.options.clone();
    let display = if input == "-" { "<stdin>" } else { input };
    if tool == Tool::Hlsl2spirv {
        if options.action == Action::Compile {
            options.output_kind = OutputKind::Binary;
            options.listing = inv.outputs.listing.is_some();
        }
        if options.profile.is_none() && options.action == Action::Compile {
            let decoded = input::decode(bytes);
            if decoded.error_count > 0 {
                return compile_bytes(decoded.text.into_bytes(), display, &options, None);
            }
            return match infer_profile(&decoded.text, display, &options) {
                Ok(p) => {
                    options.profile = Some(p);
                    compile(&decoded.text, display, &options, None)
                }
                Err(result) => result,
            };
        }
    }
    compile_bytes(bytes, display, &options, None)
}

fn write_outputs(tool: Tool, inv: &Invocation, input: &str, result: &CompileResult, out: &mut dyn Write) -> Result<(), CliError> {
    let files = &inv.outputs;
    let Some(output) = &result.output else { return Ok(()) };
    match inv.options.action {
        Action::Preprocess => match &files.preprocessed {
            Some(path) => write_file(path, output.as_bytes()),
            None => write_stdout(out, output.as_bytes()),
        },
        Action::Compile => {
            let object = files.object.clone().or_else(|| {
                (tool == Tool::Hlsl2spirv && files.header.is_none()).then(|| default_spv_path(input))
            });
            match output {
                Output::Binary(bytes) if extracting(inv) && !inv.options.spirv => {
                    let c = hlslc_dxil::container::reader::parse(bytes).map_err(|e| usage(e.to_string()))?;
                    extract_root_signature(inv, &c)?;
                }
                Output::Binary(bytes) => {
                    if let Some(path) = &object {
                        write_file(path, bytes)?;
                    }
                    // As dxc: with no object file, the disassembly goes to stdout.
                    if object.is_none() && files.header.is_none() && files.listing.is_none() {
                        if let Some(text) = &result.listing {
                            write_stdout(out, text.as_bytes())?;
                        }
                    }
                    if let Some(path) = &files.header {
                        let var = inv.header_variable.clone().unwrap_or_else(|| format!("g_{}", inv.options.entry));
                        write_file(path, c_header(&var, bytes).as_bytes())?;
                    }
                    if !inv.options.spirv {
                        write_container_parts(inv, bytes)?;
                    }
                }
                Output::Text(text) => match &files.listing {
                    Some(path) => write_file(path, text.as_bytes())?,
                    None => write_stdout(out, text.as_bytes())?,
                },
            }
            write_reflection_json(inv, result)?;
            write_root_signature(inv, result)?;
            if let Some(path) = &files.dependencies {
                write_file(path, crate::dependency_rule(&result.source_map).as_bytes())?;
            }
            match (&result.listing, &files.listing) {
                (Some(text), Some(path)) => write_file(path, text.as_bytes()),
                _ => Ok(()),
            }
        }
        _ => write_stdout(out, output.as_bytes()),
    }
}

/// `-reflect-json` (both targets) and `-Fre` with `-spirv` (where dxc refuses `-Fre`): the
/// reflection as JSON (docs/reflection.md).
fn write_reflection_json(inv: &Invocation, result: &CompileResult) -> Result<(), CliError> {
    let files = &inv.outputs;
    let spirv_fre = if inv.options.spirv { files.reflection.as_ref() } else { None };
    let paths: Vec<&PathBuf> = spirv_fre.into_iter().chain(files.reflection_json.as_ref()).collect();
    if paths.is_empty() {
        return Ok(());
    }
    let Some(reflection) = &result.reflection else {
        return Err(usage("no reflection for this output: its DXIL metadata does not describe an entry point".into()));
    };
    let json = reflection.to_json();
    for path in paths {
        write_file(path, json.as_bytes())?;
    }
    Ok(())
}

/// `-Fsh` (the `HASH` part: flags and digest, as dxc writes `DxilShaderHash`) and `-Fre` (the
/// reflection: the `STAT` part with its part header, as dxc writes it), taken from the container.
fn write_container_parts(inv: &Invocation, bytes: &[u8]) -> Result<(), CliError> {
    let files = &inv.outputs;
    if files.hash.is_none() && files.reflection.is_none() {
        return Ok(());
    }
    let c = hlslc_dxil::container::reader::parse(bytes).map_err(|e| usage(e.to_string()))?;
    if let Some(path) = &files.hash {
        let part = c.part("HASH").ok_or_else(|| usage("the container has no HASH part for '-Fsh'".into()))?;
        write_file(path, part.data)?;
    }
    if let Some(path) = &files.reflection {
        let Some(part) = c.part("STAT") else {
            return Err(usage("'-Fre' needs the reflection part, which -Qstrip_reflect removes".into()));
        };
        let mut out = b"STAT".to_vec();
        out.extend_from_slice(&(part.data.len() as u32).to_le_bytes());
        out.extend_from_slice(part.data);
        write_file(path, &out)?;
    }
    Ok(())
}

/// `-extractrootsignature`: the `-Fo` file gets the root signature instead of the container.
fn extracting(inv: &Invocation) -> bool {
    inv.options.other.iter().any(|(n, _)| n == "extractrootsignature")
}

/// `-extractrootsignature`: writes the `RTS0` part's data (the serialized root signature, as
/// dxc's `WritePartToFile` does) to the `-Fo` file.
fn extract_root_signature(inv: &Invocation, c: &hlslc_dxil::container::reader::Container) -> Result<(), CliError> {
    let Some(path) = &inv.outputs.object else {
        return Err(usage("'-extractrootsignature' writes the root signature to the -Fo file: give -Fo <file>".into()));
    };
    let part = c.part("RTS0").ok_or_else(|| usage("the container has no root signature (RTS0 part) for '-extractrootsignature'".into()))?;
    write_file(path, part.data)
}

/// `-Frs`: the compiled root signature, as a container holding only its `RTS0` part.
fn write_root_signature(inv: &Invocation, result: &CompileResult) -> Result<(), CliError> {
    let Some(path) = &inv.outputs.root_signature else { return Ok(()) };
    if inv.options.spirv {
        return Err(usage("'-Frs' writes a Direct3D root signature; it cannot be used with -spirv".into()));
    }
    match &result.root_signature {
        Some(bytes) => write_file(path, bytes),
        None => Err(usage("'-Frs' needs a root signature: the entry point has no [RootSignature] and no -rootsig-define was given".into())),
    }
}

/// `in.hlsl` → `in.spv`.
fn default_spv_path(input: &str) -> PathBuf {
    if input == "-" {
        return PathBuf::from("out.spv");
    }
    Path::new(input).with_extension("spv")
}

/// The bytes as a C array, as `-Fh` writes them.
pub(super) fn c_header(var: &str, bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 6 + 64);
    s.push_str("#if 0\n; generated by hlslc\n#endif\n\nconst unsigned char ");
    s.push_str(var);
    s.push_str("[] = {");
    for (i, b) in bytes.iter().enumerate() {
        s.push_str(if i % 16 == 0 { "\n  " } else { " " });
        s.push_str(&format!("0x{b:02x},"));
    }
    s.push_str("\n};\n");
    s
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    write_atomic(path, bytes).map_err(|e| usage(format!("cannot write output file '{}': {e}", path.display())))
}

fn write_stdout(out: &mut dyn Write, bytes: &[u8]) -> Result<(), CliError> {
    out.write_all(bytes).and_then(|_| out.flush()).map_err(|e| usage(format!("cannot write to standard output: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_lists_bytes() {
        let h = c_header("g_main", &[1, 0xAB]);
        assert!(h.contains("const unsigned char g_main[] = {\n  0x01, 0xab,\n};\n"), "{h}");
    }
}
