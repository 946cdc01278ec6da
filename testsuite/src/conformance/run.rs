//! Running test files: the thread pool, one file's pipelines, classification.

use super::script::{self, Paths, Script, Stage, Tool};
use super::{relative_name, Config, FileResult, Mode, Outcome};
use crate::process::{self, Exit, Spawn};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Runs `files` on `cfg.jobs` threads; results in the order of `files`. `progress` is called
/// after each file with the number done so far.
pub fn run_files(files: &[PathBuf], cfg: &Config, progress: &(dyn Fn(usize) + Sync)) -> Vec<FileResult> {
    let results = par_map(files, cfg.jobs, progress, |file, dir| run_file(file, cfg, dir));
    results
        .into_iter()
        .zip(files)
        .map(|(r, f)| {
            r.unwrap_or_else(|| FileResult {
                name: relative_name(f, &cfg.corpus_root),
                outcome: Outcome::Fail,
                detail: "runner thread failed".into(),
                tags: Vec::new(),
            })
        })
        .collect()
}

/// `work(file, tmp)` for every file on `jobs` threads, each call with a fresh temporary folder
/// (removed afterwards); results in the order of `files` (`None` where a thread failed).
pub(super) fn par_map<T: Send>(
    files: &[PathBuf],
    jobs: usize,
    progress: &(dyn Fn(usize) + Sync),
    work: impl Fn(&Path, &Path) -> T + Sync,
) -> Vec<Option<T>> {
    let tmp_root = crate::TempDir::new("conformance");
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<T>>> = Mutex::new(files.iter().map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(file) = files.get(i) else { break };
                let dir = tmp_root.path().join(i.to_string());
                let r = work(file, &dir);
                let _ = std::fs::remove_dir_all(&dir);
                if let Ok(mut v) = results.lock() {
                    v[i] = Some(r);
                }
                progress(done.fetch_add(1, Ordering::Relaxed) + 1);
            });
        }
    });
    results.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// Runs one file, using `tmp` (created here) as `%T` and working directory.
pub fn run_file(file: &Path, cfg: &Config, tmp: &Path) -> FileResult {
    let name = relative_name(file, &cfg.corpus_root);
    let (outcome, detail) = classify(file, cfg, tmp);
    let tags = std::fs::read(file)
        .map(|b| match script::parse_with(&String::from_utf8_lossy(&b), &paths_for(file, tmp), &cfg.features, cfg.mode != Mode::Full) {
            Script::Run(p) => option_tags(&p),
            Script::Unsupported(_) => Vec::new(),
        })
        .unwrap_or_default();
    FileResult { name, outcome, detail, tags }
}

/// The option groups a file belongs to, by the hlslc commands of its RUN lines: `optimized`
/// (compiled at the default `-O3` or an explicit `-O1`..`-O3`, neither `-fcgl` nor `-O0`/`-Od`),
/// `-Zi` and `-fspv-debug`. The report counts each group (issue 14's named subset).
pub fn option_tags(pipelines: &[Vec<Stage>]) -> Vec<&'static str> {
    let mut tags = Vec::new();
    let cmds = || pipelines.iter().flatten().filter(|s| s.tool == Tool::Hlslc && s.nots % 2 == 0);
    let flag = |a: &String, f: &str| a.strip_prefix('-').or_else(|| a.strip_prefix('/')).is_some_and(|r| r == f);
    if cmds().any(|s| !s.args.iter().any(|a| flag(a, "fcgl") || flag(a, "O0") || flag(a, "Od"))) {
        tags.push("optimized");
    }
    if cmds().any(|s| s.args.iter().any(|a| flag(a, "Zi"))) {
        tags.push("-Zi");
    }
    if cmds().any(|s| s.args.iter().any(|a| a.starts_with("-fspv-debug"))) {
        tags.push("-fspv-debug");
    }
    tags
}

fn classify(file: &Path, cfg: &Config, tmp: &Path) -> (Outcome, String) {
    let text = match std::fs::read(file) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) => return (Outcome::Fail, format!("cannot read: {e}")),
    };
    if let Err(e) = std::fs::create_dir_all(tmp) {
        return (Outcome::Fail, format!("cannot create {}: {e}", tmp.display()));
    }
    let paths = paths_for(file, tmp);
    let pipelines = match script::parse_with(&text, &paths, &cfg.features, cfg.mode != Mode::Full) {
        Script::Run(p) => p,
        Script::Unsupported(why) => return (Outcome::Unsupported, why),
    };
    match cfg.mode {
        Mode::Full => run_full(&pipelines, cfg, tmp),
        Mode::SyntaxOnly => super::syntax::run_syntax(&pipelines, &paths, cfg, tmp),
        Mode::Validate => super::validate::run_validate(&pipelines, &paths, cfg, tmp),
        Mode::Assemble => super::assemble::run_assemble(&pipelines, &paths, cfg, tmp),
        Mode::Roundtrip => super::roundtrip::run_roundtrip(&pipelines, &paths, cfg, tmp),
    }
}

/// The substitutions for `file` run in the temporary folder `tmp`.
pub(super) fn paths_for(file: &Path, tmp: &Path) -> Paths {
    Paths {
        file: file.to_string_lossy().into_owned(),
        dir: file.parent().unwrap_or(Path::new(".")).to_string_lossy().into_owned(),
        tmp: tmp.join("t").to_string_lossy().into_owned(),
        tmp_dir: tmp.to_string_lossy().into_owned(),
    }
}

fn run_full(pipelines: &[Vec<Stage>], cfg: &Config, tmp: &Path) -> (Outcome, String) {
    let needs_filecheck = pipelines.iter().flatten().any(|s| s.tool == Tool::FileCheck);
    if needs_filecheck && cfg.filecheck.is_none() {
        return (Outcome::Unsupported, "FileCheck not found".into());
    }
    for p in pipelines {
        if let Err(bad) = run_pipeline(p, cfg, tmp) {
            return bad;
        }
    }
    (Outcome::Pass, String::new())
}

/// Runs the stages in order, each one's output the next one's input. With pipefail any failing
/// stage fails the pipeline, so the first failure ends it.
fn run_pipeline(stages: &[Stage], cfg: &Config, tmp: &Path) -> Result<(), (Outcome, String)> {
    let mut input: Option<Vec<u8>> = None;
    for stage in stages {
        if let Some(f) = &stage.stdin_file {
            let p = tmp.join(f);
            input = Some(std::fs::read(&p).map_err(|e| (Outcome::Fail, format!("cannot read {}: {e}", p.display())))?);
        }
        if stage.tool == Tool::Tee {
            continue; // its output is its input
        }
        let out = run_stage(stage, cfg, tmp, input.as_deref());
        judge(stage, &out)?;
        let mut stdout = out.stdout;
        if let Some(f) = &stage.stdout_file {
            let p = tmp.join(f);
            std::fs::write(&p, &stdout).map_err(|e| (Outcome::Fail, format!("cannot write {}: {e}", p.display())))?;
            stdout = Vec::new();
        }
        input = Some(stdout);
    }
    Ok(())
}

/// Runs one hlslc or FileCheck command.
pub(super) fn run_stage(stage: &Stage, cfg: &Config, tmp: &Path, input: Option<&[u8]>) -> process::Finished {
    let (program, env): (&Path, &[(String, String)]) = match stage.tool {
        Tool::Hlslc => (&cfg.hlslc, &cfg.hlslc_env),
        _ => (cfg.filecheck.as_deref().unwrap_or(Path::new("FileCheck")), &[]),
    };
    // DXC's tests check dxc's SPIR-V Generator word (`Google spiregg`); hlslc writes its own
    // unless asked to imitate dxc.
    let mut args = std::borrow::Cow::Borrowed(&stage.args);
    if stage.tool == Tool::Hlslc && stage.args.iter().any(|a| a == "-spirv" || a == "/spirv") {
        // First, so that a test's last option still misses its value when the test says so.
        args.to_mut().insert(0, "-fspv-generator=dxc".to_string());
    }
    process::run(&Spawn {
        program,
        args: &args,
        cwd: Some(tmp),
        env,
        stdin: Some(input.unwrap_or(&[])),
        merge_stderr: stage.merge_stderr,
        timeout: Some(cfg.timeout),
    })
}

/// `Ok` when the stage succeeded (after its `not`s); otherwise the file's outcome and detail.
pub(super) fn judge(stage: &Stage, out: &process::Finished) -> Result<(), (Outcome, String)> {
    let describe = |what: &str| format!("{what}: {}\n{}", command_line(stage), tail(out));
    match &out.exit {
        Exit::Timeout => return Err((Outcome::Timeout, describe("timed out"))),
        Exit::Signal(_) | Exit::Code(101) if stage.tool == Tool::Hlslc => {
            return Err((Outcome::Crash, describe(&format!("crashed ({})", out.exit))))
        }
        Exit::NotStarted(e) => return Err((Outcome::Fail, format!("cannot run {}: {e}", command_line(stage)))),
        _ => {}
    }
    let ok = match out.exit {
        Exit::Code(0) => stage.nots.is_multiple_of(2),
        Exit::Code(_) => !stage.nots.is_multiple_of(2),
        _ => false, // lit's `not` does not turn a crash into a success
    };
    if ok {
        Ok(())
    } else {
        Err((Outcome::Fail, describe(&format!("failed ({}{})", if stage.nots % 2 == 1 { "not, " } else { "" }, out.exit))))
    }
}

/// Runs an hlslc command whose output a checking tool reads next (validate and assemble modes):
/// its result when it exits with 0; otherwise `Timeout`, `Crash`, or `NotCompiled` with hlslc's
/// first error.
pub(super) fn compile(stage: &Stage, cfg: &Config, tmp: &Path) -> Result<process::Finished, (Outcome, String)> {
    let r = run_stage(stage, cfg, tmp, None);
    let stderr = String::from_utf8_lossy(&r.stderr);
    match r.exit {
        Exit::Code(0) => Ok(r),
        Exit::Timeout => Err((Outcome::Timeout, format!("timed out: {}", command_line(stage)))),
        Exit::Signal(_) | Exit::Code(101) => Err((Outcome::Crash, format!("crashed ({}): {}\n{stderr}", r.exit, command_line(stage)))),
        _ => Err((Outcome::NotCompiled, format!("{}\n  {}", first_error(&stderr), command_line(stage)))),
    }
}

/// The first line of a tool's report that names an error (else its first line), trimmed.
pub(super) fn first_error(text: &str) -> &str {
    text.lines().find(|l| l.contains("error")).or_else(|| text.lines().next()).unwrap_or("").trim()
}

/// `text` with each quoted name blanked to `'_'`, each run of digits to `N`, and, with
/// `sigils`, each LLVM value or global name after `%`/`@` to `_`: the same kind of problem in
/// different files reads the same. At most 160 characters.
pub fn blank_names(text: &str, sigils: bool) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                out.push_str("'_'");
                for d in chars.by_ref() {
                    if d == '\'' {
                        break;
                    }
                }
            }
            '%' | '@' if sigils => {
                out.push(c);
                out.push('_');
                while chars.peek().is_some_and(|d| d.is_ascii_alphanumeric() || matches!(d, '.' | '_')) {
                    chars.next();
                }
            }
            '0'..='9' => {
                out.push('N');
                while chars.peek().is_some_and(|d| d.is_ascii_digit()) {
                    chars.next();
                }
            }
            _ => out.push(c),
        }
    }
    out.chars().take(160).collect()
}

/// The command as a shell would show it.
pub(super) fn command_line(stage: &Stage) -> String {
    let mut s = String::new();
    for _ in 0..stage.nots {
        s.push_str("not ");
    }
    s.push_str(match stage.tool {
        Tool::Hlslc => "hlslc",
        Tool::FileCheck => "FileCheck",
        Tool::Tee => "tee",
    });
    for a in &stage.args {
        s.push(' ');
        if a.is_empty() || a.contains([' ', '"', '\'', '|', '&', ';', '<', '>', '(', ')', '$']) {
            s.push('\'');
            s.push_str(&a.replace('\'', "'\\''"));
            s.push('\'');
        } else {
            s.push_str(a);
        }
    }
    if stage.merge_stderr {
        s.push_str(" 2>&1");
    }
    s
}

/// The first and last lines of what a command wrote (stderr, then stdout), for the verbose log:
/// the head holds the first error (FileCheck names the failing CHECK line there), the tail the rest.
pub(super) fn tail(out: &process::Finished) -> String {
    const HEAD: usize = 8;
    const TAIL: usize = 6;
    let mut text = String::from_utf8_lossy(&out.stderr).into_owned();
    if text.trim().is_empty() {
        text = String::from_utf8_lossy(&out.stdout).into_owned();
    }
    let lines: Vec<&str> = text.lines().collect();
    let shown: Vec<&str> = if lines.len() <= HEAD + TAIL {
        lines
    } else {
        let mut v = lines[..HEAD].to_vec();
        v.push("...");
        v.extend_from_slice(&lines[lines.len() - TAIL..]);
        v
    };
    shown.iter().map(|l| format!("  | {}\n", truncate(l, 300))).collect()
}

fn truncate(s: &str, n: usize) -> &str {
    match s.char_indices().nth(n) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hlslc(args: &[&str], nots: u32) -> Stage {
        Stage { nots, tool: Tool::Hlslc, args: args.iter().map(|a| a.to_string()).collect(), merge_stderr: false, stdin_file: None, stdout_file: None }
    }

    #[test]
    fn option_groups_follow_the_hlslc_commands() {
        assert_eq!(option_tags(&[vec![hlslc(&["-T", "ps_6_0", "-E", "main", "-spirv"], 0)]]), vec!["optimized"]);
        assert_eq!(option_tags(&[vec![hlslc(&["-T", "ps_6_0", "-spirv", "-fcgl"], 0)]]), Vec::<&str>::new());
        assert_eq!(option_tags(&[vec![hlslc(&["/Od", "-spirv", "/Zi"], 0)]]), vec!["-Zi"]);
        assert_eq!(option_tags(&[vec![hlslc(&["-O3", "-spirv", "-fspv-debug=vulkan"], 0)]]), vec!["optimized", "-fspv-debug"]);
        // A command expected to fail compiles nothing.
        assert_eq!(option_tags(&[vec![hlslc(&["-spirv"], 1)]]), Vec::<&str>::new());
    }
}
