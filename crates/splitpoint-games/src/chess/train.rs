//! Fitting the evaluation's weights to self-play (Texel's method).
//!
//! The engine plays itself at a fixed node count from randomized openings
//! ([`self_play_game`]); the quiet positions of each game are kept with the
//! search's score and the game's result. The target is the result the
//! score predicts, or the TD(λ) return of the game's later scores, with a
//! share of the game's result blended in ([`aim_game`]; a game's positions
//! share one result, so a large share fits the games rather than the
//! positions). The evaluation is linear in its weights ([`trace`] gives
//! each weight's count in a position), so the predicted result
//! `sigmoid(k · eval / 400)` and its squared error against the target are
//! smooth in the weights: [`Fit`] scales `k` to the weights it starts from
//! ([`Fit::best_k`]), then descends the error's gradient (Adam, whole
//! batch), with a ridge pull towards the starting weights.

use splitpoint::{Engine, Evaluator, Game, Limits, Score, WIN_BOUND};

use super::eval::{ChessEval, MAX_PHASE, insufficient_material, param, trace};
use super::position::Chess;
use super::weights::WEIGHTS;
use crate::rng::Rng;

/// How self-play games are played and which positions they keep.
#[derive(Clone, Copy, Debug)]
pub struct SelfPlay {
    /// Nodes each move searches, give or take a quarter drawn at random:
    /// the games vary without random moves.
    pub nodes: u64,
    /// Random moves after the opening, from 0 up to this many.
    pub random_plies: u32,
    /// A game still going after this many plies is a draw.
    pub max_plies: u32,
    /// Adjudicated a win once every search for [`ADJUDICATION_PLIES`] plies
    /// has found one side this far ahead.
    pub resign: Score,
}

/// How many plies in a row the searches must agree to adjudicate a game.
pub const ADJUDICATION_PLIES: u32 = 8;

/// One self-played game: its quiet positions (FEN) with the search's
/// score of each (White's view), and White's result (1 a win, 0.5 a draw,
/// 0 a loss).
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame {
    /// The positions kept for fitting: not in check, the move played quiet,
    /// the search's score no mate, the evaluation not a draw by material.
    pub positions: Vec<(String, Score)>,
    /// White's result.
    pub result: f32,
    /// The game's plies from the opening on.
    pub plies: u32,
}

/// Plays one game from `opening` with `engine` on both sides: first up to
/// [`SelfPlay::random_plies`] random moves (drawn from `rng`), then a search
/// of [`SelfPlay::nodes`] a move. The game ends by the rules (checkmate,
/// stalemate, threefold repetition, fifty moves), by material neither side
/// can mate with, by adjudication ([`SelfPlay::resign`]) or at
/// [`SelfPlay::max_plies`].
pub fn self_play_game(
    engine: &mut Engine<Chess, ChessEval>,
    opening: &Chess,
    how: &SelfPlay,
    rng: &mut Rng,
) -> PlayedGame {
    engine.clear();
    let mut pos = opening.clone();
    let random = rng.below(u64::from(how.random_plies) + 1) as u32;
    let mut positions = Vec::new();
    let mut streak = (0, 0u32);
    let mut ply = 0;
    let white_score = loop {
        pos.make_root();
        let white_to_move = pos.board().side_to_move() == cozy_chess::Color::White;
        if let Some(outcome) = pos.outcome() {
            break match outcome {
                splitpoint::Outcome::Loss if white_to_move => 0.0,
                splitpoint::Outcome::Loss => 1.0,
                _ => 0.5,
            };
        }
        if insufficient_material(pos.board()) || ply >= how.max_plies {
            break 0.5;
        }
        let mv = if ply < random {
            let mut moves = splitpoint::MoveList::new();
            pos.generate_moves(&mut moves);
            moves[rng.below(moves.len() as u64) as usize]
        } else {
            let nodes = how.nodes * 3 / 4 + rng.below(how.nodes / 2 + 1);
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let r = engine.search(&pos, &limits);
            let white_view = if white_to_move { r.score } else { -r.score };
            let Some(mv) = r.best_move else { break 0.5 };
            if engine.evaluator().is_quiet(&pos, mv) && !pos.in_check() && r.score.abs() < WIN_BOUND
            {
                positions.push((pos.to_string(), white_view));
            }
            // Adjudication: the searches agree, ply after ply, on who wins.
            let side = if white_view >= how.resign {
                1
            } else if white_view <= -how.resign {
                -1
            } else {
                0
            };
            streak = if side != 0 && side == streak.0 {
                (side, streak.1 + 1)
            } else {
                (side, 1)
            };
            if side != 0 && streak.1 >= ADJUDICATION_PLIES {
                break if side > 0 { 1.0 } else { 0.0 };
            }
            mv
        };
        pos = pos.play(mv);
        ply += 1;
    };
    PlayedGame {
        positions,
        result: white_score,
        plies: ply,
    }
}

/// A position for fitting: its weights' counts (sparse), phase and what
/// the fit aims at: White's expected result.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// `(weight index, count)` for every weight counted in the position.
    pub counts: Vec<(u16, i16)>,
    /// The game phase, [`MAX_PHASE`] the middlegame.
    pub phase: i32,
    /// White's expected result: the game's, then the fit's aim
    /// ([`aim_game`]).
    pub result: f32,
    /// The self-play search's score of the position, White's view.
    pub score: Score,
    /// The network's correction of the linear score, White's view: the
    /// linear fit leaves the network as it is.
    pub net: f64,
}

impl Sample {
    /// The sample of the position `fen`, which the search scored `score`
    /// (White's view), from a game White scored `result` in; `None` for a
    /// bad FEN or a position the evaluation calls drawn by material.
    pub fn new(fen: &str, result: f32, score: Score) -> Option<Sample> {
        Sample::of_board(&fen.parse().ok()?, result, score)
    }

    /// [`Sample::new`] for a board already read; `None` for a position the
    /// evaluation calls drawn by material.
    pub fn of_board(board: &cozy_chess::Board, result: f32, score: Score) -> Option<Sample> {
        let t = trace(board)?;
        let counts = t
            .counts
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c != 0)
            .map(|(i, &c)| (i as u16, c as i16))
            .collect();
        let net = f64::from(super::net::correction(board));
        Some(Sample {
            counts,
            phase: t.phase,
            result,
            score,
            net: if board.side_to_move() == cozy_chess::Color::White {
                net
            } else {
                -net
            },
        })
    }

    /// White's evaluation under `weights` (centipawns, unrounded): the
    /// linear score and the network's correction.
    #[inline]
    fn eval(&self, weights: &[(f64, f64)]) -> f64 {
        self.linear(weights) + self.net
    }

    /// White's linear score under `weights` (centipawns, unrounded).
    #[inline]
    pub fn linear(&self, weights: &[(f64, f64)]) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(i, c) in &self.counts {
            let w = weights[i as usize];
            mg += w.0 * f64::from(c);
            eg += w.1 * f64::from(c);
        }
        let rho = f64::from(self.phase) / f64::from(MAX_PHASE);
        mg * rho + eg * (1.0 - rho)
    }
}

/// The predicted result of an evaluation of `eval` centipawns at scale `k`.
#[inline]
fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

/// Sets the fit's aim for one game's samples, in the order played, which
/// hold the game's result: the TD(λ) return of the results their searches'
/// scores predict at scale `k` — each sample's own with weight `1 − λ`, the
/// next one's `λ(1 − λ)`, and so on, the game's result taking what is left
/// at the end — then `share` of the game's result blended in. At λ = 0 a
/// sample aims at its own score's result; a larger λ adds what later, better
/// informed searches of the same game found, at the cost of noise.
pub fn aim_game(samples: &mut [Sample], td_lambda: f64, share: f64, k: f64) {
    let Some(last) = samples.last() else {
        return;
    };
    let result = f64::from(last.result);
    let mut later = result;
    for sample in samples.iter_mut().rev() {
        let own = sigmoid(k, f64::from(sample.score));
        later = (1.0 - td_lambda) * own + td_lambda * later;
        sample.result = (share * result + (1.0 - share) * later) as f32;
    }
}

/// The engine's weights as numbers to fit.
pub fn current_weights() -> Vec<(f64, f64)> {
    WEIGHTS
        .iter()
        .map(|&(mg, eg)| (f64::from(mg), f64::from(eg)))
        .collect()
}

/// The mean squared error of `weights` over `samples` at scale `k`.
pub fn mean_error(samples: &[Sample], weights: &[(f64, f64)], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| (f64::from(s.result) - sigmoid(k, s.eval(weights))).powi(2))
        .sum();
    sum / samples.len().max(1) as f64
}

/// A fit of the weights to samples.
#[derive(Clone, Debug)]
pub struct Fit {
    /// The sigmoid's scale.
    pub k: f64,
    /// The weights so far.
    pub weights: Vec<(f64, f64)>,
    /// The weights the fit started from, which the ridge pulls towards.
    start: Vec<(f64, f64)>,
    /// The ridge penalty per squared centipawn, over the mean error.
    pub lambda: f64,
    /// Adam's step (centipawns) and moments.
    rate: f64,
    m: Vec<(f64, f64)>,
    v: Vec<(f64, f64)>,
    steps: i32,
}

impl Fit {
    /// The scale `k` at which `weights` predict `samples`' results best, by
    /// golden-section search over 0.2 to 3.
    pub fn best_k(samples: &[Sample], weights: &[(f64, f64)]) -> f64 {
        let (mut lo, mut hi) = (0.2f64, 3.0f64);
        let golden = (5f64.sqrt() - 1.0) / 2.0;
        for _ in 0..40 {
            let a = hi - golden * (hi - lo);
            let b = lo + golden * (hi - lo);
            if mean_error(samples, weights, a) < mean_error(samples, weights, b) {
                hi = b;
            } else {
                lo = a;
            }
        }
        (lo + hi) / 2.0
    }

    /// A fit from `weights` at scale `k`, with ridge `lambda` and Adam's
    /// step `rate` centipawns.
    pub fn new(weights: Vec<(f64, f64)>, k: f64, lambda: f64, rate: f64) -> Fit {
        let zeros = vec![(0.0, 0.0); weights.len()];
        Fit {
            k,
            start: weights.clone(),
            weights,
            lambda,
            rate,
            m: zeros.clone(),
            v: zeros,
            steps: 0,
        }
    }

    /// One step over all of `samples`, the gradient summed on `threads`
    /// threads. The king's material stays 0: kings are never taken.
    pub fn step(&mut self, samples: &[Sample], threads: usize) {
        let n = samples.len().max(1) as f64;
        let chunk = samples.len().div_ceil(threads.max(1)).max(1);
        let (k, weights) = (self.k, &self.weights);
        let gradients: Vec<Vec<(f64, f64)>> = std::thread::scope(|scope| {
            let workers: Vec<_> = samples
                .chunks(chunk)
                .map(|part| scope.spawn(move || gradient(part, weights, k)))
                .collect();
            workers
                .into_iter()
                .map(|w| w.join().expect("a gradient thread panicked"))
                .collect()
        });
        self.steps += 1;
        let (b1, b2) = (0.9f64, 0.999f64);
        let (c1, c2) = (1.0 - b1.powi(self.steps), 1.0 - b2.powi(self.steps));
        for i in 0..self.weights.len() {
            if i == param::MATERIAL + 5 {
                continue;
            }
            let sum = gradients
                .iter()
                .fold((0.0, 0.0), |acc, g| (acc.0 + g[i].0, acc.1 + g[i].1));
            let ridge = |w: f64, s: f64| 2.0 * self.lambda * (w - s);
            let g = (
                sum.0 / n + ridge(self.weights[i].0, self.start[i].0),
                sum.1 / n + ridge(self.weights[i].1, self.start[i].1),
            );
            let adam = |m: &mut f64, v: &mut f64, w: &mut f64, g: f64| {
                *m = b1 * *m + (1.0 - b1) * g;
                *v = b2 * *v + (1.0 - b2) * g * g;
                *w -= self.rate * (*m / c1) / ((*v / c2).sqrt() + 1e-12);
            };
            adam(
                &mut self.m[i].0,
                &mut self.v[i].0,
                &mut self.weights[i].0,
                g.0,
            );
            adam(
                &mut self.m[i].1,
                &mut self.v[i].1,
                &mut self.weights[i].1,
                g.1,
            );
        }
    }

    /// The weights rounded to whole centipawns.
    pub fn rounded(&self) -> Vec<(i32, i32)> {
        self.weights
            .iter()
            .map(|&(mg, eg)| (mg.round() as i32, eg.round() as i32))
            .collect()
    }
}

/// The gradient of the summed squared error over `samples` by each weight.
fn gradient(samples: &[Sample], weights: &[(f64, f64)], k: f64) -> Vec<(f64, f64)> {
    let mut g = vec![(0.0, 0.0); weights.len()];
    let scale = k * std::f64::consts::LN_10 / 400.0;
    for s in samples {
        let p = sigmoid(k, s.eval(weights));
        // d/d eval of (result − p)²
        let d = -2.0 * (f64::from(s.result) - p) * p * (1.0 - p) * scale;
        let rho = f64::from(s.phase) / f64::from(MAX_PHASE);
        for &(i, c) in &s.counts {
            let c = f64::from(c) * d;
            g[i as usize].0 += c * rho;
            g[i as usize].1 += c * (1.0 - rho);
        }
    }
    g
}

/// The source of `weights.rs` for `weights`: the engine's weights file, to
/// be copied into `crates/splitpoint-games/src/chess/`.
pub fn weights_source(weights: &[(i32, i32)]) -> String {
    let mut out = String::from(
        "//! Chess's evaluation weights: (middlegame, endgame) centipawns in the\n\
         //! layout of `eval::param`. Written by `splitpoint train chess`.\n\n\
         /// The weights, block by block as `eval::param::BLOCKS` names them.\n\
         #[rustfmt::skip]\n",
    );
    out.push_str(&format!(
        "pub(super) const WEIGHTS: [(i32, i32); {}] = [\n",
        weights.len()
    ));
    for (b, &(name, first)) in param::BLOCKS.iter().enumerate() {
        let end = param::BLOCKS
            .get(b + 1)
            .map_or(weights.len(), |&(_, next)| next);
        out.push_str(&format!("    // {name}\n"));
        for row in weights[first..end].chunks(8) {
            let cells: Vec<String> = row.iter().map(|(m, e)| format!("({m}, {e}),")).collect();
            out.push_str(&format!("    {}\n", cells.join(" ")));
        }
    }
    out.push_str("];\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_weights_file_is_what_the_fit_writes() {
        let source = weights_source(&WEIGHTS);
        assert_eq!(source, include_str!("weights.rs"));
    }

    #[test]
    fn a_sample_weighted_is_the_evaluation_from_whites_side() {
        let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R b KQ - 0 8";
        let s = Sample::new(fen, 0.5, 0).unwrap();
        let white = s.eval(&current_weights());
        // Black to move: the engine's score is Black's; rounding aside.
        let engine = crate::chess::evaluate(&fen.parse().unwrap());
        assert!((-white - f64::from(engine)).abs() <= 1.0);
    }

    #[test]
    fn the_aim_is_the_own_score_the_later_scores_or_the_result() {
        let fen = "4k3/pppp4/8/8/8/8/PPPP4/1N2K3 w - - 0 1";
        let game = |scores: &[Score]| -> Vec<Sample> {
            scores
                .iter()
                .map(|&s| Sample::new(fen, 1.0, s).unwrap())
                .collect()
        };
        let aims = |samples: &[Sample]| -> Vec<f64> {
            samples.iter().map(|s| f64::from(s.result)).collect()
        };
        let k = 1.0;
        let (p0, p1) = (sigmoid(k, 0.0), sigmoid(k, 400.0));
        let close = |a: &[f64], b: &[f64]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6);
        // λ = 0: each its own score's result.
        let mut g = game(&[0, 400]);
        aim_game(&mut g, 0.0, 0.0, k);
        assert!(close(&aims(&g), &[p0, p1]));
        // λ = 1: the result everywhere.
        let mut g = game(&[0, 400]);
        aim_game(&mut g, 1.0, 0.0, k);
        assert!(close(&aims(&g), &[1.0, 1.0]));
        // λ = ½: the last shares with the result, the first with the last.
        let mut g = game(&[0, 400]);
        aim_game(&mut g, 0.5, 0.0, k);
        let last = 0.5 * p1 + 0.5;
        assert!(close(&aims(&g), &[0.5 * p0 + 0.5 * last, last]));
        // A share of the result on top.
        let mut g = game(&[0, 400]);
        aim_game(&mut g, 0.0, 0.25, k);
        assert!(close(&aims(&g), &[0.25 + 0.75 * p0, 0.25 + 0.75 * p1]));
        aim_game(&mut [], 0.5, 0.0, k);
    }

    #[test]
    fn the_fit_lowers_the_error_on_what_it_is_fitted_to() {
        // Material only decides these games: White wins those a knight up,
        // loses those a knight down. A few steps move the weights that way.
        let up = "4k3/pppp4/8/8/8/8/PPPP4/1N2K3 w - - 0 1";
        let down = "1n2k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1";
        let samples: Vec<Sample> = (0..20)
            .map(|i| {
                if i % 2 == 0 {
                    Sample::new(up, 1.0, 0)
                } else {
                    Sample::new(down, 0.0, 0)
                }
                .unwrap()
            })
            .collect();
        let start = current_weights();
        let mut fit = Fit::new(start.clone(), 1.0, 0.0, 2.0);
        let before = mean_error(&samples, &fit.weights, fit.k);
        for _ in 0..50 {
            fit.step(&samples, 2);
        }
        assert!(mean_error(&samples, &fit.weights, fit.k) < before);
        assert!(fit.weights[param::MATERIAL + 1].1 > start[param::MATERIAL + 1].1);
    }

    #[test]
    fn a_self_played_game_ends_with_a_result_and_keeps_quiet_positions() {
        let mut engine = Engine::new(ChessEval::default(), 1);
        let how = SelfPlay {
            nodes: 500,
            random_plies: 2,
            max_plies: 60,
            resign: 600,
        };
        let game = self_play_game(&mut engine, &Chess::start(), &how, &mut Rng::new(3));
        assert!([0.0, 0.5, 1.0].contains(&game.result));
        assert!(game.plies <= 60 && !game.positions.is_empty());
        for (fen, _) in &game.positions {
            let board: cozy_chess::Board = fen.parse().unwrap();
            assert!(board.checkers().is_empty(), "{fen}");
        }
    }
}
