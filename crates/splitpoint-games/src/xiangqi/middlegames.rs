//! A middlegame suite for time-to-depth measurements: twelve positions after
//! 16 to 25 plies of seeded random play from the start, each move drawn from
//! those a depth-2 search scores within 40 of the best, keeping games where
//! both sides still have most of their pieces (29 to 32 on the board) and
//! nobody is in check.

use super::position::Xiangqi;

/// The suite: a name and a FEN each.
pub const MIDDLEGAMES: [(&str, &str); 12] = [
    (
        "xq-mid-01",
        "rnb1kab2/3Ca4/6n2/pcp5p/4p1p2/P1B2r3/2P1c1P1P/4C1R2/4A4/RN1AK1BN1 w - - 0 13",
    ),
    (
        "xq-mid-02",
        "rnbak1bnr/4a4/c8/p1p1p1p1p/9/2P5P/Pc2P1P2/N3B2C1/4A4/RC1AK1BNR b - - 17 9",
    ),
    (
        "xq-mid-03",
        "r2ak1bn1/4a4/b1n3c1r/p1C3p2/4p3p/P1P3P2/4P3P/1C4N2/1R2A1R2/2BAK1B2 b - - 14 11",
    ),
    (
        "xq-mid-04",
        "rnbakab2/9/6n1r/p1p1p2cp/6p2/7C1/P1P1P1P1P/1c1NB4/3C5/RNBAKA2R w - - 18 10",
    ),
    (
        "xq-mid-05",
        "2ba1a3/2n1kn2r/r3b1c2/p1p1p1p1p/1C7/9/P1P1P1P1P/1C4N2/4K4/R1BA1ABR1 w - - 19 12",
    ),
    (
        "xq-mid-06",
        "rnb1kab2/4ac3/3r4c/p3p1p2/2p5p/4P3P/P1P3P2/NC2B4/9/2RAKABNR b - - 13 11",
    ),
    (
        "xq-mid-07",
        "2baka2r/3C5/n3b1n2/r1p1p1p1p/p8/1c3c3/P1P1P1P1P/2C1B3N/4K4/RN1A1AB1R w - - 16 9",
    ),
    (
        "xq-mid-08",
        "1nbakab1r/5C3/7r1/p3p1pcp/2p6/P7P/1cP1P1P2/8B/9/RNBAKA1NR b - - 19 11",
    ),
    (
        "xq-mid-09",
        "r1baka1nr/9/1cn5b/pC2p3p/2p3p2/P8/2Pc2P1P/4B1C1R/3NA4/R3KABN1 w - - 12 11",
    ),
    (
        "xq-mid-10",
        "r1bakab2/9/n5c2/2p1p1prp/p8/9/P1P1P1PcP/7R1/2C6/RNBAKABN1 b - - 9 9",
    ),
    (
        "xq-mid-11",
        "2ba1ab1r/4k1r2/c1n3n2/p1p1p1p2/1C6p/P1P3B1P/4P1P2/N7C/9/R1BAKA1R1 w - - 11 12",
    ),
    (
        "xq-mid-12",
        "r1bakabcr/6n2/2n6/p1p1p1p1p/9/PC2P4/2P3PcP/4B4/2C6/RN1AKABNR w - - 20 11",
    ),
];

/// The suite's positions, with their names.
///
/// # Panics
/// Only if a FEN above is malformed, which a unit test rules out.
pub fn middlegames() -> Vec<(&'static str, Xiangqi)> {
    crate::named::parse_named(&MIDDLEGAMES)
}
