//! Correction history: how far searches found the static score off, by
//! a key of what it tends to be wrong about in the same way (in chess, the
//! pawns: a structure the evaluation misjudges is misjudged all through the
//! game). A selective search adds the correction to the static score its
//! pruning reads (quiescence's stand-pat score stays uncorrected: it scored
//! worse so); each worker keeps its own table, so it never touches exact
//! mode or the shared state.

use crate::score::Score;

/// Slots in the table; keys are folded into it by their top bits.
const SLOTS: usize = 1 << 14;
/// An entry counts 1/`GRAIN` centipawn (score units).
const GRAIN: i32 = 256;
/// An entry stays within this many score units either way.
const LIMIT: Score = 64;

/// The table: by slot, the static score's error in `1/GRAIN` units.
pub(crate) struct Correction(Box<[i32]>);

impl Correction {
    pub(crate) fn new() -> Self {
        Correction(vec![0; SLOTS].into_boxed_slice())
    }

    /// The slot of an evaluator's key (see `Evaluator::correction_key`).
    #[inline]
    pub(crate) fn slot(key: u64) -> usize {
        (key >> (64 - SLOTS.trailing_zeros())) as usize
    }

    /// What to add to a static score in `slot`.
    #[inline]
    pub(crate) fn get(&self, slot: usize) -> Score {
        self.0[slot] / GRAIN
    }

    /// A search with `depth` plies left found the node in `slot` worth
    /// `error` more than its static score: the entry moves toward it,
    /// faster for deeper searches (a running average).
    #[inline]
    pub(crate) fn learn(&mut self, slot: usize, error: Score, depth: i32) {
        let weight = ((depth + 1) * (depth + 1)).min(128);
        let error = error.clamp(-2 * LIMIT, 2 * LIMIT) * GRAIN;
        let e = &mut self.0[slot];
        *e = ((*e * (256 - weight) + error * weight) / 256).clamp(-LIMIT * GRAIN, LIMIT * GRAIN);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_follows_the_errors_found_within_its_limit() {
        let mut c = Correction::new();
        let slot = Correction::slot(u64::MAX);
        assert_eq!(slot, SLOTS - 1);
        for _ in 0..50 {
            c.learn(slot, 30, 10);
        }
        assert!((29..=30).contains(&c.get(slot)), "{}", c.get(slot));
        for _ in 0..50 {
            c.learn(slot, -1000, 10);
        }
        assert_eq!(c.get(slot), -LIMIT);
        assert_eq!(c.get(0), 0, "other slots untouched");
    }

    #[test]
    fn shallow_searches_move_an_entry_less_than_deep_ones() {
        let (mut shallow, mut deep) = (Correction::new(), Correction::new());
        shallow.learn(0, 40, 3);
        deep.learn(0, 40, 10);
        assert!(
            shallow.get(0) < deep.get(0),
            "{} {}",
            shallow.get(0),
            deep.get(0)
        );
        assert!(shallow.get(0) > 0);
    }
}
