//! Runs the Connect Four example, whose `main` checks exact search against
//! negamax: examples are compiled by `cargo test` but not run.

#[path = "../examples/connect_four.rs"]
mod connect_four;

#[test]
fn connect_four_example_runs() {
    connect_four::main();
}
