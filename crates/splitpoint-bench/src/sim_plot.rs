//! The simulation's figure: speedup and efficiency against virtual
//! processors on log axes, with the published curves of the systems the
//! project reproduces where the game matches.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use splitpoint_games::registry::GameName;

use crate::plot::{CHART_WIDTH, PlotResult, SIZE, algorithms, err, look, marker, register_font};
use crate::report::Row;

/// A published speedup curve: who, on what, and (processors, speedup).
pub struct Anchor {
    /// The system, the machine and the source, as the legend names it.
    pub label: &'static str,
    /// Its points.
    pub points: &'static [(f64, f64)],
}

/// The published curves for `game`: chess's classic figures (Hyatt's DTS
/// in Cray Blitz on a Cray C916; Zugzwang's YBW on 256 transputers;
/// simplified ABDADA on 2–32 cores); no game of ours has others.
pub fn anchors(game: GameName) -> &'static [Anchor] {
    const CHESS: &[Anchor] = &[
        Anchor {
            label: "DTS, Cray Blitz (Hyatt 1994)",
            points: &[(1.0, 1.0), (2.0, 2.0), (4.0, 3.7), (8.0, 6.6), (16.0, 11.1)],
        },
        Anchor {
            label: "YBW, Zugzwang (Feldmann 1993)",
            points: &[(1.0, 1.0), (256.0, 126.0)],
        },
        Anchor {
            label: "simplified ABDADA",
            points: &[
                (1.0, 1.0),
                (2.0, 1.92),
                (4.0, 3.59),
                (8.0, 6.44),
                (16.0, 10.88),
                (32.0, 16.75),
            ],
        },
    ];
    match game {
        GameName::Chess => CHESS,
        _ => &[],
    }
}

const ANCHOR: RGBColor = RGBColor(110, 110, 110);

/// Writes `sim_speedup.svg/.png` (speedup, log-log, the ideal dashed) and
/// `sim_efficiency.svg/.png` (speedup / processors, log processors) into
/// `dir`.
///
/// # Errors
/// A message if a file cannot be written.
pub fn write(dir: &Path, suite: &str, game: GameName, rows: &[Row]) -> PlotResult {
    register_font();
    for efficiency in [false, true] {
        let file = if efficiency {
            "sim_efficiency"
        } else {
            "sim_speedup"
        };
        let svg = dir.join(format!("{file}.svg"));
        draw(
            &SVGBackend::new(&svg, SIZE).into_drawing_area(),
            suite,
            game,
            rows,
            efficiency,
        )?;
        let png = dir.join(format!("{file}.png"));
        draw(
            &BitMapBackend::new(&png, SIZE).into_drawing_area(),
            suite,
            game,
            rows,
            efficiency,
        )?;
    }
    Ok(())
}

fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    suite: &str,
    game: GameName,
    rows: &[Row],
    efficiency: bool,
) -> PlotResult {
    area.fill(&WHITE).map_err(err)?;
    let (chart_area, legend_area) = area.split_horizontally(CHART_WIDTH);
    let value = |p: f64, s: f64| if efficiency { s / p } else { s };
    let max_p = rows.iter().map(|r| r.threads).max().unwrap_or(1).max(2) as f64;
    let anchors = anchors(game);
    let top = rows
        .iter()
        .map(|r| value(r.threads as f64, r.speedup))
        .chain(
            anchors
                .iter()
                .flat_map(|a| a.points.iter().map(|&(p, s)| value(p, s))),
        )
        .fold(if efficiency { 1.0 } else { max_p }, f64::max);
    let x = (1.0f64..max_p * 1.3).log_scale();
    let caption = format!(
        "{suite}: simulated {}",
        if efficiency { "efficiency" } else { "speedup" }
    );
    let mut builder = ChartBuilder::on(&chart_area);
    builder
        .caption(caption, ("sans-serif", 22))
        .margin(20)
        .x_label_area_size(45)
        .y_label_area_size(60);
    let x_desc = "Virtual processors (log scale)";
    let labels = (max_p.log2().ceil() as usize + 1).min(12);
    if efficiency {
        let mut chart = builder
            .build_cartesian_2d(x, 0.0..top * 1.05)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc("Efficiency (speedup / processors)")
            .x_labels(labels)
            .x_label_formatter(&|x| format!("{x:.0}"))
            .draw()
            .map_err(err)?;
        curves(&mut chart, rows, anchors, &value)
    } else {
        let mut chart = builder
            .build_cartesian_2d(x, (0.8f64..top * 1.3).log_scale())
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc("Speedup over serial (log scale)")
            .x_labels(labels)
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .draw()
            .map_err(err)?;
        chart
            .draw_series(DashedLineSeries::new(
                vec![(1.0, 1.0), (max_p, max_p)],
                8,
                6,
                BLACK.stroke_width(1),
            ))
            .map_err(err)?;
        curves(&mut chart, rows, anchors, &value)
    }?;
    legend(&legend_area, rows, anchors)?;
    area.present().map_err(err)
}

fn curves<DB: DrawingBackend, X, Y>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    rows: &[Row],
    anchors: &[Anchor],
    value: &dyn Fn(f64, f64) -> f64,
) -> PlotResult
where
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    for a in anchors {
        let points: Vec<(f64, f64)> = a.points.iter().map(|&(p, s)| (p, value(p, s))).collect();
        chart
            .draw_series(DashedLineSeries::new(
                points.clone(),
                2,
                4,
                ANCHOR.stroke_width(2),
            ))
            .map_err(err)?;
        chart
            .draw_series(
                points
                    .into_iter()
                    .skip(1)
                    .map(|p| Cross::new(p, 5, ANCHOR.stroke_width(2))),
            )
            .map_err(err)?;
    }
    for name in algorithms(rows).iter().filter(|n| *n != "serial") {
        let look = look(name);
        let points: Vec<(f64, f64)> = rows
            .iter()
            .filter(|r| &r.algorithm == name)
            .map(|r| (r.threads as f64, value(r.threads as f64, r.speedup)))
            .collect();
        chart
            .draw_series(LineSeries::new(points.clone(), look.color.stroke_width(2)))
            .map_err(err)?;
        chart
            .draw_series(points.into_iter().map(|p| marker(p, look)))
            .map_err(err)?;
    }
    Ok(())
}

fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    rows: &[Row],
    anchors: &[Anchor],
) -> PlotResult {
    let font = ("sans-serif", 13).into_font();
    let mut y = 60;
    for name in algorithms(rows).iter().filter(|n| *n != "serial") {
        let look = look(name);
        area.draw(&PathElement::new(
            vec![(8, y), (40, y)],
            look.color.stroke_width(2),
        ))
        .map_err(err)?;
        area.draw(&marker((24, y), look)).map_err(err)?;
        area.draw(&Text::new(name.clone(), (48, y - 7), font.clone()))
            .map_err(err)?;
        y += 22;
    }
    for a in anchors {
        area.draw(&Cross::new((24, y), 5, ANCHOR.stroke_width(2)))
            .map_err(err)?;
        // The legend column is narrow: the label on two lines at its comma.
        let (first, second) = a.label.split_once(", ").unwrap_or((a.label, ""));
        area.draw(&Text::new(first.to_string(), (48, y - 7), font.clone()))
            .map_err(err)?;
        if !second.is_empty() {
            y += 16;
            area.draw(&Text::new(second.to_string(), (48, y - 7), font.clone()))
                .map_err(err)?;
        }
        y += 22;
    }
    Ok(())
}
