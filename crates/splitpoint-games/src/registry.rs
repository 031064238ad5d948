//! The games splitpoint plays ([`GameName`]), and the one place a name
//! becomes a type. Code generic over the game
//! implements [`GameCommand`] and runs through [`GameName::dispatch`]; what
//! the laboratory and the command line need to know of each game beyond its
//! rules is [`NamedGame`]. Adding a game is a variant of `GameName`, one arm
//! in `dispatch` and an `impl NamedGame`.
//!
//! Behind the `registry` feature (every game's, and serde's for
//! [`GameName`]'s name in a report).

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use splitpoint::cluster::{Channel, Slaves, Transport, WireTransport};
use splitpoint::{Algorithm, Evaluator, Game, Outcome, Score, UnknownAlgorithm};

use crate::chess::{Chess, ChessEval};
use crate::draughts::{Draughts, DraughtsEval};
use crate::othello::{Othello, OthelloEval};
use crate::synthetic::{Synthetic, SyntheticEval};
use crate::xiangqi::{Xiangqi, XiangqiEval};

/// A game splitpoint plays: named on the command line, chosen by suites.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GameName {
    /// Othello (midgame search or exact endgame solving).
    Othello,
    /// Synthetic trees.
    Synthetic,
    /// Chess (depth search; test suites count best moves found).
    Chess,
    /// International (Polish) draughts.
    Draughts,
    /// Xiangqi (Chinese chess).
    Xiangqi,
}

impl GameName {
    /// Every game, as named on the command line.
    pub const ALL: [GameName; 5] = [
        GameName::Othello,
        GameName::Synthetic,
        GameName::Chess,
        GameName::Draughts,
        GameName::Xiangqi,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            GameName::Othello => "othello",
            GameName::Synthetic => "synthetic",
            GameName::Chess => "chess",
            GameName::Draughts => "draughts",
            GameName::Xiangqi => "xiangqi",
        }
    }

    /// The algorithm `auto` runs with more than one thread: the fastest at
    /// two threads over the runs of `splitpoint bench --game G --threads 1,2`
    /// in the parallel README's defaults table, where each run's speedups
    /// are: DTS on every game (Othello's endgame solves too). Synthetic
    /// trees keep YBW.
    pub fn parallel_default(self) -> Algorithm {
        match self {
            GameName::Othello | GameName::Chess | GameName::Draughts | GameName::Xiangqi => {
                Algorithm::Dts
            }
            GameName::Synthetic => Algorithm::Ybw { strong: false },
        }
    }

    /// The algorithm `auto` runs with `threads` threads: serial with one.
    pub fn auto_algorithm(self, threads: usize) -> Algorithm {
        if threads == 1 {
            Algorithm::Serial
        } else {
            self.parallel_default()
        }
    }

    /// The suite run when none is named.
    pub fn default_suite(self) -> &'static str {
        match self {
            GameName::Othello => "othello-mid",
            GameName::Synthetic => "synthetic",
            GameName::Chess => "chess",
            GameName::Draughts => "draughts",
            GameName::Xiangqi => "xiangqi",
        }
    }
}

impl fmt::Display for GameName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameName {
    type Err = String;

    /// A game by its name, in any case.
    fn from_str(s: &str) -> Result<Self, String> {
        GameName::ALL
            .into_iter()
            .find(|g| g.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                let names: Vec<&str> = GameName::ALL.iter().map(|g| g.name()).collect();
                format!("unknown game '{s}' (known games: {})", names.join(", "))
            })
    }
}

/// What the laboratory and the command line know of a game beyond its rules.
pub trait NamedGame: Game {
    /// The evaluator its searches use.
    type Eval: Evaluator<Self> + Default + Clone;

    /// Its name.
    const GAME: GameName;

    /// The position searched when none is given.
    const DEFAULT_POSITION: &'static str;

    /// What [`NamedGame::final_score`] means, for reports.
    const FINAL_SCORE_MEANING: &'static str = "+1 win, 0 draw or unfinished, -1 loss";

    /// The search depth when no depth or time is given.
    fn default_depth(&self) -> i32;

    /// Leaf positions `depth` plies below, counted by the game's own perft
    /// convention. The default, [`splitpoint::perft`], counts a game that ends
    /// early as one leaf (Othello's convention, where passes are plies).
    fn perft(&self, depth: u32) -> u64 {
        splitpoint::perft(self, depth)
    }

    /// How a finished game came out, from the side to move's view (self-play
    /// tallies it): by default +1, 0 or -1, and 0 for an unfinished game.
    fn final_score(&self) -> Score {
        match self.outcome() {
            Some(Outcome::Win) => 1,
            Some(Outcome::Loss) => -1,
            Some(Outcome::Draw) | None => 0,
        }
    }

    /// PV splitting's slaves on OpenCL device `device` for searches scored
    /// by `eval`, each piece split as `split` says (`--algorithm gpu`). Only Othello has a kernel, in a build
    /// with the `gpu` feature.
    ///
    /// # Errors
    /// A message saying why not: another game, a build without the
    /// feature, no such device, or an evaluator the kernel does not know.
    fn gpu_transport<E: Evaluator<Self> + 'static>(
        eval: E,
        device: usize,
        split: GpuSplit,
    ) -> GpuSlaves<Self> {
        let _ = (eval, device, split);
        Err(format!(
            "the gpu algorithm: {} has no GPU search (othello has)",
            Self::GAME
        ))
    }
}

/// What [`NamedGame::gpu_transport`] gives: the device's transport.
pub type GpuSlaves<G> = Result<Arc<dyn Transport<G>>, String>;

/// What a build without the `gpu` feature says when asked for a device.
pub const NO_OPENCL: &str = "this splitpoint was built without OpenCL; build it with \
     `cargo build --release --features gpu -p splitpoint-cli` (needs an OpenCL platform: a \
     GPU's driver, or PoCL: apt-get install pocl-opencl-icd ocl-icd-opencl-dev)";

impl NamedGame for Othello {
    type Eval = OthelloEval;
    const GAME: GameName = GameName::Othello;
    const DEFAULT_POSITION: &'static str = "start";
    const FINAL_SCORE_MEANING: &'static str =
        "the final disc difference (empty squares to the winner)";

    /// Eight plies: a fraction of a second, a reasonable move.
    fn default_depth(&self) -> i32 {
        8
    }

    fn final_score(&self) -> Score {
        Othello::final_score(self)
    }

    #[cfg(feature = "gpu")]
    fn gpu_transport<E: Evaluator<Self> + 'static>(
        eval: E,
        device: usize,
        split: GpuSplit,
    ) -> GpuSlaves<Self> {
        use crate::othello::gpu::{BatchConfig, Gpu, GpuTransport};
        let gpu = Gpu::open(Some(device)).map_err(|e| format!("the gpu algorithm: {e}"))?;
        let transport = GpuTransport::new(gpu, eval, BatchConfig::pieces(split))
            .map_err(|e| format!("the gpu algorithm: {e}"))?;
        Ok(Arc::new(transport))
    }

    #[cfg(not(feature = "gpu"))]
    fn gpu_transport<E: Evaluator<Self> + 'static>(_: E, _: usize, _: GpuSplit) -> GpuSlaves<Self> {
        Err(format!("the gpu algorithm: {NO_OPENCL}"))
    }
}

impl NamedGame for Chess {
    type Eval = ChessEval;
    const GAME: GameName = GameName::Chess;
    const DEFAULT_POSITION: &'static str = "startpos";

    /// Seven plies: well under a second from a middlegame.
    fn default_depth(&self) -> i32 {
        7
    }

    /// The published perft tables' convention: a mate or stalemate before
    /// the last ply adds no leaf.
    fn perft(&self, depth: u32) -> u64 {
        crate::chess::perft(self, depth)
    }
}

impl NamedGame for Xiangqi {
    type Eval = XiangqiEval;
    const GAME: GameName = GameName::Xiangqi;
    const DEFAULT_POSITION: &'static str = "startpos";

    /// Eight plies: a fifth of a second from a middlegame.
    fn default_depth(&self) -> i32 {
        8
    }

    /// The published perft tables' convention: a mate before the last ply
    /// adds no leaf.
    fn perft(&self, depth: u32) -> u64 {
        crate::xiangqi::perft(self, depth)
    }
}

impl NamedGame for Draughts {
    type Eval = DraughtsEval;
    const GAME: GameName = GameName::Draughts;
    const DEFAULT_POSITION: &'static str = "start";

    /// Twelve plies: a fraction of a second from a middlegame.
    fn default_depth(&self) -> i32 {
        12
    }

    /// The published perft tables' convention: each capture once however
    /// many routes reach it, and a side with no move before the last ply
    /// adds no leaf.
    fn perft(&self, depth: u32) -> u64 {
        crate::draughts::perft(self, depth)
    }
}

impl NamedGame for Synthetic {
    type Eval = SyntheticEval;
    const GAME: GameName = GameName::Synthetic;
    const DEFAULT_POSITION: &'static str = "b=6,d=8,seed=1";
    const FINAL_SCORE_MEANING: &'static str = "the value of the leaf the game ends in";

    /// The whole tree below the position: its true value, the point of the game.
    fn default_depth(&self) -> i32 {
        (self.spec().depth as i32 - self.ply() as i32).max(1)
    }

    fn final_score(&self) -> Score {
        self.value()
    }
}

/// Work generic over the game, run by [`GameName::dispatch`].
pub trait GameCommand {
    /// What the work returns.
    type Output;

    /// Does the work on game `G`.
    fn run<G: NamedGame>(self) -> Self::Output;
}

impl GameName {
    /// Runs `command` on the game this names.
    pub fn dispatch<C: GameCommand>(self, command: C) -> C::Output {
        match self {
            GameName::Othello => command.run::<Othello>(),
            GameName::Synthetic => command.run::<Synthetic>(),
            GameName::Chess => command.run::<Chess>(),
            GameName::Draughts => command.run::<Draughts>(),
            GameName::Xiangqi => command.run::<Xiangqi>(),
        }
    }
}

/// The user's word for pv-split with an OpenCL device as its slaves
/// (`--algorithm gpu`, the bench's `--algos gpu`, self-play's `gpu:1`), read
/// by [`parse_algorithm`] alone; also the label of its rows. `gpu-narrow`
/// and `gpu-wide` are the same search with the pieces split otherwise
/// ([`GpuSplit`]).
pub const GPU: &str = "gpu";

pub use crate::othello::GpuSplit;

/// Whether a row's label is one of the gpu algorithm's ([`GpuSplit`]'s
/// names).
pub fn is_gpu_label(label: &str) -> bool {
    GpuSplit::ALL.iter().any(|s| s.name() == label)
}

/// Where pv-split's slaves live, as the command line and the bench choose
/// it; [`SlavePlace::slaves`] makes it an engine's
/// [`Slaves`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlavePlace {
    /// The engine's other threads, every message held back by `latency`
    /// (zero for none; the bench's `--latency`).
    Threads {
        /// How long each message is held back.
        latency: Duration,
    },
    /// One per MPI rank (`--transport mpi`): `ranks` processes, the
    /// master's included, one thread each on the master's side.
    Ranks(usize),
    /// OpenCL device `device` (`--algorithm gpu`); the master is one
    /// thread.
    Gpu {
        /// The device's index (`splitpoint gpu-info`).
        device: usize,
        /// How each piece is split between host and device.
        split: GpuSplit,
    },
}

impl Default for SlavePlace {
    fn default() -> Self {
        SlavePlace::Threads {
            latency: Duration::ZERO,
        }
    }
}

impl SlavePlace {
    /// The master's own threads when the engine was asked for `threads`:
    /// those, with its slaves on them; one, with its slaves elsewhere.
    pub fn master_threads(self, threads: usize) -> usize {
        match self {
            SlavePlace::Threads { .. } => threads,
            SlavePlace::Ranks(_) | SlavePlace::Gpu { .. } => 1,
        }
    }

    /// The engine's setting for game `G` scored by `eval`: the threads, the
    /// first `ranks - 1` other processes of `cluster`, or the device.
    ///
    /// # Errors
    /// A message saying why not: no cluster of that many processes, or a
    /// device that cannot be used ([`NamedGame::gpu_transport`]).
    pub fn slaves<G: NamedGame, E: Evaluator<G> + 'static>(
        self,
        eval: E,
        cluster: Option<&Arc<dyn Channel>>,
    ) -> Result<Slaves<G>, String> {
        match self {
            SlavePlace::Threads { latency } => Ok(Slaves::Threads { latency }),
            SlavePlace::Ranks(ranks) => {
                let channel = cluster
                    .filter(|c| c.size() >= ranks)
                    .ok_or_else(|| format!("{ranks} ranks: not that many processes"))?;
                let transport = WireTransport::<G>::master(Arc::clone(channel), ranks - 1);
                Ok(Slaves::Remote(Arc::new(transport)))
            }
            SlavePlace::Gpu { device, split } => {
                Ok(Slaves::Remote(G::gpu_transport(eval, device, split)?))
            }
        }
    }

    /// The label of `algorithm`'s rows with its slaves here: the
    /// algorithm's name, with the latency after a `+` if there is one
    /// (`pv-split+50us`), or `/mpi` over ranks (`pv-split/mpi`), or `gpu`.
    pub fn label(self, algorithm: Algorithm) -> String {
        match self {
            SlavePlace::Gpu { split, .. } => split.name().to_string(),
            SlavePlace::Ranks(_) => format!("{algorithm}/mpi"),
            SlavePlace::Threads { latency } if latency.is_zero() => algorithm.name().to_string(),
            SlavePlace::Threads { latency } => format!("{algorithm}+{}", latency_text(latency)),
        }
    }
}

/// Reads an algorithm as a user names it: a library algorithm's name, its
/// slaves on the engine's threads, or [`GPU`] (or another [`GpuSplit`]'s
/// name), pv-split with OpenCL device `device` as its slaves.
///
/// # Errors
/// [`UnknownAlgorithm`] for any other name.
pub fn parse_algorithm(
    name: &str,
    device: usize,
) -> Result<(Algorithm, SlavePlace), UnknownAlgorithm> {
    if let Some(&split) = GpuSplit::ALL.iter().find(|s| s.name() == name) {
        return Ok((Algorithm::PvSplit, SlavePlace::Gpu { device, split }));
    }
    Ok((name.parse()?, SlavePlace::default()))
}

/// A latency as `50us`, `1ms` or `2s`: the coarsest unit it fits whole.
pub fn latency_text(d: Duration) -> String {
    let us = d.as_micros();
    if us % 1_000_000 == 0 {
        format!("{}s", us / 1_000_000)
    } else if us % 1000 == 0 {
        format!("{}ms", us / 1000)
    } else {
        format!("{us}us")
    }
}

/// Reads a latency written as [`latency_text`] writes it (or `0`).
///
/// # Errors
/// A message saying what is wrong.
pub fn parse_latency(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (digits, unit): (String, String) = (
        text.chars().take_while(char::is_ascii_digit).collect(),
        text.chars().skip_while(char::is_ascii_digit).collect(),
    );
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("'{text}' is no latency (such as 50us, 1ms or 0)"))?;
    let micros = match unit.as_str() {
        "us" | "µs" => n,
        "ms" => n.saturating_mul(1000),
        "s" => n.saturating_mul(1_000_000),
        "" if n == 0 => 0,
        _ => return Err(format!("'{text}': the unit must be us, ms or s")),
    };
    if micros > 10_000_000 {
        return Err(format!("'{text}': at most 10 s"));
    }
    Ok(Duration::from_micros(micros))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpu_is_read_as_pv_split_on_the_device_and_labelled_so() {
        let (algorithm, place) = parse_algorithm("gpu", 2).unwrap();
        assert_eq!(
            (algorithm, place),
            (
                Algorithm::PvSplit,
                SlavePlace::Gpu {
                    device: 2,
                    split: GpuSplit::Balanced
                }
            )
        );
        assert_eq!(place.label(algorithm), "gpu");
        for split in GpuSplit::ALL {
            let (algorithm, place) = parse_algorithm(split.name(), 0).unwrap();
            assert_eq!(place, SlavePlace::Gpu { device: 0, split });
            assert_eq!(place.label(algorithm), split.name());
            assert!(is_gpu_label(split.name()));
        }
        assert!(!is_gpu_label("pv-split"));
        assert_eq!(place.master_threads(4), 1);
        let (ybw, threads) = parse_algorithm("ybw", 0).unwrap();
        assert_eq!(
            (ybw, threads),
            (Algorithm::Ybw { strong: false }, SlavePlace::default())
        );
        assert_eq!(threads.master_threads(4), 4);
        assert!(parse_algorithm("gpu2", 0).is_err());
    }

    #[test]
    fn labels_name_the_latency_or_the_ranks() {
        let pv = Algorithm::PvSplit;
        let latency = |us| SlavePlace::Threads {
            latency: Duration::from_micros(us),
        };
        assert_eq!(latency(0).label(pv), "pv-split");
        assert_eq!(latency(50).label(pv), "pv-split+50us");
        assert_eq!(latency(2000).label(pv), "pv-split+2ms");
        assert_eq!(SlavePlace::Ranks(3).label(pv), "pv-split/mpi");
    }

    #[test]
    fn ranks_need_a_cluster_that_large() {
        let e = SlavePlace::Ranks(3).slaves::<Othello, _>(OthelloEval, None);
        assert_eq!(e.err().as_deref(), Some("3 ranks: not that many processes"));
    }
}
