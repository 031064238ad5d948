//! The options the protocols offer, in one table: [`EngineOption`] names
//! each in every dialect that offers it, says its kind and range, and reads a value; the
//! dialect declares it in its own syntax ([`Dialect::declare`]) and the
//! session applies it ([`Session::set_option`]). A front end handles only
//! the options of its own (UCI's `UCI_Variant`, UCCI's `usemillisec`, …).
//!
//! [`Dialect::declare`]: super::Dialect::declare
//! [`Session::set_option`]: super::Session::set_option

use splitpoint::Algorithm;

use crate::games::GameName;

use super::dialect::Dialect;
use super::{DEFAULT_HASH_MIB, MAX_HASH_MIB, MAX_THREADS, clip};

/// An option a protocol offers: the first four in every dialect, the rest
/// (what players expect of a UCI engine) in UCI only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineOption {
    /// Search threads.
    Threads,
    /// The table's size in MiB.
    Hash,
    /// How the threads share the work: `auto` or an algorithm's name.
    Algorithm,
    /// Exact-mode searches (no pruning that could change the minimax score).
    Exact,
    /// How many best lines to search and report (UCI's `MultiPV`).
    MultiPv,
    /// Whether `bestmove` names the reply to ponder on.
    Ponder,
    /// Time kept back from every clock budget for the GUI's and the
    /// pipe's delays, in milliseconds.
    MoveOverhead,
    /// Playing strength: 20 is full strength; below, the search stops at
    /// `level + 1` plies.
    SkillLevel,
}

/// What kind of value an option takes, with its value now.
pub enum OptionKind {
    /// A whole number from `min` to `max`.
    Spin {
        value: usize,
        min: usize,
        max: usize,
    },
    /// One of `choices`.
    Combo { value: String, choices: Vec<String> },
    /// On or off.
    Check(bool),
}

/// The most lines MultiPV searches.
const MAX_MULTIPV: usize = 64;
/// The largest Move Overhead, in milliseconds.
const MAX_MOVE_OVERHEAD_MS: usize = 5_000;
/// Full strength.
pub const MAX_SKILL: usize = 20;

impl EngineOption {
    /// Every one, in the order the dialects declare them.
    pub const ALL: [EngineOption; 8] = [
        EngineOption::Threads,
        EngineOption::Hash,
        EngineOption::Algorithm,
        EngineOption::Exact,
        EngineOption::MultiPv,
        EngineOption::Ponder,
        EngineOption::MoveOverhead,
        EngineOption::SkillLevel,
    ];

    /// Whether `dialect` offers it.
    pub fn offered(self, dialect: Dialect) -> bool {
        use EngineOption as O;
        dialect == Dialect::Uci || matches!(self, O::Threads | O::Hash | O::Algorithm | O::Exact)
    }

    /// Its name in `dialect`: UCI capitalises, UCCI calls the table
    /// `hashsize`.
    pub fn name(self, dialect: Dialect) -> &'static str {
        use EngineOption as O;
        match (self, dialect) {
            (O::Threads, Dialect::Uci) => "Threads",
            (O::Threads, _) => "threads",
            (O::Hash, Dialect::Uci) => "Hash",
            (O::Hash, Dialect::Ucci) => "hashsize",
            (O::Hash, Dialect::Hub) => "hash",
            (O::Algorithm, Dialect::Uci) => "Algorithm",
            (O::Algorithm, _) => "algorithm",
            (O::Exact, Dialect::Uci) => "Exact",
            (O::Exact, _) => "exact",
            (O::MultiPv, _) => "MultiPV",
            (O::Ponder, _) => "Ponder",
            (O::MoveOverhead, _) => "Move Overhead",
            (O::SkillLevel, _) => "Skill Level",
        }
    }

    /// The option `dialect` offers under `name` (any case), if it is one of
    /// these.
    pub fn find(dialect: Dialect, name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|o| o.offered(dialect) && o.name(dialect).eq_ignore_ascii_case(name))
    }

    /// Its kind, and its value in `settings`.
    pub fn kind(self, settings: &Settings) -> OptionKind {
        let spin = |value, min, max| OptionKind::Spin { value, min, max };
        match self {
            EngineOption::Threads => spin(settings.threads, 1, MAX_THREADS),
            EngineOption::Hash => spin(settings.hash_mib, 1, MAX_HASH_MIB),
            EngineOption::Algorithm => OptionKind::Combo {
                value: settings.algorithm.to_string(),
                choices: std::iter::once("auto".to_string())
                    .chain(Algorithm::ALL.iter().map(ToString::to_string))
                    .collect(),
            },
            EngineOption::Exact => OptionKind::Check(settings.exact),
            EngineOption::MultiPv => spin(settings.multipv, 1, MAX_MULTIPV),
            EngineOption::Ponder => OptionKind::Check(settings.ponder),
            EngineOption::MoveOverhead => spin(settings.move_overhead_ms, 0, MAX_MOVE_OVERHEAD_MS),
            EngineOption::SkillLevel => spin(settings.skill, 0, MAX_SKILL),
        }
    }

    /// Reads `value` into `settings`, or says what is wrong with it.
    pub(super) fn read(self, value: &str, settings: &mut Settings) -> Result<(), String> {
        let value = value.trim();
        match self.kind(settings) {
            OptionKind::Spin { min, max, .. } => {
                let n = value
                    .parse::<usize>()
                    .ok()
                    .filter(|n| (min..=max).contains(n))
                    .ok_or_else(|| {
                        format!("'{}' is not a number from {min} to {max}", clip(value))
                    })?;
                *match self {
                    EngineOption::Threads => &mut settings.threads,
                    EngineOption::Hash => &mut settings.hash_mib,
                    EngineOption::MultiPv => &mut settings.multipv,
                    EngineOption::MoveOverhead => &mut settings.move_overhead_ms,
                    _ => &mut settings.skill,
                } = n;
            }
            OptionKind::Combo { .. } => settings.algorithm = AlgorithmChoice::parse(value)?,
            // UCCI's checks also read `on` and `off`.
            OptionKind::Check(_) => {
                let on = match value.to_ascii_lowercase().as_str() {
                    "true" | "on" => true,
                    "false" | "off" => false,
                    _ => return Err(format!("'{}' is not true or false", clip(value))),
                };
                *match self {
                    EngineOption::Exact => &mut settings.exact,
                    _ => &mut settings.ponder,
                } = on;
            }
        }
        Ok(())
    }
}

/// The Algorithm option's value: a name, or `auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlgorithmChoice {
    /// Serial with one thread, the game's fastest with more (as
    /// `splitpoint search` does: [`GameName::parallel_default`]).
    Auto,
    /// This one.
    Fixed(Algorithm),
}

impl AlgorithmChoice {
    /// Reads `auto` or an algorithm's name.
    pub fn parse(text: &str) -> Result<Self, String> {
        if text.eq_ignore_ascii_case("auto") {
            return Ok(AlgorithmChoice::Auto);
        }
        text.to_ascii_lowercase()
            .parse()
            .map(AlgorithmChoice::Fixed)
            .map_err(|e: splitpoint::UnknownAlgorithm| e.to_string())
    }

    /// The algorithm for `threads` threads on `game`.
    pub(super) fn resolve(self, game: GameName, threads: usize) -> Algorithm {
        match self {
            AlgorithmChoice::Fixed(a) => a,
            AlgorithmChoice::Auto => game.auto_algorithm(threads),
        }
    }
}

/// The options that outlive a game (and a switch of UCI variant).
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Search threads.
    pub threads: usize,
    /// How they share the work.
    pub algorithm: AlgorithmChoice,
    /// Table size in MiB.
    pub hash_mib: usize,
    /// Exact-mode searches.
    pub exact: bool,
    /// Best lines to search and report.
    pub multipv: usize,
    /// Whether `bestmove` names the reply to ponder on.
    pub ponder: bool,
    /// Kept back from every clock budget, in milliseconds.
    pub move_overhead_ms: usize,
    /// Playing strength, 0 to 20 (full).
    pub skill: usize,
}

impl Settings {
    /// Kept back from every clock budget.
    pub fn move_overhead(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.move_overhead_ms as u64)
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            threads: 1,
            algorithm: AlgorithmChoice::Auto,
            hash_mib: DEFAULT_HASH_MIB,
            exact: false,
            multipv: 1,
            ponder: false,
            move_overhead_ms: 30,
            skill: MAX_SKILL,
        }
    }
}

impl std::fmt::Display for AlgorithmChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AlgorithmChoice::Auto => f.write_str("auto"),
            AlgorithmChoice::Fixed(a) => a.fmt(f),
        }
    }
}
