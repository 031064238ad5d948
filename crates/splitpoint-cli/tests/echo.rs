//! What the protocol front ends (`uci`, `ucci`, `hub`) echo back of a bad
//! line: the user's text with its control characters escaped, so an echo is
//! one line that starts with the engine's own words and can never forge a
//! protocol token (a `bestmove`, a `done`) at the start of a line.

use std::io::Write;
use std::process::{Command, Stdio};

/// The whole output of a session of `protocol` reading `input`, then the
/// end of input.
fn session(protocol: &str, input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_splitpoint"))
        .arg(protocol)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("piped stdin");
    stdin.write_all(input.as_bytes()).expect("the engine reads");
    drop(stdin);
    let out = child.wait_with_output().expect("the engine ends");
    assert!(
        out.status.success(),
        "{protocol}: exit status {}",
        out.status
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

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

/// Checks a session's output: no raw control character but the newlines
/// ending its lines, no line (however split) starting with `forged`, and an
/// escaped echo of every separator (the unknown command comes back whole).
fn check(protocol: &str, input: &str, forged: &str) {
    let output = session(protocol, input);
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
    let input = lines(
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
    );
    check("uci", &format!("uci\n{input}isready\n"), "bestmove");
}

#[test]
fn ucci_escapes_what_it_echoes() {
    let input = lines(
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
    );
    check("ucci", &format!("ucci\n{input}isready\n"), "bestmove");
}

#[test]
fn hub_escapes_what_it_echoes() {
    let input = lines(
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
    );
    check("hub", &format!("hub\ninit\n{input}ping\n"), "done");
}
