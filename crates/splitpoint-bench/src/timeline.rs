//! A search's thread timeline as a picture (`timeline.svg` and `.png`,
//! beside the speedup plot): one lane per thread across the search's time, each pixel
//! column coloured by what the thread mostly did then — its own search, a
//! shared move (a split point's, a workload's; red when a cutoff then threw
//! it away), waiting at its own shared node for helpers, or idle — with the
//! iterations of thread 0 marked above. The full event list is the Chrome
//! trace (`--trace`); the picture is bounded: a lane is at most one
//! rectangle per pixel column, however many events the search recorded.

use std::path::Path;
use std::time::Duration;

use plotters::coord::Shift;
use plotters::prelude::*;
use splitpoint::{EventKind, Trace};

use crate::plot::{err, register_font};

/// The picture's size, the chart's width (the legend takes the rest), and
/// the columns of its time axis.
const SIZE: (u32, u32) = (1000, 360);
const CHART_WIDTH: u32 = 820;
const COLUMNS: usize = 700;

/// What a thread mostly did during one pixel column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activity {
    /// Not in any recorded span: the thread's own search (or, for a helper,
    /// its bookkeeping between tasks).
    Own,
    /// A move of a shared node.
    Shared,
    /// A shared move whose work a cutoff or stop threw away.
    Aborted,
    /// Waiting at its own shared node, not helping.
    Wait,
    /// No work.
    Idle,
}

impl Activity {
    fn color(self) -> RGBColor {
        match self {
            Activity::Own => RGBColor(174, 199, 232),
            Activity::Shared => RGBColor(31, 119, 180),
            Activity::Aborted => RGBColor(214, 39, 40),
            Activity::Wait => RGBColor(255, 127, 14),
            Activity::Idle => RGBColor(199, 199, 199),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Activity::Own => "own search",
            Activity::Shared => "shared move",
            Activity::Aborted => "shared move, cut off",
            Activity::Wait => "waiting for helpers",
            Activity::Idle => "idle",
        }
    }
}

/// Each thread's activity in `columns` equal slices of `length`: the
/// activity that filled most of the slice (time in a shared move counts as
/// such, not as the wait it helps in).
pub fn columns(trace: &Trace, length: Duration, columns: usize) -> Vec<Vec<Activity>> {
    let slice = length.as_secs_f64() / columns as f64;
    // Per thread and column: seconds shared, aborted, waiting, idle.
    let mut time = vec![vec![[0.0f64; 4]; columns]; trace.threads];
    for e in &trace.events {
        let which = match (e.kind, e.aborted) {
            (EventKind::Search, false) => 0,
            (EventKind::Search, true) => 1,
            (EventKind::Wait, _) => 2,
            (EventKind::Idle, _) => 3,
            _ => continue,
        };
        let (start, end) = (e.start.as_secs_f64(), (e.start + e.duration).as_secs_f64());
        let first = ((start / slice) as usize).min(columns - 1);
        let last = ((end / slice) as usize).min(columns - 1);
        let lane = &mut time[e.thread.min(trace.threads - 1)];
        for (c, column) in lane.iter_mut().enumerate().take(last + 1).skip(first) {
            let (lo, hi) = (c as f64 * slice, (c + 1) as f64 * slice);
            column[which] += end.min(hi) - start.max(lo);
        }
    }
    time.into_iter()
        .map(|lane| {
            lane.into_iter()
                .map(|[shared, aborted, wait, idle]| {
                    // A wait's helping is in the shared spans nested in it.
                    let waiting = (wait - shared - aborted).max(0.0);
                    let own = (slice - shared - aborted - waiting - idle).max(0.0);
                    [
                        (own, Activity::Own),
                        (shared, Activity::Shared),
                        (aborted, Activity::Aborted),
                        (waiting, Activity::Wait),
                        (idle, Activity::Idle),
                    ]
                    .into_iter()
                    .max_by(|a, b| a.0.total_cmp(&b.0))
                    .map_or(Activity::Own, |(_, activity)| activity)
                })
                .collect()
        })
        .collect()
}

/// Writes `trace`'s timeline, titled `title`, to `timeline.svg` and
/// `timeline.png` in `dir`.
///
/// # Errors
/// A message if a file cannot be written.
pub fn write(dir: &Path, title: &str, trace: &Trace) -> Result<(), String> {
    register_font();
    let (svg_path, png_path) = (dir.join("timeline.svg"), dir.join("timeline.png"));
    let svg = SVGBackend::new(&svg_path, SIZE).into_drawing_area();
    draw(&svg, title, trace)?;
    let png = BitMapBackend::new(&png_path, SIZE).into_drawing_area();
    draw(&png, title, trace)
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    trace: &Trace,
) -> Result<(), String> {
    let length = trace
        .events
        .iter()
        .map(|e| e.start + e.duration)
        .max()
        .unwrap_or_default()
        .max(Duration::from_micros(1));
    let lanes = columns(trace, length, COLUMNS);
    let millis = length.as_secs_f64() * 1e3;
    root.fill(&WHITE).map_err(err)?;
    let (area, legend) = root.split_horizontally(CHART_WIDTH);
    let threads = trace.threads.max(1) as f64;
    let mut chart = ChartBuilder::on(&area)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(70)
        .build_cartesian_2d(0.0..millis, -0.5..threads + 0.1)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .x_desc("Time from the search's start (ms)")
        .y_labels(trace.threads.max(1) + 1)
        .y_label_formatter(&|y| {
            let lane = y.round();
            if (y - lane).abs() < 1e-9 && (0.0..threads).contains(&lane) {
                format!("thread {lane}")
            } else {
                String::new()
            }
        })
        .draw()
        .map_err(err)?;
    let width = millis / COLUMNS as f64;
    for (t, lane) in lanes.iter().enumerate() {
        let y = t as f64 - 0.5;
        let mut c = 0;
        while c < lane.len() {
            let run = lane[c..].iter().take_while(|&&a| a == lane[c]).count();
            let (x0, x1) = (c as f64 * width, (c + run) as f64 * width);
            chart
                .draw_series([Rectangle::new(
                    [(x0, y + 0.1), (x1, y + 0.9)],
                    lane[c].color().filled(),
                )])
                .map_err(err)?;
            c += run;
        }
    }
    // Thread 0's iterations: a tick above the lanes, and the depth where
    // it does not crowd the one before.
    let mut labelled_at = f64::NEG_INFINITY;
    for e in trace
        .events
        .iter()
        .filter(|e| e.kind == EventKind::Iteration && e.thread == 0)
    {
        let x = e.start.as_secs_f64() * 1e3;
        let top = threads - 0.5;
        chart
            .draw_series([PathElement::new(
                [(x, top), (x, top + 0.15)],
                BLACK.stroke_width(1),
            )])
            .map_err(err)?;
        if x - labelled_at > millis / 14.0 {
            labelled_at = x;
            chart
                .draw_series([Text::new(
                    e.label.clone(),
                    (x, top + 0.55),
                    ("sans-serif", 11),
                )])
                .map_err(err)?;
        }
    }
    // The legend, beside the chart where it hides nothing.
    for (i, activity) in [
        Activity::Own,
        Activity::Shared,
        Activity::Aborted,
        Activity::Wait,
        Activity::Idle,
    ]
    .into_iter()
    .enumerate()
    {
        let y = 60 + 24 * i as i32;
        legend
            .draw(&Rectangle::new(
                [(8, y), (22, y + 14)],
                activity.color().filled(),
            ))
            .map_err(err)?;
        legend
            .draw(&Text::new(activity.name(), (30, y), ("sans-serif", 13)))
            .map_err(err)?;
    }
    root.present().map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;
    use splitpoint::TraceEvent;

    fn span(thread: usize, kind: EventKind, from: u64, to: u64, aborted: bool) -> TraceEvent {
        TraceEvent {
            thread,
            kind,
            start: Duration::from_millis(from),
            duration: Duration::from_millis(to - from),
            ply: 1,
            label: String::new(),
            aborted,
        }
    }

    /// Each column shows what filled most of it; helping inside a wait
    /// counts as the shared move, not as waiting.
    #[test]
    fn columns_show_what_filled_them() {
        let trace = Trace {
            threads: 2,
            events: vec![
                span(0, EventKind::Wait, 20, 40, false),
                span(0, EventKind::Search, 25, 40, false),
                span(1, EventKind::Idle, 0, 10, false),
                span(1, EventKind::Search, 10, 30, false),
                span(1, EventKind::Search, 30, 40, true),
            ],
            ..Trace::default()
        };
        let lanes = columns(&trace, Duration::from_millis(40), 4);
        use Activity::*;
        assert_eq!(lanes[0], [Own, Own, Wait, Shared]);
        assert_eq!(lanes[1], [Idle, Shared, Shared, Aborted]);
    }

    /// The picture is written, and its size does not grow with the events.
    #[test]
    fn the_svg_is_bounded() {
        let events = (0..20_000)
            .map(|i| span(i % 2, EventKind::Search, i as u64, i as u64 + 1, false))
            .collect();
        let trace = Trace {
            threads: 2,
            events,
            ..Trace::default()
        };
        let dir = std::env::temp_dir().join(format!("timeline-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        write(&dir, "test", &trace).unwrap();
        let size = std::fs::metadata(dir.join("timeline.svg")).unwrap().len();
        assert!(dir.join("timeline.png").exists());
        let _ = std::fs::remove_dir_all(&dir);
        assert!(size < 400_000, "{size} bytes");
    }
}
