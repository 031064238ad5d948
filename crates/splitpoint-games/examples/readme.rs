// The README's "library in ten lines"; tests/readme.rs keeps the two the same.
use splitpoint::{Algorithm, Engine, Game, Limits};
use splitpoint_games::othello::{Othello, OthelloEval};

fn main() {
    let start = Othello::start();
    let mut engine = Engine::new(OthelloEval, 64); // a 64 MiB table
    engine.set_parallelism(Algorithm::Dts, 2); // two threads of Dynamic Tree Splitting
    let result = engine.search(&start, &Limits::to_depth(8));
    let best = result.best_move.map(|m| start.move_text(m));
    // OthelloEval's scores are hundredths of a disc, from the side to move's view.
    println!("depth 8: best {best:?}, score {}", result.score);
    // Exact mode: the score plain negamax finds at that depth, at any thread count.
    let exact = engine.search(&start, &Limits::to_depth(6).exact());
    println!("depth 6, exact: score {}", exact.score);
}
