//! `splitpoint train chess`: the evaluation's weights fitted to the engine's
//! own games (Texel's method), resumable from the files it writes.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::process::ExitCode;
use std::sync::mpsc;

use serde::{Deserialize, Serialize};
use splitpoint::Engine;
use splitpoint_games::chess::net_fit::{NetFitSettings, NetInputs, NetSample, fit_net, net_error};
use splitpoint_games::chess::train::{
    Fit, PlayedGame, Sample, SelfPlay, aim_game, current_weights, mean_error, self_play_game,
    weights_source,
};
use splitpoint_games::chess::{Chess, ChessEval};
use splitpoint_games::rng::Rng;

use crate::error::{Error, Result};
use crate::match_cmd::openings;
use crate::stdout;
use crate::train::{TrainArgs, bar, io_error, write_atomic};

/// How a chess run's games are played, kept in `config.json`: a resumed
/// run must play them the same way. More games may be asked for, and the
/// fit's settings may change from run to run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Config {
    nodes: u64,
    random_plies: u32,
    seed: u64,
}

/// A run's settings.
struct Settings {
    games: u64,
    result_share: f64,
    td_lambda: f64,
    lambda: f64,
    steps: usize,
    /// Fit the network, not the linear weights.
    net: bool,
    config: Config,
}

/// What the fit did, in `report.json`.
#[derive(Serialize)]
struct Report {
    games: u64,
    train_positions: usize,
    test_positions: usize,
    k: f64,
    train_error_before: f64,
    test_error_before: f64,
    train_error: f64,
    test_error: f64,
    results: [u64; 3],
}

/// Every tenth game is held out of the fit, to measure it.
fn held_out(game: u64) -> bool {
    game % 10 == 9
}

impl Settings {
    fn of(args: &TrainArgs) -> Result<Settings> {
        if args.exact_empties.is_some() || args.depth.is_some() {
            return Err(Error::input(
                "--exact-empties and --depth are othello's; chess plays --nodes a move",
            ));
        }
        let q = args.quick;
        let settings = Settings {
            games: args.games.unwrap_or(if q { 40 } else { 3000 }),
            result_share: args.result_share,
            td_lambda: args.td_lambda,
            lambda: args.lambda.unwrap_or(if args.net { 1e-5 } else { 1e-7 }),
            steps: args.iterations.unwrap_or(match (args.net, q) {
                (true, true) => 2,
                (true, false) => 8,
                (false, true) => 100,
                (false, false) => 1500,
            }),
            net: args.net,
            config: Config {
                nodes: args.nodes.unwrap_or(if q { 500 } else { 3000 }),
                random_plies: 2,
                seed: args.seed,
            },
        };
        if settings.games < 10 {
            return Err(Error::input(
                "--games: at least 10 (one in ten is held out)",
            ));
        }
        if !(100..=10_000_000).contains(&settings.config.nodes) {
            return Err(Error::input("--nodes: from 100 to 10,000,000"));
        }
        if !(0.0..=1.0).contains(&settings.result_share) {
            return Err(Error::input("--result-share: from 0 to 1"));
        }
        if !(0.0..=1.0).contains(&settings.td_lambda) {
            return Err(Error::input("--td-lambda: from 0 to 1"));
        }
        if !(settings.lambda.is_finite() && settings.lambda >= 0.0) {
            return Err(Error::input("--lambda: zero or a positive number"));
        }
        if settings.steps == 0 {
            return Err(Error::input("--iterations: at least one"));
        }
        Ok(settings)
    }
}

/// Runs `splitpoint train chess`.
pub fn run(args: &TrainArgs) -> Result<ExitCode> {
    if !(1..=256).contains(&args.threads) {
        return Err(Error::input("--threads: from 1 to 256"));
    }
    let settings = Settings::of(args)?;
    let config = &settings.config;
    let dir = &args.out;
    fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
    let config_path = dir.join("config.json");
    if config_path.exists() {
        let old = fs::read_to_string(&config_path).map_err(|e| io_error(&config_path, e))?;
        let old: Config = serde_json::from_str(&old)
            .map_err(|e| Error::input(format!("{}: {e}", config_path.display())))?;
        if old != *config {
            return Err(Error::input(format!(
                "{} holds a run with other settings ({old:?}); give the same flags to resume it, \
                 or another --out",
                dir.display()
            )));
        }
    } else {
        let text = serde_json::to_string_pretty(config).expect("the config serializes");
        write_atomic(&config_path, text.as_bytes())?;
    }
    let mut out = stdout();
    writeln!(
        out,
        "training chess: {} self-play games at {} nodes a move (seed {}), {} {}, lambda {}, \
         into {}",
        settings.games,
        config.nodes,
        config.seed,
        settings.steps,
        if settings.net {
            "passes of the network's fit"
        } else {
            "steps"
        },
        settings.lambda,
        dir.display()
    )?;
    let games = play(dir, config, settings.games, args.threads)?;
    let mut results = [0u64; 3];
    let (mut train, mut test) = (Vec::new(), Vec::new());
    // With --net, each sample's inputs, in the same order.
    let (mut train_inputs, mut test_inputs) = (Vec::new(), Vec::new());
    // Where each game's samples lie, to aim them game by game.
    let (mut train_games, mut test_games) = (Vec::new(), Vec::new());
    for (&index, game) in &games {
        results[(game.result * 2.0) as usize] += 1;
        let (set, inputs, spans) = if held_out(index) {
            (&mut test, &mut test_inputs, &mut test_games)
        } else {
            (&mut train, &mut train_inputs, &mut train_games)
        };
        let first = set.len();
        for (fen, score) in &game.positions {
            let Ok(board) = fen.parse() else { continue };
            if let Some(sample) = Sample::of_board(&board, game.result, *score) {
                set.push(sample);
                if settings.net {
                    inputs.push(NetInputs::new(&board));
                }
            }
        }
        spans.push(first..set.len());
    }
    writeln!(
        out,
        "{} games (White {} wins, {} draws, {} losses): {} positions to fit, {} held out",
        games.len(),
        results[2],
        results[1],
        results[0],
        train.len(),
        test.len()
    )?;
    if train.is_empty() || test.is_empty() {
        return Err(Error::input(
            "the games kept no positions to fit or to test: play more --games",
        ));
    }

    // The scale that fits the weights to the games' results; then each
    // position's target: the result its search's score predicts at that
    // scale (with --td-lambda, the TD(λ) return of its game's later
    // scores), with --result-share of its game's result blended in.
    let start = current_weights();
    if settings.net {
        // The network is fitted afresh on top of the linear score alone.
        for s in train.iter_mut().chain(&mut test) {
            s.net = 0.0;
        }
    }
    let k = Fit::best_k(&train, &start);
    for (set, spans) in [(&mut train, &train_games), (&mut test, &test_games)] {
        for span in spans {
            aim_game(
                &mut set[span.clone()],
                settings.td_lambda,
                settings.result_share,
                k,
            );
        }
    }
    let (train_before, test_before) = (mean_error(&train, &start, k), mean_error(&test, &start, k));
    writeln!(
        out,
        "k {k:.3}; mean squared error now{}: {train_before:.6} fitted, {test_before:.6} held out",
        if settings.net {
            " (the linear score alone)"
        } else {
            ""
        }
    )?;
    let mut report = Report {
        games: games.len() as u64,
        train_positions: train.len(),
        test_positions: test.len(),
        k,
        train_error_before: train_before,
        test_error_before: test_before,
        train_error: train_before,
        test_error: test_before,
        results,
    };
    if settings.net {
        let train = net_samples(&train, train_inputs, &start);
        let test = net_samples(&test, test_inputs, &start);
        return fit_network(dir, &settings, &mut report, &train, &test);
    }
    let mut fit = Fit::new(start, k, settings.lambda, 1.0);
    let progress = bar(settings.steps as u64, "fitting");
    for _ in 0..settings.steps {
        fit.step(&train, args.threads);
        progress.inc(1);
    }
    progress.finish_and_clear();
    let weights = fit.rounded();
    let rounded: Vec<(f64, f64)> = weights
        .iter()
        .map(|&(mg, eg)| (f64::from(mg), f64::from(eg)))
        .collect();
    let (train_after, test_after) = (
        mean_error(&train, &rounded, k),
        mean_error(&test, &rounded, k),
    );
    writeln!(
        out,
        "after the fit: {train_after:.6} fitted, {test_after:.6} held out"
    )?;
    let source_path = dir.join("weights.rs");
    write_atomic(&source_path, weights_source(&weights).as_bytes())?;
    (report.train_error, report.test_error) = (train_after, test_after);
    let report_path = write_report(dir, &report)?;
    writeln!(
        out,
        "wrote {} (copy it to crates/splitpoint-games/src/chess/weights.rs and rebuild) and {}",
        source_path.display(),
        report_path.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// The samples with their network inputs, for the network's fit: the linear
/// score under `weights` and the aim.
fn net_samples(
    samples: &[Sample],
    inputs: Vec<NetInputs>,
    weights: &[(f64, f64)],
) -> Vec<NetSample> {
    samples
        .iter()
        .zip(inputs)
        .map(|(s, inputs)| NetSample {
            inputs,
            linear: s.linear(weights) as f32,
            aim: s.result,
        })
        .collect()
}

/// Fits the correcting network on top of the linear weights and writes
/// `net_weights.rs` and `report.json`.
fn fit_network(
    dir: &std::path::Path,
    settings: &Settings,
    report: &mut Report,
    train: &[NetSample],
    test: &[NetSample],
) -> Result<ExitCode> {
    let mut out = stdout();
    let k = report.k;
    let fit = NetFitSettings {
        epochs: settings.steps,
        ridge: settings.lambda as f32,
        seed: settings.config.seed,
        ..NetFitSettings::default()
    };
    let batches = train.len().div_ceil(fit.batch) * fit.epochs;
    let progress = bar(batches as u64, "fitting the network");
    let net = fit_net(train, k, &fit, |done| progress.set_position(done));
    progress.finish_and_clear();
    let (train_after, test_after) = (net_error(train, &net, k), net_error(test, &net, k));
    writeln!(
        out,
        "the network's fit: {train_after:.6} fitted, {test_after:.6} held out"
    )?;
    let source = net.source().map_err(Error::input)?;
    let source_path = dir.join("net_weights.rs");
    write_atomic(&source_path, source.as_bytes())?;
    (report.train_error, report.test_error) = (train_after, test_after);
    let report_path = write_report(dir, report)?;
    writeln!(
        out,
        "wrote {} (copy it to crates/splitpoint-games/src/chess/net_weights.rs and rebuild) and {}",
        source_path.display(),
        report_path.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Writes `report.json` in `dir`; returns its path.
fn write_report(dir: &std::path::Path, report: &Report) -> Result<std::path::PathBuf> {
    let path = dir.join("report.json");
    let text = serde_json::to_string_pretty(report).expect("the report serializes");
    write_atomic(&path, text.as_bytes())?;
    Ok(path)
}

/// The run's first `count` games: those `games.txt` holds, then the
/// missing ones played on `threads` threads and appended as they finish.
fn play(
    dir: &std::path::Path,
    config: &Config,
    count: u64,
    threads: usize,
) -> Result<BTreeMap<u64, PlayedGame>> {
    let path = dir.join("games.txt");
    let mut games = BTreeMap::new();
    if path.exists() {
        let text = fs::read_to_string(&path).map_err(|e| io_error(&path, e))?;
        let mut line_of = BTreeMap::new();
        for (n, line) in text.lines().enumerate() {
            // A line cut short by a stop mid-write is played again.
            if let Some((index, game)) = parse_game(line) {
                // Files of several runs joined by hand repeat indices: a
                // rewrite would silently drop all but one of each.
                if let Some(first) = line_of.insert(index, n + 1) {
                    return Err(Error::input(format!(
                        "{}:{}: game {index} is also on line {first}; number the games of \
                         joined runs afresh (0, 1, 2, … in the first field)",
                        path.display(),
                        n + 1
                    )));
                }
                games.insert(index, game);
            } else if n + 1 < text.lines().count() {
                return Err(Error::input(format!(
                    "{}:{}: not a game line",
                    path.display(),
                    n + 1
                )));
            }
        }
    }
    let missing: Vec<u64> = (0..count).filter(|i| !games.contains_key(i)).collect();
    if missing.is_empty() {
        games.retain(|&i, _| i < count);
        return Ok(games);
    }
    // Rewritten whole first: a partial last line is dropped.
    let kept: String = games.iter().map(|(&i, g)| game_line(i, g)).collect();
    write_atomic(&path, kept.as_bytes())?;
    let mut file = fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .map_err(|e| io_error(&path, e))?;
    let book = openings::book();
    let how = SelfPlay {
        nodes: config.nodes,
        random_plies: config.random_plies,
        max_plies: 300,
        resign: 1000,
    };
    let progress = bar(missing.len() as u64, "self-play");
    let (tx, rx) = mpsc::channel::<(u64, PlayedGame)>();
    std::thread::scope(|scope| -> Result<()> {
        for t in 0..threads {
            let tx = tx.clone();
            let (missing, book) = (&missing, &book);
            scope.spawn(move || {
                let mut engine = Engine::new(ChessEval::default(), 16);
                for &index in missing.iter().skip(t).step_by(threads) {
                    let opening: &Chess = &book[index as usize % book.len()].position;
                    let mut rng = Rng::new(config.seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
                    let game = self_play_game(&mut engine, opening, &how, &mut rng);
                    if tx.send((index, game)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        for (index, game) in rx {
            file.write_all(game_line(index, &game).as_bytes())
                .map_err(|e| io_error(&path, e))?;
            games.insert(index, game);
            progress.inc(1);
        }
        Ok(())
    })?;
    progress.finish_and_clear();
    games.retain(|&i, _| i < count);
    Ok(games)
}

/// A game as one line of `games.txt`: index, White's result, plies, then
/// the kept positions separated by `|`, each its FEN, `;` and the search's
/// score (White's view).
fn game_line(index: u64, game: &PlayedGame) -> String {
    format!(
        "{index}\t{}\t{}\t{}\n",
        game.result,
        game.plies,
        game.positions
            .iter()
            .map(|(fen, score)| format!("{fen};{score}"))
            .collect::<Vec<_>>()
            .join("|")
    )
}

/// The inverse of [`game_line`] (without its newline).
fn parse_game(line: &str) -> Option<(u64, PlayedGame)> {
    let mut fields = line.split('\t');
    let index = fields.next()?.parse().ok()?;
    let result: f32 = fields.next()?.parse().ok()?;
    let plies = fields.next()?.parse().ok()?;
    let positions = fields.next()?;
    if ![0.0, 0.5, 1.0].contains(&result) || fields.next().is_some() {
        return None;
    }
    let positions = positions
        .split('|')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (fen, score) = p.split_once(';')?;
            Some((fen.to_string(), score.parse().ok()?))
        })
        .collect::<Option<_>>()?;
    Some((
        index,
        PlayedGame {
            positions,
            result,
            plies,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_line_reads_back() {
        let game = PlayedGame {
            positions: vec![
                ("8/8/4k3/8/8/4K3/4P3/8 w - - 0 1".into(), 120),
                ("8/8/4k3/8/8/4K3/4P3/8 b - - 0 1".into(), -35),
            ],
            result: 0.5,
            plies: 31,
        };
        let line = game_line(7, &game);
        assert_eq!(parse_game(line.trim_end()), Some((7, game)));
        assert_eq!(parse_game("7\t0.3\t31\t"), None, "not a result");
        assert_eq!(parse_game("7\t1\t31"), None, "cut short");
    }

    #[test]
    fn a_games_file_that_repeats_an_index_is_refused_untouched() {
        let dir = std::env::temp_dir().join(format!("splitpoint-repeat-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let game = PlayedGame {
            positions: vec![("8/8/4k3/8/8/4K3/4P3/8 w - - 0 1".into(), 120)],
            result: 1.0,
            plies: 9,
        };
        let text = game_line(0, &game) + &game_line(0, &game);
        fs::write(dir.join("games.txt"), &text).unwrap();
        let config = Config {
            nodes: 100,
            random_plies: 0,
            seed: 1,
        };
        let err = play(&dir, &config, 3, 1).unwrap_err().to_string();
        assert!(
            err.contains("games.txt:2: game 0 is also on line 1"),
            "{err}"
        );
        assert_eq!(fs::read_to_string(dir.join("games.txt")).unwrap(), text);
        fs::remove_dir_all(&dir).unwrap();
    }
}
