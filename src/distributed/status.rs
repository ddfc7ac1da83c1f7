//! Where a plan stands (`perft status`): which units are done, running or
//! missing, the nodes counted so far and the time left. Read only: it
//! never writes into the plan, so it may run while units count on other
//! machines of a shared file system.
//!
//! A unit that counts keeps a heartbeat file beside its journal
//! (`results/unit-NNNNNN.kK.running`), rewritten every
//! [`HEARTBEAT_INTERVAL`]; one not rewritten for [`HEARTBEAT_STALE`] belongs
//! to a unit that died (killed, its node lost) and counts as missing.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

use super::journal::journaled_positions;
use super::plan::Plan;
use super::unit::UnitResult;
use super::{Count, DistError, Keys, UnitIndex};
use crate::report::timestamp;

/// How often a counting unit rewrites its heartbeat.
pub const HEARTBEAT_INTERVAL: Duration = Duration::from_secs(15);
/// A heartbeat older than this is a dead unit's.
pub const HEARTBEAT_STALE: Duration = Duration::from_secs(120);

/// What a heartbeat file holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Heartbeat {
    /// The machine counting.
    pub host: String,
    /// Its process.
    pub pid: u32,
    /// When the unit started (UTC).
    pub started: String,
    /// When the heartbeat was last written (UTC).
    pub updated: String,
}

/// The heartbeat file of unit `index` under `keys`, relative to the plan.
pub fn heartbeat_file(index: UnitIndex, keys: Keys) -> PathBuf {
    index.journal_file(keys).with_extension("running")
}

/// Keeps a unit's heartbeat fresh until dropped, then removes it.
pub struct HeartbeatGuard {
    path: PathBuf,
    stop: Option<mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl HeartbeatGuard {
    /// Writes the heartbeat at `path` now and every [`HEARTBEAT_INTERVAL`]
    /// from a thread of its own.
    ///
    /// # Errors
    /// The first write failed (a later failure is left to the next beat).
    pub fn start(path: PathBuf) -> Result<HeartbeatGuard, DistError> {
        let mut beat = Heartbeat {
            host: crate::report::host_name(),
            pid: std::process::id(),
            started: timestamp(),
            updated: String::new(),
        };
        let write = move |path: &Path, beat: &mut Heartbeat| {
            beat.updated = timestamp();
            let mut bytes = serde_json::to_vec(beat).unwrap_or_default();
            bytes.push(b'\n');
            crate::report::write::replace_atomic(path, &bytes)
        };
        write(&path, &mut beat).map_err(DistError::io(&path))?;
        let (stop, stopped) = mpsc::channel::<()>();
        let thread_path = path.clone();
        let thread = std::thread::Builder::new()
            .name("heartbeat".into())
            .spawn(move || {
                while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(HEARTBEAT_INTERVAL) {
                    let _ = write(&thread_path, &mut beat);
                }
            })
            .map_err(DistError::io(&path))?;
        Ok(HeartbeatGuard { path, stop: Some(stop), thread: Some(thread) })
    }
}

impl Drop for HeartbeatGuard {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        let _ = std::fs::remove_file(&self.path);
    }
}

/// A unit being counted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunningUnit {
    /// The unit.
    pub index: UnitIndex,
    /// The machine counting it, if its heartbeat says.
    pub host: Option<String>,
    /// Seconds since the heartbeat was written.
    pub heartbeat_age_s: f64,
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

/// Looks at every unit of the plan in `dir` under `keys`; writes nothing.
///
/// # Errors
/// The plan cannot be read ([`DistError`]).
pub fn plan_status(dir: &Path, keys: Keys) -> Result<PlanStatus, DistError> {
    plan_status_at(dir, keys, SystemTime::now())
}

/// [`plan_status`] as seen at `now` (heartbeats are judged by their age).
pub fn plan_status_at(dir: &Path, keys: Keys, now: SystemTime) -> Result<PlanStatus, DistError> {
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
                status.unit_seconds += result.seconds;
                status.done.push(entry.index);
                continue;
            }
            Ok(None) => None,
            Err(reason) => Some(format!("its result is not valid: {reason}")),
        };
        let journal = dir.join(entry.index.journal_file(keys));
        let positions_done = journaled_positions(&journal, entry.positions as usize) as u64;
        let beat_path = dir.join(heartbeat_file(entry.index, keys));
        let age = std::fs::metadata(&beat_path)
            .and_then(|m| m.modified())
            .ok()
            .map(|at| now.duration_since(at).unwrap_or_default());
        match age {
            Some(age) if age <= HEARTBEAT_STALE && problem.is_none() => {
                let host = std::fs::read(&beat_path)
                    .ok()
                    .and_then(|bytes| serde_json::from_slice::<Heartbeat>(&bytes).ok())
                    .map(|beat| beat.host);
                status.running.push(RunningUnit {
                    index: entry.index,
                    host,
                    heartbeat_age_s: age.as_secs_f64(),
                    positions_done,
                    positions: entry.positions,
                });
            }
            _ => {
                let reason = problem.unwrap_or_else(|| match age {
                    Some(age) => format!("died (heartbeat {:.0} s old)", age.as_secs_f64()),
                    None if positions_done > 0 => "stopped (journal, no heartbeat)".into(),
                    None => "never started".into(),
                });
                status.missing.push(MissingUnit { index: entry.index, reason, positions_done });
            }
        }
    }
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
