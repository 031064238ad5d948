//! Any text read as a xiangqi position: never a panic, and what reads keeps
//! every promise of `splitpoint_fuzz::check_position` (the text form reads back
//! the same; every legal move's text reads back as that move).
#![no_main]

use libfuzzer_sys::fuzz_target;
use splitpoint_fuzz::{MAX_TEXT, check_position, text};
use splitpoint_games::xiangqi::{Xiangqi, XiangqiEval};

fuzz_target!(|data: &[u8]| {
    if let Some(text) = text(data, MAX_TEXT) {
        check_position::<Xiangqi>(text, &[&XiangqiEval::default()]);
    }
});
