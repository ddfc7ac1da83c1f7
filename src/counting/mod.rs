//! Perft counting (from `perft-core`) and the checkpoint journal of
//! resumable runs.

pub use perft_core::counting::*;

pub mod journal;
pub mod progress;
