//! Captures: the longest-capture rule's search for every piece's capture
//! sequences, and the route of one capture (for its notation).

use arrayvec::ArrayVec;
use splitpoint::MoveList;

use super::board::{Bits, DIRS, Dir, step};
use super::position::{Draughts, Move};

impl Draughts {
    /// Appends the legal captures of the side to move: those that take the
    /// most pieces, each (from, to, captured) once.
    pub(super) fn generate_captures(&self, moves: &mut MoveList<Move>) {
        let s = self.sides();
        let mut search = CaptureSearch {
            them: s.them,
            empty: 0,
            from: 0,
            best: 0,
            moves,
        };
        for from in Bits(s.us) {
            let b = 1u64 << from;
            search.from = from as u8;
            search.empty = self.empty() | b;
            if s.kings & b != 0 {
                search.king_jumps(b, 0);
            } else {
                search.man_jumps(b, 0);
            }
        }
    }

    /// One route of the capture `mv` (the first found, in direction order),
    /// or `None` when `mv` is no capture of this position.
    pub(crate) fn find_route(&self, mv: Move) -> Option<Route> {
        let s = self.sides();
        let from = 1u64 << mv.from;
        if s.us & from == 0 || mv.captured & !s.them != 0 {
            return None;
        }
        let finder = RouteFinder {
            them: s.them,
            empty: self.empty() | from,
            king: s.kings & from != 0,
            target: mv,
        };
        let mut route = Route::default();
        finder.search(from, 0, &mut route).then_some(route)
    }
}

/// One capture route: for each capture, the direction of the jump, the
/// victim and the landing square (bits).
#[derive(Default, Debug)]
pub(crate) struct Route {
    pub dirs: ArrayVec<Dir, 20>,
    pub victims: ArrayVec<u64, 20>,
    pub landings: ArrayVec<u64, 20>,
}

/// The depth-first search for one piece's capture sequences.
///
/// Captured pieces stay on the board until the move ends (they are still in
/// `them` and not in `empty`), so they block both landing and passing, and no
/// piece is jumped twice.
struct CaptureSearch<'a> {
    them: u64,
    /// The empty squares, the moving piece's own square included.
    empty: u64,
    from: u8,
    /// The most pieces any capture found so far takes.
    best: u32,
    moves: &'a mut MoveList<Move>,
}

impl CaptureSearch<'_> {
    /// A man on `at` having captured `captured`: jumps on in all four
    /// directions, or ends the move there.
    fn man_jumps(&mut self, at: u64, captured: u64) {
        let mut ended = true;
        for d in DIRS {
            let victim = step(at, d) & self.them & !captured;
            let landing = step(victim, d) & self.empty;
            if landing != 0 {
                ended = false;
                self.man_jumps(landing, captured | victim);
            }
        }
        if ended && captured != 0 {
            self.record(at, captured);
        }
    }

    /// A king on `at` having captured `captured`: flies to each victim along
    /// the four diagonals, lands on any empty square behind it and goes on,
    /// or ends the move there.
    fn king_jumps(&mut self, at: u64, captured: u64) {
        let mut ended = true;
        for d in DIRS {
            let mut sq = step(at, d);
            while sq & self.empty != 0 {
                sq = step(sq, d);
            }
            let victim = sq & self.them & !captured;
            let mut landing = step(victim, d) & self.empty;
            while landing != 0 {
                ended = false;
                self.king_jumps(landing, captured | victim);
                landing = step(landing, d) & self.empty;
            }
        }
        if ended && captured != 0 {
            self.record(at, captured);
        }
    }

    /// Keeps a finished capture if it takes the most pieces and is new.
    fn record(&mut self, at: u64, captured: u64) {
        let count = captured.count_ones();
        if count < self.best {
            return;
        }
        if count > self.best {
            self.best = count;
            self.moves.clear();
        }
        let mv = Move {
            from: self.from,
            to: at.trailing_zeros() as u8,
            captured,
        };
        // Two routes over the same pieces to the same square are one move.
        if count >= 2 && self.moves.contains(&mv) {
            return;
        }
        // Never more than MAX_MOVES distinct captures in a real position;
        // past that, the list keeps what fits rather than panic.
        let _ = self.moves.try_push(mv);
    }
}

/// Finds one route of a known capture (text output only, not the hot path).
struct RouteFinder {
    them: u64,
    empty: u64,
    king: bool,
    target: Move,
}

impl RouteFinder {
    fn search(&self, at: u64, captured: u64, route: &mut Route) -> bool {
        if captured == self.target.captured {
            return at == 1 << self.target.to;
        }
        for d in DIRS {
            let mut sq = step(at, d);
            while self.king && sq & self.empty != 0 {
                sq = step(sq, d);
            }
            // Only the move's own victims are worth following.
            let victim = sq & self.them & self.target.captured & !captured;
            let mut landing = step(victim, d) & self.empty;
            while landing != 0 {
                route.dirs.push(d);
                route.victims.push(victim);
                route.landings.push(landing);
                if self.search(landing, captured | victim, route) {
                    return true;
                }
                route.dirs.pop();
                route.victims.pop();
                route.landings.pop();
                landing = if self.king {
                    step(landing, d) & self.empty
                } else {
                    0
                };
            }
        }
        false
    }
}
