//! Training the pattern evaluation ([`super::OthelloPatterns`]) from the
//! engine's own games: the three steps `splitpoint train othello` runs and
//! keeps in files between.
//!
//! 1. [`self_play_game`]: positions from randomized self-play (random
//!    openings, then the heuristic evaluation's best move one ply deep, now
//!    and then a random move).
//! 2. [`Labeller`]: each position's value in discs: an exact solve when few
//!    empties are left, otherwise a search of [`Labeller`]'s depth whose
//!    leaves the weights of the stages nearer the end judge (one stage is
//!    as many plies as that depth), so stages are labelled and fitted from
//!    the end of the game backwards.
//! 3. [`fit_stage`]: least squares by conjugate gradients (CGLS) on the
//!    features of a stage's positions, with ridge regularization towards
//!    the weights the stage starts from (the next stage's, for weights that
//!    its positions seldom or never see).

use std::sync::Arc;

use splitpoint::{Engine, Evaluator, Game, Limits, Outcome, Score};

use super::board::{Othello, OthelloMove};
use super::endgame::OthelloExact;
use super::eval::{OthelloEval, POINTS_PER_DISC};
use super::patterns::{
    FEATURES, OthelloPatterns, STAGE_WEIGHTS, Weights, features, symmetry_classes,
};
use super::solve_limits;

pub use crate::rng::Rng;

/// How self-play games are randomized.
#[derive(Clone, Copy, Debug)]
pub struct SelfPlay {
    /// Each game opens with a random number of random moves, up to this.
    pub random_opening: u32,
    /// Later moves are random one time in this many; otherwise the best
    /// move by [`OthelloEval`] one ply deep.
    pub random_one_in: u64,
}

impl Default for SelfPlay {
    fn default() -> Self {
        SelfPlay {
            random_opening: 20,
            random_one_in: 8,
        }
    }
}

/// Plays game number `game` of a run seeded `seed` (each game its own
/// stream, so a run resumes at any game) and returns its positions in which
/// the side to move has a move, the start excluded.
pub fn self_play_game(seed: u64, game: u64, how: SelfPlay) -> Vec<Othello> {
    let mut rng = Rng::new(seed ^ game.wrapping_mul(0xD1B5_4A32_D192_ED03));
    let opening = rng.below(u64::from(how.random_opening) + 1) as u32;
    let mut pos = Othello::start();
    let mut out = Vec::with_capacity(60);
    let mut ply = 0;
    loop {
        let mut moves = <Othello as Game>::Moves::default();
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            return out;
        }
        if ply > 0 && !moves[0].is_pass() {
            out.push(pos);
        }
        let mv = if moves.len() == 1 {
            moves[0]
        } else if ply < opening || rng.below(how.random_one_in.max(1)) == 0 {
            moves[rng.below(moves.len() as u64) as usize]
        } else {
            *moves
                .iter()
                .max_by_key(|&&m| -OthelloEval::score(&pos.play(m)))
                .expect("moves is not empty")
        };
        pos = pos.play(mv);
        ply += 1;
    }
}

/// The pattern evaluation with finished games valued by their final disc
/// difference (in the evaluation's points), so that a search's score is a
/// value in discs wherever its lines end.
#[derive(Clone, Debug)]
struct DiscValued(OthelloPatterns);

impl Evaluator<Othello> for DiscValued {
    #[inline]
    fn evaluate(&self, pos: &Othello) -> Score {
        self.0.score(pos)
    }

    fn terminal_score(&self, pos: &Othello, _outcome: Outcome, _ply: usize) -> Score {
        pos.final_score() * POINTS_PER_DISC
    }

    fn order_moves(&self, pos: &Othello, moves: &[OthelloMove], keys: &mut [i32]) {
        self.0.order_moves(pos, moves, keys);
    }
}

/// Labels positions with their values in discs, from the side to move's view.
pub struct Labeller {
    exact_empties: u32,
    depth: i32,
    solver: Engine<Othello, OthelloExact>,
    searcher: Engine<Othello, DiscValued>,
}

impl Labeller {
    /// Solves positions with at most `exact_empties` empties exactly;
    /// searches the others `depth` plies with `weights`.
    pub fn new(exact_empties: u32, depth: i32, weights: Arc<Weights>) -> Labeller {
        Labeller {
            exact_empties,
            depth,
            solver: Engine::new(OthelloExact, 16),
            // Small and cleared before each search, so that a label depends
            // on its position alone (and a resumed run labels alike).
            searcher: Engine::new(DiscValued(OthelloPatterns::new(weights)), 1),
        }
    }

    /// Whether positions with `empties` empties are solved exactly.
    pub fn is_exact(&self, empties: u32) -> bool {
        empties <= self.exact_empties
    }

    /// The value of `pos` in discs, and the nodes it took.
    pub fn label(&mut self, pos: &Othello) -> (f32, u64) {
        if self.is_exact(pos.empty_count()) {
            let result = self.solver.search(pos, &solve_limits(pos));
            (result.score as f32, result.stats.nodes)
        } else {
            self.searcher.clear();
            let result = self.searcher.search(pos, &Limits::to_depth(self.depth));
            (
                result.score as f32 / POINTS_PER_DISC as f32,
                result.stats.nodes,
            )
        }
    }
}

/// A labelled position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The side to move's discs.
    pub player: u64,
    /// The other side's discs.
    pub opponent: u64,
    /// Its value in discs from the side to move's view.
    pub value: f32,
}

impl Sample {
    /// Whether the sample is held out of the fit to measure it: one in ten,
    /// chosen by the position (so a position and its duplicates fall alike).
    pub fn held_out(&self) -> bool {
        let pos = Othello::from_bitboards(self.player, self.opponent, true);
        pos.hash() % 10 == 0
    }
}

/// How a stage is fitted.
#[derive(Clone, Copy, Debug)]
pub struct Fit {
    /// The ridge penalty per weight, against a squared error in discs.
    pub lambda: f64,
    /// Conjugate-gradient iterations.
    pub iterations: usize,
}

impl Default for Fit {
    fn default() -> Self {
        Fit {
            lambda: 2.0,
            iterations: 60,
        }
    }
}

/// What a stage's fit gave: mean absolute errors in discs before (with
/// the weights it started from) and after, on the fitted and held-out
/// samples.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FitReport {
    /// Samples fitted.
    pub train: usize,
    /// Samples held out.
    pub test: usize,
    /// Fitted samples' error with the starting weights.
    pub train_before: f64,
    /// Held-out samples' error with the starting weights.
    pub test_before: f64,
    /// Fitted samples' error after the fit.
    pub train_mae: f64,
    /// Held-out samples' error after the fit.
    pub test_mae: f64,
}

/// Fits the weights of one stage (`start`, in hundredths of a disc, is
/// replaced by the fit) to `samples`, holding out [`Sample::held_out`] ones.
/// `progress` is called after each iteration.
pub fn fit_stage(
    start: &mut [i16],
    samples: &[Sample],
    fit: Fit,
    mut progress: impl FnMut(usize),
) -> FitReport {
    assert_eq!(start.len(), STAGE_WEIGHTS);
    let scale = POINTS_PER_DISC as f64;
    let (train, test): (Vec<&Sample>, Vec<&Sample>) = samples.iter().partition(|s| !s.held_out());
    // One weight per symmetry class: the features are mapped to their
    // classes, and every member takes its class's weight at the end.
    let classes = symmetry_classes();
    let rows = |set: &[&Sample]| -> Vec<[u32; FEATURES]> {
        set.iter()
            .map(|s| {
                let mut f = [0u32; FEATURES];
                features(s.player, s.opponent, &mut f);
                f.map(|i| classes[i as usize])
            })
            .collect()
    };
    let (a_train, a_test) = (rows(&train), rows(&test));
    let base: Vec<f64> = (0..STAGE_WEIGHTS)
        .map(|i| start[classes[i] as usize] as f64 / scale)
        .collect();
    let dot = |row: &[u32; FEATURES], w: &[f64]| row.iter().map(|&i| w[i as usize]).sum::<f64>();
    let mae = |a: &[[u32; FEATURES]], set: &[&Sample], w: &[f64]| {
        if set.is_empty() {
            return 0.0;
        }
        a.iter()
            .zip(set)
            .map(|(row, s)| (dot(row, w) - s.value as f64).abs())
            .sum::<f64>()
            / set.len() as f64
    };
    let mut report = FitReport {
        train: train.len(),
        test: test.len(),
        train_before: mae(&a_train, &train, &base),
        test_before: mae(&a_test, &test, &base),
        ..FitReport::default()
    };

    // CGLS on min |A d - r0|^2 + lambda |d|^2, d the change from `base`.
    let n = STAGE_WEIGHTS;
    let mut d = vec![0.0f64; n];
    let mut r: Vec<f64> = a_train
        .iter()
        .zip(&train)
        .map(|(row, s)| s.value as f64 - dot(row, &base))
        .collect();
    let at = |r: &[f64], d: &[f64]| {
        let mut s: Vec<f64> = d.iter().map(|&x| -fit.lambda * x).collect();
        for (row, &ri) in a_train.iter().zip(r) {
            for &i in row {
                s[i as usize] += ri;
            }
        }
        s
    };
    let mut s = at(&r, &d);
    let mut p = s.clone();
    let mut gamma: f64 = s.iter().map(|x| x * x).sum();
    for iteration in 0..fit.iterations {
        if gamma <= 1e-18 {
            progress(iteration + 1);
            continue;
        }
        let q: Vec<f64> = a_train.iter().map(|row| dot(row, &p)).collect();
        let denom = q.iter().map(|x| x * x).sum::<f64>()
            + fit.lambda * p.iter().map(|x| x * x).sum::<f64>();
        let alpha = gamma / denom.max(1e-300);
        for (di, pi) in d.iter_mut().zip(&p) {
            *di += alpha * pi;
        }
        for (ri, qi) in r.iter_mut().zip(&q) {
            *ri -= alpha * qi;
        }
        s = at(&r, &d);
        let next: f64 = s.iter().map(|x| x * x).sum();
        let beta = next / gamma;
        gamma = next;
        for (pi, si) in p.iter_mut().zip(&s) {
            *pi = si + beta * *pi;
        }
        progress(iteration + 1);
    }

    for (i, w) in start.iter_mut().enumerate() {
        let c = classes[i] as usize;
        *w = ((base[c] + d[c]) * scale)
            .round()
            .clamp(i16::MIN as f64, i16::MAX as f64) as i16;
    }
    let fitted: Vec<f64> = start.iter().map(|&w| w as f64 / scale).collect();
    report.train_mae = mae(&a_train, &train, &fitted);
    report.test_mae = mae(&a_test, &test, &fitted);
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::othello::patterns::{STAGES, stage_of};

    #[test]
    fn self_play_is_reproducible_and_varied() {
        let how = SelfPlay::default();
        let a = self_play_game(7, 3, how);
        assert_eq!(a, self_play_game(7, 3, how));
        assert_ne!(a, self_play_game(7, 4, how));
        assert!(a.len() > 40, "{} positions", a.len());
        assert!(a.iter().all(|p| p.legal_squares() != 0));
    }

    #[test]
    fn exact_labels_are_final_scores() {
        let pos = *self_play_game(1, 0, SelfPlay::default())
            .iter()
            .find(|p| p.empty_count() == 8)
            .expect("a position with 8 empties");
        let mut labeller = Labeller::new(10, 2, Arc::new(Weights::zero()));
        let (value, _) = labeller.label(&pos);
        let mut nodes = 0;
        assert_eq!(value, OthelloExact::solve(&pos, -64, 64, &mut nodes) as f32);
    }

    /// Labels that are a linear function of the features are learned: the
    /// held-out error falls well below that of the starting weights.
    #[test]
    fn the_fit_learns_a_pattern_function() {
        let mut samples = Vec::new();
        for game in 0..300 {
            for pos in self_play_game(5, game, SelfPlay::default()) {
                if stage_of(pos.empty_count()) == STAGES / 2 {
                    // The value: corners and edges, as a pattern table can say.
                    let (p, o) = (pos.player(), pos.opponent());
                    let edge = 0xFF81_8181_8181_81FFu64;
                    let value = 3.0 * ((p & 0x8100_0000_0000_0081).count_ones() as f32)
                        - 3.0 * ((o & 0x8100_0000_0000_0081).count_ones() as f32)
                        + ((p & edge).count_ones() as f32 - (o & edge).count_ones() as f32);
                    samples.push(Sample {
                        player: p,
                        opponent: o,
                        value,
                    });
                }
            }
        }
        let mut w = vec![0i16; STAGE_WEIGHTS];
        let report = fit_stage(&mut w, &samples, Fit::default(), |_| {});
        assert!(report.test > 20 && report.train > 200, "{report:?}");
        assert!(
            report.test_mae < 0.6 * report.test_before,
            "held-out error {report:?}"
        );
        assert!(report.train_mae < report.train_before);
    }
}
