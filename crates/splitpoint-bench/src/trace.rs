//! A search's thread timeline as a Chrome trace-event file, the format
//! Perfetto (ui.perfetto.dev) and chrome://tracing open: one track per
//! thread, a complete event (`"ph": "X"`) per span, an instant (`"ph": "i"`)
//! per split, cutoff and bound, times in microseconds.

use serde_json::{Value, json};
use splitpoint::{Trace, TraceEvent};

/// The trace-event JSON of `trace`, with `about` (what was searched, how)
/// under `otherData`.
pub fn chrome_json(trace: &Trace, about: &[(&str, String)]) -> Value {
    let names = (0..trace.threads).map(|t| {
        json!({
            "name": "thread_name", "ph": "M", "pid": 1, "tid": t,
            "args": { "name": format!("thread {t}") },
        })
    });
    let events = trace.events.iter().map(event);
    let other: serde_json::Map<String, Value> = about
        .iter()
        .map(|(k, v)| (k.to_string(), Value::from(v.as_str())))
        .chain([("dropped_events".to_string(), json!(trace.dropped))])
        .collect();
    json!({
        "traceEvents": names.chain(events).collect::<Vec<_>>(),
        "displayTimeUnit": "ms",
        "otherData": other,
    })
}

fn event(e: &TraceEvent) -> Value {
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
        "name": name, "cat": e.kind.name(), "pid": 1, "tid": e.thread,
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
