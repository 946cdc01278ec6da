//! Totals of a run: overall, per folder and per file-name prefix.

use super::{FileResult, Mode, Outcome};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Number of files per outcome.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts(pub BTreeMap<Outcome, usize>);

impl Counts {
    pub fn add(&mut self, o: Outcome) {
        *self.0.entry(o).or_default() += 1;
    }
    pub fn get(&self, o: Outcome) -> usize {
        self.0.get(&o).copied().unwrap_or(0)
    }
    pub fn total(&self) -> usize {
        self.0.values().sum()
    }
    /// Files that ran: neither unsupported nor negative.
    pub fn ran(&self) -> usize {
        self.total() - self.get(Outcome::Unsupported) - self.get(Outcome::Negative) - self.get(Outcome::NotCompiled)
    }
    /// Passes per file that ran, in percent.
    pub fn rate(&self) -> f64 {
        if self.ran() == 0 {
            return 0.0;
        }
        100.0 * self.get(Outcome::Pass) as f64 / self.ran() as f64
    }
}

/// Totals of a run.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub total: Counts,
    /// Key: the file's folder, at most three levels deep (`HLSLFileCheck/hlsl/intrinsics`).
    pub by_folder: BTreeMap<String, Counts>,
    /// Key: the file name up to its first dot, with the dot (`cs.`), for names with at least
    /// three parts (`cs.groupshared.hlsl`).
    pub by_prefix: BTreeMap<String, Counts>,
    /// Key: an option group of the RUN lines (`optimized`, `-Zi`, `-fspv-debug`).
    pub by_option: BTreeMap<String, Counts>,
}

/// Folder key of a result name.
pub fn folder_of(name: &str) -> String {
    let parts: Vec<&str> = name.split('/').collect();
    let dirs = &parts[..parts.len().saturating_sub(1)];
    dirs[..dirs.len().min(3)].join("/")
}

/// Prefix key of a result name, if the file name has one.
pub fn prefix_of(name: &str) -> Option<String> {
    let file = name.rsplit('/').next().unwrap_or(name);
    let parts: Vec<&str> = file.split('.').collect();
    (parts.len() >= 3).then(|| format!("{}.", parts[0]))
}

impl Summary {
    pub fn of(results: &[FileResult]) -> Summary {
        let mut s = Summary::default();
        for r in results {
            s.total.add(r.outcome);
            s.by_folder.entry(folder_of(&r.name)).or_default().add(r.outcome);
            if let Some(p) = prefix_of(&r.name) {
                s.by_prefix.entry(p).or_default().add(r.outcome);
            }
            for t in &r.tags {
                s.by_option.entry(t.to_string()).or_default().add(r.outcome);
            }
        }
        s
    }

    /// The tables as text.
    pub fn render(&self, mode: Mode) -> String {
        let mut out = String::new();
        let title = match mode {
            Mode::Full => "full run",
            Mode::SyntaxOnly => "syntax-only (positive files; rate = pass / ran)",
            Mode::Validate => "validate (positive files compiled without -fcgl; pass = valid, rate = valid / compiled)",
            Mode::Assemble => "assemble (positive files' DXIL text through llvm-as 14; pass = assembled, rate = assembled / compiled)",
            Mode::Roundtrip => "round-trip (positive files' DXIL bitcode through llvm-dis 14 against the listing; pass = same module, rate = same / compiled)",
        };
        let _ = writeln!(out, "== {title}");
        table(&mut out, "folder", &self.by_folder);
        if !self.by_prefix.is_empty() {
            let _ = writeln!(out);
            table(&mut out, "prefix", &self.by_prefix);
        }
        if !self.by_option.is_empty() {
            let _ = writeln!(out);
            table(&mut out, "RUN lines with", &self.by_option);
        }
        let _ = writeln!(out);
        let mut total = BTreeMap::new();
        total.insert("TOTAL".to_string(), self.total.clone());
        table(&mut out, "", &total);
        out
    }
}

fn table(out: &mut String, title: &str, rows: &BTreeMap<String, Counts>) {
    let width = rows.keys().map(|k| k.len()).chain([title.len(), 5]).max().unwrap_or(5);
    let _ = write!(out, "{title:width$}");
    for o in Outcome::ALL {
        let _ = write!(out, " {:>8}", o.name());
    }
    let _ = writeln!(out, " {:>8}", "rate");
    for (k, c) in rows {
        let _ = write!(out, "{k:width$}");
        for o in Outcome::ALL {
            let _ = write!(out, " {:>8}", c.get(o));
        }
        let _ = writeln!(out, " {:>7.1}%", c.rate());
    }
}

/// The per-file log: every file that did not pass, with why.
pub fn verbose_log(results: &[FileResult]) -> String {
    let mut out = String::new();
    for r in results.iter().filter(|r| r.outcome != Outcome::Pass) {
        let _ = writeln!(out, "{}: {}", r.outcome.name().to_uppercase(), r.name);
        for line in r.detail.lines() {
            let _ = writeln!(out, "    {line}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(name: &str, outcome: Outcome) -> FileResult {
        FileResult { name: name.into(), outcome, detail: String::new(), tags: vec!["optimized"] }
    }

    #[test]
    fn groups_by_folder_and_prefix() {
        let s = Summary::of(&[
            r("CodeGenSPIRV/cs.a.hlsl", Outcome::Pass),
            r("CodeGenSPIRV/cs.b.hlsl", Outcome::Fail),
            r("CodeGenSPIRV/plain.hlsl", Outcome::Unsupported),
            r("HLSLFileCheck/hlsl/a/b/c.hlsl", Outcome::Pass),
        ]);
        assert_eq!(s.total.total(), 4);
        assert_eq!(s.total.ran(), 3);
        assert_eq!(s.by_prefix["cs."].get(Outcome::Pass), 1);
        assert_eq!(s.by_prefix["cs."].rate(), 50.0);
        assert!(!s.by_prefix.contains_key("plain."));
        assert_eq!(s.by_folder["HLSLFileCheck/hlsl/a"].total(), 1);
        assert_eq!(s.by_option["optimized"].get(Outcome::Pass), 2);
        assert!(s.render(Mode::Full).contains("RUN lines with"));
        assert!(s.render(Mode::Full).contains("TOTAL"));
    }
}
