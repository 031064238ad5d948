//! Synthetic game trees: the laboratory's controlled input and the cheapest oracle.
//!
//! A tree is given by a spec such as `b=6,d=9,seed=7,q=0.8`: every node has `b`
//! children down to depth `d`; the seed fixes everything else. The tree is built
//! top-down with its values known: every node carries its true negamax value
//! `v` (side to move's view); one child, the best, gets `-v`, every other child
//! `-v + δ` with a random `δ` in `1..=100`, so the parent's value is exactly `v`
//! and the best move is known at every node.
//!
//! The ordering knob `q` (0..=1, default 0.5) is the probability that the best
//! move is generated first; otherwise it sits at a random place. That is the
//! "ordering quality" of the classic studies, set exactly.
//!
//! The static score of an interior node is its value plus a deterministic noise
//! in `±50`, so shallower searches err a little; a leaf scores its exact value.

use splitpoint::{Evaluator, Game, MoveList, Outcome, ParseError, Score};

/// The largest penalty of a non-best move.
const MAX_DELTA: u64 = 100;
/// The largest error of a static score.
const MAX_NOISE: i32 = 50;
/// The most children a node may have.
pub const MAX_BRANCHING: u32 = 64;
/// The deepest tree a spec may ask for.
pub const MAX_TREE_DEPTH: u32 = 100;
/// The largest value (either sign) of any node of any tree: the root's
/// (at most 100) plus the largest penalty at every ply.
const MAX_VALUE: i32 = max_value_at(MAX_TREE_DEPTH as u8);

/// The largest value (either sign) of a node `ply` plies below its root.
const fn max_value_at(ply: u8) -> i32 {
    100 + MAX_DELTA as i32 * ply as i32
}

/// The shape of a tree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TreeSpec {
    /// Children per interior node.
    pub branching: u8,
    /// Plies from the root to the leaves.
    pub depth: u8,
    /// Fixes every value of the tree.
    pub seed: u64,
    /// How often the best move comes first, 0..=1.
    pub order_quality: f32,
}

/// A node of a synthetic tree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Synthetic {
    spec: TreeSpec,
    /// Unique per node: a hash of the path from the root.
    node: u64,
    ply: u8,
    /// The node's true negamax value, from the side to move's view.
    value: i32,
}

/// A strong 64-bit mixer (SplitMix64's finaliser).
#[inline]
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

impl Synthetic {
    /// The root of the tree `spec` describes.
    pub fn root(spec: TreeSpec) -> Self {
        let node = mix(spec.seed ^ 0x5eed);
        Synthetic {
            spec,
            node,
            ply: 0,
            value: (node % 201) as i32 - 100,
        }
    }

    /// The tree's shape.
    pub fn spec(&self) -> TreeSpec {
        self.spec
    }

    /// Plies below the root.
    pub fn ply(&self) -> u32 {
        self.ply as u32
    }

    /// The node's true negamax value (to the leaves), from the side to move's view.
    pub fn value(&self) -> Score {
        self.value
    }

    #[inline]
    fn child_node(&self, child: u8) -> u64 {
        mix(self.node ^ (child as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }

    /// The child that keeps the node's value: first with probability `q`.
    #[inline]
    fn best_child(&self) -> u8 {
        let coin = (mix(self.node ^ 0x04d3) >> 40) as f32 / (1u64 << 24) as f32;
        if coin < self.spec.order_quality {
            0
        } else {
            (mix(self.node ^ 0xb357) % self.spec.branching as u64) as u8
        }
    }

    fn is_leaf(&self) -> bool {
        self.ply >= self.spec.depth
    }
}

impl Game for Synthetic {
    type Move = u8;
    type Moves = MoveList<u8>;

    fn generate_moves(&self, moves: &mut MoveList<u8>) {
        if !self.is_leaf() {
            moves.extend(0..self.spec.branching);
        }
    }

    fn play(&self, child: u8) -> Self {
        debug_assert!(child < self.spec.branching && !self.is_leaf());
        let node = self.child_node(child);
        let delta = if child == self.best_child() {
            0
        } else {
            1 + (node >> 8) % MAX_DELTA
        } as i32;
        Synthetic {
            spec: self.spec,
            node,
            ply: self.ply + 1,
            value: -self.value + delta,
        }
    }

    fn hash(&self) -> u64 {
        self.node
    }

    /// A leaf is a finished game; [`SyntheticEval`] scores it by its value.
    fn outcome(&self) -> Option<Outcome> {
        self.is_leaf().then_some(Outcome::Draw)
    }

    fn move_key(child: u8) -> u16 {
        child as u16
    }

    /// Reads `b=B,d=D,seed=S[,q=Q]` (the root), optionally followed by
    /// `,node=N,ply=P,value=V` (any node, as [`position_text`](Game::position_text) writes it).
    fn parse_position(text: &str) -> Result<Self, ParseError> {
        let mut spec = TreeSpec {
            branching: 0,
            depth: 0,
            seed: 0,
            order_quality: 0.5,
        };
        let (mut have_b, mut have_d, mut have_seed) = (false, false, false);
        let mut node = None;
        let (mut ply, mut value) = (0u8, 0i32);
        let mut column = 0;
        for field in text.trim().split(',') {
            let bad = |what: &str| {
                ParseError::at(column, format!("synthetic tree spec: {what} in '{field}'"))
            };
            let (name, val) = field
                .split_once('=')
                .ok_or_else(|| bad("expected name=value"))?;
            let num = |max: u64| -> Result<u64, ParseError> {
                let n: u64 = val.trim().parse().map_err(|_| bad("not a whole number"))?;
                if n > max {
                    Err(bad(&format!("must be at most {max}")))
                } else {
                    Ok(n)
                }
            };
            match name.trim() {
                "b" => {
                    spec.branching = num(MAX_BRANCHING as u64)? as u8;
                    if spec.branching == 0 {
                        return Err(bad("branching must be at least 1"));
                    }
                    have_b = true;
                }
                "d" => {
                    spec.depth = num(MAX_TREE_DEPTH as u64)? as u8;
                    have_d = true;
                }
                "seed" => {
                    spec.seed = num(u64::MAX)?;
                    have_seed = true;
                }
                "q" => {
                    let q: f32 = val.trim().parse().map_err(|_| bad("not a number"))?;
                    if !(0.0..=1.0).contains(&q) {
                        return Err(bad("ordering quality must be between 0 and 1"));
                    }
                    spec.order_quality = q;
                }
                "node" => node = Some(num(u64::MAX)?),
                "ply" => ply = num(MAX_TREE_DEPTH as u64)? as u8,
                "value" => {
                    value = val.trim().parse().map_err(|_| bad("not a whole number"))?;
                    if !(-MAX_VALUE..=MAX_VALUE).contains(&value) {
                        return Err(bad(&format!("no node's value is beyond ±{MAX_VALUE}")));
                    }
                }
                other => {
                    return Err(bad(&format!(
                        "unknown field '{other}' (expected b, d, seed, q)"
                    )));
                }
            }
            column += field.len() + 1;
        }
        if !(have_b && have_d && have_seed) {
            return Err(ParseError::new(
                "synthetic tree spec needs b=, d= and seed=, e.g. b=6,d=9,seed=7",
            ));
        }
        if ply > spec.depth {
            return Err(ParseError::new(
                "synthetic tree spec: ply beyond the tree's depth",
            ));
        }
        // Checked against the ply so that every descendant's value stays
        // within ±MAX_VALUE too (found by fuzzing: a node at ply 0 with a
        // value of -10073 had children whose text did not read back).
        if value.abs() > max_value_at(ply) {
            return Err(ParseError::new(format!(
                "synthetic tree spec: no node at ply {ply} has a value beyond ±{}",
                max_value_at(ply)
            )));
        }
        let mut pos = Synthetic::root(spec);
        if let Some(node) = node {
            pos.node = node;
            pos.ply = ply;
            pos.value = value;
        }
        Ok(pos)
    }

    fn position_text(&self) -> String {
        let s = self.spec;
        let root = format!(
            "b={},d={},seed={},q={}",
            s.branching, s.depth, s.seed, s.order_quality
        );
        // A node given at ply 0 (`node=` without `ply=`) is not always the root.
        if *self == Synthetic::root(s) {
            root
        } else {
            format!(
                "{root},node={},ply={},value={}",
                self.node, self.ply, self.value
            )
        }
    }

    fn parse_move(&self, text: &str) -> Result<u8, ParseError> {
        let child: u8 = text
            .trim()
            .parse()
            .map_err(|_| ParseError::new(format!("'{text}' is not a child number")))?;
        if child >= self.spec.branching || self.is_leaf() {
            return Err(ParseError::new(format!(
                "child {child} does not exist here"
            )));
        }
        Ok(child)
    }

    fn move_text(&self, child: u8) -> String {
        child.to_string()
    }
}

/// Scores a leaf by its value, an interior node by its value plus noise.
#[derive(Clone, Copy, Debug, Default)]
pub struct SyntheticEval;

impl Evaluator<Synthetic> for SyntheticEval {
    #[inline]
    fn evaluate(&self, pos: &Synthetic) -> Score {
        pos.value + (mix(pos.node ^ 0x4015e) % (2 * MAX_NOISE as u64 + 1)) as i32 - MAX_NOISE
    }

    #[inline]
    fn terminal_score(&self, pos: &Synthetic, _: Outcome, _: usize) -> Score {
        pos.value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_round_trips_and_children_are_distinct() {
        let root = Synthetic::parse_position("b=5,d=4,seed=11,q=0.25").unwrap();
        assert_eq!(
            Synthetic::parse_position(&root.position_text()).unwrap(),
            root
        );
        let mut moves = MoveList::new();
        root.generate_moves(&mut moves);
        let mut sorted = moves.clone();
        sorted.sort();
        assert_eq!(&sorted[..], &[0, 1, 2, 3, 4]);
        let child = root.play(moves[2]);
        assert_eq!(
            Synthetic::parse_position(&child.position_text()).unwrap(),
            child
        );
        assert_ne!(child.hash(), root.play(moves[3]).hash());
    }

    #[test]
    fn values_are_true_negamax_values() {
        for seed in 0..20 {
            let root = Synthetic::parse_position(&format!("b=4,d=5,seed={seed},q=0.3")).unwrap();
            assert_eq!(
                splitpoint::oracle::negamax(&root, &SyntheticEval, 5),
                root.value()
            );
            let best = root.best_child();
            assert_eq!(-root.play(best).value(), root.value());
        }
        let ordered = Synthetic::parse_position("b=8,d=3,seed=3,q=1").unwrap();
        assert_eq!(ordered.best_child(), 0);
    }

    #[test]
    fn any_node_round_trips() {
        // Found by fuzzing: a node given at ply 0 is not the root, and its
        // text must say so (it was written as the root's).
        let node = Synthetic::parse_position("b=3,d=4,seed=1,q=0.5,node=1231").unwrap();
        let again = Synthetic::parse_position(&node.position_text()).unwrap();
        assert_eq!(again, node);
        assert_eq!(again.hash(), 1231);
    }

    #[test]
    fn values_beyond_any_tree_are_errors() {
        // Found writing the fuzz targets: `-value` overflowed in `play` for
        // i32::MIN, and static scores must stay inside the band below a win.
        for value in [i32::MIN, i32::MAX, -MAX_VALUE - 1, MAX_VALUE + 1] {
            let text = format!("b=2,d=3,seed=1,node=7,ply=1,value={value}");
            assert!(Synthetic::parse_position(&text).is_err(), "{text}");
        }
        // A node's value is bounded by its ply, so its children's are too.
        let text = "b=3,d=3,seed=0,node=6,value=-10073";
        assert!(Synthetic::parse_position(text).is_err(), "{text}");
        let text = format!("b=2,d=3,seed=1,node=7,ply=1,value={}", -max_value_at(1));
        let pos = Synthetic::parse_position(&text).unwrap();
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        for mv in moves {
            let _ = SyntheticEval.evaluate(&pos.play(mv));
        }
    }

    #[test]
    fn bad_specs_are_errors() {
        for bad in [
            "",
            "b=0,d=3,seed=1",
            "b=3,d=3",
            "b=x,d=3,seed=1",
            "b=3,d=3,seed=1,q=2",
            "b=3,d=3,seed=1,z=1",
        ] {
            assert!(Synthetic::parse_position(bad).is_err(), "{bad}");
        }
        assert_eq!(
            perft(&Synthetic::parse_position("b=3,d=4,seed=1").unwrap(), 9),
            81
        );
    }

    use splitpoint::perft;
}
