//! Any text read as a move of a few fixed Othello positions (the start, a
//! midgame, one whose only move is a pass): never a panic, and a move that
//! reads is legal there and its own text reads back as it.
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use splitpoint::Game;
use splitpoint_fuzz::{MAX_TEXT, check_move, positions, text};
use splitpoint_games::othello::Othello;

static POSITIONS: LazyLock<Vec<Othello>> = LazyLock::new(|| {
    positions(&[
        "start",
        "---------OOOO----X-OXOX--XXXXXO--OOXOOOO---OXOO----OXOX-----X-XO O",
        "XO-------------------------------------------------------------- O",
    ])
});

fuzz_target!(|data: &[u8]| {
    if let Some(text) = text(data, MAX_TEXT) {
        check_move(&POSITIONS, &[Othello::parse_move], text);
    }
});
