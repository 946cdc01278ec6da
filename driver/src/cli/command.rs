//! The `--help` text, rendered from the option table in dxc's spellings.

use super::table::{Group, Kind, OptSpec};
use std::fmt::Write;

/// How an option is written, with its value names: `-T <profile>`, `-fspv-target-env=<env>`.
pub fn spelling(spec: &OptSpec) -> String {
    match spec.kind {
        Kind::Flag => format!("-{}", spec.name),
        Kind::Joined | Kind::CommaJoined => format!("-{}{}", spec.name, spec.meta),
        _ => format!("-{} {}", spec.name, spec.meta),
    }
}

/// The `--help` text: usage, then the visible options by group.
pub fn help(usage: &str, about: &str, tables: &[&'static [OptSpec]]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{about}\n\nUSAGE: {usage}\n");
    let _ = writeln!(
        out,
        "Options are spelled as dxc spells them. A value may follow its option as the next argument or\n\
         joined to it where the option allows (-T ps_6_0, -Tps_6_0), and most options may also be\n\
         written with '/' (/Tps_6_0, /Zi). Options marked [not supported] are refused with an error\n\
         that says why; every other option changes the output or is documented to have no effect."
    );
    let mut groups: Vec<Group> = tables.iter().flat_map(|t| t.iter()).map(|o| o.group).collect();
    groups.sort();
    groups.dedup();
    for g in groups {
        let _ = writeln!(out, "\n{}:", g.heading());
        for spec in tables.iter().flat_map(|t| t.iter()).filter(|o| o.group == g && !o.hidden) {
            let s = spelling(spec);
            let refused = matches!(super::status::status(&super::status::status_key(spec)), Some(super::status::Status::Refused(_)));
            let help = if refused { format!("{} [not supported]", spec.help) } else { spec.help.to_string() };
            if s.len() > 30 {
                let _ = writeln!(out, "  {s}\n  {:30}  {help}", "");
            } else {
                let _ = writeln!(out, "  {s:30}  {help}");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::table::OPTIONS;
    use super::*;

    #[test]
    fn help_lists_visible_options_in_dxc_spelling() {
        let h = help("hlslc [options] <input>", "hlslc", &[OPTIONS]);
        assert!(h.contains("\n  -T <profile> "), "{h}");
        assert!(h.contains("\n  -fspv-target-env=<env> "));
        assert!(h.contains("\n  -fvk-b-shift <shift> <space> "));
        assert!(!h.contains("-vkbr"), "hidden options are not listed");
    }
}
