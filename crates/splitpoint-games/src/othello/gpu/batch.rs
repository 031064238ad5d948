//! Many endgames solved on the device together: `solve --file F
//! --algorithm gpu`.
//!
//! One position's tree gives the device a few subtrees at a time; a file of
//! positions gives it thousands. Each position is searched on the host by
//! fail-soft alpha-beta down to a *frontier* by empty squares; the nodes at
//! the frontier are the device's subtrees, solved to the end of the game by
//! the `search` kernel, one work-item each. A position's search is a
//! resumable machine (an explicit stack of frames): when it needs the
//! device it queues subtrees and waits, and the host moves on to the next
//! position. When every position in flight waits, the queue goes to the
//! device in one launch (or several of at most [`BatchConfig::max_batch`]),
//! the scores come back and the searches resume. A position that finishes
//! makes room for the next one of the file (a host-side global work queue),
//! so launches stay full until the file runs out.
//!
//! A node just above the frontier (its children are frontier nodes) waits
//! for its eldest child, searched in the node's window, then queues every
//! younger brother at once in a null window on the new alpha, and the ones
//! that fail high (below beta) once more in the full window: the serial
//! search's young-brother rule, so each score folded in is exact where it
//! lies inside its window and a bound on the right side where not, and the
//! node's fail-soft value is the serial search's. Nodes further up search
//! their children one after the other (fastest-first order), as plain
//! alpha-beta. Nothing is speculative, so no device work is ever thrown
//! away.
//!
//! The host's per-node work allocates nothing: frames live in one stack per
//! slot of the work queue, reused from position to position, and the
//! launch's buffers (host and device) grow to the largest batch and are
//! reused.

use std::time::{Duration, Instant};

use arrayvec::ArrayVec;
use splitpoint::{Game, MoveList};

use super::{DeviceEval, Gpu, GpuError, LaunchTimes, MAX_EMPTIES, Searched, Subtree};
use crate::othello::{Othello, OthelloMove, mobility};

/// How the positions' trees are split between the host and the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchConfig {
    /// Plies the host searches above the frontier: a position of `e`
    /// empties sends the device subtrees of `e - host_plies` empties (or
    /// fewer, see `device_empties`). 0 sends each position whole.
    pub host_plies: u32,
    /// The most empty squares a subtree for the device may have: deeper
    /// positions are split further on the host (at most
    /// [`MAX_EMPTIES`](super::MAX_EMPTIES)).
    pub device_empties: u32,
    /// The most subtrees one launch carries (a bigger queue is split).
    pub max_batch: usize,
    /// The most positions searched at once: the work queue's slots.
    pub in_flight: usize,
}

impl Default for BatchConfig {
    /// Two plies on the host, subtrees of at most 12 empties, launches of
    /// up to 65,536 subtrees from up to 16,384 positions at once.
    fn default() -> Self {
        BatchConfig {
            host_plies: 2,
            device_empties: 12,
            max_batch: 1 << 16,
            in_flight: 1 << 14,
        }
    }
}

/// One position's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    /// The exact final score for the side to move (the disc difference,
    /// empty squares to the winner).
    pub score: i32,
    /// A move reaching it; `None` when the game is over.
    pub best_move: Option<OthelloMove>,
    /// Nodes: the host's and the device's for this position.
    pub nodes: u64,
    /// Subtrees it sent the device (a re-search counts again).
    pub subtrees: u64,
    /// Launches that carried some of its subtrees.
    pub launches: u64,
    /// From the start of the batch to this position's score.
    pub latency: Duration,
}

/// The whole batch's totals: positions share launches, so these are the
/// run's, not a sum of positions'.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BatchStats {
    /// Positions solved.
    pub positions: u64,
    /// Kernel launches.
    pub launches: u64,
    /// Subtrees searched on the device (a re-search counts again).
    pub subtrees: u64,
    /// Of those, full-window re-searches of younger brothers that failed
    /// high.
    pub researches: u64,
    /// The largest launch, in subtrees.
    pub largest_launch: u64,
    /// Nodes the host searched above the frontier.
    pub host_nodes: u64,
    /// Nodes the device searched.
    pub device_nodes: u64,
    /// Bytes up and down.
    pub bytes: u64,
    /// Positions up and results down, host clock.
    pub transfer: Duration,
    /// Kernels running, by the device's clock.
    pub kernel: Duration,
    /// The whole batch, host clock.
    pub elapsed: Duration,
    /// Work-items the device runs side by side ([`Gpu::lanes`]).
    pub lanes: u64,
}

impl BatchStats {
    /// Mean subtrees a launch.
    pub fn subtrees_per_launch(&self) -> f64 {
        self.subtrees as f64 / self.launches.max(1) as f64
    }

    /// The mean launch over the device's lanes: below 1 some lanes idle
    /// for the whole launch; a GPU wants several.
    pub fn fill(&self) -> f64 {
        self.subtrees_per_launch() / self.lanes.max(1) as f64
    }
}

/// Bytes a subtree moves: two words of position and four ints up, two
/// ints and a word down.
const BYTES_PER_SUBTREE: u64 = 16 + 16 + 16;

/// Solves every position of `positions` exactly with the device searching
/// the frontier's subtrees (see the module doc), calling `done` with the
/// count of positions finished each time one finishes (in any order).
///
/// # Errors
/// A message when the device fails; the positions are then unsolved.
pub fn solve_batch(
    gpu: &mut Gpu,
    positions: &[Othello],
    config: &BatchConfig,
    mut done: impl FnMut(usize),
) -> Result<(Vec<Solved>, BatchStats), GpuError> {
    let start = Instant::now();
    let device_empties = config.device_empties.min(MAX_EMPTIES);
    let mut stats = BatchStats {
        lanes: gpu.lanes() as u64,
        ..BatchStats::default()
    };
    let mut results: Vec<Option<Solved>> = vec![None; positions.len()];
    let mut slots: Vec<Slot> = (0..config.in_flight.clamp(1, positions.len().max(1)))
        .map(|_| Slot::default())
        .collect();
    let mut queue = Queue::default();
    let mut searched = Searched::default();
    let mut next = 0;
    let mut finished = 0;
    loop {
        // Step 1. Every search that is not waiting runs until it waits for
        // the device or ends; an ended one's slot takes the next position.
        for (index, slot) in slots.iter_mut().enumerate() {
            loop {
                if slot.position.is_none() {
                    if next == positions.len() {
                        break;
                    }
                    slot.begin(next, positions[next], config.host_plies, device_empties);
                    next += 1;
                }
                if slot.waiting() {
                    break;
                }
                if let Some((score, best_move)) = slot.run(index as u32, &mut queue) {
                    let p = slot.position.take().expect("a search in the slot");
                    stats.host_nodes += slot.host_nodes;
                    results[p] = Some(Solved {
                        score,
                        best_move,
                        nodes: slot.host_nodes + slot.device_nodes,
                        subtrees: slot.subtrees,
                        launches: slot.launches,
                        latency: start.elapsed(),
                    });
                    finished += 1;
                    done(finished);
                }
            }
        }
        if queue.subtrees.is_empty() {
            break;
        }
        // Step 2. The queue to the device, in launches of at most
        // `max_batch`, and each score back to the frame that asked.
        for range in chunks(queue.subtrees.len(), config.max_batch.max(1)) {
            let batch = &queue.subtrees[range.clone()];
            gpu.search_into(batch, DeviceEval::Exact, &mut searched)?;
            stats.launches += 1;
            stats.subtrees += batch.len() as u64;
            stats.largest_launch = stats.largest_launch.max(batch.len() as u64);
            stats.bytes += batch.len() as u64 * BYTES_PER_SUBTREE;
            let LaunchTimes { transfer, kernel } = searched.times;
            stats.transfer += transfer;
            stats.kernel += kernel;
            for (k, &(slot, child)) in queue.askers[range].iter().enumerate() {
                let slot = &mut slots[slot as usize];
                stats.device_nodes += searched.nodes[k];
                slot.answer(
                    child,
                    searched.scores[k],
                    searched.best_moves[k],
                    searched.nodes[k],
                    stats.launches,
                );
            }
        }
        stats.researches += queue.researches;
        queue.clear();
    }
    stats.positions = positions.len() as u64;
    stats.elapsed = start.elapsed();
    let results = results
        .into_iter()
        .map(|r| r.expect("every position was solved"))
        .collect();
    Ok((results, stats))
}

/// `0..len` in pieces of at most `size`.
fn chunks(len: usize, size: usize) -> impl Iterator<Item = std::ops::Range<usize>> {
    (0..len.div_ceil(size)).map(move |i| i * size..((i + 1) * size).min(len))
}

/// The subtrees queued for the next launch, with who asked for each: the
/// slot and the child's index in its top frame.
#[derive(Default)]
struct Queue {
    subtrees: Vec<Subtree>,
    askers: Vec<(u32, u8)>,
    researches: u64,
}

impl Queue {
    fn push(&mut self, slot: u32, child: usize, pos: Othello, alpha: i32, beta: i32) {
        self.subtrees.push(Subtree {
            pos,
            // Every line reaches the game's end: a move or a pass per ply,
            // never two passes running.
            depth: 2 * pos.empty_count() as i32,
            ply: 0,
            alpha,
            beta,
        });
        self.askers.push((slot, child as u8));
    }

    fn clear(&mut self) {
        self.subtrees.clear();
        self.askers.clear();
        self.researches = 0;
    }
}

/// Othello has at most 33 legal moves in a position (a pass is one).
const MAX_CHILDREN: usize = 40;

/// What a frame is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Above the frontier's parents: children one after the other.
    Serial,
    /// A frontier node itself (the position is at the frontier already):
    /// waiting for its own score.
    Leaf,
    /// Just above the frontier: waiting for the eldest child.
    Eldest,
    /// The younger brothers in the null window at `scout`.
    Younger,
    /// The younger brothers that failed high, again in the full window.
    Research,
}

/// One node of a position's search on the host.
#[derive(Clone, Debug)]
struct Frame {
    pos: Othello,
    alpha: i32,
    beta: i32,
    best: i32,
    best_move: Option<OthelloMove>,
    /// Ordered; the ones before `next` are searched or queued.
    moves: ArrayVec<OthelloMove, MAX_CHILDREN>,
    next: usize,
    stage: Stage,
    /// The device's answers, by child (`Leaf`: the node's own in 0), from
    /// the child's side's view.
    replies: [i32; MAX_CHILDREN],
    /// `Leaf`: the device's move code for the node.
    leaf_move: i32,
    /// The null window's alpha of `Younger`, and `Research`'s alpha.
    scout: i32,
    /// Answers not in yet.
    pending: u32,
}

/// A slot of the work queue: the position searched there and its stack.
#[derive(Default)]
struct Slot {
    /// The position's index in the batch; `None` when the slot is free.
    position: Option<usize>,
    /// Subtrees of at most this many empties go to the device.
    frontier: u32,
    stack: Vec<Frame>,
    /// A finished child's score, from the child's side's view, for the
    /// frame below it.
    returned: Option<i32>,
    host_nodes: u64,
    device_nodes: u64,
    subtrees: u64,
    launches: u64,
    last_launch: u64,
}

impl Slot {
    fn begin(&mut self, index: usize, pos: Othello, host_plies: u32, device_empties: u32) {
        self.position = Some(index);
        self.frontier = pos
            .empty_count()
            .saturating_sub(host_plies)
            .min(device_empties);
        self.stack.clear();
        self.returned = None;
        (self.host_nodes, self.device_nodes) = (0, 0);
        (self.subtrees, self.launches, self.last_launch) = (0, 0, 0);
        // Outside any score: the root's window is the whole range.
        self.enter(pos, -65, 65);
    }

    fn waiting(&self) -> bool {
        self.stack.last().is_some_and(|f| f.pending > 0)
    }

    /// Opens the node `pos` searched in `(alpha, beta)`: a finished game
    /// returns its score at once, anything else is pushed as a frame.
    fn enter(&mut self, pos: Othello, alpha: i32, beta: i32) {
        self.host_nodes += 1;
        let (p, o) = (pos.player(), pos.opponent());
        let own = mobility(p, o);
        if own == 0 && mobility(o, p) == 0 {
            self.returned = Some(pos.final_score());
            return;
        }
        let empties = pos.empty_count();
        let stage = if empties <= self.frontier {
            Stage::Leaf
        } else if own != 0 && empties - 1 <= self.frontier {
            Stage::Eldest
        } else {
            Stage::Serial
        };
        let mut moves = ArrayVec::new();
        if stage != Stage::Leaf {
            order_moves(&pos, &mut moves);
        }
        self.stack.push(Frame {
            pos,
            alpha,
            beta,
            best: i32::MIN,
            best_move: None,
            moves,
            next: 0,
            stage,
            replies: [0; MAX_CHILDREN],
            leaf_move: -1,
            scout: alpha,
            pending: 0,
        });
    }

    /// Runs the search until it waits for the device (`None`) or ends
    /// (the root's score and move).
    fn run(&mut self, slot: u32, queue: &mut Queue) -> Option<(i32, Option<OthelloMove>)> {
        loop {
            // A child's score for the frame below it (a `Serial` frame).
            if let Some(v) = self.returned.take() {
                let Some(f) = self.stack.last_mut() else {
                    // The root itself was a finished game.
                    return Some((v, None));
                };
                let s = -v;
                if s > f.best {
                    f.best = s;
                    f.best_move = Some(f.moves[f.next - 1]);
                }
            }
            let depth = self.stack.len();
            let f = self.stack.last_mut().expect("a frame while running");
            if f.pending > 0 {
                return None;
            }
            let finished = match f.stage {
                Stage::Serial => {
                    if f.best >= f.beta || f.next == f.moves.len() {
                        true
                    } else {
                        let child = f.pos.play(f.moves[f.next]);
                        f.next += 1;
                        let (alpha, beta) = (-f.beta, -f.alpha.max(f.best));
                        self.enter(child, alpha, beta);
                        false
                    }
                }
                Stage::Leaf => {
                    if f.leaf_move == -1 && f.next == 0 {
                        f.next = 1;
                        f.pending = 1;
                        queue.push(slot, 0, f.pos, f.alpha, f.beta);
                        self.subtrees += 1;
                        return None;
                    }
                    f.best = f.replies[0];
                    f.best_move = device_move(f.leaf_move);
                    true
                }
                Stage::Eldest => {
                    if f.next == 0 {
                        f.next = 1;
                        f.pending = 1;
                        let child = f.pos.play(f.moves[0]);
                        queue.push(slot, 0, child, -f.beta, -f.alpha);
                        self.subtrees += 1;
                        return None;
                    }
                    f.best = -f.replies[0];
                    f.best_move = Some(f.moves[0]);
                    if f.best >= f.beta || f.moves.len() == 1 {
                        true
                    } else {
                        // Step 2 of the young-brother rule: every younger
                        // brother at once, in a null window on the new
                        // alpha.
                        f.scout = f.alpha.max(f.best);
                        f.stage = Stage::Younger;
                        for (i, &mv) in f.moves.iter().enumerate().skip(1) {
                            queue.push(slot, i, f.pos.play(mv), -f.scout - 1, -f.scout);
                        }
                        f.next = f.moves.len();
                        f.pending = f.moves.len() as u32 - 1;
                        self.subtrees += f.pending as u64;
                        return None;
                    }
                }
                Stage::Younger => {
                    let mut again = 0;
                    for i in 1..f.moves.len() {
                        let s = -f.replies[i];
                        if s > f.best {
                            f.best = s;
                            f.best_move = Some(f.moves[i]);
                        }
                        if s > f.scout {
                            again += 1;
                        }
                    }
                    if f.best >= f.beta || again == 0 {
                        true
                    } else {
                        // Step 3: the ones that failed high, in (scout,
                        // beta), where each score is exact or a bound on
                        // the right side.
                        f.stage = Stage::Research;
                        for i in 1..f.moves.len() {
                            if -f.replies[i] > f.scout {
                                let child = f.pos.play(f.moves[i]);
                                queue.push(slot, i, child, -f.beta, -f.scout);
                            }
                        }
                        f.pending = again;
                        self.subtrees += again as u64;
                        queue.researches += again as u64;
                        return None;
                    }
                }
                Stage::Research => {
                    // The re-searched children's replies replaced their
                    // null-window bounds: the value is the best of all.
                    f.best = i32::MIN;
                    for (i, &mv) in f.moves.iter().enumerate() {
                        if -f.replies[i] > f.best {
                            f.best = -f.replies[i];
                            f.best_move = Some(mv);
                        }
                    }
                    true
                }
            };
            if finished {
                let f = self.stack.pop().expect("the frame that finished");
                if depth == 1 {
                    return Some((f.best, f.best_move));
                }
                self.returned = Some(f.best);
            }
        }
    }

    /// The device's score for child `child` of the top frame (for a `Leaf`,
    /// the frame's own), from the child's side's view.
    fn answer(&mut self, child: u8, score: i32, best_move: i32, nodes: u64, launch: u64) {
        self.device_nodes += nodes;
        if self.last_launch != launch {
            self.last_launch = launch;
            self.launches += 1;
        }
        let f = self
            .stack
            .last_mut()
            .expect("a frame waiting for the device");
        f.replies[child as usize] = score;
        if f.stage == Stage::Leaf {
            f.leaf_move = best_move;
        }
        f.pending -= 1;
    }
}

/// `pos`'s moves, fastest first: the move leaving the opponent fewest
/// replies first, corners before all.
fn order_moves(pos: &Othello, out: &mut ArrayVec<OthelloMove, MAX_CHILDREN>) {
    let mut moves: MoveList<OthelloMove> = MoveList::new();
    pos.generate_moves(&mut moves);
    let mut keyed: ArrayVec<(i32, OthelloMove), MAX_CHILDREN> = ArrayVec::new();
    for mv in moves {
        let child = pos.play(mv);
        let mut key = -(mobility(child.player(), child.opponent()).count_ones() as i32);
        if mv.square().is_some_and(|sq| CORNERS & (1 << sq) != 0) {
            key += 100;
        }
        keyed.push((key, mv));
    }
    // Stable: equal keys keep the squares' order, so the search is the
    // same on every run.
    keyed.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
    out.extend(keyed.into_iter().map(|(_, mv)| mv));
}

const CORNERS: u64 = 0x8100_0000_0000_0081;

/// The kernel's move code as a move.
fn device_move(code: i32) -> Option<OthelloMove> {
    match code {
        64 => Some(OthelloMove::PASS),
        0..=63 => OthelloMove::from_square(code as u8),
        _ => None,
    }
}
