//! The two ways a command fails: bad input (exit status 2, one line naming the
//! problem and where) or an output stream that went away; and [`escaped`],
//! how every echo of the user's text (in these errors and in the protocols'
//! replies) is written.

use std::borrow::Cow;
use std::fmt;
use std::io;

/// Why a command could not finish.
#[derive(Debug)]
pub enum Error {
    /// The user's input is wrong: a game, position, move, number or file.
    Input(String),
    /// Writing the output failed (a closed pipe, a full disk).
    Output(io::Error),
}

impl Error {
    /// A bad-input error; the text names the problem and where it is.
    pub fn input(message: impl Into<String>) -> Self {
        Error::Input(message.into())
    }
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Self {
        Error::Output(e)
    }
}

impl fmt::Display for Error {
    /// A bad-input message with its control characters escaped (see
    /// [`escaped`]): one error is one line, however odd the input it quotes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Input(message) => f.write_str(&escaped(message)),
            Error::Output(e) => write!(f, "cannot write the output: {e}"),
        }
    }
}

/// A command's result.
pub type Result<T> = std::result::Result<T, Error>;

/// `text` with every control character, and the Unicode line and paragraph
/// separators, written as Rust writes them in a string literal (`\r`, `\n`,
/// `\t`, `\u{1b}`, `\u{2028}`); everything else as it is.
///
/// The user's text echoed in an error or a protocol reply thus stays on the
/// line it was put in: it cannot end that line and start one of its own (a
/// forged `bestmove`), nor move a terminal's cursor. Borrowed when there is
/// nothing to escape, as there never is in the engine's own words.
pub fn escaped(text: &str) -> Cow<'_, str> {
    /// Whether a reader (a terminal, a GUI, Python's `str.splitlines`) might
    /// take `c` for the end of a line or a command.
    fn unsafe_char(c: char) -> bool {
        c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
    }
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::escaped;

    #[test]
    fn control_characters_are_escaped_and_nothing_else() {
        assert_eq!(escaped("e2e4 \"Qd1+\" 帅 é"), "e2e4 \"Qd1+\" 帅 é");
        assert_eq!(
            escaped("foo\rbestmove\n\t\u{1b}[2J\u{85}\u{2028}\u{2029}\0"),
            r"foo\rbestmove\n\t\u{1b}[2J\u{85}\u{2028}\u{2029}\0"
        );
    }
}
