//! `--transport mpi`: PV splitting across processes, one per MPI rank.
//!
//! Run the same command on every rank (`mpirun -np N splitpoint search …
//! --algorithm pv-split --transport mpi`). Rank 0 runs the command: its
//! engine is the PV-splitting master, and the other ranks are its slaves.
//! They never run the command's own work: at [`TransportArgs::connect`] they
//! serve the master's searches on their own engine (same game, evaluator
//! and table size) until rank 0 is done, then leave. Only rank 0 prints.
//!
//! The messages (`wire.rs`) are the [`splitpoint::cluster`] orders and
//! reports as compact bytes, positions as the game's own
//! [`Game::to_bytes`](splitpoint::Game::to_bytes) and moves as their text;
//! the transport (`mpi.rs`) only exists in a build with the `mpi` feature.
//! A singleton (one rank, or no `mpirun`) searches as the plain build does.

use clap::Args;
use splitpoint::{Algorithm, Engine, Evaluator};

use crate::error::{Error, Result};
use crate::games::NamedGame;

#[cfg(feature = "mpi")]
mod mpi;
#[cfg(feature = "mpi")]
mod wire;

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
                connect_mpi(engine)
            }
            other => Err(Error::input(format!(
                "--transport: unknown transport '{other}' (threads or mpi)"
            ))),
        }
    }
}

#[cfg(feature = "mpi")]
fn connect_mpi<G: NamedGame, E: Evaluator<G> + 'static>(engine: &mut Engine<G, E>) -> Result<()> {
    self::mpi::connect(engine)
}

#[cfg(not(feature = "mpi"))]
fn connect_mpi<G: NamedGame, E: Evaluator<G>>(_: &mut Engine<G, E>) -> Result<()> {
    Err(Error::input(
        "--transport mpi: this splitpoint was built without MPI; build it with \
         `cargo build --release --features mpi` (needs an MPI library such as OpenMPI)",
    ))
}

/// Ends the cluster, if there is one: without the `mpi` feature, nothing.
#[cfg(not(feature = "mpi"))]
pub fn shutdown() {}
