//! Running the `splitpoint` binary as a user does: its output, a `--json`
//! object, and the shape every rejected input must have.

use std::process::{Command, Output};

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

/// Runs a command that must succeed; its standard output.
pub fn success(args: &[&str]) -> String {
    let out = splitpoint(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    String::from_utf8(out.stdout).expect("UTF-8 output")
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

/// A fresh directory for one test's files, named for it and this process.
pub fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("splitpoint-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Writes `text` to the file `name` in `dir` (made if need be); its path.
pub fn write_file(dir: &std::path::Path, name: &str, text: impl AsRef<[u8]>) -> std::path::PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
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

/// Runs a command that must reject its input: status 2, one line on stderr
/// (returned), nothing on stdout, no panic.
pub fn rejected(args: &[&str]) -> String {
    rejected_output(args, splitpoint(args))
}

pub fn rejected_output(args: &[&str], out: Output) -> String {
    let stderr = String::from_utf8(out.stderr).expect("UTF-8 errors");
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert_eq!(
        stderr.lines().count(),
        1,
        "{args:?}: not one line: {stderr}"
    );
    assert!(stderr.starts_with("splitpoint: "), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(
        out.stdout.is_empty(),
        "{args:?} printed {:?}",
        String::from_utf8_lossy(&out.stdout)
    );
    stderr
}
