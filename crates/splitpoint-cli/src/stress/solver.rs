//! The Othello solver's share of a sweep: the exact endgame search
//! (`OthelloExact`, MTD(f) probes, table cutoffs) is a tree of its own (no
//! frames below 10 empties, node counts in the millions within a second), so
//! it is hammered apart from Othello's midgame searches.

use std::time::{Duration, Instant};

use splitpoint::{Algorithm, Engine, Game, Limits};
use splitpoint_games::othello::{Othello, OthelloExact, solve_limits};

use super::{EXACT_CAP, Ending, Plan, Rng, Tally, Watchdog, timed_search};

/// The empties of the endgames solved: a few milliseconds to a few hundred.
const EMPTIES: std::ops::RangeInclusive<u64> = 12..=18;

/// Every configuration once on a random endgame reached from `openings`:
/// stopped after a random delay, with a random move time, or solved and
/// checked against the serial solver.
pub(super) fn solver_cases(
    openings: &[Othello],
    plan: &Plan,
    rng: &mut Rng,
    tally: &mut Tally,
    watchdog: &Watchdog,
    end: Instant,
) {
    let mut engine = Engine::new(OthelloExact, 16);
    let mut serial = Engine::new(OthelloExact, 16);
    let mut configs = plan.configs();
    rng.shuffle(&mut configs);
    for (algorithm, threads) in configs {
        if Instant::now() >= end {
            break;
        }
        let Some(pos) = endgame(openings, rng) else {
            continue;
        };
        let solve = solve_limits(&pos);
        let ending = match rng.below(3) {
            0 => Ending::Stop {
                after: Duration::from_millis(rng.below(100)),
            },
            1 => Ending::Movetime(Duration::from_millis(1 + rng.below(200))),
            _ => Ending::ExactDepth(solve.depth.unwrap_or_default()),
        };
        let limits = match ending {
            Ending::Stop { .. } => solve.clone(),
            Ending::Movetime(t) => Limits {
                movetime: Some(t),
                ..solve.clone()
            },
            Ending::ExactDepth(_) => Limits {
                movetime: Some(EXACT_CAP),
                ..solve.clone()
            },
        };
        engine.set_parallelism(algorithm, threads);
        let case = format!(
            "othello solver {algorithm} ×{threads}, {ending:?}, {} empties, position {}",
            pos.empty_count(),
            pos.position_text()
        );
        let run = timed_search(&mut engine, &pos, &limits, ending, watchdog, &case);
        let key = (algorithm.name(), threads);
        tally.record(key, &case, ending, run, |_| {
            serial.set_parallelism(Algorithm::Serial, 1);
            serial.search(&pos, &solve).score
        });
    }
}

/// An unfinished position with a random number of empties in [`EMPTIES`],
/// reached by random moves from a random opening; `None` if the game ended
/// on the way.
fn endgame(openings: &[Othello], rng: &mut Rng) -> Option<Othello> {
    let mut pos = openings[rng.below(openings.len() as u64) as usize];
    let target = EMPTIES.start() + rng.below(EMPTIES.end() - EMPTIES.start() + 1);
    while pos.empty_count() as u64 > target {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        pos = pos.play(moves[rng.below(moves.len() as u64) as usize]);
    }
    pos.outcome().is_none().then_some(pos)
}
