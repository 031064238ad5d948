//! The repetition rule the games with histories share, and the history
//! they keep for it.

/// The hashes of the positions before this one, oldest first, the last `N`
/// at most: positions are copied at every move, so a small array rather than
/// a growing list, and repetitions further back are not seen. The first
/// `game_len` come from the game before the search root.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct History<const N: usize> {
    hashes: [u64; N],
    len: u8,
    game_len: u8,
}

impl<const N: usize> History<N> {
    /// No earlier position.
    pub const EMPTY: Self = {
        assert!(N <= u8::MAX as usize);
        History {
            hashes: [0; N],
            len: 0,
            game_len: 0,
        }
    };

    /// How many positions it remembers.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Forgets every position (after an irreversible move no earlier
    /// position can come back).
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
        self.game_len = 0;
    }

    /// Remembers `hash` as the position before this one; true when the
    /// oldest was forgotten to make room.
    #[inline]
    pub fn remember(&mut self, hash: u64) -> bool {
        let full = self.len as usize == N;
        if full {
            self.hashes.copy_within(1.., 0);
            self.len -= 1;
            self.game_len = self.game_len.saturating_sub(1);
        }
        self.hashes[self.len as usize] = hash;
        self.len += 1;
        full
    }

    /// Marks every remembered position as the game's, before the search root.
    pub fn make_root(&mut self) {
        self.game_len = self.len;
    }

    /// How many plies back the repetition that `hash` makes lies, if it
    /// makes one (see [`repeat_distance`]).
    #[inline]
    pub fn repeat_distance(&self, hash: u64) -> Option<usize> {
        repeat_distance(
            &self.hashes[..self.len as usize],
            hash,
            self.game_len as usize,
        )
    }
}

/// How many plies back lies the earlier occurrence of `hash` that makes the
/// current position a repetition, if one does: one occurrence after the
/// root (`game_len`, the plies of the game before the search), or two
/// within the game itself. `history` holds the earlier positions' hashes,
/// oldest first.
pub(crate) fn repeat_distance(history: &[u64], hash: u64, game_len: usize) -> Option<usize> {
    let len = history.len();
    let mut game_hits = 0;
    // The same side moves every second ply, and a position cannot recur
    // before four plies have passed.
    let mut distance = 4;
    while distance <= len {
        let i = len - distance;
        if history[i] == hash {
            game_hits += usize::from(i < game_len);
            if i >= game_len || game_hits == 2 {
                return Some(distance);
            }
        }
        distance += 2;
    }
    None
}
