//! Any text read as a move (ICCS, or UCI with ranks 1-10) of a few fixed
//! xiangqi positions (the start, a midgame, a mate in one): never a panic, and a
//! move that reads is legal there and its own text reads back as it.
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use splitpoint::Game;
use splitpoint_fuzz::{MAX_TEXT, check_move, positions, text};
use splitpoint_games::xiangqi::{MIDDLEGAMES, Xiangqi};

static POSITIONS: LazyLock<Vec<Xiangqi>> = LazyLock::new(|| {
    positions(&[
        "startpos",
        MIDDLEGAMES[0].1,
        "3k5/1R7/9/9/9/9/9/9/9/R4K3 w - - 0 1",
    ])
});

fuzz_target!(|data: &[u8]| {
    if let Some(text) = text(data, MAX_TEXT) {
        check_move(&POSITIONS, &[Xiangqi::parse_move, Xiangqi::parse_uci], text);
    }
});
