//! A middlegame suite for time-to-depth measurements: ten positions after
//! about a dozen moves of main-line openings, varied in pawn structure and
//! king safety (opposite-side castling, closed centres, open files).

use super::position::Chess;

/// The suite: a name and a FEN each.
pub const MIDDLEGAMES: [(&str, &str); 10] = [
    (
        "ruy-lopez-closed",
        "r2qrbk1/1bpn1ppp/p2p1n2/1p2p3/3PP3/2P2N1P/PPB2PP1/R1BQRNK1 w - - 7 14",
    ),
    (
        "sicilian-najdorf",
        "r2q1rk1/3nbppp/p2pbn2/4p1P1/1p2P3/1NN1BP2/PPPQ3P/2KR1B1R w - - 0 13",
    ),
    (
        "qgd-orthodox",
        "r1b2rk1/pp1nqppp/2p5/4p3/2BP4/2R1PN2/PP3PPP/3Q1RK1 w - - 0 13",
    ),
    (
        "kings-indian-mar-del-plata",
        "r1bq1rk1/ppp1n1bp/3p1np1/3Pp3/2P1Pp2/2NN1P2/PP1BB1PP/R2Q1RK1 w - - 0 13",
    ),
    (
        "french-winawer",
        "r1bq2k1/pp2nrpp/2n1p3/2pp2B1/3P2Q1/P1PB1N2/2P2PPP/R3K2R w KQ - 2 12",
    ),
    (
        "caro-kann-classical",
        "r2qk2r/pp1nbpp1/2p1pn1p/7P/3P4/3Q1NN1/PPPB1PP1/2KR3R w kq - 4 13",
    ),
    (
        "nimzo-indian-rubinstein",
        "r1b2rk1/ppq2ppp/2n2n2/2p1p3/3P4/P1PBPN2/5PPP/R1BQ1RK1 w - - 0 12",
    ),
    (
        "giuoco-piano",
        "r2qr1k1/bpp2pp1/p1n1bn1p/3pp3/4P3/1BPP1NNP/PP3PP1/R1BQR1K1 w - - 0 13",
    ),
    (
        "slav-main-line",
        "r2q1rk1/pp1n1ppp/2p1p3/3nP2b/Pb1P4/2NB1N2/1P2QPPP/R1B2RK1 w - - 1 13",
    ),
    (
        "grunfeld-exchange",
        "r2q1rk1/pp2ppbp/6p1/2pPn3/4P3/2P1BB2/P4PPP/R2Q1RK1 w - - 1 13",
    ),
];

/// The suite's positions, with their names.
///
/// # Panics
/// Only if a FEN above is malformed, which a unit test rules out.
pub fn middlegames() -> Vec<(&'static str, Chess)> {
    crate::named::parse_named(&MIDDLEGAMES)
}
