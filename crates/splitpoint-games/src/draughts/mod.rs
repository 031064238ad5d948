//! International (Polish) draughts on a 10×10 board (in progress).
