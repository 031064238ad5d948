//! Any text read as a suite file of each game (`Suite::parse`, with or
//! without a depth from the command line), or as EPD (`parse_epd`): never a
//! panic, and a suite that reads has positions of its game whose best moves
//! are written as the game writes them.
#![no_main]

use libfuzzer_sys::fuzz_target;
use splitpoint::Game;
use splitpoint_games::registry::GameName;
use splitpoint_bench::suite::Suite;
use splitpoint_fuzz::{MAX_SESSION, text};
use splitpoint_games::chess::{Chess, parse_epd};
use splitpoint_games::draughts::Draughts;
use splitpoint_games::othello::Othello;
use splitpoint_games::synthetic::Synthetic;
use splitpoint_games::xiangqi::Xiangqi;

fuzz_target!(|data: &[u8]| {
    // The first byte chooses the game (or EPD) and whether a depth is given.
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    let Some(text) = text(rest, MAX_SESSION) else {
        return;
    };
    let games = GameName::ALL.len();
    let Some(&game) = GameName::ALL.get(usize::from(choice) % (games + 1)) else {
        if let Ok(records) = parse_epd(text) {
            for r in records {
                for mv in r.best_moves {
                    assert!(r.position.legal_moves().contains(&mv));
                }
            }
        }
        return;
    };
    let depth = (choice & 0x80 != 0).then_some(4);
    if let Ok(suite) = Suite::parse("fuzz", text, game, depth) {
        assert!(!suite.positions.is_empty());
        for p in &suite.positions {
            match suite.game {
                GameName::Othello => check::<Othello>(&p.text, &p.best_moves),
                GameName::Synthetic => check::<Synthetic>(&p.text, &p.best_moves),
                GameName::Chess => check::<Chess>(&p.text, &p.best_moves),
                GameName::Draughts => check::<Draughts>(&p.text, &p.best_moves),
                GameName::Xiangqi => check::<Xiangqi>(&p.text, &p.best_moves),
            }
        }
    }
});

/// The position reads, and each best move reads as a move written as given.
fn check<G: Game>(text: &str, best: &[String]) {
    let pos = G::parse_position(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    for m in best {
        let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("{m:?}: {e}"));
        assert_eq!(&pos.move_text(mv), m, "{text:?}");
    }
}
