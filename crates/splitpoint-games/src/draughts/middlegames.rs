//! A midgame suite for time-to-depth measurements: twelve positions 25 to 42
//! plies into games that opened with six random plies and went on with
//! depth-6 searches (a random move one time in four), kept when material was
//! level (13 to 16 pieces a side), no king was on the board and the side to
//! move had no capture.

use super::position::Draughts;

/// The suite: a name (the seeded game and ply it comes from) and a PDN FEN each.
pub const MIDDLEGAMES: [(&str, &str); 12] = [
    (
        "game-33-ply-33",
        "B:W32-33,35-39,41,44-45,47-50:B2-8,12,14-16,18,20,24",
    ),
    (
        "game-40-ply-31",
        "B:W26,28,30,38,40,42-43,45-50:B1-6,10-12,15-16,18,20",
    ),
    (
        "game-52-ply-42",
        "W:W24,27,31-33,36-38,40-41,44,47-50:B2,4-6,8,12-13,15-18,20-21,25-26",
    ),
    (
        "game-57-ply-31",
        "B:W26,29,31,36,38,40-41,43-44,46-50:B1-6,8,10-11,13-14,19,28,35",
    ),
    (
        "game-70-ply-37",
        "B:W30-32,36,38,40,42,45-50:B1,3-8,12-14,20-22",
    ),
    (
        "game-77-ply-29",
        "B:W26,32-33,35-36,40,44-50:B1-9,11,13-14,23",
    ),
    (
        "game-81-ply-29",
        "B:W27-28,32,35,38-39,42,44-50:B1-5,7,9-13,18-20",
    ),
    (
        "game-93-ply-36",
        "W:W16,29,32,35,38-39,44-50:B1,3-6,8-9,12-13,15,18,20,22",
    ),
    (
        "game-116-ply-26",
        "W:W23,28,30,34,36-39,42,45-50:B1-5,7,9-10,12-15,17,21,27",
    ),
    (
        "game-118-ply-31",
        "B:W25-26,31,35-36,38-39,42,44-46,48-50:B1-5,8-11,13-15,23,27",
    ),
    (
        "game-125-ply-26",
        "W:W22,35-37,39-43,45-50:B1-2,4-6,8-13,15,19,21,25",
    ),
    (
        "game-155-ply-25",
        "B:W25-26,34,36-37,39,41-47,49-50:B1-7,9-10,12-13,16-17,24,28",
    ),
];

/// The suite's positions, with their names.
///
/// # Panics
/// Only if a FEN above is malformed, which a unit test rules out.
pub fn middlegames() -> Vec<(&'static str, Draughts)> {
    crate::named::parse_named(&MIDDLEGAMES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_have_equal_material() {
        for (name, pos) in middlegames() {
            assert_eq!(pos.white().count_ones(), pos.black().count_ones(), "{name}");
        }
    }
}
