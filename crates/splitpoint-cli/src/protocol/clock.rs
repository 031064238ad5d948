//! Clock budgets: how long a move may take on the clock the GUI gave.

use std::time::Duration;

use splitpoint::Score;

/// Time kept back from every clock budget for the GUI's and the pipe's
/// delays, unless UCI's Move Overhead says otherwise.
pub const DEFAULT_MOVE_OVERHEAD: Duration = Duration::from_millis(30);
/// Moves still to play when the GUI does not say (`movestogo`).
const DEFAULT_MOVES_TO_GO: u32 = 20;

/// Our clock as a protocol gave it: time left, increment, moves to the next
/// control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left.
    pub time: Duration,
    /// Added after each move.
    pub increment: Duration,
    /// Moves to the next time control, when known.
    pub moves_to_go: Option<u32>,
    /// Kept back from the time left for the GUI's and the pipe's delays.
    pub overhead: Duration,
}

impl Clock {
    /// Never more than the clock holds less the overhead (or a quarter of
    /// it, when even that is short).
    fn cap(&self) -> Duration {
        self.time.saturating_sub(self.overhead).max(self.time / 4)
    }

    /// The time to aim for: an even share of what is left over the moves
    /// to go, plus half the increment, never more than the clock holds less
    /// the overhead (or a quarter of it, when even that is short).
    pub fn budget(&self) -> Duration {
        let share =
            self.time / self.moves_to_go.unwrap_or(DEFAULT_MOVES_TO_GO).max(1) + self.increment / 2;
        share.min(self.cap()).max(Duration::from_millis(1))
    }

    /// The hard limit: twice the budget, within the cap.
    pub fn hard_limit(&self) -> Duration {
        (self.budget() * 2)
            .min(self.cap())
            .max(Duration::from_millis(1))
    }

    /// After this long, no new iteration starts: it would rarely finish in
    /// time. Half the budget, which [`Pacing`] bends to the search.
    pub fn soft_limit(&self) -> Duration {
        self.budget() / 2
    }
}

/// The soft limit scaled by the iterations' best move held for 0, 1, 2, 3,
/// 4 or more iterations in a row: a move the search keeps changing its mind
/// about earns time, a settled one gives it back.
const STABILITY: [f64; 5] = [1.8, 1.3, 1.0, 0.85, 0.75];
/// The soft limit grows by this much per centipawn the score fell since the
/// last iteration, up to [`MAX_FALL`] centipawns.
const PER_CENTIPAWN_FALLEN: f64 = 0.01;
/// The most centipawns of fall that count: a mate found against us earns
/// no more than a bad slip.
const MAX_FALL: Score = 50;

/// Whether another iteration may start: the soft limit, bent by how settled
/// the search looks after each iteration (see [`STABILITY`]; a falling score
/// earns time too). The hard limit stays where it was.
#[derive(Clone, Debug)]
pub struct Pacing<M> {
    soft: Duration,
    best: Option<M>,
    held: usize,
    score: Option<Score>,
}

impl<M: Copy + Eq> Pacing<M> {
    /// Pacing against the soft limit `soft`.
    pub fn new(soft: Duration) -> Self {
        Pacing {
            soft,
            best: None,
            held: 0,
            score: None,
        }
    }

    /// After an iteration that chose `best` at `score` (the root side's view)
    /// with `elapsed` spent: whether the next may start.
    pub fn next_iteration(&mut self, best: Option<M>, score: Score, elapsed: Duration) -> bool {
        if best == self.best {
            self.held += 1;
        } else {
            self.best = best;
            self.held = 0;
        }
        let fall = self.score.map_or(0, |before| before.saturating_sub(score));
        self.score = Some(score);
        let falling = 1.0 + f64::from(fall.clamp(0, MAX_FALL)) * PER_CENTIPAWN_FALLEN;
        let scale = STABILITY[self.held.min(STABILITY.len() - 1)] * falling;
        elapsed < self.soft.mul_f64(scale)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOFT: Duration = Duration::from_millis(100);

    /// How many iterations of `next(i)`'s best move and score, each after
    /// `elapsed`, the pacing lets start (at most 20).
    fn iterations(mut next: impl FnMut(usize) -> (Option<u8>, Score), elapsed: Duration) -> usize {
        let mut pacing = Pacing::new(SOFT);
        (0..20)
            .take_while(|&i| {
                let (best, score) = next(i);
                pacing.next_iteration(best, score, elapsed)
            })
            .count()
    }

    #[test]
    fn a_settled_move_gives_time_back_a_changing_one_earns_it() {
        // 90 ms spent: under the soft limit, past 0.85 of it (a settled
        // move stops at its fourth iteration).
        let spent = Duration::from_millis(90);
        assert_eq!(iterations(|_| (Some(1), 0), spent), 3);
        assert_eq!(iterations(|i| (Some(i as u8), 0), spent), 20);
        // 150 ms: past the soft limit, under 1.8 of it.
        let late = Duration::from_millis(150);
        assert_eq!(iterations(|_| (Some(1), 0), late), 1);
        assert_eq!(iterations(|i| (Some(i as u8), 0), late), 20);
    }

    #[test]
    fn a_falling_score_earns_time_up_to_a_limit() {
        // At the soft limit itself a settled move stops at the third
        // iteration; a score falling 40 cp an iteration earns 1.4 times,
        // which keeps even a settled move's 0.75 above the limit.
        let spent = Duration::from_millis(100);
        assert_eq!(iterations(|_| (Some(1), 0), spent), 2);
        assert_eq!(iterations(|i| (Some(1), -40 * i as Score), spent), 20);
        // A mate score falls by more than MAX_FALL: the scale stops at 1.5
        // (1.0 for the move held two iterations, times 1.5).
        for (spent, next) in [(149, true), (150, false)] {
            let mut pacing = Pacing::new(SOFT);
            assert!(pacing.next_iteration(Some(1), 0, Duration::ZERO));
            assert!(pacing.next_iteration(Some(1), 0, Duration::ZERO));
            let spent = Duration::from_millis(spent);
            assert_eq!(pacing.next_iteration(Some(1), -30_000, spent), next);
        }
    }
}
