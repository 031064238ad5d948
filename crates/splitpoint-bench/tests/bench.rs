//! The bench end to end on tiny suites: tables, results.json, plots that decode,
//! and wrong answers flagged; the plots from a fake result set.

use splitpoint::Algorithm;
use splitpoint_bench::suite::Suite;
use splitpoint_bench::{BenchOptions, run};
use splitpoint_games::registry::GameName;

fn options(suite: Suite, out: Option<std::path::PathBuf>) -> BenchOptions {
    BenchOptions {
        suite,
        algorithms: Algorithm::ALL.to_vec(),
        threads: vec![1, 2, 3],
        latencies: Vec::new(),
        ranks: Vec::new(),
        cluster: None,
        gpu: None,
        runs: 2,
        hash_mib: 1,
        table: splitpoint::TableKind::Lockless,
        exact: true,
        out,
        quiet: true,
        ceiling: true,
        simulation: None,
        costs_from: String::new(),
        whole_tree_max: None,
    }
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "splitpoint-bench-test-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn tiny_suite_end_to_end() {
    let dir = temp_dir("tiny");
    let report = run(&options(
        Suite::load("synthetic-tiny", Some(GameName::Synthetic)).unwrap(),
        Some(dir.clone()),
    ))
    .unwrap();
    assert_eq!(report.wrong(), 0, "{}", report.markdown);
    // A table per algorithm and the summary, with oversubscription marked on 2 cores or fewer.
    for a in Algorithm::ALL {
        assert!(
            report.markdown.contains(&format!("### {}\n", a.name())),
            "{a} table missing"
        );
    }
    assert!(
        report
            .markdown
            .contains("| Threads | Time (s) | Speedup over serial [95% CI] | Nodes | NPS |")
    );
    assert!(
        report
            .markdown
            .contains("### Summary: speedup over serial (serial's time / time)")
    );

    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).unwrap()).unwrap();
    assert!(json["machine"]["cores"].as_u64().unwrap() >= 1);
    assert!(json["machine"]["git_commit"].is_string());
    // What a result needs to be read a year later.
    assert_eq!(json["schema"], splitpoint_bench::SCHEMA);
    assert_eq!(json["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(json["hash_mib"], 1);
    assert!(
        json["command_line"]
            .as_array()
            .is_some_and(|a| !a.is_empty())
    );
    let stamp = json["timestamp"].as_str().unwrap();
    assert!(
        stamp.len() == 20 && stamp.as_bytes()[10] == b'T' && stamp.ends_with('Z'),
        "{stamp}"
    );
    assert!(stamp > "2024", "{stamp}");
    let configs = 1 + (Algorithm::ALL.len() - 1) * 3;
    // A load sample (or null where the OS gives none) around each run of each configuration.
    let loads = json["loads"].as_array().unwrap();
    assert_eq!(loads.len(), configs * 2);
    assert!(
        loads
            .iter()
            .all(|l| l["before"].is_number() || l["before"].is_null())
    );
    assert!(json["rows"][0]["loaded"].is_boolean());
    assert_eq!(
        json["measurements"].as_array().unwrap().len(),
        configs * 2 * 2
    );
    assert_eq!(json["rows"].as_array().unwrap().len(), configs);
    // The machine's ceiling: in each run, as many serial searches at once
    // as each thread count above one up to the cores, each searching the
    // suite as serial did.
    let cores = json["machine"]["cores"].as_u64().unwrap() as usize;
    let counted: Vec<u64> = [2, 3].into_iter().filter(|&t| t <= cores as u64).collect();
    let serial_nodes: u64 = json["measurements"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["algorithm"] == "serial" && m["run"] == 0)
        .map(|m| m["nodes"].as_u64().unwrap())
        .sum();
    let samples = json["ceiling_samples"].as_array().unwrap();
    assert_eq!(samples.len(), counted.len() * 2);
    for s in samples {
        let nodes = s["nodes"].as_array().unwrap();
        assert_eq!(nodes.len() as u64, s["threads"].as_u64().unwrap());
        assert!(
            nodes.iter().all(|n| n.as_u64() == Some(serial_nodes)),
            "{s}"
        );
    }
    let ceilings = json["ceilings"].as_array().unwrap();
    let threads: Vec<u64> = ceilings
        .iter()
        .map(|c| c["threads"].as_u64().unwrap())
        .collect();
    assert_eq!(threads, counted);
    assert!(ceilings.iter().all(|c| c["ratio"].as_f64().unwrap() > 0.0));
    assert_eq!(
        report.markdown.contains("| *machine ceiling* |"),
        !counted.is_empty()
    );

    for svg in ["speedup.svg", "overhead.svg", "time_vs_depth.svg"] {
        let text = std::fs::read_to_string(dir.join(svg)).unwrap();
        let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{svg}: {e}"));
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        assert!(
            doc.descendants()
                .any(|n| n.is_text() && n.text().unwrap_or("").contains("ybw")),
            "{svg} has a legend"
        );
    }
    let decoder = png::Decoder::new(std::fs::File::open(dir.join("speedup.png")).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (1000, 600));
    assert!(dir.join("overhead.png").is_file());
    assert!(buf.iter().any(|&b| b < 128), "the PNG is not blank");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_planted_wrong_score_is_flagged() {
    let suite = Suite::parse(
        "planted",
        "#! depth=5\nb=4,d=5,seed=3 ; score=12345\nb=4,d=5,seed=4\n",
        GameName::Synthetic,
        None,
    )
    .unwrap();
    let mut opts = options(suite, None);
    opts.algorithms = vec![Algorithm::Serial, Algorithm::Ybw { strong: false }];
    opts.threads = vec![2];
    opts.runs = 1;
    let report = run(&opts).unwrap();
    assert_eq!(
        report.wrong(),
        3,
        "serial × 1, ybw × 1 and ybw × 2 each miss position 1"
    );
    assert!(report.markdown.contains("WRONG ANSWERS"));
}

#[test]
fn othello_solve_suite_checks_known_scores() {
    // A near-final FFO-like position: solved by every configuration, checked
    // against serial, by the solver (the suite's default) and by the oracle.
    let suite = Suite::parse(
        "endgame",
        "#! solve\nO--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXXX--OOOOXXXXOOOOXXXOOOXXX X\n",
        GameName::Othello,
        None,
    )
    .unwrap();
    assert!(!suite.exact, "a solve runs the solver unless told");
    for (exact, mode) in [(false, "the solver"), (true, "the oracle: exact mode")] {
        let mut opts = options(suite.clone(), None);
        opts.exact = exact;
        opts.runs = 1;
        opts.threads = vec![2];
        let report = run(&opts).unwrap();
        assert_eq!(report.wrong(), 0, "{}", report.markdown);
        assert!(report.markdown.contains(mode), "{}", report.markdown);
        assert!(
            report.markdown.contains("and with serial search"),
            "a solve's scores are checked against serial in either mode"
        );
    }
}

#[test]
fn selfplay_serial_and_ybw_play_identical_games() {
    use splitpoint::Game;
    use splitpoint_bench::runner::Config;
    use splitpoint_bench::selfplay;
    use splitpoint_games::othello::{Othello, OthelloEval};

    let suite = Suite::load("othello-tiny", None).unwrap();
    let openings: Vec<Othello> = suite
        .positions
        .iter()
        .take(3)
        .map(|p| Othello::parse_position(&p.text).unwrap())
        .collect();
    let a = Config::new(Algorithm::Serial, 1);
    let b = Config::new(Algorithm::Ybw { strong: false }, 2);
    let mut played = 0;
    let reports = selfplay::run(
        &openings,
        OthelloEval,
        a,
        b,
        3,
        1,
        200,
        Othello::final_score,
        || played += 1,
    )
    .expect("1 MiB tables");
    assert_eq!(played, 12);
    for r in &reports {
        assert!(
            r.identical,
            "games from {} diverge at ply {:?}: {:?}",
            r.opening, r.divergence, r.games
        );
        let first = &r.games[0];
        assert!(first.moves.len() > 10, "games are played to the end");
        assert!(r.games.iter().all(|g| g.result == first.result));
    }
}

/// The draughts and xiangqi suites run in exact mode: every algorithm at 1,
/// 2 and 3 threads must return serial's score on each position.
#[test]
fn draughts_and_xiangqi_suites_are_exact_under_every_algorithm() {
    for (name, game) in [
        ("draughts-tiny", GameName::Draughts),
        ("xiangqi-tiny", GameName::Xiangqi),
    ] {
        let suite = Suite::load(name, Some(game)).unwrap();
        assert!(suite.exact, "{name} defaults to exact mode");
        let mut opts = options(suite, None);
        opts.runs = 1;
        let report = run(&opts).unwrap();
        assert_eq!(report.wrong(), 0, "{}", report.markdown);
        let configs = 1 + (Algorithm::ALL.len() - 1) * 3;
        assert_eq!(report.rows.len(), configs, "{name}");
    }
}

/// A fake result set: every algorithm at 1 to 4 threads on a 2-core
/// machine, three runs apart, and the plots drawn from it.
#[test]
fn plots_show_every_algorithm_with_integer_thread_ticks() {
    use splitpoint_bench::plot;
    use splitpoint_bench::report::{Ceiling, Row};

    let serial_seconds = 10.0;
    let mut rows = Vec::new();
    for (i, a) in Algorithm::ALL.iter().enumerate() {
        let threads: Vec<usize> = if *a == Algorithm::Serial {
            vec![1]
        } else {
            (1..=4).collect()
        };
        for t in threads {
            let gain = 1.0 + (t - 1) as f64 * (0.3 + 0.05 * i as f64);
            let seconds = serial_seconds * 1.05 / gain;
            let (fast, slow) = (seconds * 0.9, seconds * 1.1);
            rows.push(Row {
                algorithm: a.name().to_string(),
                threads: t,
                oversubscribed: t > 2,
                seconds,
                seconds_min: fast,
                seconds_max: slow,
                speedup: serial_seconds / seconds,
                speedup_min: serial_seconds / slow,
                speedup_max: serial_seconds / fast,
                speedup_ci_low: serial_seconds / slow,
                speedup_ci_high: serial_seconds / fast,
                fault: false,
                default: false,
                nodes: 1_000_000 + 20_000 * (t as u64 - 1) * (i as u64 + 1),
                nps: 0.0,
                overhead: 0.02 * (t - 1) as f64 * (i + 1) as f64 / 4.0,
                splits: 0,
                bounds_sent: 0,
                messages: 0,
                message_bytes: 0,
                subtrees: 0,
                device_subtrees: 0,
                transfer_ms: 0.0,
                kernel_ms: 0.0,
                aborted_nodes: 0,
                idle: 0.0,
                wait: 0.0,
                aborted: 0.0,
                wrong: 0,
                best_found: None,
                load: Some(0.5),
                loaded: false,
            });
        }
    }
    // ybw at 3 threads ran on a loaded machine.
    let loaded = rows
        .iter_mut()
        .find(|r| r.algorithm == "ybw" && r.threads == 3)
        .unwrap();
    (loaded.load, loaded.loaded) = (Some(5.5), true);
    let ceilings: Vec<Ceiling> = (2..=4)
        .map(|t| Ceiling {
            threads: t,
            ratio: 0.9 * t as f64,
            ratio_min: 0.85 * t as f64,
            ratio_max: 0.95 * t as f64,
        })
        .collect();
    let context = plot::Context {
        cores: 2,
        ceilings: &ceilings,
        load_limit: 4.0,
    };
    let dir = temp_dir("plots");
    std::fs::create_dir_all(&dir).unwrap();
    plot::speedup(&dir, "fake", &rows, &context).unwrap();
    plot::overhead(&dir, "fake", &rows, &context).unwrap();
    for (svg, axis) in [
        ("speedup.svg", "Speedup over serial (serial's time / time)"),
        ("overhead.svg", "Search overhead (nodes / serial's nodes)"),
    ] {
        let text = std::fs::read_to_string(dir.join(svg)).unwrap();
        let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{svg}: {e}"));
        let texts: Vec<&str> = doc
            .descendants()
            .filter(|n| n.is_text())
            .filter_map(|n| n.text())
            .map(str::trim)
            .collect();
        for a in Algorithm::ALL {
            assert!(texts.contains(&a.name()), "{svg}: no {a} in {texts:?}");
        }
        // One label per thread count, on whole numbers only: a tick at 1.5
        // would print as a second "2".
        for t in ["1", "2", "3", "4"] {
            assert_eq!(
                texts.iter().filter(|&&x| x == t).count(),
                1,
                "{svg}: {texts:?}"
            );
        }
        assert!(
            !texts.contains(&"0") && !texts.contains(&"5"),
            "{svg}: {texts:?}"
        );
        assert!(texts.contains(&axis), "{svg}: the axis says what it shows");
        // The loaded row is marked as the tables mark it, and the mark told.
        assert_eq!(
            texts.iter().filter(|&&x| x == "!").count(),
            1,
            "{svg}: {texts:?}"
        );
        assert!(
            texts
                .iter()
                .any(|x| x.starts_with("! loaded: load average up to 5.50 (above 4)")),
            "{svg}: {texts:?}"
        );
        // The machine's ceiling beside the speedups, where it bounds them.
        assert_eq!(
            texts.contains(&"machine ceiling"),
            svg == "speedup.svg",
            "{svg}: {texts:?}"
        );
    }
    for png in ["speedup.png", "overhead.png"] {
        assert!(dir.join(png).is_file(), "{png}");
    }
    // Left for a look when SPLITPOINT_KEEP_PLOTS is set.
    if std::env::var_os("SPLITPOINT_KEEP_PLOTS").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    } else {
        eprintln!("plots in {}", dir.display());
    }
}

/// A latency adds pv-split rows above one thread, labelled by it, and the
/// labels read back.
#[test]
fn latencies_add_pv_split_rows() {
    use splitpoint_games::registry::{latency_text, parse_latency};
    use std::time::Duration;

    let mut o = options(Suite::load("synthetic-tiny", None).unwrap(), None);
    o.algorithms = vec![Algorithm::Serial, Algorithm::PvSplit];
    o.threads = vec![1, 2, 3];
    o.latencies = vec![
        Duration::ZERO,
        Duration::from_micros(50),
        Duration::from_millis(1),
    ];
    let labels: Vec<(String, usize)> = splitpoint_bench::configs(&o)
        .iter()
        .map(|c| (c.label(), c.threads))
        .collect();
    let want = [
        ("serial", 1),
        ("pv-split", 1),
        ("pv-split", 2),
        ("pv-split", 3),
        ("pv-split+50us", 2),
        ("pv-split+50us", 3),
        ("pv-split+1ms", 2),
        ("pv-split+1ms", 3),
    ];
    assert_eq!(labels, want.map(|(l, t)| (l.to_string(), t)));

    for (text, micros) in [("50us", 50), ("1ms", 1000), ("2s", 2_000_000), ("0", 0)] {
        let d = parse_latency(text).unwrap();
        assert_eq!(d, Duration::from_micros(micros));
        if micros > 0 {
            assert_eq!(latency_text(d), text);
        }
    }
    assert_eq!(
        parse_latency("1500us").map(latency_text),
        Ok("1500us".to_string())
    );
    for bad in ["", "ms", "5", "5xs", "-1ms", "11s"] {
        assert!(parse_latency(bad).is_err(), "{bad}");
    }
}
