//! Merging unit results (`perft merge`): every result checked against the
//! plan, the total and the root divide summed exactly in `u128`.

use std::path::PathBuf;

use serde::Serialize;

use super::plan::{Manifest, Plan};
use super::unit::UnitResult;
use super::{Checksum, Count, DistError, Keys, UnitIndex};
use crate::report::ReportHeader;

/// A result that exists but cannot be used.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InvalidResult {
    /// The unit.
    pub index: UnitIndex,
    /// The key set it was looked for under.
    pub keys: Keys,
    /// The file.
    pub file: PathBuf,
    /// Why it cannot be used.
    pub reason: String,
}

/// A unit whose key sets give different counts: a hash collision corrupted
/// one of them (or a machine miscounted).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Disagreement {
    /// The unit.
    pub index: UnitIndex,
    /// Each key set's unit total.
    pub totals: Vec<(Keys, Count)>,
    /// The first position (line of the unit, from 0) whose counts differ.
    pub position: usize,
    /// Its FEN.
    pub fen: String,
}

/// Units with no result under one key set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Missing {
    /// The key set.
    pub keys: Keys,
    /// The units, as ranges for `sbatch --array` (`3,17,250-260`).
    pub ranges: String,
    /// The units.
    pub units: Vec<UnitIndex>,
}

/// What a merge found.
pub struct MergeOutcome {
    /// The plan's manifest.
    pub manifest: Manifest,
    /// Its checksum.
    pub plan_checksum: Checksum,
    /// The key sets merged (the first gives the total).
    pub keys: Vec<Keys>,
    /// Units without a result, per key set (only key sets with some).
    pub missing: Vec<Missing>,
    /// Results that exist but are not valid for this plan.
    pub invalid: Vec<InvalidResult>,
    /// Units whose key sets disagree.
    pub disagreements: Vec<Disagreement>,
    /// The total: every unit present and valid under every key set, and no
    /// disagreement.
    pub nodes: Option<u128>,
    /// Each root move's count, in generation order (with `nodes`).
    pub divide: Vec<(String, u128)>,
    /// Sum of the units' wall-clock seconds (first key set).
    pub unit_seconds: f64,
    /// Sum of seconds × threads over those units.
    pub thread_seconds: f64,
}

impl MergeOutcome {
    /// Units to run again (missing or invalid under any key set), sorted.
    pub fn to_redo(&self) -> Vec<u32> {
        let mut units: Vec<u32> = self
            .missing
            .iter()
            .flat_map(|m| m.units.iter().map(|u| u.0))
            .chain(self.invalid.iter().map(|p| p.index.0))
            .collect();
        units.sort_unstable();
        units.dedup();
        units
    }

    /// The merge report (`perft merge --json`).
    pub fn report(&self) -> MergeReport {
        MergeReport {
            header: ReportHeader::now("merge"),
            plan_checksum: self.plan_checksum.clone(),
            fen: self.manifest.fen.clone(),
            depth: self.manifest.depth,
            ply: self.manifest.ply,
            units: self.manifest.unit_count,
            unique_positions: self.manifest.unique_positions,
            keys: self.keys.clone(),
            complete: self.nodes.is_some(),
            nodes: self.nodes.map(Count),
            divide: self
                .divide
                .iter()
                .map(|(mv, n)| MergeDivide { mv: mv.clone(), nodes: Count(*n) })
                .collect(),
            missing: self.missing.clone(),
            redo: compress_ranges(&self.to_redo()),
            invalid: self.invalid.clone(),
            disagreements: self.disagreements.clone(),
            unit_seconds: self.unit_seconds,
            thread_seconds: self.thread_seconds,
        }
    }
}

/// One root move in a merge report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MergeDivide {
    /// UCI.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its count.
    pub nodes: Count,
}

/// The JSON report of `perft merge --json` (counts as decimal strings).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MergeReport {
    /// `kind` (`"merge"`), `tool`, `machine`, `timestamp`.
    #[serde(flatten)]
    pub header: ReportHeader,
    /// The plan's checksum.
    pub plan_checksum: Checksum,
    /// Root position.
    pub fen: String,
    /// Total depth.
    pub depth: u32,
    /// Split ply.
    pub ply: u32,
    /// Units in the plan.
    pub units: u32,
    /// Unique positions at the split ply.
    pub unique_positions: u64,
    /// Key sets merged.
    pub keys: Vec<Keys>,
    /// Whether the total is known (every result present, valid, agreeing).
    pub complete: bool,
    /// The total.
    pub nodes: Option<Count>,
    /// The divide.
    pub divide: Vec<MergeDivide>,
    /// Units without results.
    pub missing: Vec<Missing>,
    /// Every unit to run again, as ranges (missing or invalid).
    pub redo: String,
    /// Invalid results.
    pub invalid: Vec<InvalidResult>,
    /// Key-set disagreements.
    pub disagreements: Vec<Disagreement>,
    /// Sum of the units' seconds.
    pub unit_seconds: f64,
    /// Sum of seconds × threads.
    pub thread_seconds: f64,
}

/// Merges the results of the plan in `dir` under `given_keys` (none means
/// key set 1; a repeated key set counts once; the first gives the total,
/// the others must agree with it unit by unit).
///
/// # Errors
/// A plan that cannot be read or whose root does not give its sum of
/// multiplicities ([`Plan::verify_root`]), or a unit file that no longer
/// matches the manifest ([`DistError`]); [`DistError::MergeOverflow`] when
/// the sum passes 2^128 (results with impossible counts); missing, invalid and disagreeing results are
/// not errors but part of the outcome.
pub fn merge(dir: &std::path::Path, given_keys: &[Keys]) -> Result<MergeOutcome, DistError> {
    let plan = Plan::open(dir)?;
    plan.verify_root()?;
    let mut keys: Vec<Keys> = Vec::new();
    for &key in given_keys {
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    if keys.is_empty() {
        keys.push(Keys::PRIMARY);
    }
    let mut missing: Vec<Missing> =
        keys.iter().map(|&k| Missing { keys: k, ranges: String::new(), units: Vec::new() }).collect();
    let mut invalid = Vec::new();
    let mut disagreements = Vec::new();
    let mut divide = vec![0u128; plan.manifest.root_moves.len()];
    let (mut unit_seconds, mut thread_seconds) = (0.0, 0.0);
    for entry in &plan.manifest.units {
        let mut results: Vec<Option<UnitResult>> = Vec::new();
        for (k, &key) in keys.iter().enumerate() {
            let file = entry.index.result_file(key);
            match UnitResult::load(&plan.dir.join(&file), &plan, entry, key) {
                Ok(None) => missing[k].units.push(entry.index),
                Ok(Some(result)) => {
                    results.push(Some(result));
                    continue;
                }
                Err(error) => invalid.push(InvalidResult {
                    index: entry.index,
                    keys: key,
                    file,
                    reason: error.to_string(),
                }),
            }
            results.push(None);
        }
        let Some(first) = &results[0] else { continue };
        unit_seconds += first.seconds;
        thread_seconds += first.seconds * first.threads as f64;
        let positions = plan.read_unit(entry)?;
        for (position, count) in positions.iter().zip(&first.counts) {
            for &(root, n) in &position.per_root {
                let sum = &mut divide[usize::from(root)];
                *sum = n
                    .checked_mul(count.0)
                    .and_then(|product| sum.checked_add(product))
                    .ok_or(DistError::MergeOverflow(Some(entry.index)))?;
            }
        }
        let others = results.iter().zip(&keys).skip(1).filter_map(|(r, &k)| r.as_ref().map(|r| (k, r)));
        for (key, other) in others {
            if let Some(at) = first.counts.iter().zip(&other.counts).position(|(a, b)| a != b) {
                disagreements.push(Disagreement {
                    index: entry.index,
                    totals: vec![(keys[0], first.total), (key, other.total)],
                    position: at,
                    fen: positions[at].fen.clone(),
                });
            }
        }
    }
    for m in &mut missing {
        m.ranges = compress_ranges(&m.units.iter().map(|u| u.0).collect::<Vec<_>>());
    }
    missing.retain(|m| !m.units.is_empty());
    let complete = missing.is_empty() && invalid.is_empty() && disagreements.is_empty();
    let (nodes, divide) = if complete {
        let nodes = divide
            .iter()
            .try_fold(0u128, |sum, &n| sum.checked_add(n))
            .ok_or(DistError::MergeOverflow(None))?;
        (Some(nodes), plan.manifest.root_moves.iter().cloned().zip(divide).collect())
    } else {
        (None, Vec::new())
    };
    Ok(MergeOutcome {
        plan_checksum: plan.checksum,
        manifest: plan.manifest,
        keys,
        missing,
        invalid,
        disagreements,
        nodes,
        divide,
        unit_seconds,
        thread_seconds,
    })
}

/// Sorted unit numbers as ranges, `0,3-5,17`: what `sbatch --array` takes.
pub fn compress_ranges(units: &[u32]) -> String {
    let mut sorted = units.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let start = sorted[i];
        let mut end = start;
        while i + 1 < sorted.len() && sorted[i + 1] == end + 1 {
            i += 1;
            end = sorted[i];
        }
        parts.push(if start == end { start.to_string() } else { format!("{start}-{end}") });
        i += 1;
    }
    parts.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        assert_eq!(compress_ranges(&[]), "");
        assert_eq!(compress_ranges(&[3]), "3");
        assert_eq!(
            compress_ranges(&[17, 3, 250, 251, 252, 260, 259, 253, 254, 255, 256, 257, 258]),
            "3,17,250-260"
        );
        assert_eq!(compress_ranges(&[0, 1, 1, 2, 4]), "0-2,4");
    }
}
