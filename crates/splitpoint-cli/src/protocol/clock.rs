//! Clock budgets: how long a move may take on the clock the GUI gave.

use std::time::Duration;

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
    /// time. Half the budget.
    pub fn soft_limit(&self) -> Duration {
        self.budget() / 2
    }
}
