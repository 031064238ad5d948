//! Running the `splitpoint` binary as a user does: its output, a `--json`
//! object, the shape every rejected input must have, and a directory for a
//! test's files.

use std::io::Write;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::thread;

use serde_json::Value;

/// Two 12-empties endgames, black and white to move; solved in milliseconds.
pub const ENDGAME_O: &str = "OOXXXXXXXOXXXXXXOOXOXOXXOOXXOXXXOOXOXOXX-O-XOOOXXOX-O--X-X------ O";
pub const ENDGAME_X: &str = "OOXXXXXXXOXXXXXXOOXOXOXXOOXXOXXXOOXOXOXX-O-XOOOXXOX-O--X-X------ X";

/// Runs `splitpoint ARGS…` to the end.
pub fn splitpoint(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_splitpoint"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs `splitpoint ARGS…` to the end with `input` on its standard input.
pub fn splitpoint_with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_splitpoint"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.to_string();
    // Written from a thread: a long input must not wait on unread output.
    let writer = thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("the binary ends");
    writer.join().unwrap().expect("the binary reads");
    out
}

/// The standard output of a run that must have succeeded.
pub fn succeeded(args: &[&str], out: Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Runs a command that must succeed; its standard output.
pub fn success(args: &[&str]) -> String {
    succeeded(args, splitpoint(args))
}

/// Runs a `--json` command that prints one object.
pub fn json(args: &[&str]) -> Value {
    serde_json::from_str(&success(args)).expect("one JSON object")
}

/// Runs a `--json` command that prints one object a line.
pub fn json_lines(args: &[&str]) -> Vec<Value> {
    success(args)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// A JSON file a command wrote.
pub fn read_json(path: &Path) -> Value {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_slice(&bytes).expect("it parses")
}

/// The events named `name` in a Chrome trace-event file's JSON.
pub fn trace_events(trace: &Value, name: &str) -> Vec<Value> {
    trace["traceEvents"]
        .as_array()
        .expect("traceEvents")
        .iter()
        .filter(|e| e["name"] == name)
        .cloned()
        .collect()
}

/// A fresh, empty directory for one test's files, named for it and this
/// process, removed when dropped (a failed test leaves nothing behind).
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("splitpoint-cli-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        TempDir(dir)
    }

    /// Writes `text` to the file `name` in it; its path.
    pub fn write(&self, name: &str, text: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    /// The directory as a command-line argument.
    pub fn arg(&self) -> &str {
        self.0.to_str().expect("a UTF-8 temporary directory")
    }
}

impl Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A path as a command-line argument.
pub fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// The object's keys, sorted.
pub fn keys(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value
        .as_object()
        .expect("an object")
        .keys()
        .map(|k| k.as_str())
        .collect();
    keys.sort();
    keys
}

/// The standard error of a run that ended with status 2 and one line on it
/// (`what` names the run in failures).
pub fn status_2_one_line(what: &str, out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{what}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{what}: not one line: {stderr}");
    stderr
}

/// Runs a command that must reject its input: status 2, one line on stderr
/// (returned), nothing on stdout, no panic.
pub fn rejected(args: &[&str]) -> String {
    rejected_output(args, splitpoint(args))
}

pub fn rejected_output(args: &[&str], out: Output) -> String {
    assert!(
        std::str::from_utf8(&out.stderr).is_ok(),
        "{args:?}: UTF-8 errors"
    );
    let stderr = status_2_one_line(&format!("{args:?}"), &out);
    assert!(stderr.starts_with("splitpoint: "), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(
        out.stdout.is_empty(),
        "{args:?} printed {:?}",
        String::from_utf8_lossy(&out.stdout)
    );
    stderr
}

/// Each of `cases` (arguments, a piece of the error) is rejected with an
/// error holding its piece; the errors, in order.
pub fn rejected_with(cases: &[(&[&str], &str)]) -> Vec<String> {
    cases
        .iter()
        .map(|(args, expected)| {
            let stderr = rejected(args);
            assert!(
                stderr.contains(expected),
                "{args:?}: {stderr:?} lacks {expected:?}"
            );
            stderr
        })
        .collect()
}
