//! splitpoint: parallel alpha-beta game-tree search.
//!
//! Implement [`Game`] (the rules) and [`Evaluator`] (the judgement) for a
//! two-player zero-sum game and search it with [`Engine`]: iterative-deepening
//! PVS with quiescence over a lockless [`TranspositionTable`].
//!
//! In exact mode ([`Limits::exact`]) the search returns the same root score as
//! plain negamax over the same tree ([`oracle::negamax`]); that invariant is what
//! every algorithm is tested against.
#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

mod driver;
mod engine;
mod game;
mod node;
pub mod oracle;
mod parallel;
mod pool;
mod score;
pub mod search;
pub mod sim;
mod stats;
#[cfg(test)]
mod test_games;
pub mod trace;
pub mod tt;

/// Hooks for this workspace's own tests (the `testing` feature): not part of
/// the API.
#[cfg(feature = "testing")]
#[doc(hidden)]
pub mod testing {
    pub use crate::parallel::dts::testing::*;
    /// PV splitting over a transport that delays and reorders messages.
    pub mod pv_split {
        pub use crate::parallel::pv_split::testing::*;
    }
}

/// PV splitting across processes: the messages master and slaves exchange,
/// the [`Transport`](cluster::Transport) that carries them, and
/// [`WireTransport`](cluster::WireTransport), which carries them as bytes
/// over any [`Channel`](cluster::Channel) between numbered processes (an
/// MPI communicator, say); where the slaves live is
/// [`Slaves`](cluster::Slaves) (see [`Engine::set_slaves`] and
/// [`Engine::serve`]).
pub mod cluster {
    pub use crate::parallel::transport::{
        ChannelTransport, FrameId, Order, Report, Slaves, Transport, Work, WorkId,
    };
    pub use crate::parallel::wire_transport::{
        Channel, LocalChannel, Tag, WireTransport, dismiss_all, greet,
    };
}

pub use driver::{Limits, MAX_DEPTH, SearchResult, presearch_depths};
pub use engine::{Engine, StopHandle};
pub use game::{
    Evaluator, Game, MAX_MOVES, MAX_PLY, MoveBuffer, MoveList, OrderNode, Outcome, ParseError,
    Pruning,
};
pub use node::NodeType;
pub use oracle::{perft, perft_exact_depth};
pub use parallel::{Algorithm, UnknownAlgorithm};
pub use score::{INFINITY, Score, WIN, WIN_BOUND, from_table, is_decisive, to_table};
pub use stats::Stats;
pub use trace::{EventKind, Trace, TraceEvent};
pub use tt::{TableAllocError, TableKind, TranspositionTable};
