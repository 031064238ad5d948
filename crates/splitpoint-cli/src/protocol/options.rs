//! The options every protocol offers, in one table: [`EngineOption`] names
//! each in every dialect, says its kind and range, and reads a value; the
//! dialect declares it in its own syntax ([`Dialect::declare`]) and the
//! session applies it ([`Session::set_option`]). A front end handles only
//! the options of its own (UCI's `UCI_Variant`, UCCI's `usemillisec`, …).
//!
//! [`Dialect::declare`]: super::Dialect::declare
//! [`Session::set_option`]: super::Session::set_option

use splitpoint::Algorithm;

use super::dialect::Dialect;
use super::{DEFAULT_HASH_MIB, MAX_HASH_MIB, MAX_THREADS, clip};

/// An option every protocol offers.
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
}

/// What kind of value an option takes, with its value now.
pub enum OptionKind {
    /// A whole number from 1 to `max`.
    Spin { value: usize, max: usize },
    /// One of `choices`.
    Combo { value: String, choices: Vec<String> },
    /// On or off.
    Check(bool),
}

impl EngineOption {
    /// Every one, in the order the dialects declare them.
    pub const ALL: [EngineOption; 4] = [
        EngineOption::Threads,
        EngineOption::Hash,
        EngineOption::Algorithm,
        EngineOption::Exact,
    ];

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
        }
    }

    /// The option `dialect` calls `name` (any case), if it is one of these.
    pub fn find(dialect: Dialect, name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|o| o.name(dialect).eq_ignore_ascii_case(name))
    }

    /// Its kind, and its value in `settings`.
    pub fn kind(self, settings: &Settings) -> OptionKind {
        match self {
            EngineOption::Threads => OptionKind::Spin {
                value: settings.threads,
                max: MAX_THREADS,
            },
            EngineOption::Hash => OptionKind::Spin {
                value: settings.hash_mib,
                max: MAX_HASH_MIB,
            },
            EngineOption::Algorithm => OptionKind::Combo {
                value: settings.algorithm.to_string(),
                choices: std::iter::once("auto".to_string())
                    .chain(Algorithm::ALL.iter().map(ToString::to_string))
                    .collect(),
            },
            EngineOption::Exact => OptionKind::Check(settings.exact),
        }
    }

    /// Reads `value` into `settings`, or says what is wrong with it.
    pub(super) fn read(self, value: &str, settings: &mut Settings) -> Result<(), String> {
        let value = value.trim();
        match self.kind(settings) {
            OptionKind::Spin { max, .. } => {
                let n = value
                    .parse::<usize>()
                    .ok()
                    .filter(|n| (1..=max).contains(n))
                    .ok_or_else(|| format!("'{}' is not a number from 1 to {max}", clip(value)))?;
                match self {
                    EngineOption::Threads => settings.threads = n,
                    _ => settings.hash_mib = n,
                }
            }
            OptionKind::Combo { .. } => settings.algorithm = AlgorithmChoice::parse(value)?,
            // UCCI's checks also read `on` and `off`.
            OptionKind::Check(_) => {
                settings.exact = match value.to_ascii_lowercase().as_str() {
                    "true" | "on" => true,
                    "false" | "off" => false,
                    _ => return Err(format!("'{}' is not true or false", clip(value))),
                }
            }
        }
        Ok(())
    }
}

/// The Algorithm option's value: a name, or `auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlgorithmChoice {
    /// Serial with one thread, YBW with more (as `splitpoint search` does).
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

    /// The algorithm for `threads` threads.
    pub(super) fn resolve(self, threads: usize) -> Algorithm {
        match self {
            AlgorithmChoice::Fixed(a) => a,
            AlgorithmChoice::Auto if threads == 1 => Algorithm::Serial,
            AlgorithmChoice::Auto => Algorithm::Ybw { strong: false },
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
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            threads: 1,
            algorithm: AlgorithmChoice::Auto,
            hash_mib: DEFAULT_HASH_MIB,
            exact: false,
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
