//! Any lines fed to a UCI session (chess at first): never a panic, and the
//! session ends. The session starts with a 1 MiB table, and option lines
//! are tamed (`splitpoint_fuzz::run_session`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use splitpoint_cli::uci;
use splitpoint_fuzz::run_session;

fuzz_target!(|data: &[u8]| {
    run_session(uci::session, "setoption name Hash value 1\n", data);
});
