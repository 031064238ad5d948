//! Any text read as a move (PDN or Hub) of a few fixed international
//! draughts positions (the start, a midgame, a king's multiple capture, a
//! capture with routes merged): never a panic, and a move that reads is
//! legal there and its own text reads back as it.
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use splitpoint::Game;
use splitpoint_fuzz::{MAX_TEXT, check_move, positions, text};
use splitpoint_games::draughts::{Draughts, MIDDLEGAMES};

static POSITIONS: LazyLock<Vec<Draughts>> = LazyLock::new(|| {
    positions(&[
        "start",
        MIDDLEGAMES[0].1,
        "W:WK46:B21,22,37,42",
        "W:WK32:B17,18,27,28",
        "B:W23,32,37-40,44-47,49,50:B1-11,13-15,21,35,K26",
    ])
});

fuzz_target!(|data: &[u8]| {
    if let Some(text) = text(data, MAX_TEXT) {
        check_move(&POSITIONS, &[Draughts::parse_move], text);
    }
});
