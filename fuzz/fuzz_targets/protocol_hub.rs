//! Any lines fed to a Hub (draughts) session: never a panic, and the session
//! ends. The session starts with a 1 MiB table, and option lines are tamed
//! (`splitpoint_fuzz::run_session`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use splitpoint_cli::hub;
use splitpoint_fuzz::run_session;

fuzz_target!(|data: &[u8]| {
    run_session(hub::session, "set-param name=hash value=1\n", data);
});
