//! Any text read as a move (UCI or SAN, as `parse_move`, `parse_uci` and
//! `parse_san` read it) of a few fixed chess positions (the start, two
//! middlegames, one with castling both ways, en passant and promotions):
//! never a panic, and a move that reads is legal there and its own text
//! reads back as it.
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use splitpoint::Game;
use splitpoint_fuzz::{MAX_TEXT, check_move, positions, text};
use splitpoint_games::chess::{Chess, MIDDLEGAMES};

static POSITIONS: LazyLock<Vec<Chess>> = LazyLock::new(|| {
    positions(&[
        "startpos",
        MIDDLEGAMES[0].1,
        MIDDLEGAMES[1].1,
        "r3k2r/1P6/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 1",
    ])
});

fuzz_target!(|data: &[u8]| {
    if let Some(text) = text(data, MAX_TEXT) {
        check_move(
            &POSITIONS,
            &[Chess::parse_move, Chess::parse_uci, Chess::parse_san],
            text,
        );
    }
});
