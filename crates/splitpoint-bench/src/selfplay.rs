//! Self-play verification (see the module doc).
