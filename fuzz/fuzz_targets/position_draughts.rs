//! Any text read as an international draughts position: never a panic, and what
//! reads keeps every promise of `splitpoint_fuzz::check_position` (the text
//! form reads back the same; every legal move's text reads back as that move; the evaluator keeps its promises).
#![no_main]

use libfuzzer_sys::fuzz_target;
use splitpoint_fuzz::{MAX_TEXT, check_position, text};
use splitpoint_games::draughts::{Draughts, DraughtsEval};

fuzz_target!(|data: &[u8]| {
    if let Some(text) = text(data, MAX_TEXT) {
        check_position::<Draughts>(text, &[&DraughtsEval]);
    }
});
