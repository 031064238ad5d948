//! The repetition rule the games with histories share.

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
