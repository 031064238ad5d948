//! `splitpoint`: the command line, all of it in the library (`src/lib.rs`).

use std::process::ExitCode;

fn main() -> ExitCode {
    splitpoint_cli::main()
}
