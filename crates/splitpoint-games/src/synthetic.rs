//! Synthetic trees (being written).
