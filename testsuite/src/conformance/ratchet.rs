//! Ratchets: committed lists of corpus files that pass (`testsuite/ratchet/<suite>.txt` for full
//! runs, `syntax-<suite>.txt` for syntax-only), one path per line relative to the corpus root,
//! sorted. A listed file that stops passing is a regression; a file that starts passing should be
//! added (`--update-ratchet`).

use super::{FileResult, Mode, Outcome};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The ratchet file of `suite` (a corpus-relative folder such as `CodeGenSPIRV`) in `dir`.
pub fn path(dir: &Path, suite: &str, mode: Mode) -> PathBuf {
    let base = suite.trim_matches('/').replace('/', ".");
    match mode {
        Mode::Full => dir.join(format!("{base}.txt")),
        Mode::SyntaxOnly => dir.join(format!("syntax-{base}.txt")),
        Mode::Validate => dir.join(format!("validate-{base}.txt")),
        Mode::Assemble => dir.join(format!("assemble-{base}.txt")),
        Mode::Roundtrip => dir.join(format!("roundtrip-{base}.txt")),
    }
}

/// The entries of a ratchet file (blank lines and `#` comments ignored).
pub fn read(path: &Path) -> std::io::Result<BTreeSet<String>> {
    let text = std::fs::read_to_string(path)?;
    Ok(text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(String::from).collect())
}

/// Writes the passing files of `results`, sorted.
pub fn write(path: &Path, results: &[FileResult]) -> std::io::Result<usize> {
    let passing = passing(results);
    let mut text = String::new();
    for p in &passing {
        text.push_str(p);
        text.push('\n');
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, text)?;
    Ok(passing.len())
}

/// Names of the passing files.
pub fn passing(results: &[FileResult]) -> BTreeSet<String> {
    results.iter().filter(|r| r.outcome == Outcome::Pass).map(|r| r.name.clone()).collect()
}

/// How a run compares with a ratchet.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Check {
    /// Listed, but did not pass (with the outcome, or "not found").
    pub regressed: Vec<(String, String)>,
    /// Passed, but not listed.
    pub new_passes: Vec<String>,
}

impl Check {
    pub fn ok(&self) -> bool {
        self.regressed.is_empty()
    }
}

pub fn compare(listed: &BTreeSet<String>, results: &[FileResult]) -> Check {
    let mut check = Check::default();
    for name in listed {
        match results.iter().find(|r| &r.name == name) {
            Some(r) if r.outcome == Outcome::Pass => {}
            Some(r) => check.regressed.push((name.clone(), r.outcome.name().to_string())),
            None => check.regressed.push((name.clone(), "not found".to_string())),
        }
    }
    check.new_passes = passing(results).into_iter().filter(|n| !listed.contains(n)).collect();
    check
}

/// The failure message: which files regressed and why.
pub fn describe_regressions(check: &Check, results: &[FileResult]) -> String {
    let mut s = format!("{} file(s) in the ratchet no longer pass:\n", check.regressed.len());
    for (name, why) in &check.regressed {
        s.push_str(&format!("  {why}: {name}\n"));
        if let Some(r) = results.iter().find(|r| &r.name == name) {
            for line in r.detail.lines().take(16) {
                s.push_str(&format!("      {line}\n"));
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compares_both_ways() {
        let results = vec![
            FileResult { name: "S/a.hlsl".into(), outcome: Outcome::Pass, detail: String::new(), tags: Vec::new() },
            FileResult { name: "S/b.hlsl".into(), outcome: Outcome::Fail, detail: "why".into(), tags: Vec::new() },
            FileResult { name: "S/c.hlsl".into(), outcome: Outcome::Pass, detail: String::new(), tags: Vec::new() },
        ];
        let listed: BTreeSet<String> = ["S/a.hlsl", "S/b.hlsl", "S/gone.hlsl"].iter().map(|s| s.to_string()).collect();
        let c = compare(&listed, &results);
        assert!(!c.ok());
        assert_eq!(c.regressed, vec![("S/b.hlsl".into(), "fail".into()), ("S/gone.hlsl".into(), "not found".into())]);
        assert_eq!(c.new_passes, vec!["S/c.hlsl".to_string()]);
        assert!(describe_regressions(&c, &results).contains("      why"));
        assert_eq!(path(Path::new("r"), "CodeGenSPIRV", Mode::SyntaxOnly), Path::new("r/syntax-CodeGenSPIRV.txt"));
    }
}
