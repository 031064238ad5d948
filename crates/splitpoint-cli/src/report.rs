//! Human-readable numbers for the tables and summaries, and JSON lines.

use std::io::{self, Write};
use std::time::Duration;

use serde::Serialize;

use splitpoint::{Score, WIN, is_decisive};

/// A score with its sign, or the distance to a proven end: `+38`, `0`, `-120`,
/// `win in 7`, `loss in 4` (plies).
pub fn score(score: Score) -> String {
    if score == 0 {
        "0".to_string()
    } else if !is_decisive(score) {
        format!("{score:+}")
    } else if score > 0 {
        format!("win in {}", WIN - score)
    } else {
        format!("loss in {}", WIN + score)
    }
}

/// A rate with a metric prefix: `950`, `12.3k`, `4.56M`.
pub fn per_second(count: u64, elapsed: Duration) -> String {
    splitpoint_bench::report::si(count as f64 / elapsed.as_secs_f64().max(1e-9))
}

/// A share as a percentage with one decimal.
pub fn percent(share: f64) -> String {
    format!("{:.1}%", 100.0 * share)
}

/// Writes `value` as one line of JSON.
pub fn json_line(out: &mut impl Write, value: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    writeln!(out)
}
