//! Prints Othello midgame positions reached by seeded random play (used once to
//! make the bench's embedded suite; kept so the suite can be remade).
use splitpoint::{Game, MoveList};
use splitpoint_games::othello::Othello;
fn main() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut made = 0;
    while made < 12 {
        let plies = 16 + (next() % 14) as usize;
        let mut pos = Othello::start();
        let mut ok = true;
        for _ in 0..plies {
            let mut moves = MoveList::new();
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                ok = false;
                break;
            }
            pos = pos.play(moves[(next() % moves.len() as u64) as usize]);
        }
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        if ok && moves.len() >= 4 && !pos.move_text(moves[0]).starts_with('p') {
            println!("{}", pos.position_text());
            made += 1;
        }
    }
}
