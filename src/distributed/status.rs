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
    /// Seconds it has run, by its heartbeat (its writer's clock).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seconds_running: Option<f64>,
    /// Positions its journal held when it started (a resumed unit's).
    #[serde(default)]
    pub resumed_positions: u64,
}

impl RunningUnit {
    /// Seconds since it started: by its heartbeat, plus the heartbeat's age.
    pub fn seconds_since_start(&self) -> Option<f64> {
        Some(self.seconds_running? + self.heartbeat_age_s).filter(|&seconds| seconds > 0.0)
    }

    /// At the pace of the positions it journaled since it started: the
    /// seconds the whole unit takes, and those it has left; `None` before
    /// it journaled any.
    pub fn projection(&self) -> Option<(f64, f64)> {
        let seconds = self.seconds_since_start()?;
        let counted = self.positions_done.checked_sub(self.resumed_positions).filter(|&n| n > 0)?;
        let to_count = self.positions.saturating_sub(self.resumed_positions);
        let whole = seconds * to_count as f64 / counted as f64;
        Some((whole, (whole - seconds).max(0.0)))
    }
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
    /// Estimated seconds until every unit is done: the time the running
    /// units have left at their own pace, plus the units not started
    /// times the done units' mean time (before any is done, the running
    /// units' projected time), shared among the running ones (at least
    /// one); absent before any unit is done or has journaled a position.
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
                    seconds_running: beat.heartbeat.as_ref().and_then(Heartbeat::seconds_running),
                    resumed_positions: beat.heartbeat.as_ref().map_or(0, |h| h.resumed_positions),
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
    status.seconds_left = seconds_left(&status);
    Ok(status)
}

/// See [`PlanStatus::seconds_left`].
fn seconds_left(status: &PlanStatus) -> Option<f64> {
    let projections: Vec<Option<(f64, f64)>> = status.running.iter().map(RunningUnit::projection).collect();
    let wholes: Vec<f64> = projections.iter().flatten().map(|&(whole, _)| whole).collect();
    let mean = match status.done.len() {
        0 if wholes.is_empty() => return None,
        0 => wholes.iter().sum::<f64>() / wholes.len() as f64,
        done => status.unit_seconds / done as f64,
    };
    // A running unit without a pace yet is counted as half done.
    let running_left: f64 = projections.iter().map(|p| p.map_or(mean / 2.0, |(_, left)| left)).sum();
    let not_started = status.units - status.counts.done - status.counts.running;
    Some((running_left + mean * f64::from(not_started)) / f64::from(status.counts.running.max(1)))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A plan of `units` units, of which `done` are done in `unit_seconds`
    /// and `running` run.
    fn plan(units: u32, done: u32, unit_seconds: f64, running: Vec<RunningUnit>) -> PlanStatus {
        let counts = StatusCounts {
            done,
            running: running.len() as u32,
            missing: units - done - running.len() as u32,
        };
        PlanStatus {
            kind: "perft-status".into(),
            plan: PathBuf::from("plan"),
            fen: String::new(),
            depth: 11,
            keys: Keys::PRIMARY,
            units,
            counts,
            done: (0..done).map(UnitIndex).collect(),
            running,
            missing: Vec::new(),
            nodes_done: Count(0),
            unit_seconds,
            seconds_left: None,
            taken: String::new(),
        }
    }

    /// A unit of 1,000 positions that journaled `done` of them, `resumed`
    /// before it started `seconds` ago.
    fn running(seconds: Option<f64>, done: u64, resumed: u64) -> RunningUnit {
        RunningUnit {
            index: UnitIndex(7),
            host: None,
            heartbeat_age_s: 0.0,
            clock_skew_s: None,
            positions_done: done,
            positions: 1_000,
            seconds_running: seconds,
            resumed_positions: resumed,
        }
    }

    #[test]
    fn before_any_unit_is_done_the_running_units_pace_says() {
        // A quarter in 100 s: 400 s a unit, 300 s left of it, three more.
        let status = plan(4, 0, 0.0, vec![running(Some(100.0), 250, 0)]);
        assert_eq!(seconds_left(&status), Some(1_500.0));
        // Resumed with 500: 100 more in 100 s, 400 s left.
        let status = plan(1, 0, 0.0, vec![running(Some(100.0), 600, 500)]);
        assert_eq!(seconds_left(&status), Some(400.0));
        // The heartbeat's age counts: written 40 s after the start, read 60 s later.
        let status =
            plan(1, 0, 0.0, vec![RunningUnit { heartbeat_age_s: 60.0, ..running(Some(40.0), 250, 0) }]);
        assert_eq!(seconds_left(&status), Some(300.0));
        // Two running, shared.
        let status = plan(2, 0, 0.0, vec![running(Some(100.0), 250, 0), running(Some(100.0), 500, 0)]);
        assert_eq!(seconds_left(&status), Some((300.0 + 100.0) / 2.0));
    }

    #[test]
    fn no_estimate_before_a_unit_is_done_or_journals_a_position() {
        assert_eq!(seconds_left(&plan(4, 0, 0.0, vec![running(Some(100.0), 0, 0)])), None);
        assert_eq!(seconds_left(&plan(4, 0, 0.0, vec![running(None, 300, 0)])), None);
        assert_eq!(seconds_left(&plan(4, 0, 0.0, vec![running(Some(50.0), 300, 300)])), None);
        assert_eq!(seconds_left(&plan(4, 0, 0.0, Vec::new())), None);
    }

    #[test]
    fn done_units_give_the_mean_of_those_not_started() {
        // 100 s a unit; a running unit without a pace counts as half done.
        let status = plan(4, 2, 200.0, vec![running(None, 0, 0)]);
        assert_eq!(seconds_left(&status), Some(50.0 + 100.0));
        // With a pace: its own time left, not the mean's.
        let status = plan(4, 2, 200.0, vec![running(Some(30.0), 750, 0)]);
        assert_eq!(seconds_left(&status), Some(10.0 + 100.0));
        assert_eq!(seconds_left(&plan(2, 2, 200.0, Vec::new())), Some(0.0));
    }
}
