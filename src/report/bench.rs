//! The report of `perft bench`.

use serde::{Deserialize, Serialize};

use crate::counting::Mode;

use super::ReportHeader;

/// Minimum, median and maximum of repeated measurements, in seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Timings {
    /// Fastest run.
    pub min: f64,
    /// Median run.
    pub median: f64,
    /// Slowest run.
    pub max: f64,
}

/// One position of a benchmark.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchEntry {
    /// The position's name in the bench set.
    pub id: String,
    /// Its FEN.
    pub fen: String,
    /// Plies counted.
    pub depth: u32,
    /// Leaf nodes counted.
    pub nodes: u128,
    /// The count the bench set expects.
    pub expected: u128,
    /// Whether they agree.
    pub ok: bool,
    /// Run times.
    pub seconds: Timings,
    /// Every run's time, in order.
    pub samples: Vec<f64>,
    /// `nodes / seconds.median`.
    pub nodes_per_second: f64,
}

/// Totals of a benchmark.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BenchTotal {
    /// Leaf nodes of one round.
    pub nodes: u128,
    /// Sums of the per-position minimum, median and maximum times.
    pub seconds: Timings,
    /// `nodes / seconds.median`.
    pub nodes_per_second: f64,
}

impl BenchTotal {
    /// The totals of `entries`: their nodes, and their per-position times
    /// summed.
    pub fn of(entries: &[BenchEntry]) -> Self {
        let nodes: u128 = entries.iter().map(|e| e.nodes).sum();
        let sum = |f: fn(&Timings) -> f64| entries.iter().map(|e| f(&e.seconds)).sum::<f64>();
        let seconds = Timings { min: sum(|s| s.min), median: sum(|s| s.median), max: sum(|s| s.max) };
        BenchTotal { nodes, seconds, nodes_per_second: super::nodes_per_second(nodes, seconds.median) }
    }
}

/// Report of `perft bench`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchReport {
    /// `kind` (always `"bench"`), `tool`, `machine`, `timestamp`.
    #[serde(flatten, skip_deserializing)]
    pub header: ReportHeader,
    /// The bench set file.
    pub bench_set: String,
    /// Its version (from its header).
    pub bench_set_version: String,
    /// Worker threads.
    pub threads: usize,
    /// How leaves were counted.
    pub mode: Mode,
    /// Timed rounds.
    pub repeat: usize,
    /// What ran before timing.
    pub warmup: String,
    /// Per position.
    pub positions: Vec<BenchEntry>,
    /// Totals.
    pub total: BenchTotal,
    /// Ctrl-C stopped the run; only what finished is reported.
    #[serde(default)]
    pub interrupted: bool,
}
