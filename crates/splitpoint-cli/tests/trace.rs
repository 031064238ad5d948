//! `--trace FILE` on search and solve: a Chrome trace-event file with one
//! process per search and one track per thread.

mod common;
use common::run::{TempDir, arg, read_json, splitpoint, success, trace_events};
use splitpoint_games::othello::presearch_depth;

#[test]
fn search_writes_the_timeline_of_its_threads() {
    let dir = TempDir::new("trace-search");
    let path = dir.join("trace.json");
    success(&[
        "search",
        "othello",
        // Deep enough that the helper is surely awake when the owner splits
        // (at depth 10 from the start, 1 search in 10 ended unsplit).
        "--depth",
        "12",
        "--exact",
        "--threads",
        "2",
        "--algorithm",
        "ybw",
        "--trace",
        arg(&path),
        "--json",
    ]);
    let json = read_json(&path);
    let threads: Vec<i64> = trace_events(&json, "thread_name")
        .iter()
        .map(|e| e["tid"].as_i64().unwrap())
        .collect();
    assert_eq!(threads, [0, 1]);
    assert_eq!(
        trace_events(&json, "iteration").len(),
        12,
        "one span per iteration"
    );
    assert!(!trace_events(&json, "split").is_empty(), "ybw split");
    assert!(
        json["otherData"]["command_line"]
            .as_str()
            .unwrap()
            .contains("--trace")
    );
}

#[test]
fn solve_writes_one_process_per_position() {
    let dir = TempDir::new("trace-solve");
    let path = dir.join("trace.json");
    // FFO #40, 20 empties.
    let endgame = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
    success(&[
        "solve",
        "othello",
        "-p",
        endgame,
        "--threads",
        "2",
        "--trace",
        arg(&path),
    ]);
    let json = read_json(&path);
    let processes = trace_events(&json, "process_name");
    assert_eq!(processes.len(), 1);
    assert_eq!(processes[0]["args"]["name"], endgame);
    // A solve is one iteration, after the presearch's shallow ones.
    let labels: Vec<String> = trace_events(&json, "iteration")
        .iter()
        .map(|e| e["args"]["label"].as_str().unwrap().to_string())
        .collect();
    // 20 empties: 42 plies to the end.
    let presearch: Vec<String> = splitpoint::presearch_depths(presearch_depth(20))
        .map(|d| format!("presearch depth {d}"))
        .collect();
    assert_eq!(presearch.first().unwrap(), "presearch depth 2");
    assert_eq!(labels[..labels.len() - 1], presearch[..], "{labels:?}");
    assert_eq!(labels.last().unwrap(), "depth 42", "{labels:?}");
}

#[test]
fn no_file_no_trace_and_a_bad_path_is_an_error() {
    let out = splitpoint(&[
        "search",
        "othello",
        "--depth",
        "2",
        "--trace",
        "/nonexistent-dir/t.json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--trace /nonexistent-dir/t.json"), "{err}");
}
