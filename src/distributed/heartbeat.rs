//! A counting unit's heartbeat: a small file beside its journal
//! (`results/unit-NNNNNN.kK.running`) that the unit rewrites every
//! [`HEARTBEAT_INTERVAL`] with its writer's clock and a sequence number,
//! and that `perft status` reads without ever waiting on it.
//!
//! Freshness is judged by the file's age where the clocks agree; where they
//! do not (a heartbeat dated in the future beyond [`SKEW_MARGIN`], or one
//! that looks a little stale, as when the reading machine's clock runs
//! ahead of the file server's), by whether its sequence number changes
//! within a heartbeat interval.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime};

use serde::{Deserialize, Serialize};

use super::{DistError, Keys, UnitIndex};
use crate::report::timestamp;

/// How often a counting unit rewrites its heartbeat.
pub const HEARTBEAT_INTERVAL: Duration = Duration::from_secs(15);
/// A heartbeat older than this is a dead unit's, where the clocks agree.
pub const HEARTBEAT_STALE: Duration = Duration::from_secs(120);
/// Clocks this far apart are taken to agree.
pub const SKEW_MARGIN: Duration = Duration::from_secs(30);
/// A heartbeat at most this much older than [`HEARTBEAT_STALE`] may be a
/// live unit's seen from a clock that runs ahead: it is watched for a
/// change before it is called dead.
pub const MAX_SKEW: Duration = Duration::from_secs(300);
/// The largest heartbeat file read (they are about 150 bytes).
const MAX_HEARTBEAT_BYTES: u64 = 4096;

/// What a heartbeat file holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Heartbeat {
    /// The machine counting.
    pub host: String,
    /// Its process.
    pub pid: u32,
    /// When the unit started (UTC, the writer's clock).
    pub started: String,
    /// When the heartbeat was last written (UTC, the writer's clock).
    pub updated: String,
    /// How many times it was written: a live unit's changes every
    /// [`HEARTBEAT_INTERVAL`], whatever the clocks say.
    #[serde(default)]
    pub seq: u64,
    /// Positions its journal held when the unit started (resumed ones).
    #[serde(default)]
    pub resumed_positions: u64,
}

impl Heartbeat {
    /// Seconds between the unit's start and this heartbeat, by the
    /// writer's clock; `None` where either time does not read.
    pub fn seconds_running(&self) -> Option<f64> {
        Some((epoch_seconds(&self.updated)? - epoch_seconds(&self.started)?).max(0.0))
    }
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
    /// from a thread of its own, for a unit whose journal held
    /// `resumed_positions` when it started. The caller must own the unit
    /// (hold its lock): the guard removes the file when dropped.
    ///
    /// # Errors
    /// The first write failed (a later failure is left to the next beat).
    pub fn start(path: PathBuf, resumed_positions: u64) -> Result<HeartbeatGuard, DistError> {
        let mut beat = Heartbeat {
            host: crate::report::host_name(),
            pid: std::process::id(),
            started: timestamp(),
            updated: String::new(),
            seq: 0,
            resumed_positions,
        };
        let write = move |path: &Path, beat: &mut Heartbeat| {
            beat.updated = timestamp();
            beat.seq += 1;
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

/// A heartbeat file as read now.
#[derive(Clone, Debug, PartialEq)]
pub struct Beat {
    /// What it holds, if it reads.
    pub heartbeat: Option<Heartbeat>,
    /// Its age by this machine's clock against the file's time; zero for
    /// a file dated in the future.
    pub age: Duration,
    /// How far in the future its file time or its writer's clock is, past
    /// [`SKEW_MARGIN`] (zero when the clocks agree).
    pub ahead: Duration,
}

/// What a heartbeat says of its unit, by the clocks alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Fresh: the unit runs.
    Fresh,
    /// Long stale: the unit died.
    Dead,
    /// The clocks cannot tell: dated in the future, or stale by no more
    /// than a clock could be off. Watch it for a change.
    Unsure,
}

/// Seconds since the epoch of an RFC 3339 UTC timestamp, as written by
/// [`timestamp`].
fn epoch_seconds(text: &str) -> Option<f64> {
    let at = chrono::DateTime::parse_from_rfc3339(text).ok()?;
    Some(at.timestamp() as f64 + f64::from(at.timestamp_subsec_millis()) / 1e3)
}

fn since_epoch(time: SystemTime) -> f64 {
    time.duration_since(SystemTime::UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64())
}

impl Beat {
    /// The heartbeat at `path` as seen at `now`, read through the guarded
    /// reader (a FIFO or device in its place is not waited on, a huge
    /// file not read); `None` when there is none (or it is not a regular
    /// file).
    pub fn read(path: &Path, now: SystemTime) -> Option<Beat> {
        let modified = std::fs::metadata(path).ok().filter(|m| m.is_file())?.modified().ok()?;
        let heartbeat = crate::report::read::read_regular(path, MAX_HEARTBEAT_BYTES)
            .ok()
            .flatten()
            .and_then(|bytes| serde_json::from_slice::<Heartbeat>(&bytes).ok());
        let now_s = since_epoch(now);
        let file_ahead = since_epoch(modified) - now_s;
        let writer_ahead =
            heartbeat.as_ref().and_then(|h| epoch_seconds(&h.updated)).map_or(0.0, |w| w - now_s);
        let ahead = file_ahead.max(writer_ahead);
        Some(Beat {
            heartbeat,
            age: now.duration_since(modified).unwrap_or_default(),
            ahead: if ahead > SKEW_MARGIN.as_secs_f64() {
                Duration::from_secs_f64(ahead)
            } else {
                Duration::ZERO
            },
        })
    }

    /// What the clocks say.
    pub fn verdict(&self) -> Verdict {
        if !self.ahead.is_zero() || (self.age > HEARTBEAT_STALE && self.age <= HEARTBEAT_STALE + MAX_SKEW) {
            Verdict::Unsure
        } else if self.age <= HEARTBEAT_STALE {
            Verdict::Fresh
        } else {
            Verdict::Dead
        }
    }

    /// What changes at each beat: the sequence number, and the writer's
    /// time (for heartbeats written before they had one).
    fn mark(&self) -> Option<(u64, String)> {
        self.heartbeat.as_ref().map(|h| (h.seq, h.updated.clone()))
    }
}

/// Watches the heartbeats at `paths` (each with its first reading) for a
/// change of sequence number, for up to `wait` (polling, and giving up
/// when `stop` is raised): true for each one that changed, or vanished
/// (its unit ended meanwhile).
pub fn watch(paths: &[(PathBuf, Beat)], wait: Duration, stop: Option<&AtomicBool>) -> Vec<bool> {
    let mut changed = vec![false; paths.len()];
    let until = Instant::now() + wait;
    while Instant::now() < until && !changed.iter().all(|&c| c) {
        if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            break;
        }
        std::thread::sleep(Duration::from_millis(200).min(until.saturating_duration_since(Instant::now())));
        for (i, (path, first)) in paths.iter().enumerate() {
            if !changed[i] {
                changed[i] = Beat::read(path, SystemTime::now()).is_none_or(|now| now.mark() != first.mark());
            }
        }
    }
    changed
}
