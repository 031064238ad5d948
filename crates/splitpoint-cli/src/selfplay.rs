//! `splitpoint selfplay`: verify parallel search by games.

use std::io::Write;
use std::process::ExitCode;

use clap::Args;
use splitpoint::{Evaluator, Score};
use splitpoint_bench::runner::Config;
use splitpoint_bench::selfplay::{self, OpeningReport};
use splitpoint_bench::suite::{Suite, parse_depth};
use splitpoint_games::registry::GameName;
use splitpoint_games::registry::parse_algorithm;

use crate::error::{Error, Result};
use crate::games::{GameCommand, NamedGame, parse_game};
use crate::{check_hash, stdout};

/// Verify parallel search by games: two configurations must play identically
///
/// From each opening of a suite, plays four games in exact mode at a fixed
/// depth: A against A, A against B, B against A and B against B, where A and B
/// are (algorithm, threads) configurations. Exact search gives every
/// configuration the same values, and ties between equally scored moves are
/// broken the same way by all (the first such move in generation order), so
/// the four games must be identical move by move. Any divergence is reported
/// and makes the exit status 1.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  splitpoint selfplay                               serial×1 against ybw×2, Othello
  splitpoint selfplay --a dts:4 --b lazy-smp:3 --depth 5
  splitpoint selfplay --a serial:1 --b gpu:1        CPU against an OpenCL device (--features gpu)
  splitpoint selfplay --game synthetic --suite synthetic-tiny --depth 4")]
pub struct SelfplayArgs {
    /// The game: othello, chess, draughts, xiangqi or synthetic [default: the
    /// suite's game, else othello]
    #[arg(long, short = 'g')]
    pub game: Option<String>,

    /// The suite whose positions are the openings [default: the game's default suite]
    #[arg(long, short = 's', value_name = "NAME|FILE")]
    pub suite: Option<String>,

    /// How many openings to play from (the suite's first ones)
    #[arg(long, short = 'n', value_name = "N", default_value_t = 4)]
    pub openings: usize,

    /// Search depth of every move
    #[arg(long, short = 'd', value_name = "D", default_value = "4")]
    pub depth: String,

    /// Configuration A, ALGORITHM:THREADS (gpu:1 for Othello's OpenCL search)
    #[arg(long, value_name = "ALGO:N", default_value = "serial:1")]
    pub a: String,

    /// Configuration B, ALGORITHM:THREADS
    #[arg(long, value_name = "ALGO:N", default_value = "ybw:2")]
    pub b: String,

    /// Transposition table per engine, MiB
    #[arg(long, value_name = "MB", default_value_t = 16)]
    pub hash: u64,

    /// The OpenCL device gpu:1 searches on (see splitpoint gpu-info)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub gpu_device: usize,

    /// Print the games as JSON
    #[arg(long)]
    pub json: bool,
}

fn parse_config(flag: &str, text: &str, gpu_device: usize) -> Result<Config> {
    let (name, threads) = text.split_once(':').unwrap_or((text, "1"));
    let threads = match threads.parse::<usize>() {
        Ok(n) if (1..=256).contains(&n) => n,
        _ => {
            return Err(Error::input(format!(
                "{flag}: '{threads}' is not a thread count from 1 to 256"
            )));
        }
    };
    let (algorithm, slaves) =
        parse_algorithm(name, gpu_device).map_err(|e| Error::input(format!("{flag}: {e}")))?;
    if slaves.master_threads(threads) != threads {
        return Err(Error::input(format!(
            "{flag}: gpu runs its CPU side on one thread (gpu:1)"
        )));
    }
    Ok(Config {
        slaves,
        ..Config::new(algorithm, threads)
    })
}

/// Plays the games and reports them.
pub fn run_selfplay(args: &SelfplayArgs) -> Result<ExitCode> {
    // An embedded suite or a suite file says its game; --game, when given,
    // must agree with it.
    let game = args.game.as_deref().map(parse_game).transpose()?;
    let name = args.suite.clone().unwrap_or_else(|| {
        game.unwrap_or(GameName::Othello)
            .default_suite()
            .to_string()
    });
    let depth = parse_depth(&args.depth).map_err(|e| Error::input(format!("--depth: {e}")))?;
    // The games are played to --depth: a suite file need not give one.
    let suite = Suite::load_with_depth(&name, game, Some(depth))
        .map_err(|e| Error::input(format!("--suite: {e}")))?;
    let game = suite.game;
    let (a, b) = (
        parse_config("--a", &args.a, args.gpu_device)?,
        parse_config("--b", &args.b, args.gpu_device)?,
    );
    let hash = check_hash(args.hash)?;
    let openings: Vec<&str> = suite
        .positions
        .iter()
        .take(args.openings.max(1))
        .map(|p| p.text.as_str())
        .collect();
    let (reports, meaning) = game.dispatch(SelfPlay {
        openings: &openings,
        a,
        b,
        depth,
        hash,
    })?;
    let mut out = stdout();
    if args.json {
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&reports).map_err(|e| Error::input(e.to_string()))?
        )?;
    } else {
        writeln!(
            out,
            "A = {} × {}, B = {} × {}, depth {depth}, exact mode\n",
            a.label(),
            a.threads,
            b.label(),
            b.threads
        )?;
        writeln!(
            out,
            "| Opening | Plies | A–A | A–B | B–A | B–B | Identical |"
        )?;
        writeln!(out, "|---|---:|---:|---:|---:|---:|---|")?;
        for (i, r) in reports.iter().enumerate() {
            let results: Vec<String> = r.games.iter().map(|g| format!("{:+}", g.result)).collect();
            let verdict = match r.divergence {
                None => "yes".to_string(),
                Some(ply) => format!("**NO: diverge at ply {}**", ply + 1),
            };
            writeln!(
                out,
                "| {} | {} | {} | {verdict} |",
                i + 1,
                r.games[0].moves.len(),
                results.join(" | ")
            )?;
        }
        writeln!(out, "\nResults: {}, from the first mover's view.", meaning)?;
    }
    let diverged = reports.iter().filter(|r| !r.identical).count();
    if diverged > 0 {
        eprintln!("splitpoint: games from {diverged} opening(s) diverged");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// The games from each opening, with the game's evaluator; and what their
/// results mean.
struct SelfPlay<'a> {
    openings: &'a [&'a str],
    a: Config,
    b: Config,
    depth: i32,
    hash: usize,
}

impl GameCommand for SelfPlay<'_> {
    type Output = Result<(Vec<OpeningReport>, &'static str)>;

    fn run<G: NamedGame>(self) -> Self::Output {
        let reports = play(
            self.openings,
            G::Eval::default(),
            self.a,
            self.b,
            self.depth,
            self.hash,
            G::final_score,
        )?;
        Ok((reports, G::FINAL_SCORE_MEANING))
    }
}

fn play<G: NamedGame, E: Evaluator<G> + Clone + 'static>(
    openings: &[&str],
    eval: E,
    a: Config,
    b: Config,
    depth: i32,
    hash: usize,
    final_score: impl Fn(&G) -> Score,
) -> Result<Vec<OpeningReport>> {
    let positions: Vec<G> = openings
        .iter()
        .map(|t| {
            G::parse_position(t).map_err(|e| Error::input(format!("--suite: opening '{t}': {e}")))
        })
        .collect::<Result<_>>()?;
    selfplay::run(
        &positions,
        eval,
        a,
        b,
        depth,
        hash,
        1000,
        final_score,
        || {},
    )
    .map_err(Error::input)
}
