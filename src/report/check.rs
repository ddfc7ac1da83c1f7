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

/// One check of another engine: a position at one depth.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckResult {
    /// The suite file.
    pub file: String,
    /// 1-based line of the position.
    pub line: usize,
    /// The record's name, if the file gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The position as written in the file.
    pub fen: String,
    /// Plies counted.
    pub depth: u32,
    /// The reference count: the file's, or ours where the file has none.
    pub expected: u128,
    /// Where `expected` comes from: `file` or `perft`.
    pub expected_from: crate::check::ExpectedFrom,
    /// The engine's count, if it answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine_nodes: Option<u128>,
    /// Whether the engine's count matches.
    pub ok: bool,
    /// Wall time of the engine's count.
    pub seconds: f64,
    /// Why the engine gave no count (crash, hang, unreadable output).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Where a wrong count comes from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bisection: Option<crate::bisect::Bisection>,
    /// Why the bisection could not finish, if it could not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bisection_error: Option<String>,
    /// For a wrong count not bisected because the same position's count
    /// at another depth was: that depth.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bisected_at: Option<u32>,
    /// A command that reproduces the fault in seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reproduce: Option<String>,
}

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
    pub failures_by_tag: std::collections::BTreeMap<crate::bisect::Tag, usize>,
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
    pub causes: Vec<crate::check::causes::Cause>,
    /// Totals.
    pub summary: CheckSummary,
    /// Ctrl-C stopped the run; only what finished is reported.
    #[serde(default)]
    pub interrupted: bool,
}
