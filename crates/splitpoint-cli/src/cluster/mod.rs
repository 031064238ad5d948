//! `--transport mpi`: PV splitting across processes, one per MPI rank.
//!
//! Run the same command on every rank (`mpirun -np N splitpoint search …
//! --algorithm pv-split --transport mpi`). Rank 0 runs the command: its
//! engine is the PV-splitting master, and the other ranks are its slaves.
//! They never run the command's own work: at [`TransportArgs::connect`] they
//! serve the master's searches on their own engine (same game, evaluator
//! and table size) until rank 0 is done, then leave. Only rank 0 prints.
//!
//! The messages are the library's [`splitpoint::cluster::WireTransport`]:
//! compact bytes, positions as the game's own
//! [`Game::to_bytes`](splitpoint::Game::to_bytes) and moves as their text.
//! `mpi.rs`, only in a build with the `mpi` feature, is the byte channel
//! between ranks. A singleton (one rank, or no `mpirun`) searches as the
//! plain build does.

use std::sync::Arc;

use clap::Args;
use splitpoint::cluster::Channel;
use splitpoint::{Algorithm, Engine, Evaluator};

use crate::error::{Error, Result};
use crate::games::NamedGame;

#[cfg(feature = "mpi")]
mod mpi;

#[cfg(feature = "mpi")]
pub use self::mpi::shutdown;

/// Where PV splitting's slaves run.
#[derive(Args, Debug, Clone)]
pub struct TransportArgs {
    /// Where pv-split's slaves run: `threads` (this process's other threads)
    /// or `mpi` (one per MPI rank under mpirun; needs a build with
    /// `--features mpi`)
    #[arg(long, value_name = "threads|mpi", default_value = "threads")]
    pub transport: String,

    /// With --transport mpi and --threads above 1: how each slave rank
    /// shares a piece of work among its threads: ybw, ybw-strong, workloads
    /// or workloads-shared [default: ybw]
    #[arg(long, value_name = "NAME")]
    pub rank_algorithm: Option<String>,
}

impl TransportArgs {
    /// Connects `engine` to its slaves as `--transport` says. On every MPI
    /// rank but 0 this serves rank 0's searches and then ends the process.
    pub fn connect<G: NamedGame, E: Evaluator<G> + 'static>(
        &self,
        engine: &mut Engine<G, E>,
    ) -> Result<()> {
        match self.transport.as_str() {
            "threads" => Ok(()),
            "mpi" => {
                if engine.algorithm() != Algorithm::PvSplit {
                    return Err(Error::input(
                        "--transport mpi: only --algorithm pv-split runs across processes",
                    ));
                }
                let rank_algorithm = self.rank_algorithm()?;
                connect_mpi(engine, rank_algorithm)
            }
            other => Err(Error::input(format!(
                "--transport: unknown transport '{other}' (threads or mpi)"
            ))),
        }
    }

    /// The algorithm slave ranks share their work with.
    fn rank_algorithm(&self) -> Result<Algorithm> {
        let Some(name) = &self.rank_algorithm else {
            return Ok(Algorithm::Ybw { strong: false });
        };
        let algorithm: Algorithm = name
            .parse()
            .map_err(|e| Error::input(format!("--rank-algorithm: {e}")))?;
        if !algorithm.shares_subtrees() {
            return Err(Error::input(format!(
                "--rank-algorithm: {algorithm} cannot share a piece of work among a rank's \
                 threads (ybw, ybw-strong, workloads or workloads-shared can)"
            )));
        }
        Ok(algorithm)
    }
}

/// Whether this process is an MPI rank other than 0 (read from the
/// launcher's environment, before MPI starts): such a rank says nothing,
/// not even an error every rank would repeat.
pub fn is_quiet_rank() -> bool {
    ["OMPI_COMM_WORLD_RANK", "PMI_RANK"]
        .iter()
        .any(|v| std::env::var(v).is_ok_and(|r| r != "0"))
}

/// Rank 0 becomes the master of every other rank; any other rank serves
/// rank 0's searches on `engine` (its threads sharing each piece of work
/// with `rank_algorithm`) and then ends the process.
#[cfg(feature = "mpi")]
fn connect_mpi<G: NamedGame, E: Evaluator<G> + 'static>(
    engine: &mut Engine<G, E>,
    rank_algorithm: Algorithm,
) -> Result<()> {
    use splitpoint::cluster::{Slaves, WireTransport};

    let channel = self::mpi::channel()?;
    if channel.size() == 1 {
        // A singleton: no slaves, the plain build's search.
        return Ok(());
    }
    if channel.rank() == 0 {
        self::mpi::greet_once::<G, E>(&channel);
        let transport = WireTransport::<G>::master(channel, usize::MAX);
        engine.set_slaves(Slaves::Remote(Arc::new(transport)));
        return Ok(());
    }
    engine.set_parallelism(rank_algorithm, engine.threads());
    WireTransport::<G>::slave(channel).serve(engine);
    shutdown();
    std::process::exit(0);
}

#[cfg(not(feature = "mpi"))]
fn connect_mpi<G: NamedGame, E: Evaluator<G>>(_: &mut Engine<G, E>, _: Algorithm) -> Result<()> {
    Err(without_mpi())
}

/// The processes `mpirun` started, as a byte channel (`bench --transport
/// mpi`): this one is rank 0 or a slave.
#[cfg(feature = "mpi")]
pub fn world() -> Result<Arc<dyn Channel>> {
    Ok(self::mpi::channel()?)
}

/// Without the `mpi` feature there is no world to join.
#[cfg(not(feature = "mpi"))]
pub fn world() -> Result<Arc<dyn Channel>> {
    Err(without_mpi())
}

#[cfg(not(feature = "mpi"))]
fn without_mpi() -> Error {
    Error::input(
        "--transport mpi: this splitpoint was built without MPI; build it with \
         `cargo build --release --features mpi` (needs an MPI library such as OpenMPI)",
    )
}

/// Ends the cluster, if there is one: without the `mpi` feature, nothing.
#[cfg(not(feature = "mpi"))]
pub fn shutdown() {}
