//! The report of `perft compare`.

use serde::{Deserialize, Serialize};

use super::{ReportHeader, Timings};
use crate::engine::HowRun;

/// One engine of a comparison.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareEngine {
    /// Its name.
    pub name: String,
    /// How it was run.
    pub spec: String,
    /// How it counted, as far as known, in a line ([`HowRun::text`]; in
    /// reports written before `how`, `bulk counting, 1 thread, no hash
    /// table` for ours and `counts its own way` for the others).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub run_as: String,
    /// How it counted, fact by fact, each `null` where not known: threads,
    /// hash table, bulk counting, whether one call counts every depth up
    /// to the one asked, how it is asked. Absent in older reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub how: Option<HowRun>,
    /// It counted with a hash table (this program, when asked with
    /// `--hash`): its speed is not like for like, and tables and charts
    /// mark it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hashed: bool,
    /// Its start-up figure ([`crate::engine::Startup::seconds`]), the one
    /// printed: for an engine kept running, from its start to its first
    /// depth-1 count's answer less a later depth-1 count; for a program
    /// started for every count, what each count pays. In reports without
    /// `count_overhead_seconds`, the median time of a depth-1 count, which
    /// was subtracted.
    pub startup_seconds: f64,
    /// The median time of a depth-1 count once started
    /// ([`crate::engine::Startup::per_count`]), subtracted from every
    /// timing of this engine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count_overhead_seconds: Option<f64>,
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
    /// Where ours has no speed on this position (too fast to time, or
    /// wrong): this engine's speed divided by that of the first engine
    /// timed there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratio_to_other: Option<OtherRatio>,
    /// Why it has no timing or disagrees.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
}

/// A speed ratio to another engine than ours.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OtherRatio {
    /// The engine divided by.
    pub engine: String,
    /// This engine's speed over that one's.
    pub ratio: f64,
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

/// The columns of a comparison's results table.
pub const RESULT_COLUMNS: [&str; 7] =
    ["engine", "position", "depth", "nodes", "median s", "speed", "vs perft"];
/// The columns of a comparison's totals table.
pub const TOTAL_COLUMNS: [&str; 7] =
    ["engine", "positions timed", "nodes", "seconds", "speed", "vs perft (geomean)", "run as"];

/// A speed in the unit that fits it: `914.2 Mnps`, `52.3 knps`, `812 nps`.
pub fn speed_text(nodes_per_second: f64) -> String {
    speed_in_unit_of(nodes_per_second, nodes_per_second)
}

/// Two speeds in one unit, the one that fits the slower (of those
/// measured): `180.2 knps` and `1210.4 knps`, never `0.2 Mnps` beside
/// `0.2 Mnps` for two speeds that differ.
pub fn speeds_text(a: f64, b: f64) -> (String, String) {
    let slower = [a, b].into_iter().filter(|s| *s > 0.0).fold(f64::INFINITY, f64::min);
    let fit = if slower.is_finite() { slower } else { 0.0 };
    (speed_in_unit_of(a, fit), speed_in_unit_of(b, fit))
}

/// `nodes_per_second` in the unit that fits the speed `fit`.
fn speed_in_unit_of(nodes_per_second: f64, fit: f64) -> String {
    match fit {
        s if s >= 1e6 => format!("{:.1} Mnps", nodes_per_second / 1e6),
        s if s >= 1e3 => format!("{:.1} knps", nodes_per_second / 1e3),
        _ => format!("{nodes_per_second:.0} nps"),
    }
}

/// One row of a comparison's results table, as text.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultRow<'a> {
    /// The engine, marked when it counted with a hash table
    /// ([`CompareReport::label`]).
    pub engine: String,
    /// The position's name.
    pub position: &'a str,
    /// Its depth.
    pub depth: String,
    /// Nodes, median seconds, speed and the ratio to ours (or to another
    /// engine, named, where ours was not timed); or, for a failed or
    /// skipped run, why there are none.
    pub cells: Result<[String; 4], &'a str>,
}

impl CompareEngine {
    /// The seconds subtracted from each of its timings: the depth-1 count's
    /// time ([`CompareEngine::count_overhead_seconds`], or in older reports
    /// [`CompareEngine::startup_seconds`]).
    pub fn overhead(&self) -> f64 {
        self.count_overhead_seconds.unwrap_or(self.startup_seconds)
    }

    /// How it counted in a line: [`HowRun::text`], or for older reports
    /// their `run_as`.
    pub fn how_text(&self) -> String {
        self.how.as_ref().map_or_else(|| self.run_as.clone(), HowRun::text)
    }
}

impl CompareReport {
    /// An engine's name as tables and charts show it: with `(hash table)`
    /// after it when it counted with one, since its speed is then not like
    /// for like.
    pub fn label(&self, engine: &str) -> String {
        match self.engines.iter().find(|e| e.name == engine) {
            Some(e) if e.hashed => format!("{engine} (hash table)"),
            _ => engine.to_string(),
        }
    }

    /// The results table: one row per engine and position ([`RESULT_COLUMNS`]).
    pub fn result_rows(&self) -> Vec<ResultRow<'_>> {
        self.results
            .iter()
            .map(|r| {
                let depth = self
                    .positions
                    .iter()
                    .find(|p| p.id == r.position)
                    .map_or(String::new(), |p| p.depth.to_string());
                let ratio = match (r.ratio_to_ours, &r.ratio_to_other) {
                    (Some(x), _) => format!("{x:.2}x"),
                    (None, Some(other)) => format!("{:.2}x vs {}", other.ratio, other.engine),
                    (None, None) => "-".into(),
                };
                let cells = match (&r.problem, r.nodes_per_second) {
                    (Some(problem), None) => Err(problem.as_str()),
                    _ => Ok([
                        r.nodes.map_or("-".into(), |n| n.to_string()),
                        if r.samples.is_empty() { "-".into() } else { format!("{:.3}", r.seconds.median) },
                        r.nodes_per_second.map_or("-".into(), speed_text),
                        ratio,
                    ]),
                };
                ResultRow { engine: self.label(&r.engine), position: &r.position, depth, cells }
            })
            .collect()
    }

    /// The totals table: one row per engine ([`TOTAL_COLUMNS`]); for reports
    /// written before they carried totals, computed from the results.
    pub fn total_rows(&self) -> Vec<[String; 7]> {
        let computed;
        let summary = if self.summary.is_empty() {
            computed = crate::compare::summarize(&self.engines, &self.results);
            &computed
        } else {
            &self.summary
        };
        let run_as = |name: &str| {
            self.engines.iter().find(|e| e.name == name).map_or(String::new(), CompareEngine::how_text)
        };
        summary
            .iter()
            .map(|s| {
                [
                    self.label(&s.engine),
                    s.positions.to_string(),
                    s.nodes.to_string(),
                    format!("{:.3}", s.seconds),
                    if s.positions == 0 { "-".into() } else { speed_text(s.nodes_per_second) },
                    s.geomean_ratio_to_ours.map_or("-".into(), |x| format!("{x:.2}x")),
                    run_as(&s.engine),
                ]
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::{speed_text, speeds_text};

    #[test]
    fn two_speeds_share_the_unit_of_the_slower() {
        let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
        assert_eq!(speeds_text(180_400.0, 210_000.0), pair("180.4 knps", "210.0 knps"));
        assert_eq!(speeds_text(1.2e6, 9e5), pair("1200.0 knps", "900.0 knps"));
        assert_eq!(speeds_text(5.05e7, 5.15e7), pair("50.5 Mnps", "51.5 Mnps"));
        // A side with no speed takes the other's unit.
        assert_eq!(speeds_text(0.0, 5e6), pair("0.0 Mnps", "5.0 Mnps"));
        assert_eq!(speeds_text(812.0, 2e6), pair("812 nps", "2000000 nps"));
        assert_eq!(speed_text(2.1e5), "210.0 knps");
    }

    use super::*;

    #[test]
    fn rows_say_why_a_run_has_no_speed_and_totals_are_computed_for_old_reports() {
        let result = |engine: &str, nodes: Option<u128>, problem: Option<&str>| CompareResult {
            engine: engine.into(),
            position: "start".into(),
            nodes,
            agrees: problem.is_none(),
            samples: if nodes.is_some() { vec![0.5] } else { Vec::new() },
            seconds: Timings { min: 0.5, median: 0.5, max: 0.5 },
            nodes_per_second: problem.is_none().then_some(17804.0),
            ratio_to_ours: problem.is_none().then_some(1.0),
            ratio_to_other: None,
            problem: problem.map(str::to_string),
        };
        let engine = |name: &str| CompareEngine {
            name: name.into(),
            spec: String::new(),
            run_as: String::new(),
            how: None,
            hashed: false,
            startup_seconds: 0.0,
            count_overhead_seconds: None,
            errors: Vec::new(),
        };
        let report = CompareReport {
            header: ReportHeader::default(),
            threads: 1,
            rounds: 1,
            timeout_seconds: 10.0,
            method: String::new(),
            positions: vec![ComparePosition {
                id: "start".into(),
                fen: crate::board::STARTPOS_FEN.into(),
                depth: 3,
                expected: 8902,
            }],
            engines: vec![engine("perft"), engine("broken")],
            results: vec![
                result("perft", Some(8902), None),
                result("broken", None, Some("engine crashed\nlog")),
            ],
            summary: Vec::new(),
            interrupted: false,
        };
        let rows = report.result_rows();
        assert_eq!(rows[0].depth, "3");
        assert_eq!(rows[0].cells, Ok(["8902".into(), "0.500".into(), "17.8 knps".into(), "1.00x".into()]));
        assert_eq!(rows[1].cells, Err("engine crashed\nlog"));
        let totals = report.total_rows();
        assert_eq!(totals.len(), 2, "{totals:?}");
        assert_eq!(totals[0][..3], ["perft".to_string(), "1".into(), "8902".into()]);
    }
}
