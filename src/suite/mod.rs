//! Perft suites: reading them, and checking a generator against them.

mod label;
mod run;

pub use label::{label, LabelledPosition};
pub use perft_harness::suite::{
    bundled, is_bundled, parse_suite, LineError, ParsedSuite, SuiteEntry, BUNDLED, MAX_LINE_BYTES,
    MAX_LISTED_ERRORS, MAX_SUITE_DEPTH,
};
pub use run::{
    load_suite_file, PlannedCheck, SuiteFile, SuiteFileError, SuiteOptions, SuiteOutcome, SuitePlan,
    SuiteProgress, MAX_SUITE_FILE_BYTES,
};
