//! `splitpoint bench` and `splitpoint selfplay` as a user meets them.

use std::process::{Command, Output};

fn splitpoint(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_splitpoint"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("splitpoint-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn bench_on_a_tiny_suite_writes_tables_json_and_plots() {
    let dir = temp("bench");
    let out = splitpoint(&[
        "bench",
        "--game",
        "synthetic",
        "--suite",
        "synthetic-tiny",
        "--runs",
        "1",
        "--threads",
        "1,2",
        "--out",
        dir.to_str().unwrap(),
        "--quiet",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("| CPUS | Time (s) | Speedup | Nodes | NPS |"),
        "{stdout}"
    );
    assert!(stdout.contains("### Summary"));
    for file in [
        "results.json",
        "speedup.svg",
        "speedup.png",
        "time_vs_depth.svg",
    ] {
        assert!(dir.join(file).is_file(), "{file} missing");
    }
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("results.json")).unwrap()).unwrap();
    assert!(json["rows"].as_array().is_some_and(|r| !r.is_empty()));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_flags_a_wrong_expected_score_with_status_1() {
    let dir = temp("planted");
    std::fs::create_dir_all(&dir).unwrap();
    let suite = dir.join("suite.txt");
    std::fs::write(
        &suite,
        "#! game=synthetic depth=4\nb=3,d=4,seed=2 ; score=999\n",
    )
    .unwrap();
    let out = splitpoint(&[
        "bench",
        "--game",
        "synthetic",
        "--suite",
        suite.to_str().unwrap(),
        "--runs",
        "1",
        "--threads",
        "2",
        "--algos",
        "serial,ybw",
        "--out",
        dir.join("out").to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("WRONG ANSWERS"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_and_selfplay_reject_bad_input_with_status_2() {
    for args in [
        &["bench", "--suite", "no-such-suite"][..],
        &["bench", "--algos", "ybw,quantum"],
        &["bench", "--threads", "0"],
        &["bench", "--runs", "0"],
        &["bench", "--depth", "0"],
        &["bench", "--game", "go"],
        &["bench", "--suite", "othello-ffo", "--depth", "5"],
        &["selfplay", "--a", "ybw:x"],
        &["selfplay", "--b", "nonsense:2"],
        &["selfplay", "--depth", "500"],
    ] {
        let out = splitpoint(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"));
    }
}

#[test]
fn selfplay_serial_against_ybw_is_identical() {
    let out = splitpoint(&["selfplay", "--openings", "2", "--depth", "3"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout.matches("| yes |").count(), 2, "{stdout}");
}

#[test]
fn chess_perft_follows_the_published_tables() {
    // Depth 5 is the first where games ending early (mates at ply 4) would
    // change the count under the "finished game is a leaf" convention.
    let out = splitpoint(&["perft", "chess", "5", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["nodes"], 4_865_609);
}

/// Chess suites run in normal mode and count best moves found; a missed goal
/// is not a wrong answer, and an EPD file is a suite.
#[test]
fn chess_bench_counts_best_moves_found() {
    let dir = temp("chess");
    let out = splitpoint(&[
        "bench",
        "--game",
        "chess",
        "--suite",
        "chess-tiny",
        "--runs",
        "1",
        "--threads",
        "2",
        "--algos",
        "serial,ybw",
        "--out",
        dir.to_str().unwrap(),
        "--quiet",
        "--json",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["exact"], false, "chess suites default to normal mode");
    for row in json["rows"].as_array().unwrap() {
        let found = row["best_found"].as_u64().expect("best moves counted");
        assert!(found <= 2, "{row}");
    }
    let measured = json["measurements"].as_array().unwrap();
    assert!(measured.iter().any(|m| m["found_best"].is_boolean()));

    // An EPD file: BK.01 (mate threat, 1... Qd1+) with a wrong goal too.
    std::fs::create_dir_all(&dir).unwrap();
    let epd = dir.join("two.epd");
    std::fs::write(
        &epd,
        "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id \"BK.01\";\n\
         1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm a6; id \"wrong-goal\";\n",
    )
    .unwrap();
    let out = splitpoint(&[
        "bench",
        "--game",
        "chess",
        "--suite",
        epd.to_str().unwrap(),
        "--depth",
        "5",
        "--runs",
        "1",
        "--threads",
        "1",
        "--algos",
        "serial",
        "--out",
        dir.join("out").to_str().unwrap(),
        "--quiet",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("Best found (of 2)"), "{stdout}");
    assert!(stdout.contains("| 1 |\n"), "Qd1+ found, a6 not: {stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}
