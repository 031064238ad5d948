//! What the fuzz targets share: the promises every game's text forms keep,
//! and a protocol session fed one input.
//!
//! Each target in `fuzz_targets/` is a few lines naming a game or a
//! protocol; the checks live here, so every game is held to the same ones.
//! A check that fails panics, and libFuzzer reports the input.

use std::fmt::Debug;
use std::io::{self, Cursor, Write};

use splitpoint::{Evaluator, Game, ParseError, WIN_BOUND};

/// The longest position or move text tried, in bytes: a FEN, a PDN FEN
/// listing every piece, a Hub position, all fit with room to spare.
pub const MAX_TEXT: usize = 512;

/// The longest protocol session or suite tried, in bytes.
pub const MAX_SESSION: usize = 4096;

/// `data` as text, when it is UTF-8 of at most `max` bytes.
pub fn text(data: &[u8], max: usize) -> Option<&str> {
    if data.len() > max {
        return None;
    }
    std::str::from_utf8(data).ok()
}

/// If `text` reads as a position: its text form reads back as the same
/// position (same hash, outcome, legal moves and text), every legal move's
/// text reads back as that move, every child can be played, judged and
/// written and read back the same way, and each of `evals` keeps its
/// promises on the position and every child ([`check_evaluator`]). Returns
/// the position.
pub fn check_position<G: Game>(text: &str, evals: &[&dyn Evaluator<G>]) -> Option<G> {
    let pos = G::parse_position(text).ok()?;
    let again = check_text_round_trip(&pos, &text);
    assert_eq!(
        again.outcome(),
        pos.outcome(),
        "{text:?}: the outcome changed when read back"
    );
    for eval in evals {
        check_evaluator(&pos, *eval);
    }
    for mv in pos.legal_moves() {
        check_move_text(&pos, mv);
        let child = pos.play(mv);
        let parent = pos.position_text();
        let what = format!("{parent:?} after {}", pos.move_text(mv));
        check_text_round_trip(&child, &what);
        for eval in evals {
            check_evaluator(&child, *eval);
        }
    }
    Some(pos)
}

/// What the search relies on from an evaluator, on any position: a static
/// score strictly inside the band below a win (for a game not over), noisy
/// moves that are legal moves (every legal move in check), move-ordering
/// keys, and a null move, where there is one, that is a position like any
/// other; never a panic.
pub fn check_evaluator<G: Game>(pos: &G, eval: &dyn Evaluator<G>) {
    let what = || pos.position_text();
    let legal = pos.legal_moves();
    if pos.outcome().is_none() {
        let score = eval.evaluate(pos);
        assert!(
            -WIN_BOUND < score && score < WIN_BOUND,
            "{:?}: static score {score} is outside the band below a win",
            what()
        );
    }
    let mut noisy = G::Moves::default();
    eval.noisy_moves(pos, &mut noisy);
    for mv in noisy.iter() {
        assert!(
            legal.contains(mv),
            "{:?}: noisy move {mv:?} is not a legal move",
            what()
        );
    }
    let in_check = eval.in_check(pos);
    if in_check {
        assert!(
            legal.iter().all(|mv| noisy.contains(mv)),
            "{:?}: in check, but not every legal move is noisy",
            what()
        );
    }
    let mut keys = vec![0; legal.len()];
    eval.order_moves(pos, &legal, &mut keys);
    for &mv in legal.iter() {
        let _ = eval.is_quiet(pos, mv);
    }
    if !in_check && let Some(passed) = eval.null_move(pos) {
        let _ = (passed.outcome(), passed.hash(), passed.legal_moves());
        if passed.outcome().is_none() {
            let _ = eval.evaluate(&passed);
        }
    }
}

/// `pos`'s text form read back: the same hash, legal moves and text.
fn check_text_round_trip<G: Game>(pos: &G, what: &dyn Debug) -> G {
    let written = pos.position_text();
    let again = G::parse_position(&written)
        .unwrap_or_else(|e| panic!("{what:?}: its text {written:?} does not read back: {e}"));
    assert_eq!(
        again.hash(),
        pos.hash(),
        "{what:?}: its text {written:?} reads back with another hash"
    );
    assert_eq!(
        again.position_text(),
        written,
        "{what:?}: its text {written:?} is written differently when read back"
    );
    assert_eq!(
        &again.legal_moves()[..],
        &pos.legal_moves()[..],
        "{what:?}: its text {written:?} reads back with other moves"
    );
    again
}

/// `mv`'s text reads back as `mv`.
fn check_move_text<G: Game>(pos: &G, mv: G::Move) {
    let text = pos.move_text(mv);
    let back = pos.parse_move(&text).unwrap_or_else(|e| {
        panic!(
            "{:?}: the text {text:?} of legal move {mv:?} does not read back: {e}",
            pos.position_text()
        )
    });
    assert_eq!(
        back,
        mv,
        "{:?}: {text:?} reads back as another move",
        pos.position_text()
    );
}

/// A move reader: [`Game::parse_move`], or a notation of one game's own.
pub type MoveReader<G> = fn(&G, &str) -> Result<<G as Game>::Move, ParseError>;

/// If `text` reads as a move of a position (by any of `readers`): the move
/// is legal there, can be played, and its own text reads back as it.
pub fn check_move<G: Game>(positions: &[G], readers: &[MoveReader<G>], text: &str) {
    for pos in positions {
        let legal = pos.legal_moves();
        for read in readers {
            if let Ok(mv) = read(pos, text) {
                assert!(
                    legal.contains(&mv),
                    "{:?}: {text:?} reads as {mv:?}, which is not a legal move",
                    pos.position_text()
                );
                check_move_text(pos, mv);
                let _ = pos.play(mv).outcome();
            }
        }
    }
}

/// Reads a list of position texts (a fuzz target's fixed positions).
///
/// # Panics
/// If one does not read: the target itself is wrong.
pub fn positions<G: Game>(texts: &[&str]) -> Vec<G> {
    texts
        .iter()
        .map(|t| G::parse_position(t).unwrap_or_else(|e| panic!("fixed position {t:?}: {e}")))
        .collect()
}

/// The largest table size (MiB) or thread count a protocol input may set:
/// enough to reach every path, little enough that one input runs in
/// milliseconds.
const MAX_OPTION: u64 = 4;

/// Runs a protocol session on `setup` then `data`'s lines, writing to a sink,
/// until the end of input (or `quit`). Every number on a line naming the
/// table size is capped at 4 (MiB), on a line naming threads at 4: a table
/// of gigabytes or hundreds of threads only make the fuzzer slow. Searches
/// need no cap: the end of input stops them all, each after its first
/// iteration at most.
pub fn run_session(
    session: impl FnOnce(Cursor<Vec<u8>>, Box<dyn Write + Send>),
    setup: &str,
    data: &[u8],
) {
    if data.len() > MAX_SESSION {
        return;
    }
    let mut input = setup.as_bytes().to_vec();
    for line in data.split(|&b| b == b'\n') {
        input.extend(tame(line));
        input.push(b'\n');
    }
    session(Cursor::new(input), Box::new(io::sink()));
}

/// `line` with its numbers capped (see [`run_session`]).
fn tame(line: &[u8]) -> Vec<u8> {
    let lower = line.to_ascii_lowercase();
    let names = |word: &[u8]| lower.windows(word.len()).any(|w| w == word);
    if !names(b"hash") && !names(b"thread") {
        return line.to_vec();
    }
    let mut out = Vec::with_capacity(line.len());
    let mut i = 0;
    while i < line.len() {
        if !line[i].is_ascii_digit() {
            out.push(line[i]);
            i += 1;
            continue;
        }
        let end = line[i..]
            .iter()
            .position(|b| !b.is_ascii_digit())
            .map_or(line.len(), |n| i + n);
        let digits = &line[i..end];
        let value = std::str::from_utf8(digits)
            .ok()
            .and_then(|d| d.parse::<u64>().ok());
        if value.is_some_and(|v| v <= MAX_OPTION) {
            out.extend_from_slice(digits);
        } else {
            out.extend_from_slice(MAX_OPTION.to_string().as_bytes());
        }
        i = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::tame;

    #[test]
    fn only_table_and_thread_numbers_are_capped() {
        let t = |s: &str| String::from_utf8(tame(s.as_bytes())).unwrap();
        assert_eq!(
            t("setoption name Hash value 8192"),
            "setoption name Hash value 4"
        );
        assert_eq!(t("setoption hashsize 3"), "setoption hashsize 3");
        assert_eq!(
            t("set-param name=threads value=256"),
            "set-param name=threads value=4"
        );
        assert_eq!(
            t("setoption name THREADS value +0099999999999999999999"),
            "setoption name THREADS value +4"
        );
        assert_eq!(t("go depth 99"), "go depth 99");
    }
}
