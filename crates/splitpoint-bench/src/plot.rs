//! The figures: speedup over serial and search overhead against threads,
//! and time against depth.
//!
//! Every algorithm keeps one colour and one marker in every figure, so that
//! eleven lines stay apart (and apart in grey print). The legend sits beside
//! the chart, where it covers no line. Text is drawn with a font shipped in
//! the crate (DejaVu Sans, under its own free licence in `assets/`), so the
//! plots render the same on a fresh machine with no system fonts.

use std::path::Path;
use std::sync::Once;

use plotters::coord::Shift;
use plotters::element::{Drawable, PointCollection};
use plotters::prelude::*;
use plotters_backend::{BackendCoord, DrawingErrorKind};
use splitpoint::Algorithm;

use crate::report::{Ceiling, Row};
use splitpoint_games::registry;

const FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");
pub(crate) const SIZE: (u32, u32) = (1000, 600);
/// The chart's width; the legend takes the rest.
pub(crate) const CHART_WIDTH: u32 = 790;
/// The machine ceiling's colour: a grey apart from every algorithm's.
const CEILING: RGBColor = RGBColor(90, 90, 90);

pub(crate) fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The bundled font is known good; a failure would only lose text.
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, FONT);
    });
}

pub(crate) type PlotResult = Result<(), String>;

pub(crate) fn err(e: impl std::fmt::Display) -> String {
    format!("plot: {e}")
}

/// A marker's outline.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Circle,
    Square,
    Triangle,
    Diamond,
    Down,
}

/// How one algorithm is drawn.
#[derive(Clone, Copy)]
pub(crate) struct Look {
    pub(crate) color: RGBColor,
    shape: Shape,
    filled: bool,
}

/// Tableau's ten colours, and black for serial, the reference.
const COLORS: [RGBColor; 11] = [
    RGBColor(0, 0, 0),
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// The algorithm's look, by its place in [`Algorithm::ALL`]: a colour of
/// its own, and five shapes filled then hollow. A variant (`pv-split+1ms`,
/// a message latency) keeps its algorithm's colour, filled the other way,
/// in another shape for each order of magnitude of its latency; over a
/// cluster's processes (`pv-split/mpi`), in its own shape filled the other
/// way.
pub(crate) fn look(label: &str) -> Look {
    if let Some((algorithm, _)) = label.split_once('/') {
        let base = algorithm_look(algorithm);
        return Look {
            filled: !base.filled,
            ..base
        };
    }
    let Some((algorithm, variant)) = label.split_once('+') else {
        return algorithm_look(label);
    };
    let base = algorithm_look(algorithm);
    let micros = registry::parse_latency(variant).map_or(1, |d| d.as_micros().max(1));
    let magnitude = micros.ilog10() as usize; // 50us: 1, 1ms: 3
    let own = SHAPES.iter().position(|&s| s == base.shape).unwrap_or(0);
    Look {
        shape: SHAPES[(own + 1 + magnitude % (SHAPES.len() - 1)) % SHAPES.len()],
        filled: !base.filled,
        ..base
    }
}

/// The markers' shapes.
const SHAPES: [Shape; 5] = [
    Shape::Circle,
    Shape::Square,
    Shape::Triangle,
    Shape::Diamond,
    Shape::Down,
];

fn algorithm_look(algorithm: &str) -> Look {
    if let Some(i) = registry::GpuSplit::ALL
        .iter()
        .position(|s| s.name() == algorithm)
    {
        // A device, not a thread count: a colour of its own, a shape a split.
        return Look {
            color: RGBColor(230, 85, 13),
            shape: [Shape::Down, Shape::Diamond, Shape::Triangle][i],
            filled: true,
        };
    }
    let i = Algorithm::ALL
        .iter()
        .position(|a| a.name() == algorithm)
        .unwrap_or(0);
    let k = i.saturating_sub(1); // serial's circle is its own
    Look {
        color: COLORS[i % COLORS.len()],
        shape: if i == 0 {
            Shape::Circle
        } else {
            SHAPES[k % SHAPES.len()]
        },
        filled: i == 0 || k < SHAPES.len(),
    }
}

/// The marker's corners around (0, 0), in pixels.
fn outline(shape: Shape) -> Vec<(i32, i32)> {
    match shape {
        Shape::Circle => (0..12)
            .map(|k| {
                let a = f64::from(k) * std::f64::consts::PI / 6.0;
                (
                    (5.0 * a.cos()).round() as i32,
                    (5.0 * a.sin()).round() as i32,
                )
            })
            .collect(),
        Shape::Square => vec![(-4, -4), (4, -4), (4, 4), (-4, 4)],
        Shape::Triangle => vec![(0, -6), (6, 4), (-6, 4)],
        Shape::Down => vec![(0, 6), (6, -4), (-6, -4)],
        Shape::Diamond => vec![(0, -6), (6, 0), (0, 6), (-6, 0)],
    }
}

/// An algorithm's marker at a point: its shape filled with its colour, or
/// white inside its colour. An element of its own (not a composition) so
/// that it borrows nothing from the backend.
pub(crate) struct Marker<C> {
    at: C,
    look: Look,
}

pub(crate) fn marker<C>(at: C, look: Look) -> Marker<C> {
    Marker { at, look }
}

impl<'a, C> PointCollection<'a, C> for &'a Marker<C> {
    type Point = &'a C;
    type IntoIter = std::iter::Once<&'a C>;

    fn point_iter(self) -> Self::IntoIter {
        std::iter::once(&self.at)
    }
}

impl<C, DB: DrawingBackend> Drawable<DB> for Marker<C> {
    fn draw<I: Iterator<Item = BackendCoord>>(
        &self,
        mut points: I,
        backend: &mut DB,
        _: (u32, u32),
    ) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        let Some((x, y)) = points.next() else {
            return Ok(());
        };
        let corners: Vec<BackendCoord> = outline(self.look.shape)
            .into_iter()
            .map(|(dx, dy)| (x + dx, y + dy))
            .collect();
        let fill = if self.look.filled {
            self.look.color.filled()
        } else {
            WHITE.filled()
        };
        backend.fill_polygon(corners.clone(), &fill)?;
        let mut edge = corners.clone();
        edge.push(corners[0]);
        backend.draw_path(edge, &self.look.color.stroke_width(2))
    }
}

/// The algorithms in `rows`, in their first order.
pub(crate) fn algorithms(rows: &[Row]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for r in rows {
        if !names.contains(&r.algorithm) {
            names.push(r.algorithm.clone());
        }
    }
    names
}

/// What a figure against threads shows of each row.
struct Measure {
    /// File name without extension.
    file: &'static str,
    /// Title after the suite's name.
    what: &'static str,
    y_desc: &'static str,
    /// The value.
    value: fn(&Row) -> f64,
    /// Its min–max range over the runs, if it has one.
    range: fn(&Row) -> Option<(f64, f64)>,
    /// Draw the ideal speedup (y = threads).
    ideal: bool,
}

/// What a figure against threads shows beside its curves: the marks a
/// table puts on a row (`!` loaded, `?` a measurement fault), and on the
/// speedup figure the machine's ceiling, so that a disturbed run does not
/// look like a clean result.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    /// The machine's cores: thread counts above are oversubscribed.
    pub cores: usize,
    /// The machine's ceiling per thread count ([`crate::report::ceilings`]);
    /// empty where it was not measured.
    pub ceilings: &'a [Ceiling],
    /// The load average above which a row is marked loaded
    /// ([`crate::report::load_limit`]).
    pub load_limit: f64,
}

/// Writes `speedup.svg` and `speedup.png` into `dir`: speedup over serial
/// (serial's time / time; the median, bars from the slowest to the fastest
/// run) against threads, the machine's ceiling dotted, and each loaded or
/// faulty row marked as the tables mark it, with a note saying what the
/// mark means.
///
/// # Errors
/// A message if a file cannot be written.
pub fn speedup(dir: &Path, suite: &str, rows: &[Row], context: &Context) -> PlotResult {
    let measure = Measure {
        file: "speedup",
        what: "speedup over serial",
        y_desc: "Speedup over serial (serial's time / time)",
        value: |r| r.speedup,
        range: |r| Some((r.speedup_min, r.speedup_max)),
        ideal: true,
    };
    by_threads(dir, suite, rows, context, &measure)
}

/// Writes `overhead.svg` and `overhead.png` into `dir`: search overhead
/// (nodes / serial's nodes, 1 = none) against threads, loaded and faulty
/// rows marked.
///
/// # Errors
/// A message if a file cannot be written.
pub fn overhead(dir: &Path, suite: &str, rows: &[Row], context: &Context) -> PlotResult {
    let measure = Measure {
        file: "overhead",
        what: "search overhead",
        y_desc: "Search overhead (nodes / serial's nodes)",
        value: |r| 1.0 + r.overhead,
        range: |_| None,
        ideal: false,
    };
    let context = Context {
        ceilings: &[],
        ..*context
    };
    by_threads(dir, suite, rows, &context, &measure)
}

fn by_threads(
    dir: &Path,
    suite: &str,
    rows: &[Row],
    context: &Context,
    measure: &Measure,
) -> PlotResult {
    register_font();
    let svg_path = dir.join(format!("{}.svg", measure.file));
    let png_path = dir.join(format!("{}.png", measure.file));
    let svg = SVGBackend::new(&svg_path, SIZE).into_drawing_area();
    draw_by_threads(&svg, suite, rows, context, measure)?;
    let png = BitMapBackend::new(&png_path, SIZE).into_drawing_area();
    draw_by_threads(&png, suite, rows, context, measure)
}

/// The mark a table puts on `r`'s thread count, if any: `?` a measurement
/// fault, `!` a loaded machine.
fn mark(r: &Row) -> Option<&'static str> {
    match (r.fault, r.loaded) {
        (true, _) => Some("?"),
        (false, true) => Some("!"),
        (false, false) => None,
    }
}

/// The notes under a figure: what each mark on it means.
fn mark_notes(rows: &[Row], load_limit: f64) -> Vec<String> {
    let mut notes = Vec::new();
    if rows.iter().any(|r| r.fault) {
        notes.push(
            "? measurement fault: faster than the machine gives that many threads; a run was disturbed"
                .to_string(),
        );
    }
    if let Some(peak) = rows
        .iter()
        .filter(|r| r.loaded && !r.fault)
        .filter_map(|r| r.load)
        .reduce(f64::max)
    {
        notes.push(format!(
            "! loaded: load average up to {peak:.2} (above {load_limit:.0}): other work competed for the cores; times suspect"
        ));
    }
    notes
}

fn draw_by_threads<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    suite: &str,
    rows: &[Row],
    context: &Context,
    measure: &Measure,
) -> PlotResult {
    let cores = context.cores;
    area.fill(&WHITE).map_err(err)?;
    let notes = mark_notes(rows, context.load_limit);
    // The notes on the marks in a strip of their own under the chart.
    let strip = 20 * notes.len() as u32 + if notes.is_empty() { 0 } else { 8 };
    let (upper, notes_area) = area.split_vertically(SIZE.1 - strip);
    let (chart_area, legend_area) = upper.split_horizontally(CHART_WIDTH);
    let ceilings = context.ceilings;
    let names = algorithms(rows);
    let max_t = rows.iter().map(|r| r.threads).max().unwrap_or(1);
    let values: Vec<(f64, f64)> = rows
        .iter()
        .map(|r| {
            let v = (measure.value)(r);
            (measure.range)(r).map_or((v, v), |(lo, hi)| (lo.min(v), hi.max(v)))
        })
        .collect();
    let top = values
        .iter()
        .map(|v| v.1)
        .chain(ceilings.iter().map(|c| c.ratio_max))
        .fold(1.0, f64::max);
    let (y_lo, y_hi) = if measure.ideal {
        (0.0, top.max(max_t as f64) * 1.08)
    } else {
        let bottom = values.iter().map(|v| v.0).fold(1.0, f64::min);
        (bottom * 0.95, (top * 1.05).max(bottom + 0.1))
    };
    let mut chart = ChartBuilder::on(&chart_area)
        .caption(format!("{suite}: {}", measure.what), ("sans-serif", 22))
        .margin(20)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(0.5f64..max_t as f64 + 0.5, y_lo..y_hi)
        .map_err(err)?;
    chart
        .configure_mesh()
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 16))
        .x_desc("Threads")
        .y_desc(measure.y_desc)
        // As many labels as threads (at most 16): plotters then puts them on
        // whole numbers, as thread counts are.
        .x_labels(max_t.min(16))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .draw()
        .map_err(err)?;
    if measure.ideal {
        chart
            .draw_series(DashedLineSeries::new(
                vec![(1.0, 1.0), (max_t as f64, max_t as f64)],
                8,
                6,
                BLACK.stroke_width(1),
            ))
            .map_err(err)?;
    }
    if cores < max_t {
        let x = cores as f64 + 0.5;
        chart
            .draw_series(DashedLineSeries::new(
                vec![(x, y_lo), (x, y_hi)],
                3,
                5,
                RED.mix(0.6).stroke_width(1),
            ))
            .map_err(err)?;
        chart
            .draw_series(std::iter::once(Text::new(
                format!("oversubscribed (> {cores} cores) →"),
                (x + 0.05, y_lo + (y_hi - y_lo) * 0.97),
                ("sans-serif", 14).into_font().color(&RED),
            )))
            .map_err(err)?;
    }
    if !ceilings.is_empty() {
        // What the machine gave this many independent serial searches: no
        // algorithm's speedup can honestly rise above it.
        let mut points = vec![(1.0, 1.0)];
        points.extend(ceilings.iter().map(|c| (c.threads as f64, c.ratio)));
        chart
            .draw_series(DashedLineSeries::new(
                points.clone(),
                2,
                4,
                CEILING.stroke_width(2),
            ))
            .map_err(err)?;
        chart
            .draw_series(
                points
                    .into_iter()
                    .skip(1)
                    .map(|p| Circle::new(p, 3, CEILING.filled())),
            )
            .map_err(err)?;
    }
    // The parallel algorithms side by side at each thread count, so that
    // their bars do not overlap; serial, the reference, stays on its tick.
    let parallel = names.iter().filter(|n| *n != "serial").count();
    let spread = 0.25 / parallel.max(1) as f64;
    let mut k = 0;
    // The rows' marks, drawn over every curve.
    let mut marked: Vec<(&str, (f64, f64))> = Vec::new();
    // Serial last, so that the reference point is drawn over the others.
    let (reference, others): (Vec<&String>, Vec<&String>) =
        names.iter().partition(|n| *n == "serial");
    for name in others.into_iter().chain(reference) {
        let look = look(name);
        let dodge = if name == "serial" {
            0.0
        } else {
            k += 1;
            (k as f64 - 1.0 - (parallel - 1) as f64 / 2.0) * spread
        };
        let mine: Vec<&Row> = rows.iter().filter(|r| &r.algorithm == name).collect();
        let points: Vec<(f64, f64)> = mine
            .iter()
            .map(|r| (r.threads as f64 + dodge, (measure.value)(r)))
            .collect();
        if name == "serial" {
            // Serial runs on one thread; its value is the reference, 1.
            chart
                .draw_series(LineSeries::new(
                    vec![(1.0, 1.0), (max_t as f64, 1.0)],
                    look.color.stroke_width(1),
                ))
                .map_err(err)?;
        } else {
            chart
                .draw_series(LineSeries::new(points.clone(), look.color.stroke_width(2)))
                .map_err(err)?;
        }
        let bars = mine.iter().zip(&points).filter_map(|(r, &(x, v))| {
            (measure.range)(r)
                .filter(|(lo, hi)| hi > lo)
                .map(|(lo, hi)| {
                    ErrorBar::new_vertical(x, lo, v, hi, look.color.stroke_width(1), 10)
                })
        });
        chart.draw_series(bars).map_err(err)?;
        marked.extend(
            mine.iter()
                .zip(&points)
                .filter_map(|(r, &p)| mark(r).map(|m| (m, p))),
        );
        chart
            .draw_series(points.into_iter().map(|p| marker(p, look)))
            .map_err(err)?;
    }
    // Above and right of the point, on a white ground clear of the curves.
    chart
        .draw_series(marked.into_iter().map(|(m, p)| {
            EmptyElement::at(p)
                + Rectangle::new([(3, -34), (19, -6)], WHITE.filled())
                + Rectangle::new([(3, -34), (19, -6)], RED.stroke_width(1))
                + Text::new(m, (7, -32), ("sans-serif", 24).into_font().color(&RED))
        }))
        .map_err(err)?;
    let entries: Vec<(String, String)> = names.iter().map(|n| (n.clone(), n.clone())).collect();
    legend(&legend_area, &entries, measure.ideal, !ceilings.is_empty())?;
    for (i, note) in notes.iter().enumerate() {
        notes_area
            .draw(&Text::new(
                note.clone(),
                (20, 4 + 20 * i as i32),
                ("sans-serif", 14).into_font().color(&RED),
            ))
            .map_err(err)?;
    }
    area.present().map_err(err)
}

/// One line of the time-against-depth figure.
#[derive(Clone, Debug, serde::Serialize)]
pub struct DepthSeries {
    /// The algorithm, whose look the line takes.
    pub algorithm: String,
    /// The line's label (algorithm and threads).
    pub label: String,
    /// (depth, seconds) points.
    pub points: Vec<(i32, f64)>,
}

/// Writes `time_vs_depth.svg` into `dir`: seconds (log scale) against depth.
///
/// # Errors
/// A message if the file cannot be written.
pub fn time_vs_depth(dir: &Path, title: &str, x_desc: &str, series: &[DepthSeries]) -> PlotResult {
    register_font();
    let path = dir.join("time_vs_depth.svg");
    let area = SVGBackend::new(&path, SIZE).into_drawing_area();
    area.fill(&WHITE).map_err(err)?;
    let (chart_area, legend_area) = area.split_horizontally(CHART_WIDTH);
    let xs = series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let (min_d, max_d) = xs.fold((i32::MAX, i32::MIN), |(lo, hi), d| (lo.min(d), hi.max(d)));
    let (min_d, max_d) = if min_d > max_d {
        (0, 1)
    } else {
        (min_d, max_d.max(min_d + 1))
    };
    let ys = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1.max(1e-5)));
    let (min_t, max_t) = ys.fold((f64::MAX, f64::MIN), |(lo, hi), t| (lo.min(t), hi.max(t)));
    let (min_t, max_t) = if min_t > max_t {
        (1e-3, 1.0)
    } else {
        (min_t / 1.5, max_t * 1.5)
    };
    let mut chart = ChartBuilder::on(&chart_area)
        .caption(title, ("sans-serif", 22))
        .margin(20)
        .x_label_area_size(45)
        .y_label_area_size(65)
        .build_cartesian_2d(min_d..max_d, (min_t..max_t).log_scale())
        .map_err(err)?;
    chart
        .configure_mesh()
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 16))
        .x_desc(x_desc)
        .y_desc("Time (s, log scale)")
        .draw()
        .map_err(err)?;
    for s in series {
        let look = look(&s.algorithm);
        let points: Vec<(i32, f64)> = s.points.iter().map(|&(d, t)| (d, t.max(1e-5))).collect();
        chart
            .draw_series(LineSeries::new(points.clone(), look.color.stroke_width(2)))
            .map_err(err)?;
        chart
            .draw_series(points.into_iter().map(|p| marker(p, look)))
            .map_err(err)?;
    }
    let labels: Vec<(String, String)> = series
        .iter()
        .map(|s| (s.algorithm.clone(), s.label.clone()))
        .collect();
    legend(&legend_area, &labels, false, false)?;
    area.present().map_err(err)
}

/// Draws the legend into `area`, its own column beside the chart: each
/// entry a line and marker in an algorithm's look with a label, then the
/// dashed ideal line and the dotted machine ceiling if asked.
fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(String, String)],
    ideal: bool,
    ceiling: bool,
) -> PlotResult {
    let font = ("sans-serif", 15).into_font();
    let mut y = 60;
    for (algorithm, label) in entries {
        let look = look(algorithm);
        let width = if algorithm == "serial" { 1 } else { 2 };
        area.draw(&PathElement::new(
            vec![(8, y), (40, y)],
            look.color.stroke_width(width),
        ))
        .map_err(err)?;
        area.draw(&marker((24, y), look)).map_err(err)?;
        area.draw(&Text::new(label.clone(), (48, y - 8), font.clone()))
            .map_err(err)?;
        y += 24;
    }
    if ideal {
        for dash in [(8, 18), (30, 40)] {
            area.draw(&PathElement::new(
                vec![(dash.0, y), (dash.1, y)],
                BLACK.stroke_width(1),
            ))
            .map_err(err)?;
        }
        area.draw(&Text::new("ideal", (48, y - 8), font.clone()))
            .map_err(err)?;
        y += 24;
    }
    if ceiling {
        for dash in [(8, 14), (20, 26), (32, 38)] {
            area.draw(&PathElement::new(
                vec![(dash.0, y), (dash.1, y)],
                CEILING.stroke_width(2),
            ))
            .map_err(err)?;
        }
        area.draw(&Circle::new((24, y), 3, CEILING.filled()))
            .map_err(err)?;
        area.draw(&Text::new("machine ceiling", (48, y - 8), font))
            .map_err(err)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every algorithm, and pv-split at two latencies and over a cluster,
    /// is drawn its own way.
    #[test]
    fn every_curve_has_a_look_of_its_own() {
        let mut labels: Vec<String> = Algorithm::ALL
            .iter()
            .map(|a| a.name().to_string())
            .collect();
        labels.extend(["pv-split+50us", "pv-split+1ms", "pv-split/mpi"].map(String::from));
        let looks: Vec<(RGBColor, Shape, bool)> = labels
            .iter()
            .map(|l| look(l))
            .map(|l| (l.color, l.shape, l.filled))
            .collect();
        for (i, a) in looks.iter().enumerate() {
            for (j, b) in looks.iter().enumerate().skip(i + 1) {
                assert!(a != b, "{} and {} look alike", labels[i], labels[j]);
            }
        }
    }
}
