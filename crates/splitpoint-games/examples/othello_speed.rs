//! Othello speed: the leaf solver alone on positions with 10-14 empties, then
//! FFO #40-#44 through the engine (one exact iteration at 2 * empties + 2).
//!
//! `cargo run --release -p splitpoint-games --example othello_speed [first-ffo last-ffo]`

use std::time::Instant;

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use splitpoint::{Engine, Evaluator, Game, INFINITY, Limits, MoveList, OrderNode, Outcome, Score};
use splitpoint_games::othello::{Othello, OthelloExact, OthelloMove, ffo_positions, solve_limits};

/// `OthelloExact` counting the engine's interior nodes by empties (set
/// `PROFILE=1`), to see where the generic search spends its nodes.
struct Counting(OthelloExact, [AtomicU64; 65]);

impl Evaluator<Othello> for Counting {
    fn evaluate(&self, pos: &Othello) -> Score {
        self.0.evaluate(pos)
    }
    fn terminal_score(&self, pos: &Othello, outcome: Outcome, ply: usize) -> Score {
        self.0.terminal_score(pos, outcome, ply)
    }
    fn order_moves(&self, pos: &Othello, moves: &[OthelloMove], keys: &mut [i32]) {
        self.1[pos.empty_count() as usize].fetch_add(1, Relaxed);
        self.0.order_moves(pos, moves, keys)
    }
    fn order_moves_at(
        &self,
        pos: &Othello,
        moves: &[OthelloMove],
        keys: &mut [i32],
        node: OrderNode,
    ) {
        self.1[pos.empty_count() as usize].fetch_add(1, Relaxed);
        self.0.order_moves_at(pos, moves, keys, node)
    }
    fn defers_ordering(&self) -> bool {
        self.0.defers_ordering()
    }
    fn stores_fail_low_move(&self) -> bool {
        self.0.stores_fail_low_move()
    }
    fn solve_leaf(
        &self,
        pos: &Othello,
        a: Score,
        b: Score,
        d: i32,
        ply: usize,
        nodes: &mut u64,
    ) -> Option<Score> {
        self.0.solve_leaf(pos, a, b, d, ply, nodes)
    }
}

fn main() {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (first, last) = match args.as_slice() {
        [a, b] => (*a, *b),
        [a] => (*a, *a),
        _ => (40, 44),
    };

    // Positions: FFO positions played down by a deterministic pseudo-random line.
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let suite = ffo_positions();
    let leaf_sizes: &[u32] = if std::env::var("LEAF").is_ok_and(|v| v == "0") {
        &[]
    } else {
        &[10, 12, 14]
    };
    for &empties in leaf_sizes {
        let mut positions = Vec::new();
        for (i, ffo) in suite.iter().cycle().take(40).enumerate() {
            let mut pos = ffo.position;
            let mut moves = MoveList::new();
            while pos.empty_count() > empties {
                moves.clear();
                pos.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos = pos.play(moves[(seed as usize + i) % moves.len()]);
            }
            if pos.outcome().is_none() {
                positions.push(pos);
            }
        }
        let start = Instant::now();
        let mut nodes = 0;
        let mut check = 0i64;
        for pos in &positions {
            check += OthelloExact::solve(pos, -INFINITY, INFINITY, &mut nodes) as i64;
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "leaf solver, {empties} empties: {} positions, {nodes} nodes, {:.3} s, {:.1} M nodes/s (checksum {check})",
            positions.len(),
            secs,
            nodes as f64 / secs / 1e6
        );
    }

    let profile = std::env::var("PROFILE").is_ok_and(|v| v == "1");
    let mut engine = Engine::new(
        Counting(OthelloExact, std::array::from_fn(|_| AtomicU64::new(0))),
        64,
    );
    let (mut total_nodes, mut total_secs) = (0, 0.0);
    for ffo in suite.iter().filter(|p| (first..=last).contains(&p.id)) {
        engine.clear();
        let limits = Limits {
            exact: std::env::var("EXACT").map_or(true, |v| v != "0"),
            ..solve_limits(&ffo.position)
        };
        let r = engine.search(&ffo.position, &limits);
        let best = r
            .best_move
            .map(|m| ffo.position.move_text(m))
            .unwrap_or_default();
        let ok = r.score == ffo.score && r.best_move.is_some_and(|m| ffo.best.contains(&m));
        println!(
            "FFO #{} ({} empties): score {:+} best {best} {} | {:.3} s, {} nodes, {:.1} M nodes/s, first-move cutoffs {:.1}%",
            ffo.id,
            ffo.empties,
            r.score,
            if ok { "ok" } else { "WRONG" },
            r.elapsed.as_secs_f64(),
            r.stats.nodes,
            r.nps() / 1e6,
            100.0 * r.stats.first_move_cutoff_rate(),
        );
        if profile {
            let counts = &engine.evaluator().1;
            let line: Vec<String> = (0..65)
                .filter_map(|e| {
                    Some(counts[e].swap(0, Relaxed))
                        .filter(|&c| c > 0)
                        .map(|c| format!("{e}:{c}"))
                })
                .collect();
            println!("  interior nodes by empties: {}", line.join(" "));
        }
        total_nodes += r.stats.nodes;
        total_secs += r.elapsed.as_secs_f64();
    }
    println!(
        "total: {total_secs:.3} s, {total_nodes} nodes, {:.1} M nodes/s",
        total_nodes as f64 / total_secs / 1e6
    );
}
