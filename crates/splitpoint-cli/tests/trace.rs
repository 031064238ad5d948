//! `--trace FILE` on search and solve: a Chrome trace-event file with one
//! process per search and one track per thread.

use std::process::Command;

use serde_json::Value;

fn run(args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_splitpoint"))
        .args(args)
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn read(path: &std::path::Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).expect("the trace is written")).expect("it parses")
}

fn names(json: &Value, name: &str) -> Vec<Value> {
    json["traceEvents"]
        .as_array()
        .expect("traceEvents")
        .iter()
        .filter(|e| e["name"] == name)
        .cloned()
        .collect()
}

#[test]
fn search_writes_the_timeline_of_its_threads() {
    let path = std::env::temp_dir().join(format!("splitpoint-search-{}.json", std::process::id()));
    let file = path.to_str().unwrap();
    run(&[
        "search",
        "othello",
        "--depth",
        "10",
        "--exact",
        "--threads",
        "2",
        "--algorithm",
        "ybw",
        "--trace",
        file,
        "--json",
    ]);
    let json = read(&path);
    let threads: Vec<i64> = names(&json, "thread_name")
        .iter()
        .map(|e| e["tid"].as_i64().unwrap())
        .collect();
    assert_eq!(threads, [0, 1]);
    assert_eq!(
        names(&json, "iteration").len(),
        10,
        "one span per iteration"
    );
    assert!(!names(&json, "split").is_empty(), "ybw split");
    assert!(
        json["otherData"]["command_line"]
            .as_str()
            .unwrap()
            .contains("--trace")
    );
    std::fs::remove_file(path).ok();
}

#[test]
fn solve_writes_one_process_per_position() {
    let path = std::env::temp_dir().join(format!("splitpoint-solve-{}.json", std::process::id()));
    let file = path.to_str().unwrap();
    // FFO #40, 20 empties.
    let endgame = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
    run(&[
        "solve",
        "othello",
        "-p",
        endgame,
        "--threads",
        "2",
        "--trace",
        file,
    ]);
    let json = read(&path);
    let processes = names(&json, "process_name");
    assert_eq!(processes.len(), 1);
    assert_eq!(processes[0]["args"]["name"], endgame);
    assert_eq!(
        names(&json, "iteration").len(),
        1,
        "a solve is one iteration"
    );
    std::fs::remove_file(path).ok();
}

#[test]
fn no_file_no_trace_and_a_bad_path_is_an_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_splitpoint"))
        .args([
            "search",
            "othello",
            "--depth",
            "2",
            "--trace",
            "/nonexistent-dir/t.json",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--trace /nonexistent-dir/t.json"), "{err}");
}
