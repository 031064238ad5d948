//! Searches with the device searching the frontier's subtrees in wide
//! launches: endgames solved by `solve --algorithm gpu` (one position, or a
//! file of them with `--file F`: [`solve_batch`]), and every piece of work
//! PV splitting hands the device under `--algorithm gpu` (the midgame's
//! depth-limited searches among them: [`search_batch`]).
//!
//! Each root is searched on the host down to a *frontier*: by empty
//! squares for a search to the game's end, and by plies left for one a
//! depth stops ([`BatchConfig::device_depth`]); the nodes at the frontier
//! are the device's subtrees, searched by the `search` kernel in their
//! window to their depth, one work-item each. Above
//! the frontier the host runs a Young Brothers Wait search of resumable
//! *tasks*, one a node: a task searches its eldest child first, in its own
//! window; once that is done, every younger brother starts at once, in a
//! null window on the task's alpha of that moment, each child a task of
//! its own (or a subtree for the device, at the frontier). So the younger
//! brothers of many nodes, of every position of the batch, wait for the
//! device together, and one launch carries them all (or several of at most
//! [`BatchConfig::max_batch`]). A task orders its children as the CPU
//! solver does (`OthelloExact`'s keys: fastest first with parity, from 14
//! empties up a shallow search's score): the more often the eldest is the
//! best, the less of its brothers' work is wasted.
//!
//! A child's result is folded in as it arrives, fail-soft:
//! - at or above the task's beta it cuts the task off: the task's other
//!   children still searching are cancelled, their subtrees still queued
//!   are never launched (counted as *aborted*), results already on their
//!   way are dropped (counted), and their tasks are freed, all the way
//!   down;
//! - above the window it was searched in but below beta it is a lower
//!   bound: the child is searched again, in the full window `(alpha, beta)`
//!   with the task's alpha of that moment when the bound raised it, else
//!   in a null window on that alpha (a younger brother started late);
//! - otherwise it is exact, or an upper bound at or below the task's alpha,
//!   and the child is done.
//!
//! A task's value is the best of its children's results, so a fail-low
//! value is an upper bound and a fail-high one a lower bound, as serial
//! fail-soft search gives, though not always the same numbers; a solved
//! position's window is the whole range, so its score is exact, and a
//! root in a narrower window (PV splitting's pieces) gets a fail-soft
//! bound of the right side, exact inside the window. Nothing ties a task
//! to a position but the record it reports to: every position of a batch
//! (up to [`BatchConfig::in_flight`] at once, the next starting as one
//! ends) feeds the same queue. [`BatchConfig::max_tasks`] bounds the
//! speculation: past it a task waits to start more younger brothers until
//! tasks have ended; [`BatchConfig::cut_wait`] makes an expected CUT node
//! search its first children one after another (strong YBW), trading
//! width for fewer wasted nodes.
//!
//! The host's per-node work allocates nothing once the arrays have grown
//! to their largest: tasks live in one arena with a free list, reused from
//! position to position, the queue, the launch's staging and the list of
//! results to fold are vectors cleared and refilled, and the launch's
//! buffers (host and device) grow to the largest batch and are reused.

use std::time::{Duration, Instant};

use arrayvec::ArrayVec;
use splitpoint::{Evaluator, Game, MoveList};

use super::{DeviceEval, Gpu, GpuError, LaunchTimes, MAX_EMPTIES, MAX_FRAMES, Searched, Subtree};
use crate::othello::{GpuSplit, Othello, OthelloEval, OthelloExact, OthelloMove, ordering_nodes};

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
    /// The most plies a depth-limited subtree for the device may have (a
    /// midgame search's): a root searched `d` plies sends the device
    /// subtrees of `d - host_plies` plies, or fewer (at most
    /// [`MAX_FRAMES`](super::MAX_FRAMES)). Searches to the game's end split
    /// by `device_empties` alone.
    pub device_depth: u32,
    /// The most subtrees one launch carries (a bigger queue is split).
    pub max_batch: usize,
    /// The most positions searched at once.
    pub in_flight: usize,
    /// The most host tasks (nodes above the frontier) open at once: past
    /// it, tasks wait to start more younger brothers until others end. A
    /// child started below it still opens its eldest line down to the
    /// frontier, and one child starts regardless when nothing else would
    /// reach the device.
    pub max_tasks: usize,
    /// The children an expected CUT node searches one after another before
    /// it starts the rest at once (strong YBW); 1 starts them after the
    /// eldest, as every other node does.
    pub cut_wait: usize,
}

impl Default for BatchConfig {
    /// Two plies on the host, subtrees of at most 12 empties (or 4 plies),
    /// launches of up to 65,536 subtrees from up to 16,384 positions at
    /// once, and up to 262,144 host tasks open.
    fn default() -> Self {
        BatchConfig {
            host_plies: 2,
            device_empties: 12,
            device_depth: 4,
            max_batch: 1 << 16,
            in_flight: 1 << 14,
            max_tasks: 1 << 18,
            cut_wait: CUT_WAIT,
        }
    }
}

impl BatchConfig {
    /// The split of the gpu algorithm's pieces of work ([`GpuSplit`]): the
    /// default's settings but for how far the host goes and how wide it
    /// starts younger brothers. A depth-limited piece is split by
    /// `host_plies` alone (its subtrees as deep as the kernel's stack
    /// allows), except in the wide split.
    pub fn pieces(split: GpuSplit) -> Self {
        let (host_plies, device_depth, cut_wait) = match split {
            GpuSplit::Narrow => (0, MAX_FRAMES as u32, 1),
            GpuSplit::Balanced => (2, MAX_FRAMES as u32, 3),
            GpuSplit::Wide => (2, 4, 1),
        };
        BatchConfig {
            host_plies,
            device_depth,
            cut_wait,
            ..BatchConfig::default()
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
    /// The positions the host's move ordering searched for it (the
    /// solver's shallow searches, [`ordering_nodes`]), apart from `nodes`.
    pub ordering_nodes: u64,
    /// Subtrees it sent the device (a re-search counts again; aborted ones
    /// do not).
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
    /// Children searched again after failing high below beta (on the
    /// device or as host tasks).
    pub researches: u64,
    /// Queued subtrees a cutoff made useless before their launch: never
    /// launched.
    pub aborted: u64,
    /// Results of launched subtrees a cutoff made useless while they were
    /// on the device: dropped.
    pub dropped: u64,
    /// Tasks that cut off while children were still searching.
    pub cutoffs: u64,
    /// Host tasks (nodes above the frontier) opened.
    pub tasks: u64,
    /// The most host tasks open at once.
    pub most_tasks: u64,
    /// The largest launch, in subtrees.
    pub largest_launch: u64,
    /// Nodes the host searched above the frontier.
    pub host_nodes: u64,
    /// The positions the host's move ordering searched, apart from
    /// `host_nodes`.
    pub ordering_nodes: u64,
    /// Nodes the device searched (dropped results' included).
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
    done: impl FnMut(usize),
) -> Result<(Vec<Solved>, BatchStats), GpuError> {
    let roots: Vec<Subtree> = positions.iter().map(|&pos| Subtree::solve(pos)).collect();
    search_batch(gpu, &roots, DeviceEval::Exact, config, done)
}

/// Searches every root of `roots` in its window to its depth, scored as
/// `eval` scores (the value `splitpoint::oracle::negamax` defines, counting
/// a finished game's distance from each root's `ply`), with the device
/// searching the frontier's subtrees (see the module doc); `done` as for
/// [`solve_batch`]. Fail-soft: a score at or below a root's alpha is an
/// upper bound, at or above its beta a lower bound, exact between. What
/// `--algorithm gpu` runs for every piece of PV splitting's work.
///
/// # Errors
/// A message when the device fails (the roots are then unsearched), or
/// when a root scored as the solver scores stops before the game's end:
/// the kernel's midgame score is the hand-set evaluation's, not the
/// solver's patterns, so only finished games score alike there.
pub fn search_batch(
    gpu: &mut Gpu,
    roots: &[Subtree],
    eval: DeviceEval,
    config: &BatchConfig,
    done: impl FnMut(usize),
) -> Result<(Vec<Solved>, BatchStats), GpuError> {
    let (solved, stats) = search_batch_until(gpu, roots, eval, config, None, done)?;
    let solved = solved
        .into_iter()
        .map(|s| s.expect("no deadline: every root is searched"));
    Ok((solved.collect(), stats))
}

/// [`search_batch`] that gives up at `deadline`: no launch starts after
/// it, and the roots not searched by then are `None` (a search out of time,
/// as `--algorithm gpu` under a move time is, wants its answer now, not the
/// rest of its speculation).
///
/// # Errors
/// As for [`search_batch`].
pub fn search_batch_until(
    gpu: &mut Gpu,
    roots: &[Subtree],
    eval: DeviceEval,
    config: &BatchConfig,
    deadline: Option<Instant>,
    mut done: impl FnMut(usize),
) -> Result<(Vec<Option<Solved>>, BatchStats), GpuError> {
    if eval == DeviceEval::Exact
        && let Some(short) = roots.iter().find(|r| !r.to_the_end())
    {
        return Err(GpuError(format!(
            "the device scores the solver's positions only to the game's end: not {} plies \
             with {} empties",
            short.depth,
            short.pos.empty_count()
        )));
    }
    let start = Instant::now();
    let device_empties = config.device_empties.min(MAX_EMPTIES);
    let device_depth = config.device_depth.min(MAX_FRAMES as u32) as i32;
    let mut forest = Forest {
        stats: BatchStats {
            lanes: gpu.lanes() as u64,
            ..BatchStats::default()
        },
        eval,
        max_tasks: config.max_tasks.max(1),
        cut_wait: config.cut_wait.max(1),
        ..Forest::default()
    };
    let positions = roots;
    forest.records.reserve(positions.len());
    let mut current = Queue::default();
    let mut batch: Vec<Subtree> = Vec::new();
    let mut askers: Vec<(Asker, u32)> = Vec::new();
    let mut searched = Searched::default();
    let in_flight = config.in_flight.max(1);
    let (mut next, mut open) = (0, 0);
    'rounds: loop {
        // Step 1. Positions start while there is room, deferred tasks
        // widen while the bound allows (at least one when nothing else
        // would reach the device), and every result so far is folded in.
        loop {
            while next < positions.len() && open < in_flight {
                let root = positions[next];
                let empties = root.pos.empty_count();
                let frontier_empties = empties
                    .saturating_sub(config.host_plies)
                    .min(device_empties);
                // A search to the game's end splits by empties alone.
                let frontier_depth = if root.to_the_end() {
                    i32::MIN
                } else {
                    (root.depth - config.host_plies as i32).clamp(0, device_depth)
                };
                forest.records.push(Record {
                    frontier_empties,
                    frontier_depth,
                    ..Record::default()
                });
                let kind = if root.beta - root.alpha > 1 {
                    Kind::Pv
                } else {
                    Kind::Cut
                };
                let node = Node {
                    pos: root.pos,
                    depth: root.depth,
                    ply: root.ply,
                };
                let asker = Asker::Root(next as u32);
                forest.open(node, root.alpha, root.beta, asker, next as u32, kind);
                next += 1;
                open += 1;
            }
            let stuck = forest.queue.subtrees.is_empty();
            forest.resume(stuck);
            let before = forest.finished.len();
            forest.settle();
            for &p in &forest.finished[before..] {
                let r = &mut forest.records[p as usize];
                r.latency = start.elapsed();
                open -= 1;
                done(forest.finished.len());
            }
            let more = (next < positions.len() && open < in_flight)
                || (forest.queue.subtrees.is_empty() && !forest.deferred.is_empty());
            if !more {
                break;
            }
        }
        if forest.queue.subtrees.is_empty() {
            debug_assert_eq!(open, 0, "an open position waits for nothing");
            break;
        }
        // Step 2. The queue to the device, in launches of at most
        // `max_batch` live subtrees, each result folded in as it comes
        // (new subtrees queue for the next round).
        std::mem::swap(&mut current, &mut forest.queue);
        let mut cursor = 0;
        while cursor < current.subtrees.len() {
            batch.clear();
            askers.clear();
            while cursor < current.subtrees.len() && batch.len() < config.max_batch.max(1) {
                let (asker, position) = current.askers[cursor];
                if forest.live(asker) {
                    batch.push(current.subtrees[cursor]);
                    askers.push((asker, position));
                } else {
                    forest.stats.aborted += 1;
                }
                cursor += 1;
            }
            if batch.is_empty() {
                continue;
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break 'rounds;
            }
            gpu.search_into(&batch, eval, &mut searched)?;
            let stats = &mut forest.stats;
            stats.launches += 1;
            stats.subtrees += batch.len() as u64;
            stats.largest_launch = stats.largest_launch.max(batch.len() as u64);
            stats.bytes += batch.len() as u64 * BYTES_PER_SUBTREE;
            let LaunchTimes { transfer, kernel } = searched.times;
            stats.transfer += transfer;
            stats.kernel += kernel;
            let launch = stats.launches;
            for (k, &(asker, position)) in askers.iter().enumerate() {
                let nodes = searched.nodes[k];
                forest.stats.device_nodes += nodes;
                let r = &mut forest.records[position as usize];
                r.device_nodes += nodes;
                r.subtrees += 1;
                if r.last_launch != launch {
                    r.last_launch = launch;
                    r.launches += 1;
                }
                if !forest.live(asker) {
                    forest.stats.dropped += 1;
                    continue;
                }
                forest.events.push(Event {
                    asker,
                    value: searched.scores[k],
                    best_move: device_move(searched.best_moves[k]),
                });
                let before = forest.finished.len();
                forest.settle();
                for &p in &forest.finished[before..] {
                    forest.records[p as usize].latency = start.elapsed();
                    open -= 1;
                    done(forest.finished.len());
                }
            }
        }
        current.clear();
    }
    let stats = &mut forest.stats;
    stats.positions = forest.finished.len() as u64;
    stats.host_nodes = forest.records.iter().map(|r| r.host_nodes).sum();
    stats.ordering_nodes = forest.records.iter().map(|r| r.ordering_nodes).sum();
    stats.elapsed = start.elapsed();
    let results = forest
        .records
        .iter()
        .map(|r| {
            let (score, best_move) = r.answer?;
            Some(Solved {
                score,
                best_move,
                nodes: r.host_nodes + r.device_nodes,
                ordering_nodes: r.ordering_nodes,
                subtrees: r.subtrees,
                launches: r.launches,
                latency: r.latency,
            })
        })
        .chain(std::iter::repeat(None))
        .take(positions.len())
        .collect();
    Ok((results, forest.stats))
}

/// Who waits for a search's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Asker {
    /// The position of the batch with this index: its score.
    Root(u32),
    /// Child `child` of task `task`, while the task's generation is
    /// `generation` (a freed task's slot is reused with the next one).
    Child {
        task: u32,
        generation: u32,
        child: u8,
    },
}

/// A value for an asker: a finished child's, a finished game's or the
/// device's, from the searched position's side to move's view.
#[derive(Clone, Copy, Debug)]
struct Event {
    asker: Asker,
    value: i32,
    /// The move that gave it (only a root's is used).
    best_move: Option<OthelloMove>,
}

/// The subtrees queued for a launch, with who asked for each and the
/// position they belong to.
#[derive(Default)]
struct Queue {
    subtrees: Vec<Subtree>,
    askers: Vec<(Asker, u32)>,
}

impl Queue {
    fn push(&mut self, asker: Asker, position: u32, node: Node, alpha: i32, beta: i32) {
        self.subtrees.push(Subtree {
            pos: node.pos,
            // No game lasts longer: a move or a pass per ply, never two
            // passes running. A search to the end stays one.
            depth: node.depth.min(2 * node.pos.empty_count() as i32),
            ply: node.ply,
            alpha,
            beta,
        });
        self.askers.push((asker, position));
    }

    fn clear(&mut self) {
        self.subtrees.clear();
        self.askers.clear();
    }
}

/// A position to search, with its plies left and its distance from its
/// search's root (finished games score by it, as the evaluator says).
#[derive(Clone, Copy, Debug)]
struct Node {
    pos: Othello,
    depth: i32,
    ply: u32,
}

impl Node {
    fn child(&self, mv: OthelloMove) -> Node {
        Node {
            pos: self.pos.play(mv),
            depth: self.depth - 1,
            ply: self.ply + 1,
        }
    }
}

/// One root's bookkeeping.
#[derive(Clone, Copy, Debug)]
struct Record {
    /// Nodes of at most this many empties go to the device …
    frontier_empties: u32,
    /// … and so do those with at most this many plies left (`i32::MIN`
    /// for a search to the game's end).
    frontier_depth: i32,
    /// Its score and move, once known.
    answer: Option<(i32, Option<OthelloMove>)>,
    host_nodes: u64,
    ordering_nodes: u64,
    device_nodes: u64,
    subtrees: u64,
    launches: u64,
    last_launch: u64,
    latency: Duration,
}

impl Default for Record {
    fn default() -> Self {
        Record {
            frontier_empties: 0,
            frontier_depth: i32::MIN,
            answer: None,
            host_nodes: 0,
            ordering_nodes: 0,
            device_nodes: 0,
            subtrees: 0,
            launches: 0,
            last_launch: 0,
            latency: Duration::ZERO,
        }
    }
}

/// [`BatchConfig::cut_wait`]'s default.
const CUT_WAIT: usize = 1;

/// A node's expected type, by the usual rules: the root is PV, a PV
/// node's eldest child PV and its younger ones CUT, CUT and ALL alternate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Pv,
    Cut,
    All,
}

impl Kind {
    fn child(self, i: usize) -> Kind {
        match self {
            Kind::Pv if i == 0 => Kind::Pv,
            Kind::Pv | Kind::All => Kind::Cut,
            Kind::Cut => Kind::All,
        }
    }
}

/// Othello has at most 33 legal moves in a position (a pass is one).
const MAX_CHILDREN: usize = 40;

/// No task: a child searched on the device, or not searching.
const NO_TASK: u32 = u32::MAX;

/// A child of a task while it is searched: the top of the window it is
/// searched in, from the task's view, and its own task when it has one.
#[derive(Clone, Copy, Debug)]
struct Child {
    high: i32,
    task: u32,
}

/// One node above the frontier, searched by the host (see the module
/// doc).
#[derive(Clone, Debug)]
struct Task {
    /// Bumped when the task ends: askers naming an older one are stale.
    generation: u32,
    live: bool,
    /// The batch's position it belongs to.
    position: u32,
    /// Where its value goes.
    asker: Asker,
    node: Node,
    alpha: i32,
    beta: i32,
    /// The best result folded in (fail-soft), and its move.
    best: i32,
    best_move: Option<OthelloMove>,
    /// In the CPU solver's order (see `order_moves`); the eldest first.
    moves: ArrayVec<OthelloMove, MAX_CHILDREN>,
    /// The node's expected type.
    kind: Kind,
    /// Children started (the ones before it in `moves`).
    next: usize,
    /// Whether it waits in [`Forest::deferred`] for room to start more.
    deferred: bool,
    /// Children searching.
    outstanding: u32,
    children: [Child; MAX_CHILDREN],
}

/// Every position's search: the tasks, the queue for the next launch and
/// the values not yet folded in.
#[derive(Default)]
struct Forest {
    tasks: Vec<Task>,
    free: Vec<u32>,
    /// How every root of the batch scores positions.
    eval: DeviceEval,
    /// Tasks waiting for room to start more children, the newest (the
    /// deepest of the latest line) last: it resumes first, so a full
    /// arena drains depth first instead of opening new lines near the
    /// root.
    deferred: Vec<(u32, u32)>,
    open_tasks: usize,
    max_tasks: usize,
    cut_wait: usize,
    queue: Queue,
    events: Vec<Event>,
    records: Vec<Record>,
    /// Positions in the order their scores became known.
    finished: Vec<u32>,
    stats: BatchStats,
}

impl Forest {
    /// Whether `asker` still waits for its value.
    fn live(&self, asker: Asker) -> bool {
        match asker {
            Asker::Root(_) => true,
            Asker::Child {
                task, generation, ..
            } => {
                let t = &self.tasks[task as usize];
                t.live && t.generation == generation
            }
        }
    }

    /// Starts the search of `node` in `(alpha, beta)` for `asker`: a
    /// finished game answers at once, a frontier node joins the queue,
    /// anything else becomes a task whose eldest child starts at once (and
    /// so on down its eldest line).
    fn open(&mut self, node: Node, alpha: i32, beta: i32, asker: Asker, position: u32, kind: Kind) {
        let (mut node, mut alpha, mut beta, mut asker, mut kind) = (node, alpha, beta, asker, kind);
        loop {
            let record = &mut self.records[position as usize];
            if let Some(outcome) = node.pos.outcome() {
                record.host_nodes += 1;
                let value = match self.eval {
                    DeviceEval::Midgame => {
                        OthelloEval.terminal_score(&node.pos, outcome, node.ply as usize)
                    }
                    DeviceEval::Exact => node.pos.final_score(),
                };
                self.events.push(Event {
                    asker,
                    value,
                    best_move: None,
                });
                return;
            }
            if node.pos.empty_count() <= record.frontier_empties
                || node.depth <= record.frontier_depth
            {
                self.queue.push(asker, position, node, alpha, beta);
                return;
            }
            record.host_nodes += 1;
            let t = self.allocate(node, alpha, beta, asker, position, kind);
            if let Asker::Child { task, child, .. } = asker {
                self.tasks[task as usize].children[child as usize].task = t;
            }
            let task = &mut self.tasks[t as usize];
            task.children[0] = Child {
                high: beta,
                task: NO_TASK,
            };
            task.outstanding = 1;
            task.next = 1;
            kind = kind.child(0);
            asker = Asker::Child {
                task: t,
                generation: task.generation,
                child: 0,
            };
            (node, alpha, beta) = (task.node.child(task.moves[0]), -beta, -alpha);
        }
    }

    /// A task for `node`, in a free slot of the arena or a new one.
    fn allocate(
        &mut self,
        node: Node,
        alpha: i32,
        beta: i32,
        asker: Asker,
        position: u32,
        kind: Kind,
    ) -> u32 {
        self.stats.tasks += 1;
        self.open_tasks += 1;
        self.stats.most_tasks = self.stats.most_tasks.max(self.open_tasks as u64);
        let t = match self.free.pop() {
            Some(t) => t,
            None => {
                self.tasks.push(Task {
                    generation: 0,
                    live: false,
                    position,
                    asker,
                    node,
                    alpha,
                    beta,
                    best: i32::MIN,
                    best_move: None,
                    moves: ArrayVec::new(),
                    kind,
                    next: 0,
                    deferred: false,
                    outstanding: 0,
                    children: [Child {
                        high: 0,
                        task: NO_TASK,
                    }; MAX_CHILDREN],
                });
                self.tasks.len() as u32 - 1
            }
        };
        let task = &mut self.tasks[t as usize];
        debug_assert!(!task.live);
        task.live = true;
        task.position = position;
        task.asker = asker;
        task.node = node;
        (task.alpha, task.beta) = (alpha, beta);
        (task.best, task.best_move) = (i32::MIN, None);
        task.moves.clear();
        // The solver's ordering counts its shallow searches in a counter
        // of the whole program: this one's share is the difference.
        let before = ordering_nodes();
        order_moves(self.eval, &node.pos, &mut task.moves);
        self.records[position as usize].ordering_nodes += ordering_nodes() - before;
        task.kind = kind;
        (task.next, task.deferred) = (0, false);
        task.outstanding = 0;
        t
    }

    /// Ends task `t`: askers naming it are stale from now on.
    fn release(&mut self, t: u32) {
        let task = &mut self.tasks[t as usize];
        task.live = false;
        task.generation = task.generation.wrapping_add(1);
        self.open_tasks -= 1;
        self.free.push(t);
    }

    /// Cancels task `t` and every task below it still searching.
    fn cancel(&mut self, t: u32) {
        self.cancel_children(t);
        self.release(t);
    }

    /// Starts child `i` of task `t` in `(low, high)`, from `t`'s view.
    fn start_child(&mut self, t: u32, i: usize, low: i32, high: i32) {
        let task = &mut self.tasks[t as usize];
        task.children[i] = Child {
            high,
            task: NO_TASK,
        };
        task.outstanding += 1;
        let child = task.node.child(task.moves[i]);
        let asker = Asker::Child {
            task: t,
            generation: task.generation,
            child: i as u8,
        };
        let (position, kind) = (task.position, task.kind.child(i));
        self.open(child, -high, -low, asker, position, kind);
    }

    /// Every child of task `t` not started yet at once, in a null window
    /// on its alpha, while the bound on open tasks allows (the first one
    /// regardless when `force`); the rest wait in `deferred`.
    fn widen(&mut self, t: u32, mut force: bool) {
        while self.tasks[t as usize].next < self.tasks[t as usize].moves.len() {
            if !force && self.open_tasks >= self.max_tasks {
                let task = &mut self.tasks[t as usize];
                if !task.deferred {
                    task.deferred = true;
                    self.deferred.push((t, task.generation));
                }
                return;
            }
            force = false;
            let task = &mut self.tasks[t as usize];
            let (i, scout) = (task.next, task.alpha.max(task.best));
            task.next += 1;
            self.start_child(t, i, scout, scout + 1);
        }
    }

    /// Deferred tasks widen while the bound on open tasks allows, or one
    /// at least when `stuck` (nothing else would reach the device).
    fn resume(&mut self, mut stuck: bool) {
        while stuck || self.open_tasks < self.max_tasks {
            let Some((t, generation)) = self.deferred.pop() else {
                return;
            };
            let task = &mut self.tasks[t as usize];
            if task.live && task.generation == generation {
                task.deferred = false;
                self.widen(t, stuck);
                stuck = false;
                self.finish_if_done(t);
            }
        }
    }

    /// Folds every value waiting into its asker, and whatever that sets
    /// off (tasks ending, younger brothers starting, re-searches).
    fn settle(&mut self) {
        while let Some(event) = self.events.pop() {
            match event.asker {
                Asker::Root(p) => {
                    self.records[p as usize].answer = Some((event.value, event.best_move));
                    self.finished.push(p);
                }
                Asker::Child {
                    task,
                    generation,
                    child,
                } => {
                    let t = &self.tasks[task as usize];
                    // A finished game's value for a task cut off since.
                    if t.live && t.generation == generation {
                        self.fold(task, child as usize, -event.value);
                    }
                }
            }
        }
    }

    /// Child `i`'s result `s` (from task `t`'s view) into task `t`.
    fn fold(&mut self, t: u32, i: usize, s: i32) {
        let task = &mut self.tasks[t as usize];
        task.outstanding -= 1;
        let high = task.children[i].high;
        task.children[i].task = NO_TASK;
        let alpha_before = task.alpha.max(task.best);
        if s > task.best {
            task.best = s;
            task.best_move = Some(task.moves[i]);
        }
        if s >= task.beta {
            // A cutoff: whatever else still searches is useless.
            if task.outstanding > 0 {
                self.stats.cutoffs += 1;
            }
            self.cancel_children(t);
            self.finish(t);
            return;
        }
        if s >= high {
            // A lower bound below beta: search the child again.
            self.stats.researches += 1;
            let beta = task.beta;
            if s > alpha_before {
                self.start_child(t, i, s, beta);
            } else {
                self.start_child(t, i, alpha_before, alpha_before + 1);
            }
        }
        // Otherwise exact, or an upper bound at or below the alpha it was
        // searched with: the child is done.
        let task = &self.tasks[t as usize];
        if task.outstanding == 0 && task.next < task.moves.len() {
            let wait = if task.kind == Kind::Cut {
                self.cut_wait
            } else {
                1
            };
            if task.next < wait {
                // Still in the children searched one after another.
                let (next, scout) = (task.next, task.alpha.max(task.best));
                self.tasks[t as usize].next += 1;
                self.start_child(t, next, scout, scout + 1);
                return;
            }
            self.widen(t, false);
        }
        self.finish_if_done(t);
    }

    /// Ends task `t` if every child has started and none still searches.
    fn finish_if_done(&mut self, t: u32) {
        let task = &self.tasks[t as usize];
        if task.live && task.outstanding == 0 && task.next == task.moves.len() {
            self.finish(t);
        }
    }

    /// Cancels every child of task `t` still searching as a task (its
    /// device subtrees go stale with `t` itself).
    fn cancel_children(&mut self, t: u32) {
        for i in 0..self.tasks[t as usize].moves.len() {
            let child = self.tasks[t as usize].children[i].task;
            if child != NO_TASK {
                self.tasks[t as usize].children[i].task = NO_TASK;
                self.cancel(child);
            }
        }
    }

    /// Task `t`'s value to its asker; the task ends.
    fn finish(&mut self, t: u32) {
        let task = &self.tasks[t as usize];
        let event = Event {
            asker: task.asker,
            value: task.best,
            best_move: task.best_move,
        };
        if let Asker::Child { task: p, child, .. } = task.asker {
            // The asker is live: a cancelled asker cancels its children
            // first.
            self.tasks[p as usize].children[child as usize].task = NO_TASK;
        }
        self.release(t);
        self.events.push(event);
    }
}

/// `pos`'s moves in the CPU search's order for `eval`, the best first: the
/// solver's ([`OthelloExact`]'s keys: fastest first with parity, and far
/// from the end a shallow search's score) or the midgame's
/// ([`OthelloEval`]'s).
fn order_moves(eval: DeviceEval, pos: &Othello, out: &mut ArrayVec<OthelloMove, MAX_CHILDREN>) {
    let mut moves: MoveList<OthelloMove> = MoveList::new();
    pos.generate_moves(&mut moves);
    let mut keys = [0i32; MAX_CHILDREN];
    let keys = &mut keys[..moves.len()];
    match eval {
        DeviceEval::Exact => OthelloExact.order_moves(pos, &moves, keys),
        DeviceEval::Midgame => OthelloEval.order_moves(pos, &moves, keys),
    }
    let mut keyed: ArrayVec<(i32, OthelloMove), MAX_CHILDREN> = ArrayVec::new();
    keyed.extend(keys.iter().copied().zip(moves.iter().copied()));
    // Stable: equal keys keep the generator's order, so the search is the
    // same on every run.
    keyed.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
    out.extend(keyed.into_iter().map(|(_, mv)| mv));
}

/// The kernel's move code as a move.
fn device_move(code: i32) -> Option<OthelloMove> {
    match code {
        64 => Some(OthelloMove::PASS),
        0..=63 => OthelloMove::from_square(code as u8),
        _ => None,
    }
}
