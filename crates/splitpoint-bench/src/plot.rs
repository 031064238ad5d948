//! The figures: speedup against CPUs, and time against depth.
//!
//! Text is drawn with a font shipped in the crate (DejaVu Sans, under its own
//! free licence in `assets/`), so the plots render the same on a fresh machine
//! with no system fonts.

use std::path::Path;
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::report::Row;

const FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");
const SIZE: (u32, u32) = (900, 600);

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The bundled font is known good; a failure would only lose text.
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, FONT);
    });
}

type PlotResult = Result<(), String>;

fn err(e: impl std::fmt::Display) -> String {
    format!("plot: {e}")
}

/// Writes `speedup.svg` and `speedup.png` into `dir`.
///
/// # Errors
/// A message if a file cannot be written.
pub fn speedup(dir: &Path, title: &str, rows: &[Row], cores: usize) -> PlotResult {
    register_font();
    let (svg_path, png_path) = (dir.join("speedup.svg"), dir.join("speedup.png"));
    let svg = SVGBackend::new(&svg_path, SIZE).into_drawing_area();
    draw_speedup(&svg, title, rows, cores)?;
    let png = BitMapBackend::new(&png_path, SIZE).into_drawing_area();
    draw_speedup(&png, title, rows, cores)
}

fn palette(i: usize) -> RGBColor {
    const COLORS: [RGBColor; 10] = [
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
    COLORS[i % COLORS.len()]
}

fn algorithms(rows: &[Row]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for r in rows {
        if !names.contains(&r.algorithm) {
            names.push(r.algorithm.clone());
        }
    }
    names
}

fn draw_speedup<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    rows: &[Row],
    cores: usize,
) -> PlotResult {
    area.fill(&WHITE).map_err(err)?;
    let max_t = rows.iter().map(|r| r.threads).max().unwrap_or(1) as f64;
    let max_s = rows.iter().map(|r| r.speedup).fold(max_t, f64::max) * 1.05;
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 22))
        .margin(20)
        .x_label_area_size(45)
        .y_label_area_size(55)
        .build_cartesian_2d(0.5f64..max_t + 0.5, 0f64..max_s)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("CPUs (threads)")
        .y_desc("Speedup over 1 thread")
        .draw()
        .map_err(err)?;
    chart
        .draw_series(DashedLineSeries::new(
            vec![(1.0, 1.0), (max_t, max_t)],
            8,
            6,
            BLACK.stroke_width(1),
        ))
        .map_err(err)?
        .label("ideal")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK));
    if (cores as f64) < max_t {
        let x = cores as f64 + 0.5;
        chart
            .draw_series(DashedLineSeries::new(
                vec![(x, 0.0), (x, max_s)],
                3,
                5,
                RED.mix(0.6).stroke_width(1),
            ))
            .map_err(err)?;
        chart
            .draw_series(std::iter::once(Text::new(
                format!("oversubscribed (> {cores} cores) →"),
                (x + 0.05, max_s * 0.97),
                ("sans-serif", 14).into_font().color(&RED),
            )))
            .map_err(err)?;
    }
    for (i, name) in algorithms(rows).iter().enumerate() {
        let color = palette(i);
        let points: Vec<(f64, f64)> = rows
            .iter()
            .filter(|r| &r.algorithm == name)
            .map(|r| (r.threads as f64, r.speedup))
            .collect();
        chart
            .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
            .map_err(err)?
            .label(name.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
        chart
            .draw_series(
                points
                    .into_iter()
                    .map(|p| Circle::new(p, 4, color.filled())),
            )
            .map_err(err)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 15))
        .draw()
        .map_err(err)?;
    area.present().map_err(err)
}

/// One line of the time-against-depth figure.
#[derive(Clone, Debug, serde::Serialize)]
pub struct DepthSeries {
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
    let mut chart = ChartBuilder::on(&area)
        .caption(title, ("sans-serif", 22))
        .margin(20)
        .x_label_area_size(45)
        .y_label_area_size(65)
        .build_cartesian_2d(min_d..max_d, (min_t..max_t).log_scale())
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc("Time (s, log scale)")
        .draw()
        .map_err(err)?;
    for (i, s) in series.iter().enumerate() {
        let color = palette(i);
        let points: Vec<(i32, f64)> = s.points.iter().map(|&(d, t)| (d, t.max(1e-5))).collect();
        chart
            .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
            .map_err(err)?
            .label(s.label.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
        chart
            .draw_series(
                points
                    .into_iter()
                    .map(|p| Circle::new(p, 4, color.filled())),
            )
            .map_err(err)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 15))
        .draw()
        .map_err(err)?;
    area.present().map_err(err)
}
