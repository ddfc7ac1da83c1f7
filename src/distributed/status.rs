//! Where a plan stands (`perft status`): which units are done, running or
//! missing, the nodes counted so far and the time left. Read only: it
//! never writes into the plan, so it may run while units count on other
//! machines of a shared file system.
//!
//! A unit that counts keeps a heartbeat file beside its journal (see
//! [`super::heartbeat`]); one not rewritten for [`HEARTBEAT_STALE`] belongs
//! to a unit that died (killed, its node lost) and counts as missing. Where
//! the clocks disagree, a heartbeat is watched for a change before it is
//! judged.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

pub use super::heartbeat::{heartbeat_file, Heartbeat, HeartbeatGuard, HEARTBEAT_INTERVAL, HEARTBEAT_STALE};
use super::heartbeat::{watch, Beat, Verdict};
use super::journal::journaled_positions;
use super::plan::Plan;
use super::unit::UnitResult;
use super::{Count, DistError, Keys, UnitIndex};
use crate::report::timestamp;

/// A unit being counted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunningUnit {
    /// The unit.
    pub index: UnitIndex,
    /// The machine counting it, if its heartbeat says.
    pub host: Option<String>,
    /// Seconds since the heartbeat was written (by this machine's clock
    /// against the file's time; 0 for one dated in the future).
    pub heartbeat_age_s: f64,
    /// How far in the future its heartbeat is dated, when that is past the
    /// margin: the clocks of this machine and the unit's (or the file
    /// server's) disagree, and the unit was seen running by its heartbeat
    /// changing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_skew_s: Option<f64>,
    /// Positions of the unit already in its journal.
    pub positions_done: u64,
    /// Positions in the unit.
    pub positions: u64,
}

/// A unit neither done nor running.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MissingUnit {
    /// The unit.
    pub index: UnitIndex,
    /// Why: `never started`, `died (heartbeat 300 s old)`, or why its
    /// result is not valid.
    pub reason: String,
    /// Positions of the unit already in its journal (a rerun skips them).
    pub positions_done: u64,
}

/// How many units are in each state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusCounts {
    /// Units with a valid result.
    pub done: u32,
    /// Units with a fresh heartbeat.
    pub running: u32,
    /// The others.
    pub missing: u32,
}

/// Where a plan stands, for one key set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanStatus {
    /// Always `"perft-status"`.
    pub kind: String,
    /// The plan directory.
    pub plan: PathBuf,
    /// The root position.
    pub fen: String,
    /// The plan's depth.
    pub depth: u32,
    /// The key set looked at.
    pub keys: Keys,
    /// Units in the plan.
    pub units: u32,
    /// How many units are in each state.
    pub counts: StatusCounts,
    /// The units done.
    pub done: Vec<UnitIndex>,
    /// The units running.
    pub running: Vec<RunningUnit>,
    /// The units missing.
    pub missing: Vec<MissingUnit>,
    /// Nodes of the final count that the done units hold (each position's
    /// count times its multiplicity).
    pub nodes_done: Count,
    /// Seconds the done units took, summed.
    pub unit_seconds: f64,
    /// Estimated seconds until every unit is done: the units left times
    /// the done units' mean time, shared among the running ones (at least
    /// one); absent before any unit is done.
    pub seconds_left: Option<f64>,
    /// When this status was taken (UTC).
    pub taken: String,
}

/// How `perft status` looks at heartbeats.
#[derive(Clone, Copy, Debug)]
pub struct StatusOptions<'a> {
    /// The time to judge heartbeats' ages by (`perft status` watches a
    /// heartbeat for one [`HEARTBEAT_INTERVAL`] and a little more).
    pub now: SystemTime,
    /// How long a heartbeat the clocks cannot judge is watched for a
    /// change (zero: not watched, and such a unit is called missing with
    /// the reason).
    pub watch: Duration,
    /// Once raised, watching stops.
    pub stop: Option<&'a AtomicBool>,
}

/// Looks at every unit of the plan in `dir` under `keys`; writes nothing.
///
/// # Errors
/// The plan cannot be read ([`DistError`]).
pub fn plan_status(dir: &Path, keys: Keys, options: &StatusOptions) -> Result<PlanStatus, DistError> {
    let plan = Plan::open(dir)?;
    let mut status = PlanStatus {
        kind: "perft-status".into(),
        plan: dir.to_path_buf(),
        fen: plan.manifest.fen.clone(),
        depth: plan.manifest.depth,
        keys,
        units: plan.manifest.unit_count,
        counts: StatusCounts::default(),
        done: Vec::new(),
        running: Vec::new(),
        missing: Vec::new(),
        nodes_done: Count(0),
        unit_seconds: 0.0,
        seconds_left: None,
        taken: timestamp(),
    };
    // Units whose heartbeat the clocks cannot judge, watched together.
    let mut unsure: Vec<(PathBuf, Beat, RunningUnit)> = Vec::new();
    for entry in &plan.manifest.units {
        let result_path = dir.join(entry.index.result_file(keys));
        let problem = match UnitResult::load(&result_path, &plan, entry, keys) {
            Ok(Some(result)) => {
                let positions = plan.read_unit(entry)?;
                let weighted = positions
                    .iter()
                    .zip(&result.counts)
                    .try_fold(0u128, |sum, (p, n)| sum.checked_add(p.multiplicity.checked_mul(n.0)?))
                    .unwrap_or(u128::MAX);
                status.nodes_done.0 = status.nodes_done.0.saturating_add(weighted);
                status.unit_seconds += result.seconds.max(0.0);
                status.done.push(entry.index);
                continue;
            }
            Ok(None) => None,
            Err(reason) => Some(format!("its result is not valid: {reason}")),
        };
        let journal = dir.join(entry.index.journal_file(keys));
        let positions_done = journaled_positions(&journal, entry.positions as usize) as u64;
        let beat_path = dir.join(heartbeat_file(entry.index, keys));
        let beat = Beat::read(&beat_path, options.now);
        let missing = |reason: String| MissingUnit { index: entry.index, reason, positions_done };
        match (beat, problem) {
            (_, Some(problem)) => status.missing.push(missing(problem)),
            (None, None) if positions_done > 0 => {
                status.missing.push(missing("stopped (journal, no heartbeat)".into()))
            }
            (None, None) => status.missing.push(missing("never started".into())),
            (Some(beat), None) => {
                let running = RunningUnit {
                    index: entry.index,
                    host: beat.heartbeat.as_ref().map(|h| h.host.clone()),
                    heartbeat_age_s: beat.age.as_secs_f64(),
                    clock_skew_s: None,
                    positions_done,
                    positions: entry.positions,
                };
                match beat.verdict() {
                    Verdict::Fresh => status.running.push(running),
                    Verdict::Dead => status
                        .missing
                        .push(missing(format!("died (heartbeat {:.0} s old)", beat.age.as_secs_f64()))),
                    Verdict::Unsure => unsure.push((beat_path, beat, running)),
                }
            }
        }
    }
    judge_unsure(&mut status, unsure, options);
    status.running.sort_by_key(|r| r.index.0);
    status.missing.sort_by_key(|m| m.index.0);
    status.counts = StatusCounts {
        done: status.done.len() as u32,
        running: status.running.len() as u32,
        missing: status.missing.len() as u32,
    };
    if !status.done.is_empty() {
        let mean = status.unit_seconds / status.done.len() as f64;
        let left = status.units - status.counts.done;
        status.seconds_left = Some(mean * f64::from(left) / f64::from(status.counts.running.max(1)));
    }
    Ok(status)
}

/// Judges the units whose heartbeats the clocks could not: running if the
/// heartbeat changed while watched, else dead, with what the clocks said.
fn judge_unsure(status: &mut PlanStatus, unsure: Vec<(PathBuf, Beat, RunningUnit)>, options: &StatusOptions) {
    if unsure.is_empty() {
        return;
    }
    let watched: Vec<(PathBuf, Beat)> =
        unsure.iter().map(|(path, beat, _)| (path.clone(), beat.clone())).collect();
    let changed = if options.watch.is_zero() {
        vec![false; watched.len()]
    } else {
        watch(&watched, options.watch, options.stop)
    };
    let stopped = options.stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed));
    for ((_, beat, mut running), changed) in unsure.into_iter().zip(changed) {
        let skew = (!beat.ahead.is_zero()).then_some(beat.ahead.as_secs_f64());
        if changed {
            running.clock_skew_s = skew;
            status.running.push(running);
            continue;
        }
        let clocks = match skew {
            Some(ahead) => format!("dated {ahead:.0} s in the future: clock skew"),
            None => format!("{:.0} s old", beat.age.as_secs_f64()),
        };
        let reason = if options.watch.is_zero() {
            format!("unsure: heartbeat {clocks}, not watched for a change")
        } else if stopped {
            format!("unsure: heartbeat {clocks}, watching for a change was interrupted")
        } else {
            format!("died (heartbeat {clocks}, unchanged for {:.0} s)", options.watch.as_secs_f64())
        };
        status.missing.push(MissingUnit {
            index: running.index,
            reason,
            positions_done: running.positions_done,
        });
    }
}
