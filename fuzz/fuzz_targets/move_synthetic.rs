//! Any text read as a move (a child number) of a few fixed synthetic-tree
//! nodes (a root, an interior node, a leaf): never a panic, and a move that
//! reads exists there and its own text reads back as it.
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use splitpoint::Game;
use splitpoint_fuzz::{MAX_TEXT, check_move, positions, text};
use splitpoint_games::synthetic::Synthetic;

static POSITIONS: LazyLock<Vec<Synthetic>> = LazyLock::new(|| {
    let mut nodes = positions::<Synthetic>(&["b=6,d=8,seed=1", "b=3,d=2,seed=5,q=0.9"]);
    let interior = nodes[1].play(2);
    let leaf = interior.play(0);
    nodes.extend([interior, leaf]);
    nodes
});

fuzz_target!(|data: &[u8]| {
    if let Some(text) = text(data, MAX_TEXT) {
        check_move(&POSITIONS, &[Synthetic::parse_move], text);
    }
});
