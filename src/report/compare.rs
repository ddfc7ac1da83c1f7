//! The report of `perft compare`.

use serde::{Deserialize, Serialize};

use super::{ReportHeader, Timings};

/// One engine of a comparison.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareEngine {
    /// Its name.
    pub name: String,
    /// How it was run.
    pub spec: String,
    /// Median time of a depth-1 count of the start position: start-up and
    /// protocol overhead, subtracted from every timing of this engine.
    pub startup_seconds: f64,
    /// Failures, with what the engine printed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<String>,
}

/// One engine on one position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareResult {
    /// The engine.
    pub engine: String,
    /// The position's name.
    pub position: String,
    /// The count the engine reported (the last one if rounds disagreed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u128>,
    /// Whether every count it reported agrees with the expected count.
    pub agrees: bool,
    /// Run times with the start-up time subtracted.
    pub samples: Vec<f64>,
    /// Their statistics.
    pub seconds: Timings,
    /// `nodes / seconds.median`, when the count agrees.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes_per_second: Option<f64>,
    /// This engine's speed divided by ours, when both counts agree.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratio_to_ours: Option<f64>,
    /// Why it has no timing or disagrees.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
}

/// One engine's totals in a comparison.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineSummary {
    /// The engine.
    pub engine: String,
    /// Positions where it was timed and its count agreed.
    pub positions: usize,
    /// Their nodes.
    pub nodes: u128,
    /// Their median seconds, summed.
    pub seconds: f64,
    /// `nodes / seconds`.
    pub nodes_per_second: f64,
    /// Geometric mean over those positions of its speed divided by ours
    /// (above 1: faster than ours).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub geomean_ratio_to_ours: Option<f64>,
}

/// A position of a comparison.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ComparePosition {
    /// Its name.
    pub id: String,
    /// Its FEN.
    pub fen: String,
    /// Depth counted.
    pub depth: u32,
    /// The count every engine should report.
    pub expected: u128,
}

/// Report of `perft compare`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareReport {
    /// `kind` (always `"compare"`), `tool`, `machine`, `timestamp`.
    #[serde(flatten, skip_deserializing)]
    pub header: ReportHeader,
    /// Threads given to our engine and to UCI engines (`Threads` option).
    pub threads: usize,
    /// Rounds; engines run interleaved within each round.
    pub rounds: usize,
    /// Per-call time limit.
    pub timeout_seconds: f64,
    /// How timing was done.
    pub method: String,
    /// The positions.
    pub positions: Vec<ComparePosition>,
    /// The engines, ours first.
    pub engines: Vec<CompareEngine>,
    /// One entry per engine and position.
    pub results: Vec<CompareResult>,
    /// Per engine: totals and the geometric mean of its ratios to ours.
    #[serde(default)]
    pub summary: Vec<EngineSummary>,
    /// Ctrl-C stopped the run; only what finished is reported.
    #[serde(default)]
    pub interrupted: bool,
}
