//! Perft suites: reading them, and checking a generator against them.

mod parse;

pub use parse::{parse_suite, LineError, ParsedSuite, SuiteEntry, MAX_LINE_BYTES, MAX_SUITE_DEPTH};
