//! What the protocol front ends (`uci`, `ucci`, `hub`) echo back of a bad
//! line: the user's text with its control characters escaped, so an echo is
//! one line that starts with the engine's own words and can never forge a
//! protocol token (a `bestmove`, a `done`) at the start of a line.

mod common;
use common::run::{splitpoint_with_input, succeeded};

/// Every way a reader may split lines: `\n`, `\r`, the other ASCII and
/// Unicode line and record separators (Python's `str.splitlines`), ESC.
fn breaks(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

/// The separators an attacker might hide a second line behind.
const SEPARATORS: [&str; 10] = [
    "\r",
    "\u{b}",
    "\u{c}",
    "\u{1c}",
    "\u{1d}",
    "\u{1e}",
    "\u{85}",
    "\u{2028}",
    "\u{2029}",
    "\u{1b}[1G",
];

/// Runs a session of `protocol`: `opening`, each of `commands` with `|`
/// replaced by each separator and then `forged` (a whole protocol line),
/// `closing`, the end of input. Checks its output: no raw control character
/// but the newlines ending its lines, no line (however split) starting with
/// `forged`'s first word, and an escaped echo of every separator (the
/// unknown command comes back whole).
fn check(protocol: &str, opening: &str, commands: &[&str], forged: &str, closing: &str) {
    let input = format!("{opening}\n{}{closing}\n", lines(commands, forged));
    let output = succeeded(&[protocol], splitpoint_with_input(&[protocol], &input));
    let forged = forged.split(' ').next().unwrap();
    for line in output.lines() {
        assert!(
            !line.chars().any(breaks),
            "{protocol}: a raw control character in {line:?}\n{output}"
        );
    }
    for piece in output.split(breaks) {
        assert!(
            !piece.trim_start().starts_with(forged),
            "{protocol}: forged {piece:?}\n{output}"
        );
    }
    for sep in SEPARATORS {
        let escaped: String = sep.chars().flat_map(char::escape_debug).collect();
        assert!(
            output.contains(&format!("foo{escaped}")),
            "{protocol}: no escaped echo of {sep:?}\n{output}"
        );
    }
}

/// Each of `commands` with `|` replaced by each separator and `forged`.
fn lines(commands: &[&str], forged: &str) -> String {
    let mut input = String::new();
    for sep in SEPARATORS {
        for command in commands {
            input.push_str(&command.replace('|', &format!("{sep}{forged}")));
            input.push('\n');
        }
    }
    input
}

#[test]
fn uci_escapes_what_it_echoes() {
    check(
        "uci",
        "uci",
        &[
            "foo|",
            "setoption name Colour| value blue",
            "setoption name Exact value tr|",
            "setoption name Threads value 1|",
            "setoption name Hash value 1|",
            "setoption name Algorithm value y|",
            "setoption name UCI_Variant value x|",
            "position fen 8/8/8|",
            "position startpos moves e2e4 e7|",
            "go sideways|",
        ],
        "bestmove e2e4",
        "isready",
    );
}

#[test]
fn ucci_escapes_what_it_echoes() {
    check(
        "ucci",
        "ucci",
        &[
            "foo|",
            "setoption colour| blue",
            "setoption exact tr|",
            "setoption threads 1|",
            "setoption hashsize 1|",
            "setoption algorithm y|",
            "position fen 9/9|",
            "position startpos moves h2e2 h9|",
            "banmoves h2|",
            "go sideways|",
        ],
        "bestmove h2e2",
        "isready",
    );
}

#[test]
fn hub_escapes_what_it_echoes() {
    check(
        "hub",
        "hub\ninit",
        &[
            "foo|",
            "set-param name=colour| value=blue",
            "set-param name=exact value=tr|",
            "set-param name=threads value=1|",
            "set-param name=algorithm value=y|",
            "pos pos=W:W31-50|",
            "pos pos=W:W31-50:B1-20 moves=\"32-28 19|\"",
            "level move-time=x|",
            "go sideways|",
        ],
        "done move=32-28",
        "ping",
    );
}
