//! The `splitpoint` command's answers to bad input (one line, status 2,
//! control characters escaped), its help, and the docs that must stay true
//! of it (the README's synopsis, the architecture's dependencies).

use std::process::Command;

mod common;
use common::Engine;
use common::run::{ENDGAME_O, TempDir, arg, rejected, rejected_with, success};

#[test]
fn bad_input_is_one_line_and_status_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["search", "shogi"], "unknown game 'shogi'"),
        (&["perft", "go", "3"], "unknown game 'go'"),
        (
            &["search", "othello", "--position", "XXXXZ"],
            "unknown board character 'Z' (at column 5)",
        ),
        (
            &["search", "othello", "-p", "XXXX X"],
            "--position: expected 64 board characters, found 4",
        ),
        (
            &["search", "synthetic", "-p", "b=0,d=3,seed=1"],
            "--position: synthetic tree spec",
        ),
        (
            &["search", "othello", "--moves", "f5 a1"],
            "--moves: move 2 'a1'",
        ),
        (
            &["search", "othello", "--moves", "f5 zz"],
            "--moves: move 2 'zz'",
        ),
        (
            &["search", "othello", "--depth", "0"],
            "--depth: 0 is out of range",
        ),
        (
            &["search", "othello", "--depth", "121"],
            "--depth: 121 is out of range",
        ),
        (
            &["search", "othello", "--depth", "-3"],
            "--depth: -3 is out of range",
        ),
        (&["search", "othello", "--movetime", "0"], "--movetime"),
        (&["search", "othello", "--nodes", "0"], "--nodes"),
        (&["search", "othello", "--hash", "99999999"], "--hash"),
        (
            &["search", "othello", "--threads", "0"],
            "--threads: 0 is out of range",
        ),
        (
            &["search", "othello", "--algorithm", "magic"],
            "--algorithm: unknown algorithm 'magic'",
        ),
        (&["perft", "othello", "0"], "DEPTH: 0 is out of range"),
        (&["perft", "othello", "500"], "DEPTH: 500 is out of range"),
        (&["solve", "synthetic"], "no exact solver for synthetic"),
        (
            &["bench", "--algos", "pv-split", "--latency", "5xs"],
            "--latency: '5xs': the unit must be us, ms or s",
        ),
        (
            &["bench", "--algos", "ybw", "--latency", "1ms"],
            "--latency: only pv-split sends messages",
        ),
        (
            &[
                "search",
                "othello",
                "--transport",
                "tcp",
                "--algorithm",
                "pv-split",
            ],
            "--transport: unknown transport 'tcp'",
        ),
        (
            &[
                "solve",
                "othello",
                "--transport",
                "mpi",
                "--algorithm",
                "ybw",
            ],
            "--transport mpi: only --algorithm pv-split",
        ),
        (&["solve", "othello", "--ffo", "12"], "no FFO position #12"),
        (
            &["solve", "othello", "--file", "/no/such/file.txt"],
            "/no/such/file.txt: cannot read",
        ),
        (
            &["solve", "othello", "-p", "start X"],
            "--position: unexpected text after start",
        ),
    ];
    rejected_with(cases);
}

#[test]
fn a_bad_line_in_a_file_is_named() {
    let dir = TempDir::new("bad");
    let bad = dir.write(
        "positions.txt",
        format!("# comment\n{ENDGAME_O}\nXXXXZ X\n"),
    );
    let empty = dir.write("empty.txt", "# nothing\n\n");

    let path = arg(&bad);
    let stderr = rejected(&["solve", "othello", "--file", path, "--json"]);
    assert!(
        stderr.contains(&format!(
            "{path} line 3: unknown board character 'Z' (at column 5)"
        )),
        "{stderr}"
    );
    let stderr = rejected(&["solve", "othello", "--file", arg(&empty)]);
    assert!(stderr.contains("no positions"), "{stderr}");
}

/// clap's own errors (unknown flag or command, missing or invalid value)
/// are one line and status 2 like every other bad input; help and version
/// still print in full, status 0.
#[test]
fn usage_errors_are_one_line_and_status_2() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["search"],
            "the following required arguments were not provided: <GAME>; see 'splitpoint search --help'",
        ),
        (
            &["search", "othello", "--bogus"],
            "unexpected argument '--bogus' found; see 'splitpoint search --help'",
        ),
        (
            &["search", "othello", "--dept", "3"],
            "(a similar argument exists: '--depth')",
        ),
        (
            &["perft", "othello", "three"],
            "invalid value 'three' for '<DEPTH>'",
        ),
        (
            &["search", "othello", "--moves"],
            "a value is required for '--moves <MOVES>'",
        ),
        (
            &["solve", "othello", "--file", "a", "--position", "start"],
            "the argument '--file <FILE>' cannot be used with '--position <POS>'",
        ),
        (
            &["frobnicate"],
            "unrecognized subcommand 'frobnicate'; see 'splitpoint --help'",
        ),
        (&["search", "othello", "--bo\ngus"], r"'--bo\ngus'"),
    ];
    rejected_with(cases);
    for args in [&["--help"][..], &["search", "--help"], &["-h"]] {
        let out = success(args);
        assert!(out.contains("Usage: splitpoint"), "{args:?}: {out}");
    }
    assert!(success(&["--version"]).starts_with("splitpoint "));
}

#[test]
fn help_explains_every_command() {
    let top = success(&["--help"]);
    for command in ["perft", "search", "solve"] {
        assert!(top.contains(command), "{top}");
        let help = success(&[command, "--help"]);
        assert!(help.contains("Examples:"), "{command}: {help}");
        assert!(help.contains("--json"), "{command}: {help}");
    }
    let search = success(&["search", "--help"]);
    for flag in [
        "--position",
        "--moves",
        "--depth",
        "--movetime",
        "--nodes",
        "--hash",
        "--exact",
        "--threads",
    ] {
        assert!(search.contains(flag), "search --help lacks {flag}");
    }
    assert!(search.contains("[default: 64]"));
    let solve = success(&["solve", "--help"]);
    for flag in ["--position", "--file", "--ffo", "--hash"] {
        assert!(solve.contains(flag), "solve --help lacks {flag}");
    }
}

/// Control characters in a bad position, move or file name come back
/// escaped: the error stays one line, and nothing in it moves the cursor or
/// starts a new line on a terminal.
#[test]
fn bad_input_is_echoed_with_control_characters_escaped() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["search", "chess", "--moves", "e2e4\nsplitpoint: forged"],
            r"e2e4\nsplitpoint:",
        ),
        (&["search", "chess", "--moves", "e2e4 e7\re5"], r"e7\re5"),
        (
            &[
                "search",
                "xiangqi",
                "--position",
                "rnbakab\u{1b}nr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            ],
            r"\u{1b}",
        ),
        (
            &["search", "draughts", "--position", "W:W31-50:X\r1"],
            r"X\r1",
        ),
        (
            &["search", "draughts", "--moves", "32-28 19\u{1c}-23"],
            r"19\u{1c}-23",
        ),
        (
            &["perft", "othello", "2", "--moves", "f5\u{85}d6"],
            r"\u{85}",
        ),
        (&["bench", "--suite", "no\nsuch\tsuite"], r"no\nsuch\tsuite"),
        (
            &["solve", "othello", "--file", "/no/such\nfile"],
            r"/no/such\nfile",
        ),
        (&["search", "nim\u{b}go"], r"nim\u{b}go"),
    ];
    for ((args, _), stderr) in cases.iter().zip(rejected_with(cases)) {
        let body = stderr.strip_suffix('\n').unwrap_or(&stderr);
        assert!(
            !body
                .chars()
                .any(|c| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')),
            "{args:?}: a raw control character in {stderr:?}"
        );
    }
}

/// The embedded suites' lines in `bench --help` keep their indent when a
/// description is long (clap wraps an overlong line at the margin).
#[test]
fn bench_help_lists_the_suites_in_columns() {
    let out = Command::new(env!("CARGO_BIN_EXE_splitpoint"))
        .args(["bench", "--help"])
        .env("COLUMNS", "100")
        .output()
        .unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    let suites = help.split("Embedded suites:\n").nth(1).unwrap();
    let suites = suites.split("\n\n").next().unwrap();
    assert!(suites.contains("  chess-tiny  "), "{suites}");
    for line in suites.lines() {
        // A suite's name and its description at column 19, or more of
        // the description under it.
        let columns = line.len() > 19 && line.is_char_boundary(19);
        let (name, description) = line.split_at(if columns { 19 } else { 0 });
        assert!(
            name.starts_with("  ") && name.ends_with(' ') && !description.starts_with(' '),
            "{line:?} in\n{suites}"
        );
    }
}

/// The example session in `ucci --help` ends with the move the engine
/// really plays.
#[test]
fn ucci_help_shows_what_the_session_prints() {
    let help = success(&["ucci", "--help"]);
    let commands: Vec<&str> = help
        .lines()
        .filter_map(|l| l.strip_prefix("  > "))
        .collect();
    let promised = help
        .lines()
        .find_map(|l| {
            l.split("then ")
                .nth(1)
                .filter(|r| r.starts_with("bestmove"))
        })
        .unwrap();
    assert!(commands.iter().any(|c| c.starts_with("go")), "{help}");
    let mut engine = Engine::start(&["ucci"]);
    for command in &commands {
        engine.send(command);
    }
    let lines = engine.until(|l| l.starts_with("bestmove"));
    engine.send("quit");
    engine.finish();
    assert_eq!(lines.last().unwrap(), promised);
}

/// The README's synopsis shows every flag of every command.
#[test]
fn the_readme_synopsis_lists_every_flag() {
    let readme = include_str!("../../../README.md");
    let synopsis = readme.split("## The command").nth(1).unwrap();
    let synopsis = synopsis.split("```").nth(1).unwrap();
    let long_flags = |text: &str| -> Vec<String> {
        text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .filter(|w| w.starts_with("--") && w.len() > 2)
            .map(str::to_string)
            .collect()
    };
    for command in [
        "bench", "selfplay", "search", "solve", "perft", "moves", "uci", "ucci", "hub", "nboard",
        "stress",
    ] {
        // The command's lines: its own and the indented ones after it.
        let mut shown = Vec::new();
        let mut inside = false;
        for line in synopsis.lines() {
            if let Some(rest) = line.strip_prefix("splitpoint ") {
                inside = rest.split_whitespace().next() == Some(command);
            }
            if inside {
                shown.extend(long_flags(line));
            }
        }
        let help = success(&[command, "--help"]);
        let options = help.split("Options:").nth(1).unwrap();
        for line in options.lines().filter(|l| l.trim_start().starts_with('-')) {
            let Some(flag) = long_flags(line).into_iter().next() else {
                continue;
            };
            if flag != "--help" && flag != "--version" {
                assert!(
                    shown.contains(&flag),
                    "the README's synopsis lacks {command} {flag}"
                );
            }
        }
    }
}

/// docs/ARCHITECTURE.md names every dependency of every crate.
#[test]
fn the_architecture_names_every_dependency() {
    let architecture = include_str!("../../../docs/ARCHITECTURE.md");
    let crates = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    for krate in [
        "splitpoint",
        "splitpoint-games",
        "splitpoint-bench",
        "splitpoint-cli",
    ] {
        let row = architecture
            .lines()
            .find(|l| l.starts_with(&format!("| `{krate}` |")))
            .unwrap_or_else(|| panic!("no row for {krate}"));
        let depends_on = row.rsplit(" | ").next().unwrap();
        let manifest = std::fs::read_to_string(format!("{crates}/{krate}/Cargo.toml")).unwrap();
        let dependencies = manifest.split("[dependencies]\n").nth(1).unwrap();
        let dependencies = dependencies.split("\n[").next().unwrap();
        for line in dependencies
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let name = line.split(['=', '.', ' ']).next().unwrap();
            assert!(
                depends_on.contains(&format!("`{name}`")),
                "docs/ARCHITECTURE.md: {krate} depends on {name}"
            );
        }
    }
}

/// The binary is not documented: its docs would overwrite the `splitpoint`
/// library's (`cargo doc` warns of the collision).
#[test]
fn the_binary_has_no_docs_of_its_own() {
    let manifest = include_str!("../Cargo.toml");
    let bin = manifest.split("[[bin]]").nth(1).unwrap();
    let bin = bin.split("\n[").next().unwrap();
    assert!(bin.contains("name = \"splitpoint\""), "{bin}");
    assert!(bin.contains("doc = false"), "{bin}");
}

/// A build without the `mpi` feature says how to get one.
#[cfg(not(feature = "mpi"))]
#[test]
fn mpi_needs_the_mpi_build() {
    let stderr = rejected(&[
        "search",
        "othello",
        "--algorithm",
        "pv-split",
        "--transport",
        "mpi",
    ]);
    assert!(
        stderr.contains("built without MPI; build it with `cargo build --release --features mpi`"),
        "{stderr}"
    );
}

#[cfg(not(feature = "gpu"))]
#[test]
fn the_gpu_algorithm_needs_the_gpu_build_and_othello() {
    for args in [
        &["search", "othello", "--algorithm", "gpu"][..],
        &["selfplay", "--b", "gpu:1"],
        &["bench", "--algos", "serial,gpu", "--threads", "1"],
    ] {
        let stderr = rejected(args);
        assert!(
            stderr.contains("built without OpenCL"),
            "{args:?}: {stderr}"
        );
    }
    let stderr = rejected(&["search", "chess", "--algorithm", "gpu"]);
    assert!(stderr.contains("chess has no GPU search"), "{stderr}");
}

#[cfg(not(feature = "gpu"))]
#[test]
fn gpu_info_needs_the_gpu_build() {
    let stderr = rejected(&["gpu-info"]);
    assert!(
        stderr
            .contains("built without OpenCL; build it with `cargo build --release --features gpu"),
        "{stderr}"
    );
}
