//! Searches' thread timelines as a Chrome trace-event file, the format
//! Perfetto (ui.perfetto.dev) and chrome://tracing open: one process per
//! search (named by what was searched), one track per thread, a complete
//! event (`"ph": "X"`) per span, an instant (`"ph": "i"`) per split, cutoff
//! and bound, times in microseconds from each search's start.

use std::path::Path;

use serde_json::{Value, json};
use splitpoint::{Trace, TraceEvent};

/// The trace-event JSON of `searches` (each named, e.g. by its position),
/// with `about` (what was run, how) under `otherData`.
pub fn chrome_json(searches: &[(String, Trace)], about: &[(&str, String)]) -> Value {
    let mut events = Vec::new();
    for (i, (name, trace)) in searches.iter().enumerate() {
        let pid = i + 1;
        events.push(json!({
            "name": "process_name", "ph": "M", "pid": pid,
            "args": { "name": name },
        }));
        events.extend((0..trace.threads).map(|t| {
            json!({
                "name": "thread_name", "ph": "M", "pid": pid, "tid": t,
                "args": { "name": format!("thread {t}") },
            })
        }));
        events.extend(trace.events.iter().map(|e| event(pid, e)));
    }
    let dropped: u64 = searches.iter().map(|(_, t)| t.dropped).sum();
    let other: serde_json::Map<String, Value> = about
        .iter()
        .map(|(k, v)| (k.to_string(), Value::from(v.as_str())))
        .chain([("dropped_events".to_string(), json!(dropped))])
        .collect();
    json!({
        "traceEvents": events,
        "displayTimeUnit": "ms",
        "otherData": other,
    })
}

/// Writes [`chrome_json`] to `path`.
///
/// # Errors
/// The file cannot be written.
pub fn write_chrome_json(
    path: &Path,
    searches: &[(String, Trace)],
    about: &[(&str, String)],
) -> std::io::Result<()> {
    let json = chrome_json(searches, about);
    std::fs::write(
        path,
        serde_json::to_vec(&json).map_err(std::io::Error::other)?,
    )
}

fn event(pid: usize, e: &TraceEvent) -> Value {
    let micros = |d: std::time::Duration| d.as_nanos() as f64 / 1000.0;
    let mut args = json!({ "ply": e.ply });
    if !e.label.is_empty() {
        args["label"] = json!(e.label);
    }
    if e.aborted {
        args["aborted"] = json!(true);
    }
    let name = if e.aborted {
        format!("{} (aborted)", e.kind.name())
    } else {
        e.kind.name().to_string()
    };
    let mut v = json!({
        "name": name, "cat": e.kind.name(), "pid": pid, "tid": e.thread,
        "ts": micros(e.start), "args": args,
    });
    if e.kind.is_span() {
        v["ph"] = json!("X");
        v["dur"] = json!(micros(e.duration));
    } else {
        v["ph"] = json!("i");
        v["s"] = json!("t");
    }
    v
}
