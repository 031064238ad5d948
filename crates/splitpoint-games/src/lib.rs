//! Games for splitpoint, each behind a cargo feature so a user who brings their
//! own game compiles none of them.
#![deny(missing_docs)]

#[cfg(feature = "othello")]
pub mod othello;
#[cfg(feature = "synthetic")]
pub mod synthetic;
