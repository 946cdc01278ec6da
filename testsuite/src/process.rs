//! Running one external command with a time limit, its input given as bytes and its output
//! captured, without a shell.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// What a command did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Exited by itself with this code.
    Code(i32),
    /// Killed by this signal (Unix) or ended without a code.
    Signal(i32),
    /// Ran past the time limit and was killed.
    Timeout,
    /// Could not be started (the message says why).
    NotStarted(String),
}

impl Exit {
    pub fn success(&self) -> bool {
        *self == Exit::Code(0)
    }
}

impl std::fmt::Display for Exit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Exit::Code(c) => write!(f, "exit code {c}"),
            Exit::Signal(s) => write!(f, "killed by signal {s}"),
            Exit::Timeout => f.write_str("timed out"),
            Exit::NotStarted(e) => write!(f, "could not start: {e}"),
        }
    }
}

/// A finished command: status and what it wrote.
#[derive(Clone, Debug)]
pub struct Finished {
    pub exit: Exit,
    /// Standard output; with `merge_stderr`, standard error is interleaved here as the OS did.
    pub stdout: Vec<u8>,
    /// Standard error (empty with `merge_stderr`).
    pub stderr: Vec<u8>,
}

/// How to run a command.
#[derive(Clone, Debug)]
pub struct Spawn<'a> {
    pub program: &'a Path,
    pub args: &'a [String],
    /// Working directory (the current one if `None`).
    pub cwd: Option<&'a Path>,
    /// Extra environment variables.
    pub env: &'a [(String, String)],
    /// Bytes on standard input (`None`: standard input is empty).
    pub stdin: Option<&'a [u8]>,
    /// `2>&1`: standard error goes to the same pipe as standard output.
    pub merge_stderr: bool,
    pub timeout: Option<Duration>,
}

impl Default for Spawn<'_> {
    fn default() -> Self {
        Spawn { program: Path::new(""), args: &[], cwd: None, env: &[], stdin: None, merge_stderr: false, timeout: None }
    }
}

fn exit_of(status: ExitStatus) -> Exit {
    if let Some(code) = status.code() {
        return Exit::Code(code);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return Exit::Signal(sig);
        }
    }
    Exit::Signal(0)
}

fn drain(mut r: impl Read + Send + 'static) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = r.read_to_end(&mut buf);
        buf
    })
}

/// Runs the command to completion (or to its time limit) and returns what it did.
pub fn run(spec: &Spawn<'_>) -> Finished {
    let not_started = |e: String| Finished { exit: Exit::NotStarted(e), stdout: Vec::new(), stderr: Vec::new() };
    let mut cmd = Command::new(spec.program);
    cmd.args(spec.args);
    if let Some(dir) = spec.cwd {
        cmd.current_dir(dir);
    }
    for (k, v) in spec.env {
        cmd.env(k, v);
    }
    cmd.stdin(if spec.stdin.is_some() { Stdio::piped() } else { Stdio::null() });
    // With 2>&1 both streams share one OS pipe, so the order of the bytes is what the program wrote.
    let merged_reader = if spec.merge_stderr {
        let (reader, writer) = match std::io::pipe() {
            Ok(p) => p,
            Err(e) => return not_started(format!("cannot create a pipe: {e}")),
        };
        let writer2 = match writer.try_clone() {
            Ok(w) => w,
            Err(e) => return not_started(format!("cannot duplicate a pipe: {e}")),
        };
        cmd.stdout(writer).stderr(writer2);
        Some(reader)
    } else {
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
        None
    };
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => return not_started(format!("{}: {e}", spec.program.display())),
    };
    // The Command still holds the write ends of the merged pipe: drop it so that EOF arrives.
    drop(cmd);
    let out_thread = match merged_reader {
        Some(r) => drain(r),
        None => drain(child.stdout.take().expect("stdout is piped")),
    };
    let err_thread = child.stderr.take().map(drain);
    let in_thread = match (spec.stdin, child.stdin.take()) {
        (Some(bytes), Some(mut pipe)) => {
            let bytes = bytes.to_vec();
            Some(thread::spawn(move || {
                // A program that exits without reading all its input is not an error here.
                let _ = pipe.write_all(&bytes);
            }))
        }
        _ => None,
    };
    let start = Instant::now();
    let mut sleep = Duration::from_micros(200);
    let exit = loop {
        match child.try_wait() {
            Ok(Some(status)) => break exit_of(status),
            Ok(None) => {}
            Err(e) => break Exit::NotStarted(format!("cannot wait: {e}")),
        }
        if spec.timeout.is_some_and(|t| start.elapsed() > t) {
            let _ = child.kill();
            let _ = child.wait();
            break Exit::Timeout;
        }
        thread::sleep(sleep);
        sleep = (sleep * 2).min(Duration::from_millis(20));
    };
    // A grandchild that inherited the pipe could keep it open; the program itself has ended.
    let stdout = out_thread.join().unwrap_or_default();
    let stderr = err_thread.map(|t| t.join().unwrap_or_default()).unwrap_or_default();
    if let Some(t) = in_thread {
        let _ = t.join();
    }
    Finished { exit, stdout, stderr }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn sh(script: &str, merge: bool, timeout: Option<Duration>) -> Finished {
        let args = vec!["-c".to_string(), script.to_string()];
        run(&Spawn { program: Path::new("/bin/sh"), args: &args, merge_stderr: merge, timeout, ..Default::default() })
    }

    #[test]
    fn captures_streams_and_code() {
        let f = sh("echo out; echo err >&2; exit 3", false, None);
        assert_eq!(f.exit, Exit::Code(3));
        assert_eq!(f.stdout, b"out\n");
        assert_eq!(f.stderr, b"err\n");
    }

    #[test]
    fn merges_in_order() {
        let f = sh("echo a; echo b >&2; echo c", true, None);
        assert_eq!(f.stdout, b"a\nb\nc\n");
        assert!(f.stderr.is_empty());
    }

    #[test]
    fn times_out_and_reports_signals() {
        let t = Instant::now();
        let f = sh("exec sleep 5", false, Some(Duration::from_millis(200)));
        assert_eq!(f.exit, Exit::Timeout);
        assert!(t.elapsed() < Duration::from_secs(4));
        assert_eq!(sh("kill -SEGV $$", false, None).exit, Exit::Signal(11));
    }

    #[test]
    fn feeds_stdin_and_reports_missing_programs() {
        let args = vec![];
        let f = run(&Spawn { program: Path::new("cat"), args: &args, stdin: Some(b"xyz"), ..Default::default() });
        assert_eq!((f.exit, f.stdout), (Exit::Code(0), b"xyz".to_vec()));
        let f = run(&Spawn { program: Path::new("/nonexistent/tool"), args: &args, ..Default::default() });
        assert!(matches!(f.exit, Exit::NotStarted(_)));
    }
}
