//! The two traits a user implements to search their own game.
//!
//! [`Game`] is the rules: moves, play, hash, outcome, text forms. [`Evaluator`] is
//! the engine's judgement: the static score, the noisy moves quiescence follows,
//! how a finished game is valued, and optional speed-ups (move-ordering hints and
//! an exact solver for small subtrees). Keeping them apart lets one set of rules
//! carry several evaluators (a midgame heuristic and an exact endgame scorer for
//! Othello, say).

use std::fmt;
use std::ops::{Deref, DerefMut};

use arrayvec::ArrayVec;

use crate::score::{Score, WIN};

/// The capacity of the default move list: enough for chess, draughts, xiangqi
/// and Othello. A game with more moves in a position chooses its own
/// [`Game::Moves`].
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity list of moves, `N` of them at most (by default
/// [`MAX_MOVES`]): the usual [`Game::Moves`]. Generating into it never allocates.
pub type MoveList<M, const N: usize = MAX_MOVES> = ArrayVec<M, N>;

/// Where a position's moves are generated, and where the search keeps a value
/// per move (ordering keys, hints): a slice that grows by [`push`](MoveBuffer::push).
///
/// Implemented by `ArrayVec<M, N>` for every capacity `N` (Go needs 362,
/// Amazons a few thousand) and by `Vec<M>`, which has no bound but allocates
/// at every node.
pub trait MoveBuffer<M>:
    Default
    + Deref<Target = [M]>
    + DerefMut
    + Extend<M>
    + FromIterator<M>
    + IntoIterator<Item = M>
    + Clone
    + fmt::Debug
    + Send
    + Sync
{
    /// A buffer of the same capacity holding `U`s: one value per move.
    type With<U: Copy + fmt::Debug + Send + Sync>: MoveBuffer<U>;

    /// Appends `m`. A fixed-capacity buffer panics when full: the game's
    /// capacity was too small for one of its positions.
    fn push(&mut self, m: M);

    /// Removes every element.
    fn clear(&mut self);

    /// Keeps only the elements for which `keep` holds, in their order.
    fn retain(&mut self, keep: impl FnMut(&mut M) -> bool);
}

impl<M: Copy + fmt::Debug + Send + Sync, const N: usize> MoveBuffer<M> for ArrayVec<M, N> {
    type With<U: Copy + fmt::Debug + Send + Sync> = ArrayVec<U, N>;

    #[inline(always)]
    fn push(&mut self, m: M) {
        ArrayVec::push(self, m);
    }

    #[inline(always)]
    fn clear(&mut self) {
        ArrayVec::clear(self);
    }

    fn retain(&mut self, keep: impl FnMut(&mut M) -> bool) {
        ArrayVec::retain(self, keep);
    }
}

impl<M: Copy + fmt::Debug + Send + Sync> MoveBuffer<M> for Vec<M> {
    type With<U: Copy + fmt::Debug + Send + Sync> = Vec<U>;

    #[inline(always)]
    fn push(&mut self, m: M) {
        Vec::push(self, m);
    }

    #[inline(always)]
    fn clear(&mut self) {
        Vec::clear(self);
    }

    fn retain(&mut self, keep: impl FnMut(&mut M) -> bool) {
        Vec::retain_mut(self, keep);
    }
}

/// A value per move of a position whose moves live in a `G::Moves`.
pub(crate) type PerMove<G, U> = <<G as Game>::Moves as MoveBuffer<<G as Game>::Move>>::With<U>;

pub use crate::score::MAX_PLY;

/// How a finished game ended, from the view of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move has won.
    Win,
    /// The side to move has lost.
    Loss,
    /// Nobody won.
    Draw,
}

/// A position or move text that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// What is wrong, in words.
    pub message: String,
    /// The 0-based character offset of the problem in the text, when known.
    pub column: Option<usize>,
}

impl ParseError {
    /// An error about the text as a whole.
    pub fn new(message: impl Into<String>) -> Self {
        ParseError {
            message: message.into(),
            column: None,
        }
    }

    /// An error at a character offset of the text.
    pub fn at(column: usize, message: impl Into<String>) -> Self {
        ParseError {
            message: message.into(),
            column: Some(column),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(c) => write!(f, "{} (at column {})", self.message, c + 1),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for ParseError {}

/// The rules of a two-player, zero-sum, perfect-information game.
///
/// Positions are values: [`play`](Game::play) returns the child position (copy-make),
/// which is what lets many threads search one tree without sharing mutable state.
///
/// A first game needs only its rules; the text forms have defaults.
///
/// ```
/// use splitpoint::{Game, MoveList, Outcome};
///
/// /// Nim: take one to three stones; whoever cannot move has lost.
/// #[derive(Clone)]
/// struct Nim(u8);
///
/// impl Game for Nim {
///     type Move = u8;
///     type Moves = MoveList<u8>;
///     fn generate_moves(&self, moves: &mut MoveList<u8>) {
///         moves.extend(1..=self.0.min(3));
///     }
///     fn play(&self, take: u8) -> Self {
///         Nim(self.0 - take)
///     }
///     fn hash(&self) -> u64 {
///         u64::from(self.0).wrapping_mul(0x9e37_79b9_7f4a_7c15)
///     }
///     fn outcome(&self) -> Option<Outcome> {
///         (self.0 == 0).then_some(Outcome::Loss)
///     }
///     fn move_key(take: u8) -> u16 {
///         u16::from(take)
///     }
/// }
///
/// // Four stones, two plies: 3 + 2 + 1 lines.
/// assert_eq!(splitpoint::perft(&Nim(4), 2), 6);
/// assert_eq!(Nim(4).parse_move("3"), Ok(3));
/// ```
pub trait Game: Clone + Send + Sync + 'static {
    /// A move. Small and `Copy`: it lives in move lists, killers and PVs.
    type Move: Copy + Eq + fmt::Debug + Send + Sync + 'static;

    /// Where this game's moves are generated: `MoveList<Self::Move>` (256 at
    /// most, no allocation) unless a position can have more, then
    /// `MoveList<Self::Move, N>` with a larger `N`, or a `Vec`.
    type Moves: MoveBuffer<Self::Move>;

    /// Appends every legal move to `moves` (which the caller has cleared).
    ///
    /// Where the rules have a pass (Othello), a position whose side to move has
    /// no move but whose game goes on generates exactly one pass move. A finished
    /// game generates no move.
    fn generate_moves(&self, moves: &mut Self::Moves);

    /// The legal moves, in a new list (for callers off the hot path; the
    /// search generates into lists of its own).
    fn legal_moves(&self) -> Self::Moves {
        let mut moves = Self::Moves::default();
        self.generate_moves(&mut moves);
        moves
    }

    /// The position after `mv`, which must be one of this position's legal moves
    /// (checked only by `debug_assert!`; an illegal move gives an unspecified but
    /// memory-safe position).
    fn play(&self, mv: Self::Move) -> Self;

    /// The Zobrist hash (or any well-mixed 64-bit hash) of the position,
    /// side to move included.
    fn hash(&self) -> u64;

    /// `Some` when the game is over, from the side to move's view.
    fn outcome(&self) -> Option<Outcome>;

    /// A 16-bit key naming `mv` in the transposition table and the history
    /// table. Distinct moves of one position should have distinct keys; a
    /// collision only costs move ordering, never correctness.
    fn move_key(mv: Self::Move) -> u16;

    /// How many keys [`Game::continuation_key`] gives; 0 (the default): the
    /// game keeps no continuation history.
    const CONTINUATION_KEYS: usize = 0;

    /// What `mv`, played from this position, moves where (in chess the
    /// piece, its colour and its destination), below
    /// [`Game::CONTINUATION_KEYS`]: the continuation history scores a move
    /// by the key of the move before it (and the one before that) and its
    /// own.
    #[inline]
    fn continuation_key(&self, _mv: Self::Move) -> u16 {
        0
    }

    // The text forms. A game's first version needs none of them: the search
    // never reads text, and the defaults below name moves by their `Debug`
    // form. The command line, the protocols and the bench suites read and
    // print positions, so a game they play implements all four.

    /// Reads a position from its text form. By default the game has none.
    ///
    /// # Errors
    /// A [`ParseError`] saying what is wrong and where.
    fn parse_position(text: &str) -> Result<Self, ParseError> {
        let _ = text;
        Err(ParseError::new(
            "this game has no text form for positions (Game::parse_position)",
        ))
    }

    /// The position's text form, readable by
    /// [`parse_position`](Game::parse_position). By default empty: the game
    /// has none.
    fn position_text(&self) -> String {
        String::new()
    }

    /// Reads a move legal in this position. By default, the legal move whose
    /// [`move_text`](Game::move_text) is `text`.
    ///
    /// # Errors
    /// A [`ParseError`] when the text is no move, or no legal move here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, ParseError> {
        let text = text.trim();
        self.legal_moves()
            .into_iter()
            .find(|&mv| self.move_text(mv) == text)
            .ok_or_else(|| ParseError::new(format!("'{text}' is no legal move here")))
    }

    /// The move's text form, readable by [`parse_move`](Game::parse_move).
    /// By default its `Debug` form.
    fn move_text(&self, mv: Self::Move) -> String {
        format!("{mv:?}")
    }

    /// The position as bytes for another process of the same program (PV
    /// splitting across a cluster): everything `play`, `outcome` and `hash`
    /// depend on, the history that repetitions need included, so that
    /// [`from_bytes`](Game::from_bytes) gives back an equal position. By
    /// default its text form, which is enough for a game whose text says it all.
    fn to_bytes(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.position_text().as_bytes());
    }

    /// Reads what [`to_bytes`](Game::to_bytes) wrote.
    ///
    /// # Errors
    /// A [`ParseError`] when the bytes are no position of this game (a
    /// damaged message, or another program's).
    fn from_bytes(bytes: &[u8]) -> Result<Self, ParseError> {
        let text = std::str::from_utf8(bytes)
            .map_err(|_| ParseError::new("a position's bytes are not UTF-8 text"))?;
        Self::parse_position(text)
    }
}

/// The engine's judgement of positions of a game `G`.
///
/// Scores are from the side to move's view and must stay strictly inside
/// `±(WIN - MAX_PLY)`, the band reserved for won and lost games. Only
/// [`evaluate`](Evaluator::evaluate) is required; the rest are hooks with
/// neutral defaults (no quiescence moves, no ordering hints, no selectivity).
///
/// ```
/// # use splitpoint::{Evaluator, Game, MoveList, Outcome, Score};
/// # #[derive(Clone)] struct Nim(u8);
/// # impl Game for Nim {
/// #     type Move = u8;
/// #     type Moves = MoveList<u8>;
/// #     fn generate_moves(&self, m: &mut MoveList<u8>) { m.extend(1..=self.0.min(3)) }
/// #     fn play(&self, take: u8) -> Self { Nim(self.0 - take) }
/// #     fn hash(&self) -> u64 { u64::from(self.0).wrapping_mul(0x9e37_79b9_7f4a_7c15) }
/// #     fn outcome(&self) -> Option<Outcome> { (self.0 == 0).then_some(Outcome::Loss) }
/// #     fn move_key(take: u8) -> u16 { u16::from(take) }
/// # }
/// /// Nim with 1 to 3 stones: a multiple of four is lost for the side to move.
/// struct Fours;
///
/// impl Evaluator<Nim> for Fours {
///     fn evaluate(&self, pos: &Nim) -> Score {
///         if pos.0 % 4 == 0 { -100 } else { 100 }
///     }
/// }
///
/// assert_eq!(Fours.evaluate(&Nim(8)), -100);
/// ```
pub trait Evaluator<G: Game>: Send + Sync {
    /// The static score of a position that is not finished.
    fn evaluate(&self, pos: &G) -> Score;

    /// Appends the moves quiescence search follows at and below depth 0
    /// (captures in chess). The default, none, makes quiescence the static score.
    /// In exact mode quiescence follows every noisy move, so the set must be
    /// finite down every line.
    #[inline]
    fn noisy_moves(&self, pos: &G, moves: &mut G::Moves) {
        let _ = (pos, moves);
    }

    /// The score of a finished game reached `ply` plies below the root.
    /// The default values a win by its distance (sooner is better) and a draw as 0.
    #[inline]
    fn terminal_score(&self, pos: &G, outcome: Outcome, ply: usize) -> Score {
        let _ = pos;
        match outcome {
            Outcome::Win => WIN - ply as Score,
            Outcome::Loss => -WIN + ply as Score,
            Outcome::Draw => 0,
        }
    }

    /// Move-ordering hints: writes a score per move into `keys` (larger is
    /// searched earlier). The search adds its own TT-move, killer and history
    /// ordering on top. The default gives every move 0, keeping generation order.
    #[inline]
    fn order_moves(&self, pos: &G, moves: &[G::Move], keys: &mut [i32]) {
        let _ = (pos, moves);
        keys.fill(0);
    }

    /// [`order_moves`] at a node searched on the window of `node`, with
    /// its plies left: an evaluator whose hints come from a search of each
    /// move (the Othello solver's) may fit that search to the window and to
    /// the depth left. The search calls this one; the default ignores the
    /// node and calls [`order_moves`].
    ///
    /// [`order_moves`]: Evaluator::order_moves
    #[inline]
    fn order_moves_at(&self, pos: &G, moves: &[G::Move], keys: &mut [i32], node: OrderNode) {
        let _ = node;
        self.order_moves(pos, moves, keys);
    }

    /// Puts the root's moves in the order the first iteration searches them
    /// (the best for the side to move first). Iterative deepening's shallow
    /// iterations order the root for the deep ones, but a search of one deep
    /// iteration alone (an exact endgame solve) has nothing else: where
    /// the evaluator can rank the moves better than [`order_moves`]'s hints
    /// do, say so here. The default keeps the generator's order.
    ///
    /// [`order_moves`]: Evaluator::order_moves
    fn order_root_moves(&self, pos: &G, moves: &mut [G::Move]) {
        let _ = (pos, moves);
    }

    /// Whether the side to move must answer a threat first: check, in chess
    /// and xiangqi. Such a node is never pruned by a null move, its moves are
    /// never reduced, quiescence does not stand pat there (it takes the best
    /// of [`noisy_moves`](Evaluator::noisy_moves), which should then be every
    /// legal move), and outside exact mode it is searched one ply deeper
    /// (the check extension). The default, never, turns all four off.
    #[inline]
    fn in_check(&self, pos: &G) -> bool {
        let _ = pos;
        false
    }

    /// The position after the side to move passes, for null-move pruning
    /// outside exact mode; `None` where passing is illegal or where zugzwang
    /// makes a pass misleading (chess endings with pawns only, say). The
    /// search never asks in check. The default, `None`, turns null moves off.
    #[inline]
    fn null_move(&self, pos: &G) -> Option<G> {
        let _ = pos;
        None
    }

    /// Whether `mv` is a quiet move that late-move reductions may reduce
    /// outside exact mode (not a capture or a promotion; the search itself
    /// skips moves made in check or giving check). The default, no move,
    /// turns reductions off.
    #[inline]
    fn is_quiet(&self, pos: &G, mv: G::Move) -> bool {
        let _ = (pos, mv);
        false
    }

    /// Whether quiescence may skip the noisy move `mv` outside exact mode
    /// and out of check, where standing pat scored `stand_pat` against the
    /// window's `alpha`: a capture that loses material (by a static
    /// exchange evaluation) or that could not lift the score to alpha
    /// even if it won its victim outright (delta pruning). The default,
    /// never, searches every noisy move.
    #[inline]
    fn skip_in_quiescence(&self, pos: &G, mv: G::Move, stand_pat: Score, alpha: Score) -> bool {
        let _ = (pos, mv, stand_pat, alpha);
        false
    }

    /// What the side to move wins by `mv` once the exchange on its target
    /// square is over (a static exchange evaluation), in score units;
    /// negative where the move loses material. The selective search skips
    /// late moves near the leaves that lose too much. The default, 0, never
    /// skips one.
    #[inline]
    fn exchange(&self, pos: &G, mv: G::Move) -> Score {
        let _ = (pos, mv);
        0
    }

    /// The pruning near the leaves the search may use outside exact mode,
    /// at non-PV nodes out of check, in this evaluator's score units (see
    /// [`Pruning`]). The default, none, leaves the search as selective as
    /// [`Self::null_move`] and [`Self::is_quiet`] make it.
    #[inline]
    fn pruning(&self) -> Option<Pruning> {
        None
    }

    /// A key of what the static score tends to misjudge the same way
    /// wherever it occurs (chess: the pawns and the side to move), well
    /// mixed in its top bits. Outside exact mode a selective search then
    /// corrects the static score its pruning reads (not quiescence's) by
    /// how far its own searches found positions of the same key off
    /// (correction history, kept by each thread). The default, none, turns
    /// it off.
    #[inline]
    fn correction_key(&self, pos: &G) -> Option<u64> {
        let _ = pos;
        None
    }

    /// Whether enhanced transposition cut-offs pay at this node (`depth`
    /// plies left), outside exact mode: before a null-window node searches
    /// its moves, the table is probed for every child, and a child whose
    /// stored upper bound already refutes it ends the node. It costs a move
    /// generation and a probe per move, so it pays only far from the leaves
    /// of trees rich in transpositions (Othello's endgames). The default,
    /// never, turns it off.
    #[inline]
    fn transposition_cutoffs_pay(&self, pos: &G, depth: i32) -> bool {
        let _ = (pos, depth);
        false
    }

    /// Whether the search may try the table's move at a node before it asks
    /// for the other moves' hints ([`order_moves_at`]): at a node that the
    /// table's move cuts, the hints are then never computed. It pays where
    /// hints are dear (the Othello solver's shallow searches). The other
    /// moves are then ordered as they would have been, but for the history
    /// the table move's subtree taught meanwhile, so node counts may shift;
    /// the default, no, keeps every hint computed at once.
    ///
    /// [`order_moves_at`]: Evaluator::order_moves_at
    #[inline]
    fn defers_ordering(&self) -> bool {
        false
    }

    /// Whether a node that fails low (no move reached alpha) stores in the
    /// table the move whose fail-soft score came nearest, for the node's
    /// next search to try first. It pays where the same nodes are searched
    /// again on nearby windows (MTD(f)'s probes in the Othello solver); the
    /// default, no, stores no move for such a node (an entry of the same
    /// position keeps its old move).
    #[inline]
    fn stores_fail_low_move(&self) -> bool {
        false
    }

    /// Whether a node (`depth` plies left) may be worth sharing between
    /// threads, besides the parallel search's own depth threshold: DTS
    /// gives a node a frame of its explicit stack (which it needs to split
    /// it, and which costs a little at every node) only where this holds.
    /// Remaining depth is the usual proxy for a subtree's size; where it is
    /// not (an Othello endgame solved to the end, whose depth also counts
    /// the passes it may need), say so here. The default, always, leaves
    /// it to depth.
    #[inline]
    fn splits_pay(&self, pos: &G, depth: i32) -> bool {
        let _ = (pos, depth);
        true
    }

    /// An exact solver for small subtrees (the last empties of an Othello
    /// endgame). Called at every interior node with `depth` plies left; return
    /// `Some(score)` to stand for the whole subtree, `None` to search it normally.
    ///
    /// The score must be what alpha-beta over the same subtree (same depth,
    /// same terminal scores, ply-relative as given) would return for the window
    /// `(alpha, beta)`: exact inside the window, a bound of the right side
    /// outside it. Count the positions it visits in `nodes`.
    #[inline]
    fn solve_leaf(
        &self,
        pos: &G,
        alpha: Score,
        beta: Score,
        depth: i32,
        ply: usize,
        nodes: &mut u64,
    ) -> Option<Score> {
        let _ = (pos, alpha, beta, depth, ply, nodes);
        None
    }
}

/// The node whose moves [`Evaluator::order_moves_at`] orders: its window
/// and its plies left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderNode {
    /// The node's alpha.
    pub alpha: Score,
    /// The node's beta.
    pub beta: Score,
    /// Its plies left (0 in quiescence).
    pub depth: i32,
    /// The table's upper bound on the node's score, if its entry holds one
    /// (of any depth): where it is at most alpha, the node is expected to
    /// fail low, and an evaluator may order its moves more cheaply.
    pub table_upper: Option<Score>,
}

/// The pruning rules near the leaves an [`Evaluator`] may turn on (see
/// [`Evaluator::pruning`]), read only outside exact mode, at non-PV nodes
/// not in check. A depth of 0 turns its rule off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pruning {
    /// Reverse futility: with this many plies left or fewer, a node whose
    /// static score beats beta by `reverse_futility_margin` per ply left
    /// returns that score without a search.
    pub reverse_futility_depth: i32,
    /// Reverse futility's margin per ply left.
    pub reverse_futility_margin: Score,
    /// Futility: with this many plies left or fewer, once a move is
    /// searched, quiet moves (not giving check) are skipped when the static
    /// score plus `futility_margin` per ply left (and one more) stays at or
    /// below alpha.
    pub futility_depth: i32,
    /// Futility's margin per ply left.
    pub futility_margin: Score,
    /// Late-move pruning: with this many plies left or fewer, quiet moves
    /// (not giving check) after the first `3 + depth²` are skipped.
    pub late_move_depth: i32,
    /// Exchange pruning: with this many plies left or fewer, once a move is
    /// searched, a move not giving check whose static exchange
    /// ([`Evaluator::exchange`]) loses more than the margin per ply left is
    /// skipped.
    pub exchange_depth: i32,
    /// Exchange pruning's margin per ply left for quiet moves.
    pub exchange_quiet_margin: Score,
    /// Exchange pruning's margin per ply left for noisy moves.
    pub exchange_noisy_margin: Score,
}
