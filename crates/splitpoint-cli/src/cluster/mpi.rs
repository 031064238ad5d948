//! The MPI channel: rank 0 is the PV-splitting master, rank `i` its slave
//! `i - 1` (see the module doc of `cluster`). The messages, the greeting and
//! the searches' start and end are the library's
//! ([`splitpoint::cluster::WireTransport`]); this is only the byte channel.
//!
//! Receives are probes (`MPI_Iprobe`), polled by the library with short
//! sleeps between: OpenMPI's blocking receive spins, and an idle rank must
//! leave the core to the ranks that search.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex, MutexGuard};

use mpi::Threading;
use mpi::environment::Universe;
use mpi::point_to_point::MatchedReceiveVec;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use splitpoint::cluster::{Channel, Tag, dismiss_all, greet};
use splitpoint::{Evaluator, Game};

use crate::error::{Error, Result};

/// MPI itself and the world's channel, from the first `--transport mpi`
/// until [`shutdown`].
static CLUSTER: Mutex<Option<(Universe, Arc<MpiChannel>)>> = Mutex::new(None);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Bytes between MPI ranks, one MPI tag per direction.
pub struct MpiChannel {
    comm: SimpleCommunicator,
    rank: usize,
    size: usize,
    /// Whether rank 0 has greeted the others (once per process).
    greeted: AtomicBool,
}

// SAFETY: MPI was initialised with at least MPI_THREAD_SERIALIZED (checked in
// `channel`), and its calls are never concurrent: on a slave rank only the
// main thread calls MPI; on rank 0 the main thread does between searches
// (greeting, clearing, shutdown) and the search's thread 0 during one, never
// both.
unsafe impl Send for MpiChannel {}
// SAFETY: as for `Send`.
unsafe impl Sync for MpiChannel {}

fn mpi_tag(tag: Tag) -> i32 {
    match tag {
        Tag::ToSlave => 1,
        Tag::ToMaster => 2,
    }
}

impl Channel for MpiChannel {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.size
    }

    fn send(&self, to: usize, tag: Tag, message: &[u8]) {
        self.comm
            .process_at_rank(to as i32)
            .send_with_tag(message, mpi_tag(tag));
    }

    fn try_recv(&self, from: Option<usize>, tag: Tag) -> Option<(usize, Vec<u8>)> {
        let tag = mpi_tag(tag);
        let matched = match from {
            Some(rank) => self
                .comm
                .process_at_rank(rank as i32)
                .immediate_matched_probe_with_tag(tag),
            None => self
                .comm
                .any_process()
                .immediate_matched_probe_with_tag(tag),
        }?;
        let (bytes, status) = matched.matched_receive_vec::<u8>();
        Some((status.source_rank() as usize, bytes))
    }

    fn abort(&self, why: &str) -> ! {
        eprintln!("splitpoint: --transport mpi: {why}");
        self.comm.abort(2)
    }
}

/// The world's channel, starting MPI on the first call.
pub fn channel() -> Result<Arc<MpiChannel>> {
    let mut cluster = lock(&CLUSTER);
    if let Some((_, channel)) = cluster.as_ref() {
        return Ok(channel.clone());
    }
    let (universe, threading) =
        mpi::initialize_with_threading(Threading::Multiple).ok_or_else(|| {
            Error::input("--transport mpi: MPI could not be initialised (or was already finalised)")
        })?;
    if threading < Threading::Serialized {
        return Err(Error::input(format!(
            "--transport mpi: this MPI offers threading level {threading:?}; \
             splitpoint needs at least Serialized"
        )));
    }
    let comm = universe.world().duplicate();
    let channel = Arc::new(MpiChannel {
        rank: comm.rank() as usize,
        size: comm.size() as usize,
        comm,
        greeted: AtomicBool::new(false),
    });
    *cluster = Some((universe, channel.clone()));
    Ok(channel)
}

/// On rank 0, greets the other ranks once (every rank must run this program
/// on game `G` with evaluator `E`); a refusal ends every rank with status 2.
pub fn greet_once<G: Game, E: Evaluator<G>>(channel: &MpiChannel) {
    if channel.rank == 0 && !channel.greeted.swap(true, Relaxed) {
        if let Err(e) = greet::<G, E>(channel) {
            channel.abort(&e);
        }
    }
}

/// Dismisses the slave ranks and finalises MPI, if it was started (at the
/// end of the command on rank 0).
pub fn shutdown() {
    let Some((universe, channel)) = lock(&CLUSTER).take() else {
        return;
    };
    if channel.rank == 0 {
        dismiss_all(&*channel);
    }
    drop(channel);
    drop(universe);
}
