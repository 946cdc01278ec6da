//! Rejects mode: does hlslc refuse what DXC refuses?
//!
//! Every RUN line that starts with `not` and runs `%dxc` is a *negative line*. Its hlslc command
//! runs as written (outputs land in the line's temporary folder; the FileCheck after it does not
//! run). The line is *rejected* when hlslc exits with a non-zero code that is not a crash (101 is
//! a panic; a signal is a crash too) and prints `error`; *accepted* otherwise (exit 0, or a failure
//! without a diagnostic); crashes and timeouts are counted apart.
//!
//! Each line is classified by the error its FileCheck expects ([`expect`] has the rule): a
//! *language* error (type errors, undeclared names, wrong arguments, semantics or attributes
//! invalid for a stage...) or a *SPIR-V-specific* one (messages naming SPIR-V, Vulkan, `vk::`,
//! capabilities, extensions, `-fspv`/`-fvk` options, backend limits, layout/binding/descriptor/
//! push-constant/location rules...). As a quality measure, a rejected line *matches* when hlslc's
//! output contains the literal text of the expected message.
//!
//! Lines are named `<file>#<n>`, `n` counting the file's RUN lines from 1 (after `\`
//! continuations are joined). The ratchet `testsuite/ratchet/rejects-<suite>.txt` lists the lines
//! that must stay rejected: those rejected by the front end, sema or driver (a line that only a
//! back end refuses, `[E0400]`/`[E0401]`, is left out; see [`rejected`]).

pub mod expect;

use super::run::{command_line, par_map, paths_for, run_stage, tail};
use super::script::{self, Stage, Tool};
use super::{discover, relative_name, Config};
use crate::process::Exit;
use expect::ErrorClass;
use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// What hlslc did with a negative line.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    Rejected,
    Accepted,
    Crash,
    Timeout,
    /// The file or line cannot run here (a directive, tool or substitution the runner lacks).
    Unsupported,
}

impl Verdict {
    pub const ALL: [Verdict; 5] = [Verdict::Rejected, Verdict::Accepted, Verdict::Crash, Verdict::Timeout, Verdict::Unsupported];
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Rejected => "rejected",
            Verdict::Accepted => "accepted",
            Verdict::Crash => "crash",
            Verdict::Timeout => "timeout",
            Verdict::Unsupported => "unsupported",
        }
    }
}

/// One negative line and what hlslc did with it.
#[derive(Clone, Debug)]
pub struct LineResult {
    /// The file, relative to the corpus root.
    pub file: String,
    /// The RUN line's number among the file's RUN lines, from 1.
    pub run: usize,
    pub class: ErrorClass,
    /// The expected error (a FileCheck pattern), if the line checks one.
    pub expected: Option<String>,
    pub verdict: Verdict,
    /// Rejected, and the output contains the expected message's literal text.
    pub same_message: bool,
    /// Rejected, and every error hlslc printed is a back end's refusal (`[E0400]`/`[E0401]`: a
    /// construct the SPIR-V or DXIL lowering does not handle yet), not a check of the program.
    pub backend_only: bool,
    /// The command and the head and tail of its output (or why it did not run).
    pub detail: String,
}

impl LineResult {
    /// `<file>#<n>`, the line's name in reports and ratchets.
    pub fn key(&self) -> String {
        format!("{}#{}", self.file, self.run)
    }
}

/// Runs the negative lines of every test file under `dir`; `progress(done, files)`.
pub fn run_suite(dir: &Path, cfg: &Config, progress: &(dyn Fn(usize, usize) + Sync)) -> std::io::Result<Vec<LineResult>> {
    let mut cfg = cfg.clone();
    cfg.corpus_root = cfg.corpus_root.canonicalize().unwrap_or(cfg.corpus_root);
    let files = discover(dir)?;
    let n = files.len();
    let per_file = par_map(&files, cfg.jobs, &|done| progress(done, n), |file, tmp| run_file(file, &cfg, tmp));
    Ok(per_file.into_iter().flatten().flatten().collect())
}

/// The negative lines of one file, run in `tmp`.
pub fn run_file(file: &Path, cfg: &Config, tmp: &Path) -> Vec<LineResult> {
    let name = relative_name(file, &cfg.corpus_root);
    let Ok(bytes) = std::fs::read(file) else { return Vec::new() };
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let paths = paths_for(file, tmp);
    let file_unsupported = script::unsupported_by_directives(&text, &cfg.features);
    let mut out = Vec::new();
    for (i, line) in script::run_lines(&text).iter().enumerate() {
        let mut r = LineResult {
            file: name.clone(),
            run: i + 1,
            class: ErrorClass::Language,
            expected: None,
            verdict: Verdict::Unsupported,
            same_message: false,
            backend_only: false,
            detail: String::new(),
        };
        let pipeline = match script::parse_line(line, &paths, &cfg.features, true) {
            Ok(Some(p)) if p[0].tool == Tool::Hlslc && p[0].nots % 2 == 1 => p,
            Ok(_) => continue,
            Err(why) => {
                if !line.trim_start().starts_with("not ") || !line.contains("dxc") {
                    continue;
                }
                r.detail = why;
                out.push(r);
                continue;
            }
        };
        if let Some(fc) = pipeline.iter().find(|s| s.tool == Tool::FileCheck) {
            let prefixes = expect::filecheck_prefixes(&fc.args);
            let checks_text = match expect::check_file(&fc.args) {
                Some(f) if f != paths.file => std::fs::read_to_string(f).unwrap_or_default(),
                _ => text.clone(),
            };
            r.expected = expect::expected_error(&expect::checks(&checks_text, &prefixes));
        }
        r.class = expect::classify(r.expected.as_deref());
        if let Some(why) = &file_unsupported {
            r.detail = why.clone();
            out.push(r);
            continue;
        }
        let _ = std::fs::create_dir_all(tmp);
        let stage = Stage { merge_stderr: true, stdout_file: None, ..pipeline[0].clone() };
        let done = run_stage(&stage, cfg, tmp, None);
        let output = String::from_utf8_lossy(&done.stdout).into_owned();
        r.verdict = match done.exit {
            Exit::Timeout => Verdict::Timeout,
            Exit::Signal(_) | Exit::Code(101) => Verdict::Crash,
            Exit::Code(0) | Exit::NotStarted(_) => Verdict::Accepted,
            Exit::Code(_) if output.contains("error") => Verdict::Rejected,
            Exit::Code(_) => Verdict::Accepted,
        };
        if r.verdict == Verdict::Rejected {
            let want = r.expected.as_deref().map(expect::literal_message).unwrap_or_default();
            r.same_message = !want.is_empty() && expect::normalize_space(&output).contains(&want);
            r.backend_only = output.lines().filter(|l| l.contains("error")).all(|l| l.contains("[E0400]") || l.contains("[E0401]"));
        }
        r.detail = format!("{} ({})\n{}", command_line(&stage), done.exit, tail(&done));
        out.push(r);
    }
    out
}

/// Totals of one class.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClassCounts {
    pub lines: usize,
    pub rejected: usize,
    pub accepted: usize,
    pub crash: usize,
    pub timeout: usize,
    pub unsupported: usize,
    pub same_message: usize,
    /// Rejected only by a back end's refusal.
    pub backend_only: usize,
}

impl ClassCounts {
    pub fn of<'a>(results: impl IntoIterator<Item = &'a LineResult>) -> ClassCounts {
        let mut c = ClassCounts::default();
        for r in results {
            c.lines += 1;
            match r.verdict {
                Verdict::Rejected => c.rejected += 1,
                Verdict::Accepted => c.accepted += 1,
                Verdict::Crash => c.crash += 1,
                Verdict::Timeout => c.timeout += 1,
                Verdict::Unsupported => c.unsupported += 1,
            }
            c.same_message += usize::from(r.same_message);
            c.backend_only += usize::from(r.verdict == Verdict::Rejected && r.backend_only);
        }
        c
    }
    /// Rejected lines per line that ran, in percent.
    pub fn rate(&self) -> f64 {
        let ran = self.lines - self.unsupported;
        if ran == 0 {
            0.0
        } else {
            100.0 * self.rejected as f64 / ran as f64
        }
    }
}

/// The table of both classes; with `verbose`, first every language-error line that was not
/// rejected (command, expected error, output), the rejected language-error lines whose message
/// differs from DXC's, and the SPIR-V-specific lines not rejected, one line each.
pub fn render(suite: &str, results: &[LineResult], verbose: bool) -> String {
    let mut out = String::new();
    if verbose {
        for r in results.iter().filter(|r| r.class == ErrorClass::Language && !matches!(r.verdict, Verdict::Rejected | Verdict::Unsupported)) {
            let _ = writeln!(out, "{}: {} [language]", r.verdict.name().to_uppercase(), r.key());
            let _ = writeln!(out, "    expected: {}", r.expected.as_deref().unwrap_or("(no FileCheck)"));
            for line in r.detail.lines() {
                let _ = writeln!(out, "    {line}");
            }
        }
        for r in results.iter().filter(|r| r.class == ErrorClass::Language && r.verdict == Verdict::Rejected && !r.same_message) {
            let ours = r.detail.lines().skip(1).find(|l| l.contains("error")).unwrap_or("").trim_start_matches([' ', '|']);
            let _ = writeln!(out, "OTHER MESSAGE: {} [language]\n    expected: {}\n    got: {ours}", r.key(), r.expected.as_deref().unwrap_or(""));
        }
        for r in results.iter().filter(|r| r.class == ErrorClass::Spirv && !matches!(r.verdict, Verdict::Rejected | Verdict::Unsupported)) {
            let _ = writeln!(out, "{}: {} [spirv] expected: {}", r.verdict.name().to_uppercase(), r.key(), r.expected.as_deref().unwrap_or(""));
        }
        let _ = writeln!(out);
    }
    let files: BTreeSet<&str> = results.iter().map(|r| r.file.as_str()).collect();
    let _ = writeln!(out, "== rejects: {suite}: {} negative RUN lines in {} files (rate = rejected / ran; match = rejected with DXC's message; backend = rejected only by a back end's refusal)", results.len(), files.len());
    let _ = writeln!(out, "{:10} {:>6} {:>9} {:>9} {:>6} {:>8} {:>12} {:>7} {:>7} {:>8}", "class", "lines", "rejected", "accepted", "crash", "timeout", "unsupported", "rate", "match", "backend");
    let mut row = |name: &str, c: &ClassCounts| {
        let _ = writeln!(
            out,
            "{name:10} {:>6} {:>9} {:>9} {:>6} {:>8} {:>12} {:>6.1}% {:>7} {:>8}",
            c.lines,
            c.rejected,
            c.accepted,
            c.crash,
            c.timeout,
            c.unsupported,
            c.rate(),
            c.same_message,
            c.backend_only
        );
    };
    for class in [ErrorClass::Language, ErrorClass::Spirv] {
        row(class.name(), &ClassCounts::of(results.iter().filter(|r| r.class == class)));
    }
    row("TOTAL", &ClassCounts::of(results));
    out
}

/// The ratchet of `suite` in `dir`: `rejects-<suite>.txt`.
pub fn ratchet_path(dir: &Path, suite: &str) -> PathBuf {
    dir.join(format!("rejects-{}.txt", suite.trim_matches('/').replace('/', ".")))
}

/// The keys of the lines the ratchet keeps: rejected, and not only by a back end's refusal (a
/// line that a back end refuses for want of a feature would break the ratchet when the feature
/// arrives, although the check the line is about is still missing), sorted.
pub fn rejected(results: &[LineResult]) -> BTreeSet<String> {
    results.iter().filter(|r| r.verdict == Verdict::Rejected && !r.backend_only).map(LineResult::key).collect()
}

/// Writes the rejected lines to the ratchet file; returns how many.
pub fn write_ratchet(path: &Path, results: &[LineResult]) -> std::io::Result<usize> {
    let keys = rejected(results);
    let text: String = keys.iter().map(|k| format!("{k}\n")).collect();
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, text)?;
    Ok(keys.len())
}

/// Compares a run with the ratchet at `path`: `Err` names the listed lines that are no longer
/// rejected; `Ok` holds a note about newly rejected lines (possibly empty).
pub fn check_ratchet(path: &Path, suite: &str, results: &[LineResult]) -> Result<String, String> {
    let listed = super::ratchet::read(path).map_err(|e| format!("cannot read ratchet {}: {e}", path.display()))?;
    let now = rejected(results);
    let mut bad = String::new();
    for key in listed.iter().filter(|k| !now.contains(*k)) {
        match results.iter().find(|r| &r.key() == key) {
            Some(r) => {
                let _ = writeln!(bad, "  {}: {key}", r.verdict.name());
                for line in r.detail.lines().take(12) {
                    let _ = writeln!(bad, "      {line}");
                }
            }
            None => {
                let _ = writeln!(bad, "  not found: {key}");
            }
        }
    }
    let new: Vec<&String> = now.iter().filter(|k| !listed.contains(*k)).collect();
    let mut note = String::new();
    if !new.is_empty() {
        let _ = writeln!(
            note,
            "{suite}: {} negative line(s) rejected that {} does not list; to record them run:\n    cargo run --release -p hlslc-testsuite --bin conformance -- {suite} --rejects --update-ratchet",
            new.len(),
            path.display()
        );
    }
    if bad.is_empty() {
        Ok(note)
    } else {
        Err(format!("{}: negative line(s) in the ratchet no longer rejected:\n{bad}{note}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(run: usize, class: ErrorClass, verdict: Verdict, same: bool) -> LineResult {
        LineResult { file: "S/a.hlsl".into(), run, class, expected: Some("error: x".into()), verdict, same_message: same, backend_only: false, detail: String::new() }
    }

    #[test]
    fn counts_per_class_and_rate_leaves_out_unsupported() {
        let rs = vec![
            line(1, ErrorClass::Language, Verdict::Rejected, true),
            line(2, ErrorClass::Language, Verdict::Accepted, false),
            line(3, ErrorClass::Language, Verdict::Unsupported, false),
            line(4, ErrorClass::Spirv, Verdict::Crash, false),
            LineResult { backend_only: true, ..line(5, ErrorClass::Spirv, Verdict::Rejected, false) },
        ];
        let lang = ClassCounts::of(rs.iter().filter(|r| r.class == ErrorClass::Language));
        assert_eq!((lang.lines, lang.rejected, lang.accepted, lang.unsupported, lang.same_message), (3, 1, 1, 1, 1));
        assert_eq!(lang.rate(), 50.0);
        let text = render("S", &rs, true);
        assert!(text.contains("ACCEPTED: S/a.hlsl#2 [language]"), "{text}");
        assert!(text.contains("CRASH: S/a.hlsl#4 [spirv]"), "{text}");
        assert!(!text.contains("S/a.hlsl#1 "), "{text}");
        assert_eq!(rejected(&rs).into_iter().collect::<Vec<_>>(), ["S/a.hlsl#1"]);
    }
}
