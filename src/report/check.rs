//! The report of `perft check`.

use serde::{Deserialize, Serialize};

use super::{ReportHeader, SuiteError, SuiteSettings};

/// The engine a `check` ran against.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckedEngine {
    /// Its name.
    pub name: String,
    /// How it was run.
    pub spec: String,
}

pub use perft_harness::check::CheckResult;

/// Totals of a `check` run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CheckSummary {
    /// Positions read and accepted.
    pub positions: usize,
    /// Checks the engine was asked.
    pub checks: usize,
    /// Checks it got right.
    pub passed: usize,
    /// Checks it got wrong.
    pub failed: usize,
    /// Checks it failed to answer, and unusable lines and files.
    pub errors: usize,
    /// Checks not run (limits, or after `--fail-fast` stopped the run).
    pub skipped: usize,
    /// Failed checks per tag of the faulty position.
    pub failures_by_tag: std::collections::BTreeMap<perft_harness::bisect::Tag, usize>,
    /// Wall time of the whole run.
    pub seconds: f64,
}

/// Report of `perft check`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckReport {
    /// `kind` (always `"check"`), `tool`, `machine`, `timestamp`.
    #[serde(flatten, skip_deserializing)]
    pub header: ReportHeader,
    /// The engine checked.
    pub engine: CheckedEngine,
    /// Options of the run.
    pub settings: SuiteSettings,
    /// Every check, in file and line order.
    pub results: Vec<CheckResult>,
    /// Unusable lines and files.
    pub errors: Vec<SuiteError>,
    /// The wrong counts grouped by cause (indexes into `results`), the
    /// cause with the most first.
    #[serde(default)]
    pub causes: Vec<perft_harness::check::causes::Cause>,
    /// Totals.
    pub summary: CheckSummary,
    /// Ctrl-C stopped the run; only what finished is reported.
    #[serde(default)]
    pub interrupted: bool,
}
