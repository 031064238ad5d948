//! Othello (being written).
