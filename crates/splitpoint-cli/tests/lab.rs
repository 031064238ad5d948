//! `splitpoint bench` and `splitpoint selfplay` as a user meets them.

use std::path::Path;
use std::process::Output;

mod common;
use common::run::{
    TempDir, arg, json, read_json, splitpoint, status_2_one_line, succeeded, success, trace_events,
};

/// `bench --game GAME --suite SUITE`, one run, with `flags`, quietly, its
/// files in `out`.
fn bench(game: &str, suite: &str, flags: &[&str], out: &Path) -> Output {
    let args = [
        &["bench", "--game", game, "--suite", suite, "--runs", "1"],
        flags,
        &["--out", arg(out), "--quiet"],
    ]
    .concat();
    splitpoint(&args)
}

/// The standard output of a `bench` that must have succeeded.
fn bench_output(out: Output) -> String {
    succeeded(&["bench"], out)
}

#[test]
fn bench_on_a_tiny_suite_writes_tables_json_and_plots() {
    let dir = TempDir::new("bench");
    let trace = dir.join("trace.json");
    let flags = ["--threads", "1,2", "--trace", arg(&trace)];
    let stdout = bench_output(bench("synthetic", "synthetic-tiny", &flags, &dir));
    assert!(
        stdout.contains("| Threads | Time (s) | Speedup over serial | Nodes | NPS |"),
        "{stdout}"
    );
    assert!(stdout.contains("### Summary: speedup over serial"));
    for file in [
        "results.json",
        "speedup.svg",
        "speedup.png",
        "overhead.svg",
        "overhead.png",
        "time_vs_depth.svg",
        "timeline.svg",
        "timeline.png",
    ] {
        assert!(dir.join(file).is_file(), "{file} missing");
    }
    let json = read_json(&dir.join("results.json"));
    let rows = json["rows"].as_array().unwrap();
    // Synthetic trees' default with more than one thread: ybw, marked.
    let defaults: Vec<(&str, u64)> = rows
        .iter()
        .filter(|r| r["default"] == true)
        .map(|r| {
            (
                r["algorithm"].as_str().unwrap(),
                r["threads"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(defaults, [("ybw", 2)]);
    // The timeline's search, in Chrome's format: both threads named.
    let threads = trace_events(&read_json(&trace), "thread_name").len();
    assert_eq!(threads, 2);
    // The command line that made it, as given.
    let command_line: Vec<&str> = json["command_line"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|a| a.as_str())
        .collect();
    assert_eq!(command_line[1..4], ["bench", "--game", "synthetic"]);
}

/// `bench --sim`: the same tables in virtual time, with the breakdown, the
/// simulation's costs in results.json and its figures; run twice, the same
/// numbers, bit for bit.
#[test]
fn bench_sim_is_deterministic_and_reports_where_the_time_went() {
    let dir = TempDir::new("bench-sim");
    let flags = [
        "--sim",
        "--threads",
        "1,4,64",
        "--algos",
        "serial,ybw,dts,pv-split,lazy-smp",
        "--sim-costs",
        "node=100",
    ];
    let first = bench_output(bench("synthetic", "synthetic-tiny", &flags, &dir.join("a")));
    assert!(
        first.contains("### Simulation: where the processors' time went"),
        "{first}"
    );
    assert!(first.contains("| dts | 64 |"), "{first}");
    let second = bench_output(bench("synthetic", "synthetic-tiny", &flags, &dir.join("b")));
    let read = |d: &str| read_json(&dir.join(d).join("results.json"));
    let (a, b) = (read("a"), read("b"));
    assert_eq!(a["simulation"]["node_ns"], 100.0);
    assert_eq!(a["simulation"]["costs_from"], "given");
    let facts = |j: &serde_json::Value| -> Vec<(String, u64, u64, String)> {
        j["measurements"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["algorithm"].as_str().unwrap().to_string(),
                    m["threads"].as_u64().unwrap(),
                    m["nodes"].as_u64().unwrap(),
                    m["seconds"].to_string(),
                )
            })
            .collect()
    };
    assert_eq!(facts(&a), facts(&b));
    assert!(facts(&a).iter().any(|f| f.0 == "ybw" && f.1 == 64));
    // Serial's virtual time is its nodes at 100 ns each.
    let serial = &a["measurements"][0];
    let nodes = serial["nodes"].as_f64().unwrap();
    assert!((serial["seconds"].as_f64().unwrap() - nodes * 100e-9).abs() < 1e-9);
    for file in ["sim_speedup.svg", "sim_speedup.png", "sim_efficiency.png"] {
        assert!(dir.join("a").join(file).is_file(), "{file} missing");
    }
    // The speedups printed are the same too (the real seconds may differ).
    let speedups = |text: &str| -> String {
        text.lines()
            .skip_while(|l| !l.starts_with("### Summary"))
            .take_while(|l| !l.starts_with("### Simulation"))
            .collect()
    };
    assert_eq!(speedups(&first), speedups(&second));
}

/// The build signature: the same node count every time, printed last as
/// Stockfish prints it, after the time and the speed.
#[test]
fn bench_signature_counts_the_same_nodes_twice() {
    let counts: Vec<u64> = (0..2)
        .map(|_| {
            let stdout = success(&["bench", "--signature"]);
            let lines: Vec<&str> = stdout.lines().collect();
            for game in ["othello", "chess", "draughts", "xiangqi", "synthetic"] {
                assert!(
                    lines
                        .iter()
                        .any(|l| l.starts_with(game) && l.contains(" nodes")),
                    "{game}: {stdout}"
                );
            }
            let [time, nps, nodes] = lines[lines.len() - 3..] else {
                panic!("{stdout}")
            };
            assert!(time.starts_with("Total time (ms): "), "{stdout}");
            assert!(nps.starts_with("Nodes/second: "), "{stdout}");
            let count = nodes.strip_prefix("Nodes searched: ").expect("last line");
            count.parse().expect("a number")
        })
        .collect();
    assert_eq!(counts[0], counts[1]);
    assert!(counts[0] > 100_000, "{counts:?}");
}

#[test]
fn bench_flags_a_wrong_expected_score_with_status_1() {
    let dir = TempDir::new("planted");
    let suite = dir.write(
        "suite.txt",
        "#! game=synthetic depth=4\nb=3,d=4,seed=2 ; score=999\n",
    );
    let flags = ["--threads", "2", "--algos", "serial,ybw"];
    let out = bench("synthetic", arg(&suite), &flags, &dir.join("out"));
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("WRONG ANSWERS"));
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
        &["bench", "--quick", "--game", "chess"],
        &["bench", "--quick", "--threads", "4"],
        &["bench", "--signature", "--threads", "2"],
        &["bench", "--signature", "--game", "go"],
        &["bench", "--sim", "--threads", "2048"],
        &["bench", "--threads", "512"],
        &["bench", "--calibrate"],
        &["bench", "--sim", "--sim-costs", "node=-1"],
        &["bench", "--sim", "--sim-costs", "nodes=3"],
        &["bench", "--sim", "--quantum", "0"],
        &["search", "othello", "--threads", "2000", "--sim"],
        &["selfplay", "--a", "ybw:x"],
        &["selfplay", "--b", "nonsense:2"],
        &["selfplay", "--depth", "500"],
    ] {
        let stderr = status_2_one_line(&format!("{args:?}"), &splitpoint(args));
        assert!(!stderr.contains("panicked"));
    }
}

#[test]
fn selfplay_serial_against_ybw_is_identical() {
    let stdout = success(&["selfplay", "--openings", "2", "--depth", "3"]);
    assert_eq!(stdout.matches("| yes |").count(), 2, "{stdout}");
}

#[test]
fn chess_perft_follows_the_published_tables() {
    // Depth 5 is the first where games ending early (mates at ply 4) would
    // change the count under the "finished game is a leaf" convention.
    let json = json(&["perft", "chess", "5", "--json"]);
    assert_eq!(json["nodes"], 4_865_609);
}

/// Chess suites run in normal mode and count best moves found; a missed goal
/// is not a wrong answer, and an EPD file is a suite.
#[test]
fn chess_bench_counts_best_moves_found() {
    let dir = TempDir::new("chess");
    let flags = ["--threads", "2", "--algos", "serial,ybw", "--json"];
    let stdout = bench_output(bench("chess", "chess-tiny", &flags, &dir));
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["exact"], false, "chess suites default to normal mode");
    for row in json["rows"].as_array().unwrap() {
        let found = row["best_found"].as_u64().expect("best moves counted");
        assert!(found <= 2, "{row}");
    }
    let measured = json["measurements"].as_array().unwrap();
    assert!(measured.iter().any(|m| m["found_best"].is_boolean()));

    // An EPD file: BK.01 (mate threat, 1... Qd1+) with a wrong goal too.
    let out = bench_on_file(
        &dir,
        "two.epd",
        "chess",
        "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id \"BK.01\";\n\
         1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm a6; id \"wrong-goal\";\n",
        "5",
    );
    let stdout = bench_output(out);
    assert!(stdout.contains("Best found (of 2)"), "{stdout}");
    assert!(
        stdout.contains("*Best found (of 2)*: 2 of the suite's 2 positions name best moves"),
        "the column explained: {stdout}"
    );
    assert!(stdout.contains("| 1 |\n"), "Qd1+ found, a6 not: {stdout}");
}

/// Runs `bench` on a suite file holding `text`, quickly (to `depth`, one
/// serial run), and returns the output.
fn bench_on_file(dir: &TempDir, file: &str, game: &str, text: &str, depth: &str) -> Output {
    let path = dir.write(file, text);
    let flags = ["--depth", depth, "--threads", "1", "--algos", "serial"];
    bench(game, arg(&path), &flags, &dir.join("out"))
}

/// A suite file of bare positions (no depth anywhere) takes its depth from
/// `--depth`, in `bench` and in `selfplay`; without one, the error says to
/// pass it.
#[test]
fn a_suite_file_without_a_depth_takes_the_flags() {
    let dir = TempDir::new("depthless");
    let text = "#! game=chess normal\nstartpos\n";
    let stdout = bench_output(bench_on_file(&dir, "bare.txt", "chess", text, "3"));
    assert!(stdout.contains("depth 3"), "{stdout}");
    let path = dir.join("bare.txt");
    let stderr = status_2_one_line(
        "bench without --depth",
        &bench(
            "chess",
            arg(&path),
            &["--algos", "serial"],
            &dir.join("out2"),
        ),
    );
    assert!(stderr.contains("pass --depth"), "{stderr}");
    let args = ["selfplay", "--suite", arg(&path), "--openings", "1"];
    success(
        &[
            &args[..],
            &["--depth", "2", "--a", "serial:1", "--b", "serial:1"],
        ]
        .concat(),
    );
}

/// A suite with no positions, or with a malformed position or goal, is bad
/// input: status 2 and one line naming the file, the line and the problem,
/// before anything is searched.
#[test]
fn bench_rejects_empty_suites_and_malformed_goals_with_status_2() {
    let dir = TempDir::new("bad-suites");
    let chess = "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - -";
    let cases: Vec<(&str, &str, String, &[&str])> = vec![
        ("empty.epd", "chess", String::new(), &["no positions"]),
        (
            "comments.epd",
            "chess",
            "# nothing here\n\n# nor here\n".into(),
            &["no positions"],
        ),
        ("empty.txt", "othello", String::new(), &["no positions"]),
        (
            "comments.txt",
            "synthetic",
            "#! game=synthetic depth=2\n# only a comment\n".into(),
            &["no positions"],
        ),
        (
            "zz9.epd",
            "chess",
            format!("{chess} bm Qd1+; id \"a\";\n{chess} bm zz9; id \"b\";\n"),
            &["line 2", "zz9"],
        ),
        (
            "empty-bm.epd",
            "chess",
            format!("{chess} bm Qd1+;\n{chess} bm ; id \"b\";\n"),
            &["line 2", "bm"],
        ),
        (
            "chess-zz9.txt",
            "chess",
            "#! game=chess depth=1\nstartpos ; best=zz9\n".into(),
            &["line 2", "zz9"],
        ),
        (
            "chess-illegal.txt",
            "chess",
            "#! game=chess depth=1\n# a comment\nstartpos ; best=e2e5\n".into(),
            &["line 3", "e2e5"],
        ),
        (
            "chess-empty-best.txt",
            "chess",
            "#! game=chess depth=1\nstartpos ; best=\n".into(),
            &["line 2", "best="],
        ),
        (
            "chess-empty-item.txt",
            "chess",
            "#! game=chess depth=1\nstartpos ; best=e2e4,,d2d4\n".into(),
            &["line 2", "best="],
        ),
        (
            "othello.txt",
            "othello",
            "#! game=othello depth=1\nstart ; best=f5\nstart ; best=zz9\n".into(),
            &["line 3", "zz9"],
        ),
        (
            "othello-illegal.txt",
            "othello",
            "#! game=othello depth=1\nstart ; best=a1\n".into(),
            &["line 2", "a1"],
        ),
        (
            "synthetic.txt",
            "synthetic",
            "#! game=synthetic depth=1\nb=3,d=4,seed=2 ; best=7\n".into(),
            &["line 2", "'7'"],
        ),
        (
            "draughts.txt",
            "draughts",
            "#! game=draughts depth=1\nstart ; best=32-28\nstart ; best=zz9\n".into(),
            &["line 3", "zz9"],
        ),
        (
            "draughts-illegal.txt",
            "draughts",
            "#! game=draughts depth=1\nstart ; best=32-23\n".into(),
            &["line 2", "32-23"],
        ),
        (
            "xiangqi.txt",
            "xiangqi",
            "#! game=xiangqi depth=1\nstartpos ; best=h2e2\nstartpos ; best=zz9\n".into(),
            &["line 3", "zz9"],
        ),
        (
            "xiangqi-illegal.txt",
            "xiangqi",
            "#! game=xiangqi depth=1\nstartpos ; best=a0a5\n".into(),
            &["line 2", "a0a5"],
        ),
        (
            "bad-position.txt",
            "draughts",
            "#! game=draughts depth=1\nstart\nW:W99:B1\n".into(),
            &["line 3"],
        ),
    ];
    for (file, game, text, needles) in cases {
        let out = bench_on_file(&dir, file, game, &text, "1");
        let stderr = status_2_one_line(file, &out);
        assert!(
            stderr.contains(file),
            "{file}: the file is not named: {stderr}"
        );
        for needle in needles {
            assert!(stderr.contains(needle), "{file}: no '{needle}': {stderr}");
        }
        assert!(out.stdout.is_empty(), "{file}: searched anyway");
    }
}
