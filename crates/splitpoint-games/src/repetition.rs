//! The repetition rule the games with histories share, and the history
//! they keep for it.

use splitpoint::ParseError;

/// The hashes of the positions before this one, oldest first, the last `N`
/// at most: positions are copied at every move, so a small array rather than
/// a growing list, and repetitions further back are not seen. The first
/// `game_len` come from the game before the search root.
#[derive(Clone, Copy)]
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

/// Histories are equal when they remember the same positions (what lies in
/// the array past `len` is left over from before a clear).
impl<const N: usize> PartialEq for History<N> {
    fn eq(&self, other: &Self) -> bool {
        self.game_len == other.game_len
            && self.hashes[..self.len as usize] == other.hashes[..other.len as usize]
    }
}

impl<const N: usize> Eq for History<N> {}

impl<const N: usize> History<N> {
    /// The history as one line of text, for a position's bytes
    /// ([`Game::to_bytes`](splitpoint::Game::to_bytes)): how many positions
    /// are the game's, then every hash in hex, oldest first.
    pub fn to_text(self) -> String {
        let mut text = self.game_len.to_string();
        for h in &self.hashes[..self.len as usize] {
            text.push_str(&format!(" {h:x}"));
        }
        text
    }

    /// Reads what [`History::to_text`] wrote.
    pub fn from_text(text: &str) -> Result<Self, ParseError> {
        let bad = || ParseError::new(format!("bad position history '{text}'"));
        let mut fields = text.split_whitespace();
        let game_len: u8 = fields.next().and_then(|f| f.parse().ok()).ok_or_else(bad)?;
        let mut history = Self::EMPTY;
        for field in fields {
            let hash = u64::from_str_radix(field, 16).map_err(|_| bad())?;
            if history.len as usize == N {
                return Err(bad());
            }
            history.remember(hash);
        }
        if game_len > history.len {
            return Err(bad());
        }
        history.game_len = game_len;
        Ok(history)
    }
}

/// The lines of a position's bytes as the games with histories write them
/// (the text form first, then what the text does not say).
pub(crate) fn byte_lines<const K: usize>(bytes: &[u8]) -> Result<[&str; K], ParseError> {
    let text = std::str::from_utf8(bytes)
        .map_err(|_| ParseError::new("a position's bytes are not UTF-8 text"))?;
    let lines: Vec<&str> = text.split('\n').collect();
    lines
        .try_into()
        .map_err(|_| ParseError::new(format!("a position's bytes need {K} lines")))
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
