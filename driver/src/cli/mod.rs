//! The command lines: dxc-compatible `hlslc` and the smaller `hlsl2spirv`.
//!
//! Arguments go through two steps: [`normalize::recognize`] matches dxc's spellings against the
//! option [`table`] (values joined or separate, value counts), and [`to_options`] turns the
//! matches, indexed by option, into an [`Invocation`]: the library [`Options`] plus the files to
//! read and write. [`command`] renders `--help` from the same table.
//! [`run`] then calls [`crate::compile_bytes`] and writes the outputs.

pub mod command;
mod matches;
pub mod normalize;
mod output;
mod run;
pub mod status;
pub mod table;
mod to_options;

pub use run::{main_hlsl2spirv, main_hlslc, run_hlsl2spirv, run_hlslc};

use crate::options::Options;
use std::fmt;
use std::path::PathBuf;
use table::{Group, Kind, OptSpec};

/// Which command is parsing.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Tool {
    /// The dxc-compatible `hlslc` command.
    Hlslc,
    /// `hlsl2spirv`: SPIR-V only, with `-o` and profile inference.
    Hlsl2spirv,
}

impl Tool {
    /// The command's name, as messages print it.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Hlslc => "hlslc",
            Tool::Hlsl2spirv => "hlsl2spirv",
        }
    }
    /// The option tables the command accepts.
    pub fn tables(self) -> &'static [&'static [OptSpec]] {
        static HLSLC: &[&[OptSpec]] = &[table::OPTIONS];
        static HLSL2SPIRV: &[&[OptSpec]] = &[table::OPTIONS, HLSL2SPIRV_OPTIONS];
        match self {
            Tool::Hlslc => HLSLC,
            Tool::Hlsl2spirv => HLSL2SPIRV,
        }
    }
}

/// Options only `hlsl2spirv` has.
pub static HLSL2SPIRV_OPTIONS: &[OptSpec] = &[OptSpec {
    name: "o",
    kind: Kind::JoinedOrSeparate,
    slash: false,
    group: Group::Common,
    meta: "<file>",
    help: "Output SPIR-V binary file (default: the input name with extension .spv)",
    hidden: false,
}];

/// Why the command line was refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CliErrorKind {
    /// An argument that starts with `-` and names no option.
    UnknownArgument,
    /// An option without (all) its value(s).
    MissingValue,
    /// A value the option does not accept (`-HV 2019`, `-T xs_6_0`).
    InvalidValue,
    /// Inputs missing or too many, or options that cannot go together.
    Usage,
}

#[derive(Clone, Debug, PartialEq, Eq)]
/// A refused command line: why, and the message to print.
pub struct CliError {
    /// What kind of mistake it is.
    pub kind: CliErrorKind,
    /// The message, without the `hlslc: error: ` prefix.
    pub message: String,
}

impl CliError {
    /// An error of `kind` with `message`.
    pub fn new(kind: CliErrorKind, message: impl Into<String>) -> CliError {
        CliError { kind, message: message.into() }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Files named on the command line for outputs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OutputFiles {
    /// `-Fo` (and `-o` of hlsl2spirv): the binary.
    pub object: Option<PathBuf>,
    /// `-Fc`: the assembly listing.
    pub listing: Option<PathBuf>,
    /// `-Fi`: the preprocessed source (with `-P`).
    pub preprocessed: Option<PathBuf>,
    /// `-Fh`: a C header holding the binary.
    pub header: Option<PathBuf>,
    /// `-Fe`: diagnostics instead of stderr.
    pub errors: Option<PathBuf>,
    /// `-Fd`, `-Fre`, `-Frs`, `-Fsh`.
    pub debug: Option<PathBuf>,
    /// `-Fre`: DXIL's `STAT` part; with `-spirv`, the reflection JSON.
    pub reflection: Option<PathBuf>,
    /// `-reflect-json`: the reflection JSON for either target.
    pub reflection_json: Option<PathBuf>,
    /// `-Frs`: the root signature part.
    pub root_signature: Option<PathBuf>,
    /// `-Fsh`: the shader hash part.
    pub hash: Option<PathBuf>,
    /// `-MF <file>`, or `-MD` (the input's name with `.d`): the files the source depends on, as
    /// a make rule, written after a successful compile.
    pub dependencies: Option<PathBuf>,
}

/// A parsed command line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Invocation {
    /// The library options.
    pub options: Options,
    /// The positional arguments (the last one is the input, as in dxc).
    pub inputs: Vec<String>,
    /// Output files named on the command line.
    pub outputs: OutputFiles,
    /// `-help` / `--help` / `-?`: print the options.
    pub help: bool,
    /// `-version` / `--version`: print the version.
    pub version: bool,
    /// `-Vn`: variable name in the `-Fh` header.
    pub header_variable: Option<String>,
    /// `-ftime-report`: print the time of each phase on standard error.
    pub time_report: bool,
    /// The options given, by their [`status::STATUS`] key, in table order (for refusals).
    pub present: Vec<String>,
}

/// Parses `args` (without the program name) as `tool` does.
///
/// ```
/// use hlslc::cli::{parse_args, Tool};
/// let args: Vec<String> = ["-T", "cs_6_0", "-E", "CSMain", "-spirv", "-D", "N=4", "shader.hlsl"].map(String::from).into();
/// let inv = parse_args(Tool::Hlslc, &args).unwrap();
/// assert!(inv.options.spirv);
/// assert_eq!(inv.options.entry, "CSMain");
/// assert_eq!(inv.inputs, ["shader.hlsl"]);
/// // Unknown options and bad values are errors that name them.
/// let bad: Vec<String> = ["-T", "xs_6_0"].map(String::from).into();
/// assert!(parse_args(Tool::Hlslc, &bad).unwrap_err().message.contains("xs_6_0"));
/// ```
pub fn parse_args(tool: Tool, args: &[String]) -> Result<Invocation, CliError> {
    let recognized = normalize::recognize(args, tool.tables())?;
    let mut inv = to_options::invocation(tool, &matches::Matches::new(&recognized))?;
    inv.options.command_args = args.iter().filter(|a| !inv.inputs.contains(a)).cloned().collect();
    inv.options.spirv_options.command_line =
        // hlslc's own -fspv-generator (dxc has no such option) is left out.
        args.iter().filter(|a| !inv.inputs.contains(a) && !a.starts_with("-fspv-generator")).map(|a| format!(" {a}")).collect();
    Ok(inv)
}

/// The `--help` text of `tool`.
pub fn help_text(tool: Tool) -> String {
    let (usage, about) = match tool {
        Tool::Hlslc => (
            "hlslc [options] <input.hlsl>",
            "hlslc: an HLSL compiler, command-line compatible with dxc",
        ),
        Tool::Hlsl2spirv => (
            "hlsl2spirv [-T <profile>] [-E <entry>] [-D <name[=value]>].. [-I <dir>].. <input.hlsl> -o <out.spv>",
            "hlsl2spirv: compile HLSL to Vulkan SPIR-V.\n\n\
             The entry point defaults to 'main'. Without -T, the profile is inferred from the entry\n\
             function: [shader(\"<stage>\")], [numthreads] (compute, or mesh with [outputtopology]),\n\
             [maxvertexcount] (geometry), [domain] with [patchconstantfunc] (hull) or without (domain),\n\
             or a return semantic SV_Target/SV_Depth (pixel) or SV_Position (vertex); the shader model\n\
             is then 6.0 (6.5 for mesh, 6.3 libraries for ray tracing stages). All hlslc options are\n\
             accepted as well; -spirv is implied.",
        ),
    };
    command::help(usage, about, tool.tables())
}

/// Fixes glibc malloc's mmap threshold at its initial 128 KiB for the command-line programs. By
/// default it rises each time a large block is freed, after which the large vectors of a big
/// compile (the token stream, the syntax tree's and the typed module's arenas) come from the heap
/// and stay there once freed: a 1 MB generated source peaked at 99 MB of RSS against 80 MB with
/// the threshold fixed (`driver/benches/compile.rs --memory`); a small compile is unchanged
/// (callgrind and peak RSS). Only the programs call this, never the library.
pub fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn mallopt(param: i32, value: i32) -> i32;
        }
        const M_MMAP_THRESHOLD: i32 = -3;
        // SAFETY: mallopt only changes glibc malloc's tuning parameters; it is called first thing
        // in `main`, before any other thread exists.
        unsafe {
            mallopt(M_MMAP_THRESHOLD, 128 * 1024);
        }
    }
}
