//! `splitpoint train othello|chess --quick`: the files it writes, its
//! report, and resuming from them.

use serde_json::Value;

mod common;
use common::run::{TempDir, read_json, rejected, success};
use splitpoint_games::othello::{STAGES, Weights};

#[test]
fn quick_training_writes_weights_a_report_and_a_plot_and_resumes() {
    let dir = TempDir::new("train-quick");
    let args = ["train", "othello", "--quick", "--out", dir.arg()];
    let first = success(&args);
    let stage_lines = first.lines().filter(|l| l.starts_with("stage ")).count();
    assert_eq!(stage_lines, STAGES, "{first}");

    let weights = Weights::load(&dir.join("weights.bin")).expect("the weights load");
    assert_ne!(weights, Weights::zero());
    let report = read_json(&dir.join("report.json"));
    let stages = report["stages"].as_array().expect("stages");
    assert_eq!(stages.len(), STAGES);
    let num = |s: &Value, key: &str| s[key].as_f64().unwrap_or_else(|| panic!("{key}: {s}"));
    for (i, s) in stages.iter().enumerate() {
        assert_eq!(s["stage"], i);
        assert!(num(s, "test") > 0.0, "{s}");
        assert!(num(s, "train") > num(s, "test"), "{s}");
        assert!(num(s, "test_mae").is_finite() && num(s, "test_mae") >= 0.0);
    }
    // The last stage is labelled by exact solves, which the empty weights
    // know nothing of: the fit must have learned most of it.
    let last = &stages[STAGES - 1];
    assert_eq!(last["labels"], "exact");
    assert!(
        num(last, "test_mae") < 0.5 * num(last, "test_mae_before"),
        "{last}"
    );
    let svg = std::fs::read_to_string(dir.join("error-by-stage.svg")).expect("the plot");
    assert!(svg.starts_with("<svg") && svg.contains("<polyline"));

    // Resuming a finished run changes nothing.
    assert_eq!(success(&args), first);
    // A stage lost midway (its fit gone, its labels cut short) is labelled
    // to the end and fitted again, to the same weights.
    let labels = dir.join("labels-03.bin");
    let bytes = std::fs::read(&labels).unwrap();
    std::fs::write(&labels, &bytes[..bytes.len() / 2 + 7]).unwrap();
    std::fs::remove_file(dir.join("fit-03.json")).unwrap();
    std::fs::remove_file(dir.join("fit-02.json")).unwrap();
    let resumed = success(&args);
    assert_eq!(std::fs::read(&labels).unwrap(), bytes);
    assert_eq!(
        Weights::load(&dir.join("weights.bin")).unwrap(),
        weights,
        "{resumed}"
    );

    // Other settings in the same directory are refused.
    let other = [
        "train",
        "othello",
        "--quick",
        "--games",
        "7",
        "--out",
        dir.arg(),
    ];
    assert!(rejected(&other).contains("other settings"));
}

#[test]
fn training_refuses_games_without_a_learned_evaluation() {
    let dir = TempDir::new("train-draughts");
    let message = rejected(&["train", "draughts", "--out", dir.arg()]);
    assert!(message.contains("othello and chess"), "{message}");
}

#[test]
fn chess_training_plays_fits_writes_the_weights_and_resumes() {
    let dir = TempDir::new("train-chess");
    let args = [
        "train",
        "chess",
        "--quick",
        "--games",
        "10",
        "--nodes",
        "300",
        "--iterations",
        "20",
        "--threads",
        "2",
        "--out",
        dir.arg(),
    ];
    let first = success(&args);
    let source = std::fs::read_to_string(dir.join("weights.rs")).expect("the weights");
    assert!(source.contains("pub(super) const WEIGHTS"), "{source}");
    let report = read_json(&dir.join("report.json"));
    assert_eq!(report["games"], 10);
    assert!(report["train_positions"].as_u64().unwrap() > 0, "{report}");
    assert!(report["test_positions"].as_u64().unwrap() > 0, "{report}");
    let error = |key: &str| report[key].as_f64().unwrap();
    assert!(
        error("train_error") < error("train_error_before"),
        "{report}"
    );
    let games = std::fs::read_to_string(dir.join("games.txt")).unwrap();
    assert_eq!(games.lines().count(), 10);

    // Resuming plays nothing new and fits to the same weights.
    assert_eq!(success(&args), first);
    assert_eq!(
        std::fs::read_to_string(dir.join("weights.rs")).unwrap(),
        source
    );
    // Games played otherwise are refused in the same directory, and
    // Othello's labelling flags are Othello's.
    let mut other = args;
    other[6] = "400";
    assert!(rejected(&other).contains("other settings"));
    let depth = rejected(&["train", "chess", "--depth", "3", "--out", dir.arg()]);
    assert!(depth.contains("othello"), "{depth}");

    // The network fitted on the same games: its source and a report whose
    // fitted error fell from the linear score's.
    let mut net = args.to_vec();
    net.push("--net");
    success(&net);
    let source = std::fs::read_to_string(dir.join("net_weights.rs")).expect("the network");
    assert!(source.contains("pub(super) static NET"), "{source}");
    let report = read_json(&dir.join("report.json"));
    let error = |key: &str| report[key].as_f64().unwrap();
    assert!(
        error("train_error") < error("train_error_before"),
        "{report}"
    );
    let othello = rejected(&["train", "othello", "--net", "--out", dir.arg()]);
    assert!(othello.contains("chess only"), "{othello}");
}
