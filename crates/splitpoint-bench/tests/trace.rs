//! The thread timeline: every algorithm's trace of a 2-thread search is
//! trace-event JSON that parses, whose spans nest on every thread, and that
//! shows what the algorithm does (iterations, searches of shared moves,
//! splits).

use serde_json::Value;
use splitpoint::{Algorithm, Engine, EventKind, Limits};
use splitpoint_bench::trace::chrome_json;
use splitpoint_games::othello::{Othello, OthelloEval};

/// A midgame with room to split.
const POSITION: &str = "--OOOO----OOOO---XXXOXX--XXOOX---XXXOOO--XXOXO--X-XXX------X---- X";

/// Spans on one thread, in start order, each inside the one open around it
/// or after it: the stack discipline Perfetto and chrome://tracing need.
fn assert_nested(spans: &mut [(f64, f64)], thread: u64) {
    spans.sort_by(|a, b| a.0.total_cmp(&b.0).then(b.1.total_cmp(&a.1)));
    let mut open: Vec<f64> = Vec::new();
    // A microsecond of slack: times are nanoseconds printed as microseconds.
    const SLACK: f64 = 1e-3;
    for &(start, dur) in spans.iter() {
        while open.last().is_some_and(|&end| start >= end - SLACK) {
            open.pop();
        }
        if let Some(&end) = open.last() {
            assert!(
                start + dur <= end + SLACK,
                "thread {thread}: span {start}+{dur} overlaps its parent ending at {end}"
            );
        }
        open.push(start + dur);
    }
}

#[test]
fn every_algorithm_writes_a_timeline_that_parses_and_nests() {
    let root: Othello = splitpoint::Game::parse_position(POSITION).expect("position");
    for algorithm in Algorithm::ALL {
        let mut engine = Engine::new(OthelloEval, 16);
        engine.set_parallelism(algorithm, 2);
        engine.set_trace(true);
        let limits = Limits::to_depth(9).exact();
        engine.search(&root, &limits);
        let trace = engine.take_trace().expect("a traced search has a trace");
        assert_eq!(trace.threads, 2);
        assert!(engine.take_trace().is_none(), "a trace is handed over once");
        let kinds = |k: EventKind| trace.events.iter().filter(|e| e.kind == k).count();
        assert!(
            kinds(EventKind::Iteration) >= 1,
            "{algorithm}: no iteration"
        );
        if matches!(
            algorithm,
            Algorithm::Ybw { .. }
                | Algorithm::Workloads { .. }
                | Algorithm::Dts
                | Algorithm::PvSplit
        ) {
            assert!(kinds(EventKind::Split) >= 1, "{algorithm}: no split");
            assert!(
                kinds(EventKind::Search) >= 1,
                "{algorithm}: no shared move searched"
            );
        }

        // Two searches in one file: one process each.
        let searches = [
            ("first".to_string(), trace.clone()),
            ("second".to_string(), trace.clone()),
        ];
        let about = [("algorithm", algorithm.to_string())];
        let text = serde_json::to_string(&chrome_json(&searches, &about)).expect("serializes");
        let json: Value = serde_json::from_str(&text).expect("the trace parses");
        let events = json["traceEvents"].as_array().expect("traceEvents");
        let mut per_thread: std::collections::BTreeMap<(u64, u64), Vec<(f64, f64)>> =
            Default::default();
        let mut processes = Vec::new();
        for e in events {
            let ph = e["ph"].as_str().expect("ph");
            assert!(["X", "i", "M"].contains(&ph), "{algorithm}: phase {ph}");
            let pid = e["pid"].as_u64().expect("pid");
            if e["name"] == "process_name" {
                processes.push(e["args"]["name"].as_str().expect("a name").to_string());
                continue;
            }
            let tid = e["tid"].as_u64().expect("tid");
            assert!(tid < 2, "{algorithm}: thread {tid}");
            if ph == "X" {
                let ts = e["ts"].as_f64().expect("ts");
                let dur = e["dur"].as_f64().expect("dur");
                assert!(ts >= 0.0 && dur >= 0.0);
                per_thread.entry((pid, tid)).or_default().push((ts, dur));
            }
        }
        assert_eq!(processes, ["first", "second"]);
        for ((_, tid), spans) in &mut per_thread {
            assert_nested(spans, *tid);
        }
        assert_eq!(json["otherData"]["algorithm"], algorithm.to_string());
    }
}

#[test]
fn no_trace_unless_asked() {
    let mut engine = Engine::new(OthelloEval, 16);
    engine.set_parallelism(Algorithm::Ybw { strong: false }, 2);
    engine.search(&Othello::start(), &Limits::to_depth(6));
    assert!(engine.take_trace().is_none());
}

#[test]
#[should_panic(expected = "overlaps its parent")]
fn the_nesting_check_catches_overlapping_spans() {
    assert_nested(&mut [(0.0, 10.0), (5.0, 10.0)], 0);
}
