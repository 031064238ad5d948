//! `splitpoint train othello`: the pattern evaluation's weights, trained
//! from the engine's own games, resumable from the files it writes.

use std::fs;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::{Deserialize, Serialize};
use splitpoint_games::othello::train::{
    Fit, FitReport, Labeller, Sample, SelfPlay, fit_stage, self_play_game,
};
use splitpoint_games::othello::{Othello, STAGES, Weights, stage_empties, stage_of};

use crate::error::{Error, Result};
use crate::stdout;

/// Train Othello's pattern evaluation, or chess's weights, from the engine's own games
///
/// Chess (`train chess`): self-play games at --nodes a move from the match
/// book's openings and a few random moves (games.txt), then the
/// evaluation's weights fitted to the searches' scores (or their TD(λ)
/// returns by --td-lambda, with the games' results blended in by
/// --result-share) by Texel's method, the
/// whole batch at each of --iterations steps, one game in ten held out
/// (weights.rs, report.json). Copy weights.rs into
/// crates/splitpoint-games/src/chess/ and rebuild to use it. With --net,
/// the same games fit the small network that corrects the linear
/// evaluation instead (net_weights.rs, for the same folder).
///
/// Othello:
/// Three steps, each resumable from its files in --out: positions from
/// randomized self-play (positions.bin); their values (labels-SS.bin per
/// stage SS, 0 the opening to 14 the last moves): exact solves when at most
/// --exact-empties are empty, otherwise searches --depth plies deep whose
/// leaves the weights already fitted judge, so the stages are labelled and
/// fitted from the end of the game backwards; and per stage a least-squares
/// fit by conjugate gradients with ridge regularization towards the next
/// stage's weights (weights.bin, fit-SS.json). One position in ten is held
/// out: its mean absolute error in discs per stage is printed and written to
/// report.json, and drawn in error-by-stage.svg.
///
/// Run it again with the same flags to resume where it stopped. The weights
/// are read by `--eval DIR/weights.bin` (nboard, search, selfplay).
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  splitpoint train othello --quick --out /tmp/quick         a few minutes
  splitpoint train chess --quick --out /tmp/chess           a minute
  splitpoint train chess --games 4000 --threads 2 --out train/chess
  splitpoint train chess --games 4000 --net --out train/chess   the network, same games
  nice -n 10 splitpoint train othello --out train/full      the full run (hours)")]
pub struct TrainArgs {
    /// The game whose evaluation to train (othello)
    pub game: String,

    /// The directory of the run's files (created; resumed when it exists)
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,

    /// A small run: fewer games, exact solves up to 10 empties, 2-ply searches
    #[arg(long)]
    pub quick: bool,

    /// Self-play games [default: 20000, --quick 600]
    #[arg(long, value_name = "N")]
    pub games: Option<u64>,

    /// Positions with at most this many empties are solved exactly [default:
    /// 16, --quick 10]
    #[arg(long, value_name = "E")]
    pub exact_empties: Option<u32>,

    /// Depth of the searches that label positions further from the end
    /// [default: 4, --quick 2]
    #[arg(long, value_name = "D")]
    pub depth: Option<i32>,

    /// Ridge penalty per weight [default: othello 2.0 against squared errors
    /// in discs; chess 1e-7 per squared centipawn from the hand-set weights]
    #[arg(long, value_name = "L")]
    pub lambda: Option<f64>,

    /// Chess: nodes each self-play move searches, give or take a quarter
    /// [default: 3000, --quick 500]
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,

    /// Chess: the share of a position's target that is its game's result;
    /// the rest is the result its self-play search's score predicts. A
    /// game's positions share one result, so with a share above 0 the fit
    /// learns the games more than the positions (the held-out error rises)
    #[arg(long, value_name = "S", default_value_t = 0.0)]
    pub result_share: f64,

    /// Chess: λ of the TD(λ) target, from 0 to 1. A position aims at the
    /// result its own search's score predicts with weight 1 − λ (all of it
    /// at 0), at what the game's later searches predicted with λ(1 − λ) for
    /// the next kept position, λ²(1 − λ) for the one after, …, and at the
    /// game's result with what is left at its end
    #[arg(long, value_name = "L", default_value_t = 0.0)]
    pub td_lambda: f64,

    /// Chess: fit the correcting network (net_weights.rs, for
    /// crates/splitpoint-games/src/chess/) on top of the linear weights as
    /// they are, instead of the linear weights; --iterations counts passes
    /// over the positions and --lambda is the ridge pull on the network's
    /// hidden weights [default: 1e-5]
    #[arg(long)]
    pub net: bool,

    /// Conjugate-gradient iterations per stage [default: 60, --quick 30];
    /// chess: gradient steps [default: 1500, --quick 100], with --net passes
    /// over the positions [default: 8, --quick 2]
    #[arg(long, value_name = "N")]
    pub iterations: Option<usize>,

    /// Threads labelling positions
    #[arg(long, short = 't', value_name = "N", default_value_t = 1)]
    pub threads: usize,

    /// The self-play seed
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
}

/// A run's settings, kept in `config.json`: a resumed run must match them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Config {
    games: u64,
    exact_empties: u32,
    depth: i32,
    lambda: f64,
    iterations: usize,
    seed: u64,
}

/// One stage's line of the report.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct StageReport {
    stage: usize,
    empties: (u32, u32),
    labels: String,
    train: usize,
    test: usize,
    train_mae_before: f64,
    test_mae_before: f64,
    train_mae: f64,
    test_mae: f64,
    label_nodes: u64,
    label_seconds: f64,
}

impl Config {
    fn of(args: &TrainArgs) -> Result<Config> {
        fn pick<T>(quick: bool, value: Option<T>, full: T, small: T) -> T {
            value.unwrap_or(if quick { small } else { full })
        }
        let q = args.quick;
        let config = Config {
            games: pick(q, args.games, 20_000, 600),
            exact_empties: pick(q, args.exact_empties, 16, 10),
            depth: pick(q, args.depth, 4, 2),
            lambda: args.lambda.unwrap_or(2.0),
            iterations: pick(q, args.iterations, 60, 30),
            seed: args.seed,
        };
        if config.games == 0 {
            return Err(Error::input("--games: at least one game"));
        }
        if config.exact_empties > 24 {
            return Err(Error::input(
                "--exact-empties: at most 24 (each solve would take minutes)",
            ));
        }
        if !(1..=12).contains(&config.depth) {
            return Err(Error::input("--depth: from 1 to 12 plies"));
        }
        if !(config.lambda.is_finite() && config.lambda > 0.0) {
            return Err(Error::input("--lambda: a positive number"));
        }
        if config.iterations == 0 {
            return Err(Error::input("--iterations: at least one"));
        }
        Ok(config)
    }
}

pub(crate) fn io_error(path: &Path, e: std::io::Error) -> Error {
    Error::input(format!("{}: {e}", path.display()))
}

pub(crate) fn bar(len: u64, what: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    let template = format!("{what} {{bar:40}} {{pos}}/{{len}} {{elapsed}} (eta {{eta}})");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar
}

/// Writes `bytes` to `path` by way of a temporary file, so that a run
/// stopped midway leaves the old file or the new one, never half of one.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, bytes).map_err(|e| io_error(&tmp, e))?;
    fs::rename(&tmp, path).map_err(|e| io_error(path, e))
}

/// Runs `splitpoint train`.
pub fn run(args: &TrainArgs) -> Result<ExitCode> {
    if args.game == "chess" {
        return crate::train_chess::run(args);
    }
    if args.game != "othello" {
        return Err(Error::input(format!(
            "train: '{}' has no learned evaluation (othello and chess have)",
            args.game
        )));
    }
    if args.nodes.is_some() {
        return Err(Error::input(
            "--nodes: chess only (othello labels by --depth)",
        ));
    }
    if args.result_share != 0.0 || args.td_lambda != 0.0 || args.net {
        return Err(Error::input(
            "--result-share, --td-lambda and --net: chess only (othello's labels are searches' \
             values, fitted by patterns)",
        ));
    }
    if !(1..=256).contains(&args.threads) {
        return Err(Error::input("--threads: from 1 to 256"));
    }
    let config = Config::of(args)?;
    let dir = &args.out;
    fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
    let config_path = dir.join("config.json");
    let text = serde_json::to_string_pretty(&config).expect("the config serializes");
    if config_path.exists() {
        let old = fs::read_to_string(&config_path).map_err(|e| io_error(&config_path, e))?;
        let old: Config = serde_json::from_str(&old)
            .map_err(|e| Error::input(format!("{}: {e}", config_path.display())))?;
        if old != config {
            return Err(Error::input(format!(
                "{} holds a run with other settings ({old:?}); give the same flags to resume it, \
                 or another --out",
                dir.display()
            )));
        }
    } else {
        write_atomic(&config_path, text.as_bytes())?;
    }
    let mut out = stdout();
    writeln!(
        out,
        "training othello: {} games (seed {}), exact solves up to {} empties, {}-ply searches \
         above, lambda {}, {} iterations, into {}",
        config.games,
        config.seed,
        config.exact_empties,
        config.depth,
        config.lambda,
        config.iterations,
        dir.display()
    )?;

    let positions = generate(dir, &config)?;
    writeln!(
        out,
        "{} positions from {} games",
        positions.len(),
        config.games
    )?;

    let weights_path = dir.join("weights.bin");
    let mut weights = if weights_path.exists() {
        Weights::load(&weights_path).map_err(Error::input)?
    } else {
        Weights::zero()
    };
    let mut reports = Vec::new();
    for stage in (0..STAGES).rev() {
        let fit_path = dir.join(format!("fit-{stage:02}.json"));
        if fit_path.exists() {
            let text = fs::read_to_string(&fit_path).map_err(|e| io_error(&fit_path, e))?;
            let report: StageReport = serde_json::from_str(&text)
                .map_err(|e| Error::input(format!("{}: {e}", fit_path.display())))?;
            print_stage(&mut out, &report)?;
            reports.push(report);
            continue;
        }
        // The stage starts from the one nearer the end.
        if stage + 1 < STAGES {
            let next = weights.stage(stage + 1).to_vec();
            weights.stage_mut(stage).copy_from_slice(&next);
        }
        let mut stage_positions: Vec<Othello> = positions
            .iter()
            .filter(|p| stage_of(p.empty_count()) == stage)
            .copied()
            .collect();
        dedup(&mut stage_positions);
        let started = Instant::now();
        let (samples, label_nodes) = label(
            dir,
            stage,
            &stage_positions,
            &config,
            &weights,
            args.threads,
        )?;
        let label_seconds = started.elapsed().as_secs_f64();
        let progress = bar(
            config.iterations as u64,
            &format!("fitting stage {stage:2}"),
        );
        let fit = Fit {
            lambda: config.lambda,
            iterations: config.iterations,
        };
        let r: FitReport = fit_stage(weights.stage_mut(stage), &samples, fit, |i| {
            progress.set_position(i as u64)
        });
        progress.finish_and_clear();
        let (low, high) = stage_empties(stage);
        let report = StageReport {
            stage,
            empties: (low, high),
            labels: if high <= config.exact_empties {
                "exact".into()
            } else if low <= config.exact_empties {
                format!(
                    "exact up to {} empties, then searched",
                    config.exact_empties
                )
            } else {
                format!("{}-ply search", config.depth)
            },
            train: r.train,
            test: r.test,
            train_mae_before: r.train_before,
            test_mae_before: r.test_before,
            train_mae: r.train_mae,
            test_mae: r.test_mae,
            label_nodes,
            label_seconds,
        };
        write_atomic(&weights_path, &weights.to_bytes())?;
        let text = serde_json::to_string_pretty(&report).expect("the report serializes");
        write_atomic(&fit_path, text.as_bytes())?;
        print_stage(&mut out, &report)?;
        reports.push(report);
    }
    reports.sort_by_key(|r| r.stage);
    let text = serde_json::to_string_pretty(&serde_json::json!({
        "config": config,
        "stages": reports,
    }))
    .expect("the report serializes");
    write_atomic(&dir.join("report.json"), text.as_bytes())?;
    write_atomic(&dir.join("error-by-stage.svg"), plot(&reports).as_bytes())?;
    writeln!(
        out,
        "wrote {}, report.json and error-by-stage.svg",
        weights_path.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

fn print_stage(out: &mut impl Write, r: &StageReport) -> Result<()> {
    writeln!(
        out,
        "stage {:2} ({:2}-{:2} empties, {}): {} fitted, {} held out; mean abs error {:.2} discs \
         held out ({:.2} fitted; {:.2} before the fit)",
        r.stage,
        r.empties.0,
        r.empties.1,
        r.labels,
        r.train,
        r.test,
        r.test_mae,
        r.train_mae,
        r.test_mae_before
    )?;
    Ok(())
}

/// Keeps the first of each position.
fn dedup(positions: &mut Vec<Othello>) {
    let mut seen = std::collections::HashSet::new();
    positions.retain(|p| seen.insert((p.player(), p.opponent())));
}

/// Step 1: the self-play positions, read from `positions.bin` and extended
/// to `config.games` games. The file holds one record per game (a count
/// byte, then each position's two bitboards); a record cut short by a stop
/// is dropped and played again.
fn generate(dir: &Path, config: &Config) -> Result<Vec<Othello>> {
    let path = dir.join("positions.bin");
    let bytes = if path.exists() {
        fs::read(&path).map_err(|e| io_error(&path, e))?
    } else {
        Vec::new()
    };
    let mut positions = Vec::new();
    let mut games = 0u64;
    let mut at = 0usize;
    while at < bytes.len() && games < config.games {
        let n = bytes[at] as usize;
        let end = at + 1 + 16 * n;
        if end > bytes.len() {
            break;
        }
        for chunk in bytes[at + 1..end].chunks_exact(16) {
            let p = u64::from_le_bytes(chunk[..8].try_into().expect("8 bytes"));
            let o = u64::from_le_bytes(chunk[8..].try_into().expect("8 bytes"));
            positions.push(Othello::from_bitboards(p, o, true));
        }
        games += 1;
        at = end;
    }
    if games == config.games {
        return Ok(positions);
    }
    // Drop a record cut short, then append the missing games.
    let mut file = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(|e| io_error(&path, e))?;
    file.set_len(at as u64).map_err(|e| io_error(&path, e))?;
    let progress = bar(config.games, "self-play");
    progress.set_position(games);
    let mut buffer = Vec::new();
    for game in games..config.games {
        let played = self_play_game(config.seed, game, SelfPlay::default());
        buffer.push(played.len() as u8);
        for pos in &played {
            buffer.extend_from_slice(&pos.player().to_le_bytes());
            buffer.extend_from_slice(&pos.opponent().to_le_bytes());
        }
        positions.extend(played);
        if buffer.len() > 1 << 20 || game + 1 == config.games {
            file.write_all(&buffer).map_err(|e| io_error(&path, e))?;
            buffer.clear();
        }
        progress.inc(1);
    }
    progress.finish_and_clear();
    Ok(positions)
}

/// Bytes per label record: the two bitboards and the value (f32).
const LABEL_BYTES: usize = 20;

/// Step 2 for one stage: every position's value, read from `labels-SS.bin`
/// and extended to all of them; also the nodes the labels took.
fn label(
    dir: &Path,
    stage: usize,
    positions: &[Othello],
    config: &Config,
    weights: &Weights,
    threads: usize,
) -> Result<(Vec<Sample>, u64)> {
    let path = dir.join(format!("labels-{stage:02}.bin"));
    let bytes = if path.exists() {
        fs::read(&path).map_err(|e| io_error(&path, e))?
    } else {
        Vec::new()
    };
    let mut samples: Vec<Sample> = bytes
        .chunks_exact(LABEL_BYTES)
        .take(positions.len())
        .map(|c| Sample {
            player: u64::from_le_bytes(c[..8].try_into().expect("8 bytes")),
            opponent: u64::from_le_bytes(c[8..16].try_into().expect("8 bytes")),
            value: f32::from_le_bytes(c[16..].try_into().expect("4 bytes")),
        })
        .collect();
    for (s, p) in samples.iter().zip(positions) {
        if (s.player, s.opponent) != (p.player(), p.opponent()) {
            return Err(Error::input(format!(
                "{}: its positions are not this run's (delete it to label again)",
                path.display()
            )));
        }
    }
    if samples.len() == positions.len() {
        return Ok((samples, 0));
    }
    let mut file = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(|e| io_error(&path, e))?;
    file.set_len((samples.len() * LABEL_BYTES) as u64)
        .map_err(|e| io_error(&path, e))?;
    let (low, high) = stage_empties(stage);
    let progress = bar(
        positions.len() as u64,
        &format!("labelling stage {stage:2} ({low:2}-{high:2} empties)"),
    );
    progress.set_position(samples.len() as u64);
    let weights = Arc::new(weights.clone());
    let mut labellers: Vec<Labeller> = (0..threads)
        .map(|_| Labeller::new(config.exact_empties, config.depth, weights.clone()))
        .collect();
    let mut nodes = 0u64;
    let chunk = 64 * threads;
    for batch in positions[samples.len()..].chunks(chunk) {
        let per = batch.len().div_ceil(threads);
        let results: Vec<Vec<(f32, u64)>> = std::thread::scope(|scope| {
            let handles: Vec<_> = labellers
                .iter_mut()
                .zip(batch.chunks(per))
                .map(|(labeller, part)| {
                    let progress = progress.clone();
                    scope.spawn(move || {
                        part.iter()
                            .map(|p| {
                                let r = labeller.label(p);
                                progress.inc(1);
                                r
                            })
                            .collect()
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a labelling thread panicked"))
                .collect()
        });
        let mut buffer = Vec::with_capacity(batch.len() * LABEL_BYTES);
        for (pos, &(value, n)) in batch.iter().zip(results.iter().flatten()) {
            nodes += n;
            buffer.extend_from_slice(&pos.player().to_le_bytes());
            buffer.extend_from_slice(&pos.opponent().to_le_bytes());
            buffer.extend_from_slice(&value.to_le_bytes());
            samples.push(Sample {
                player: pos.player(),
                opponent: pos.opponent(),
                value,
            });
        }
        file.write_all(&buffer).map_err(|e| io_error(&path, e))?;
    }
    progress.finish_and_clear();
    Ok((samples, nodes))
}

/// The held-out and fitted errors by stage, as an SVG line chart.
fn plot(reports: &[StageReport]) -> String {
    let (w, h, left, right, top, bottom) = (720.0, 420.0, 60.0, 20.0, 40.0, 50.0);
    let max = reports
        .iter()
        .flat_map(|r| [r.test_mae, r.train_mae, r.test_mae_before])
        .fold(1.0f64, f64::max)
        .ceil();
    let x = |stage: usize| left + (w - left - right) * stage as f64 / (STAGES - 1) as f64;
    let y = |v: f64| top + (h - top - bottom) * (1.0 - v / max);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"{w}\" height=\"{h}\" \
         fill=\"white\"/>\n<text x=\"{}\" y=\"22\" font-size=\"16\" text-anchor=\"middle\">\
         Othello pattern evaluation: mean absolute error by stage</text>\n",
        w / 2.0
    );
    for i in 0..=max as usize {
        let v = i as f64;
        svg += &format!(
            "<line x1=\"{left}\" x2=\"{}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{i}</text>\n",
            w - right,
            left - 6.0,
            y(v) + 4.0,
            y = y(v)
        );
    }
    for stage in 0..STAGES {
        let (low, high) = stage_empties(stage);
        svg += &format!(
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
            x(stage),
            h - bottom + 16.0,
            if stage % 2 == 0 {
                format!("{low}-{high}")
            } else {
                String::new()
            }
        );
    }
    svg += &format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">empty squares (stage)</text>\n\
         <text x=\"16\" y=\"{}\" transform=\"rotate(-90 16 {})\" text-anchor=\"middle\">\
         discs</text>\n",
        (left + w - right) / 2.0,
        h - 10.0,
        h / 2.0,
        h / 2.0
    );
    type Series = (&'static str, &'static str, fn(&StageReport) -> f64);
    let series: [Series; 3] = [
        ("held out", "#1f77b4", |r| r.test_mae),
        ("fitted", "#2ca02c", |r| r.train_mae),
        ("held out, before the fit", "#aaaaaa", |r| r.test_mae_before),
    ];
    for (i, (name, color, value)) in series.iter().enumerate() {
        let points: Vec<String> = reports
            .iter()
            .map(|r| format!("{:.1},{:.1}", x(r.stage), y(value(r))))
            .collect();
        svg += &format!(
            "<polyline fill=\"none\" stroke=\"{color}\" stroke-width=\"2\" points=\"{}\"/>\n",
            points.join(" ")
        );
        let ly = top + 10.0 + 18.0 * i as f64;
        svg += &format!(
            "<line x1=\"{}\" x2=\"{}\" y1=\"{ly}\" y2=\"{ly}\" stroke=\"{color}\" \
             stroke-width=\"2\"/><text x=\"{}\" y=\"{}\">{name}</text>\n",
            w - right - 200.0,
            w - right - 170.0,
            w - right - 164.0,
            ly + 4.0
        );
    }
    svg + "</svg>\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plot_has_a_line_per_series() {
        let reports: Vec<StageReport> = (0..STAGES)
            .map(|stage| StageReport {
                stage,
                empties: stage_empties(stage),
                labels: "exact".into(),
                train: 10,
                test: 1,
                train_mae_before: 5.0,
                test_mae_before: 5.0,
                train_mae: 1.0,
                test_mae: 2.0 + stage as f64 / 10.0,
                label_nodes: 0,
                label_seconds: 0.0,
            })
            .collect();
        let svg = plot(&reports);
        assert_eq!(svg.matches("<polyline").count(), 3);
        assert!(svg.ends_with("</svg>\n"));
    }
}
