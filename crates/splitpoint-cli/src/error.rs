//! The two ways a command fails: bad input (exit status 2, one line naming the
//! problem and where) or an output stream that went away.

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
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Input(message) => f.write_str(message),
            Error::Output(e) => write!(f, "cannot write the output: {e}"),
        }
    }
}

/// A command's result.
pub type Result<T> = std::result::Result<T, Error>;
