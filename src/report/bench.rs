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

/// How much repeated samples of one time vary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    /// Mean seconds.
    pub mean: f64,
    /// Sample standard deviation, seconds (0 for fewer than two samples).
    pub stddev: f64,
    /// `stddev / mean`, in percent.
    pub percent: f64,
    /// Half-width of the 95% confidence interval of the mean, in percent of
    /// the mean (Student's t; 0 for fewer than two samples).
    pub ci95_percent: f64,
}

impl Spread {
    /// The spread of `samples`.
    pub fn of(samples: &[f64]) -> Self {
        let n = samples.len();
        if n == 0 {
            return Spread::default();
        }
        let mean = samples.iter().sum::<f64>() / n as f64;
        if n < 2 || mean <= 0.0 {
            return Spread { mean, ..Spread::default() };
        }
        let variance = samples.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        let stddev = variance.sqrt();
        let half_width = t_quantile_975((n - 1) as f64) * stddev / (n as f64).sqrt();
        Spread { mean, stddev, percent: stddev / mean * 100.0, ci95_percent: half_width / mean * 100.0 }
    }
}

/// The 97.5% quantile of Student's t distribution with `df` degrees of
/// freedom (two-sided 95%), from the standard table; between rows the
/// smaller `df` is taken, which errs towards "within noise".
pub fn t_quantile_975(df: f64) -> f64 {
    const TABLE: [(f64, f64); 16] = [
        (1.0, 12.706),
        (2.0, 4.303),
        (3.0, 3.182),
        (4.0, 2.776),
        (5.0, 2.571),
        (6.0, 2.447),
        (7.0, 2.365),
        (8.0, 2.306),
        (9.0, 2.262),
        (10.0, 2.228),
        (12.0, 2.179),
        (15.0, 2.131),
        (20.0, 2.086),
        (30.0, 2.042),
        (60.0, 2.000),
        (120.0, 1.980),
    ];
    if df.is_nan() {
        return f64::INFINITY;
    }
    TABLE.iter().rev().find(|&&(rows, _)| rows <= df).map_or(f64::INFINITY, |&(_, t)| t)
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
    /// Every sample's time per count, in order.
    pub samples: Vec<f64>,
    /// How many counts each sample made: a sample lasted `samples[i] *
    /// runs[i]` seconds, at least the bench's sample time (empty in
    /// reports made before samples repeated counts: one count each).
    #[serde(default)]
    pub runs: Vec<u32>,
    /// The samples' spread, for telling a change from noise.
    #[serde(default)]
    pub spread: Spread,
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
    /// Each round's time: the positions' samples summed (empty when the
    /// positions have different numbers of samples).
    #[serde(default)]
    pub samples: Vec<f64>,
    /// Their spread.
    #[serde(default)]
    pub spread: Spread,
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
        let rounds = entries.first().map_or(0, |e| e.samples.len());
        let samples: Vec<f64> = if entries.iter().all(|e| e.samples.len() == rounds) {
            (0..rounds).map(|round| entries.iter().map(|e| e.samples[round]).sum()).collect()
        } else {
            Vec::new()
        };
        BenchTotal {
            nodes,
            seconds,
            spread: Spread::of(&samples),
            samples,
            nodes_per_second: super::nodes_per_second(nodes, seconds.median),
        }
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
    /// The least time of one sample, seconds (0 in reports made before
    /// samples repeated counts).
    #[serde(default)]
    pub sample_time: f64,
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
