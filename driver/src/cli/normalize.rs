//! Matching raw command-line arguments, spelled as dxc spells them, against the option table,
//! with their values, ready to be indexed by [`super::matches`].
//!
//! Rules (those of LLVM's `OptTable`, which dxc uses):
//! - an option starts with `-`, or with `/` when the option allows it; names are case-sensitive;
//! - the longest option name that accepts the argument wins: `-Emain` is `-E main`, `-Od` is the
//!   `Od` flag, `-DNAME=1` is `-D NAME=1`;
//! - a flag or a separate-value option must match the whole argument; a joined option takes the
//!   rest of the argument as its value;
//! - an argument starting with `-` that matches nothing is an error; one starting with `/` that
//!   matches nothing, or that names an existing file, is an input path (so `/home/me/a.hlsl` and
//!   `/Data/a.hlsl` work);
//! - `--` ends the options; `-help`, `--help`, `-?`, `/?` ask for help, `--version` for the version.

use super::table::{Kind, OptSpec};
use super::{CliError, CliErrorKind};

/// One recognized argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// An option of the table with its values.
    Opt {
        /// The option's entry in the table.
        spec: &'static OptSpec,
        /// Its values, as many as [`OptSpec::value_count`].
        values: Vec<String>,
        /// The argument(s) as written, for messages.
        spelling: String,
    },
    /// A positional argument (an input file).
    Input(String),
}

/// Matches `args` (without the program name) against `tables`.
pub fn recognize(args: &[String], tables: &[&'static [OptSpec]]) -> Result<Vec<Arg>, CliError> {
    let mut out = Vec::with_capacity(args.len());
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if arg == "--" {
            out.extend(args[i..].iter().cloned().map(Arg::Input));
            break;
        }
        let (rest, slash) = if let Some(r) = arg.strip_prefix("--").filter(|r| matches!(*r, "help" | "version")) {
            (r, false)
        } else if let Some(r) = arg.strip_prefix('-').filter(|r| !r.is_empty()) {
            (r, false)
        } else if let Some(r) = arg.strip_prefix('/').filter(|r| !r.is_empty()) {
            if std::path::Path::new(arg).exists() {
                // An absolute path such as `/Data/a.hlsl`, not `/D ata/a.hlsl`.
                out.push(Arg::Input(arg.clone()));
                continue;
            }
            (r, true)
        } else {
            out.push(Arg::Input(arg.clone()));
            continue;
        };
        let rest = if rest == "?" { "help" } else { rest };
        match match_one(rest, slash, tables, &args[i..]) {
            Matched::Yes(spec, values, used) => {
                let mut spelling = arg.clone();
                for v in &args[i..i + used] {
                    spelling.push(' ');
                    spelling.push_str(v);
                }
                i += used;
                out.push(Arg::Opt { spec, values, spelling });
            }
            Matched::MissingValue(spec) => {
                // dxc's (LLVM's) wording, which its tests match.
                let n = spec.value_count();
                return Err(CliError::new(
                    CliErrorKind::MissingValue,
                    format!("Argument to '{arg}' is missing. (expected {n} value{})", if n == 1 { "" } else { "s" }),
                ));
            }
            Matched::No if slash => out.push(Arg::Input(arg.clone())),
            Matched::No => {
                return Err(CliError::new(CliErrorKind::UnknownArgument, format!("unknown argument: '{arg}'")));
            }
        }
    }
    Ok(out)
}

enum Matched {
    /// The option, its values, and how many following arguments were used.
    Yes(&'static OptSpec, Vec<String>, usize),
    MissingValue(&'static OptSpec),
    No,
}

fn match_one(rest: &str, slash: bool, tables: &[&'static [OptSpec]], following: &[String]) -> Matched {
    let mut candidates: Vec<&'static OptSpec> = tables
        .iter()
        .flat_map(|t| t.iter())
        .filter(|o| rest.starts_with(o.name) && (!slash || o.slash))
        .collect();
    candidates.sort_by_key(|o| std::cmp::Reverse(o.name.len()));
    for spec in candidates {
        let exact = rest.len() == spec.name.len();
        let joined = &rest[spec.name.len()..];
        let take = |n: usize| -> Matched {
            if following.len() < n {
                Matched::MissingValue(spec)
            } else {
                Matched::Yes(spec, following[..n].to_vec(), n)
            }
        };
        match spec.kind {
            Kind::Flag if exact => return Matched::Yes(spec, Vec::new(), 0),
            Kind::Separate if exact => return take(1),
            Kind::Multi(n) if exact => return take(n as usize),
            Kind::Joined | Kind::CommaJoined => return Matched::Yes(spec, vec![joined.to_string()], 0),
            Kind::JoinedOrSeparate if exact => return take(1),
            Kind::JoinedOrSeparate => return Matched::Yes(spec, vec![joined.to_string()], 0),
            _ => {}
        }
    }
    Matched::No
}

#[cfg(test)]
mod tests {
    use super::super::table::OPTIONS;
    use super::*;

    fn rec(args: &[&str]) -> Result<Vec<(String, Vec<String>)>, CliError> {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        Ok(recognize(&args, &[OPTIONS])?
            .into_iter()
            .map(|a| match a {
                Arg::Opt { spec, values, .. } => (spec.name.to_string(), values),
                Arg::Input(p) => ("<input>".to_string(), vec![p]),
            })
            .collect())
    }
    fn one(name: &str, v: &[&str]) -> (String, Vec<String>) {
        (name.to_string(), v.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn joined_separate_and_slash_spellings_agree() {
        let want = vec![one("T", &["ps_6_0"])];
        assert_eq!(rec(&["-T", "ps_6_0"]).unwrap(), want);
        assert_eq!(rec(&["-Tps_6_0"]).unwrap(), want);
        assert_eq!(rec(&["/Tps_6_0"]).unwrap(), want);
        assert_eq!(rec(&["/T", "ps_6_0"]).unwrap(), want);
    }

    #[test]
    fn longest_name_wins() {
        assert_eq!(rec(&["-Emain"]).unwrap(), vec![one("E", &["main"])]);
        assert_eq!(rec(&["-enable-16bit-types"]).unwrap(), vec![one("enable-16bit-types", &[])]);
        assert_eq!(rec(&["-Od"]).unwrap(), vec![one("Od", &[])]);
        assert_eq!(rec(&["-DNAME=1"]).unwrap(), vec![one("D", &["NAME=1"])]);
        assert_eq!(rec(&["-denorm", "ftz"]).unwrap(), vec![one("denorm", &["ftz"])]);
        assert_eq!(rec(&["-Fre", "x"]).unwrap(), vec![one("Fre", &["x"])]);
        assert_eq!(rec(&["-Wno-conversion"]).unwrap(), vec![one("W", &["no-conversion"])]);
        assert_eq!(rec(&["-fspv-target-env=vulkan1.1"]).unwrap(), vec![one("fspv-target-env=", &["vulkan1.1"])]);
        assert_eq!(rec(&["-Qstrip_reflect"]).unwrap(), vec![one("Qstrip_reflect", &[])]);
    }

    #[test]
    fn multi_value_options_take_hyphen_values() {
        assert_eq!(rec(&["-fvk-bind-resource-heap", "1", "-1"]).unwrap(), vec![one("fvk-bind-resource-heap", &["1", "-1"])]);
        assert_eq!(
            rec(&["-fvk-bind-register", "t0", "0", "1", "2", "a.hlsl"]).unwrap(),
            vec![one("fvk-bind-register", &["t0", "0", "1", "2"]), one("<input>", &["a.hlsl"])]
        );
    }

    #[test]
    fn errors() {
        assert_eq!(rec(&["-foo"]).unwrap_err().kind, CliErrorKind::UnknownArgument);
        assert_eq!(rec(&["-foo"]).unwrap_err().message, "unknown argument: '-foo'");
        // A flag does not take a joined value, and `-fspv-target-env` needs its `=`.
        assert_eq!(rec(&["-spirvx"]).unwrap_err().kind, CliErrorKind::UnknownArgument);
        assert_eq!(rec(&["-fspv-target-env", "vulkan1.1"]).unwrap_err().kind, CliErrorKind::UnknownArgument);
        assert_eq!(rec(&["-T"]).unwrap_err().kind, CliErrorKind::MissingValue);
        assert_eq!(rec(&["-fvk-b-shift", "1"]).unwrap_err().kind, CliErrorKind::MissingValue);
        // `/spirv` is not a dxc spelling, so it is a path.
        assert_eq!(rec(&["/spirv"]).unwrap(), vec![one("<input>", &["/spirv"])]);
        assert_eq!(rec(&["/home/a.hlsl"]).unwrap(), vec![one("<input>", &["/home/a.hlsl"])]);
    }

    #[test]
    fn help_spellings() {
        for h in ["-help", "--help", "/help", "-?", "/?"] {
            assert_eq!(rec(&[h]).unwrap(), vec![one("help", &[])], "{h}");
        }
        assert_eq!(rec(&["--", "-T"]).unwrap(), vec![one("<input>", &["-T"])]);
    }
}
