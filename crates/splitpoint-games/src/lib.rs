//! Games for splitpoint, each behind a cargo feature so a user who brings their
//! own game compiles none of them.
#![deny(missing_docs)]

#[cfg(feature = "chess")]
pub mod chess;
#[cfg(feature = "draughts")]
pub mod draughts;
#[cfg(feature = "othello")]
pub mod othello;
#[cfg(feature = "synthetic")]
pub mod synthetic;
#[cfg(feature = "xiangqi")]
pub mod xiangqi;

#[cfg(feature = "registry")]
pub mod registry;
pub mod rng;

#[cfg(any(feature = "chess", feature = "draughts", feature = "xiangqi"))]
mod named;
#[cfg(any(feature = "chess", feature = "draughts", feature = "xiangqi"))]
mod repetition;

/// The README's code, compiled and run as a doctest so it stays true, and
/// free of warnings (a reader copies it).
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
#[doc(test(attr(deny(warnings))))]
struct ReadmeDoctests;
