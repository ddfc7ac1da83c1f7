//! The report of `perft suite`.

use serde::{Deserialize, Serialize};

use crate::counting::Mode;

use super::{DivideEntry, HashInfo, ReportHeader};

/// One check of a suite: a position at one depth.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SuiteResult {
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
    /// The count the file expects.
    pub expected: u128,
    /// The count found.
    pub nodes: u128,
    /// Whether they agree.
    pub ok: bool,
    /// Wall time of this check (approximate when checks run in parallel).
    pub seconds: f64,
    /// Our count per root move, for failed checks only (recounted, with
    /// the second key set when hashing).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub divide: Vec<DivideEntry>,
    /// The recount's total, only when it differs from `nodes`: a hash
    /// collision corrupted one of the two counts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recount: Option<u128>,
}

impl SuiteResult {
    /// A wrong count in one line: `depth 2: expected 401, got 400 (-1)`.
    pub fn mismatch(&self) -> String {
        let difference = super::signed_difference(self.nodes, self.expected);
        format!("depth {}: expected {}, got {} ({difference})", self.depth, self.expected, self.nodes)
    }

    /// What follows it, each line after `indent`: the FEN, what a recount
    /// that differs says, and our divide.
    ///
    /// # Errors
    /// Any error writing `out`.
    pub fn write_details(&self, out: &mut dyn std::io::Write, indent: &str) -> std::io::Result<()> {
        writeln!(out, "{indent}fen: {}", self.fen)?;
        if let Some(recount) = self.recount {
            writeln!(
                out,
                "{indent}the recount with the second hash key set gives {recount}: a hash collision \
                 corrupted one of the two counts; rerun without --hash for the exact count"
            )?;
        }
        writeln!(out, "{indent}our divide at depth {}:", self.depth)?;
        for entry in &self.divide {
            writeln!(out, "{indent}  {}: {}", entry.mv, entry.nodes)?;
        }
        Ok(())
    }
}

/// A line (or file) of a suite that could not be used.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SuiteError {
    /// The suite file.
    pub file: String,
    /// 1-based line, or 0 for the file as a whole.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Totals of a suite run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SuiteSummary {
    /// Positions read and accepted.
    pub positions: usize,
    /// Checks (position and depth) run.
    pub checks: usize,
    /// Checks whose count matched.
    pub passed: usize,
    /// Checks whose count did not match.
    pub failed: usize,
    /// Unusable lines and files.
    pub errors: usize,
    /// Checks not run: over `--max-depth` or `--max-nodes`, or left after
    /// `--fail-fast` stopped the run.
    pub skipped: usize,
    /// Leaf nodes counted in all checks run.
    pub nodes: u128,
    /// Wall time of the whole run.
    pub seconds: f64,
    /// `nodes / seconds`.
    pub nodes_per_second: f64,
}

/// The settings a suite ran with.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SuiteSettings {
    /// Depths above this were skipped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_depth: Option<u32>,
    /// Checks expecting more nodes than this were skipped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_nodes: Option<u128>,
    /// Impossible-but-playable positions accepted without a note.
    pub relaxed: bool,
    /// Impossible-but-playable positions refused.
    #[serde(default)]
    pub strict: bool,
    /// Chess960 castling forced for every position.
    pub chess960: bool,
    /// The run stopped at the first mismatch.
    pub fail_fast: bool,
    /// Chess960 positions were skipped.
    #[serde(default)]
    pub skip_chess960: bool,
}

/// Report of `perft suite`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SuiteReport {
    /// `kind` (always `"suite"`), `tool`, `machine`, `timestamp`.
    #[serde(flatten, skip_deserializing)]
    pub header: ReportHeader,
    /// Worker threads.
    pub threads: usize,
    /// How leaves were counted.
    pub mode: Mode,
    /// Options of the run.
    pub settings: SuiteSettings,
    /// Every check run, in file and line order.
    pub results: Vec<SuiteResult>,
    /// Unusable lines and files.
    pub errors: Vec<SuiteError>,
    /// Totals.
    pub summary: SuiteSummary,
    /// The hash table, when one was used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<HashInfo>,
    /// Ctrl-C stopped the run; checks not finished are counted as skipped.
    #[serde(default)]
    pub interrupted: bool,
}

/// A count of a suite that was not run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkippedCheck {
    /// The suite file.
    pub file: String,
    /// 1-based line of the position.
    pub line: usize,
    /// The depth not counted.
    pub depth: u32,
    /// Why it was not.
    pub reason: SkipReason,
}

/// Why a count was not run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SkipReason {
    /// A Chess960 position, and Chess960 is skipped.
    Chess960,
    /// Depth 0, which engines are not asked.
    DepthZero,
    /// Deeper than `--max-depth`.
    MaxDepth(u32),
    /// More nodes than `--max-nodes`.
    MaxNodes(u128),
    /// The run stopped first (at the first failure, or interrupted).
    NotRun,
    /// The engine cannot count the position (it said why).
    Unsupported(String),
}

impl std::fmt::Display for SkipReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SkipReason::Chess960 => write!(f, "a Chess960 position, skipped"),
            SkipReason::DepthZero => write!(f, "depth 0, not asked of engines"),
            SkipReason::MaxDepth(max) => write!(f, "deeper than --max-depth {max}"),
            SkipReason::MaxNodes(max) => write!(f, "more nodes than --max-nodes {max}"),
            SkipReason::NotRun => write!(f, "not run: the run stopped first"),
            SkipReason::Unsupported(why) => write!(f, "the engine cannot count it: {why}"),
        }
    }
}
