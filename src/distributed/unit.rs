//! Counting one unit (`perft unit`): every position of the unit at
//! `depth - ply` with one shared hash table, journaled per position, the
//! result written atomically to `results/unit-NNNNNN.kK.json`.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::heartbeat::{heartbeat_file, HeartbeatGuard};
use super::journal::{JournalId, UnitJournal};
use super::plan::{Plan, UnitEntry};
use super::{
    Checksum, Count, DistError, Keys, UnitIndex, FORMAT, INDEX_VARIABLES, MAX_PLAN_FILE_BYTES,
    OFFSET_VARIABLE,
};
use crate::board::Board;
use crate::counting::journal::count_resumable;
use crate::counting::{estimate_nodes, perft_with, with_threads, CountOptions, Mode, PerftTable};
use crate::memory::{self, HashSize, TableSize};
use crate::report::{MachineInfo, ToolInfo};

/// What one unit counted: written to `results/unit-NNNNNN.kK.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnitResult {
    /// Always `"perft-unit-result"`.
    pub kind: String,
    /// [`FORMAT`].
    pub format: u32,
    /// SHA-256 of the plan's manifest.
    pub plan_checksum: Checksum,
    /// SHA-256 of the unit file.
    pub unit_checksum: Checksum,
    /// The unit.
    pub index: UnitIndex,
    /// The key set of the hash table.
    pub keys: Keys,
    /// Plies counted below each position.
    pub depth: u32,
    /// Number of positions (the length of `counts`).
    pub positions: u64,
    /// Each position's count, in unit order.
    pub counts: Vec<Count>,
    /// The sum of `counts` (not weighted by multiplicity).
    pub total: Count,
    /// The machine that counted (the last run, when resumed).
    pub host: String,
    /// When the last run started (UTC).
    pub started: String,
    /// When it finished (UTC).
    pub finished: String,
    /// Seconds of the last run.
    pub seconds: f64,
    /// Positions taken from the journal of earlier runs.
    pub resumed_positions: u64,
    /// Worker threads.
    pub threads: usize,
    /// Hash table size in MiB (0: none).
    pub hash_mb: u64,
    /// With `--hash auto`: why this size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash_auto: Option<String>,
    /// Seconds spent setting up the table (not part of `seconds`).
    #[serde(default)]
    pub table_setup_s: f64,
    /// The program.
    pub tool: ToolInfo,
    /// The machine that counted, with the CPU kernel it used (absent from
    /// results written before kernels were chosen at run time).
    #[serde(default)]
    pub machine: MachineInfo,
    /// SHA-256 over the fields above that carry counts and identity, and
    /// `seconds` (see [`UnitResult::seal`]): an edited number no longer
    /// matches it.
    pub seal: Checksum,
}

impl UnitResult {
    /// The checksum of the result's identity, its counts and its time: the
    /// time as whole nanoseconds ([`seconds_as_nanos`]), never as a float's
    /// text, so a result read back seals to the same value whatever the
    /// float parser does with its last digit.
    pub fn compute_seal(&self) -> Checksum {
        self.seal_over(&format!("seconds_ns {}", seconds_as_nanos(self.seconds)))
    }

    /// The seal earlier builds wrote (`seconds` as Rust's shortest float
    /// text): accepted on reading, never written.
    fn legacy_seal(&self) -> Checksum {
        self.seal_over(&format!("seconds {:?}", self.seconds))
    }

    fn seal_over(&self, time: &str) -> Checksum {
        let counts: Vec<String> = self.counts.iter().map(|c| c.0.to_string()).collect();
        let text = format!(
            "{} {}\nplan {}\nunit {}\nindex {}\nkeys {}\ndepth {}\npositions {}\ncounts {}\ntotal {}\n{time}\n",
            self.kind,
            self.format,
            self.plan_checksum,
            self.unit_checksum,
            self.index,
            self.keys,
            self.depth,
            self.positions,
            counts.join(","),
            self.total,
        );
        Checksum::of(text.as_bytes())
    }

    /// Sets [`UnitResult::seal`] from the current fields.
    pub fn seal(&mut self) {
        self.seal = self.compute_seal();
    }

    /// Reads the result at `path` and checks it against unit `entry` of
    /// `plan` under key set `keys`: `Ok(None)` when there is no file.
    ///
    /// # Errors
    /// Why the file is not a valid result of that unit ([`ResultError`]).
    pub fn load(
        path: &Path,
        plan: &Plan,
        entry: &UnitEntry,
        keys: Keys,
    ) -> Result<Option<UnitResult>, ResultError> {
        let text = match crate::report::read::read_regular(path, MAX_PLAN_FILE_BYTES) {
            Ok(Some(text)) => text,
            Ok(None) => return Ok(None),
            Err(e) => return Err(ResultError::Unreadable(e)),
        };
        let result: UnitResult = serde_json::from_slice(&text).map_err(ResultError::NotAResult)?;
        result.validate(plan, entry, keys)?;
        Ok(Some(result))
    }

    /// Checks the result against unit `entry` of `plan` under `keys`.
    ///
    /// # Errors
    /// The first thing that does not match ([`ResultError`]).
    pub fn validate(&self, plan: &Plan, entry: &UnitEntry, keys: Keys) -> Result<(), ResultError> {
        if self.kind != "perft-unit-result" || self.format != FORMAT {
            return Err(ResultError::WrongFormat { kind: self.kind.clone(), format: self.format });
        }
        if self.seal != self.compute_seal() && self.seal != self.legacy_seal() {
            return Err(ResultError::BadSeal);
        }
        if self.plan_checksum != plan.checksum {
            return Err(ResultError::ForeignPlan {
                found: self.plan_checksum.clone(),
                expected: plan.checksum.clone(),
            });
        }
        if self.index != entry.index {
            return Err(ResultError::WrongIndex { found: self.index, expected: entry.index });
        }
        if self.unit_checksum != entry.sha256 {
            return Err(ResultError::ForeignUnitFile);
        }
        if self.keys != keys {
            return Err(ResultError::WrongKeys { found: self.keys, expected: keys });
        }
        if self.depth != plan.manifest.unit_depth() {
            return Err(ResultError::WrongDepth { found: self.depth, expected: plan.manifest.unit_depth() });
        }
        if self.positions != entry.positions || self.counts.len() as u64 != entry.positions {
            return Err(ResultError::ShortCounts { counts: self.counts.len(), positions: entry.positions });
        }
        let sum = self.counts.iter().try_fold(0u128, |sum, c| sum.checked_add(c.0));
        if sum != Some(self.total.0) {
            return Err(ResultError::BadTotal);
        }
        Ok(())
    }
}

/// `seconds` as whole nanoseconds, rounded, in decimal: the same text for
/// the value written and for the value read back from its JSON, even one
/// unit in the last place off (a time is never within a hair of a half
/// nanosecond: it is whole nanoseconds to begin with). A value that is not
/// finite is written as Rust writes it.
pub fn seconds_as_nanos(seconds: f64) -> String {
    if seconds.is_finite() {
        ((seconds * 1e9).round() as i128).to_string()
    } else {
        seconds.to_string()
    }
}

/// Why a unit result file cannot be used (the messages `perft merge` and
/// `perft unit` print after its name).
#[derive(Debug, thiserror::Error)]
pub enum ResultError {
    /// The file exists but cannot be read.
    #[error("cannot read it: {0}")]
    Unreadable(std::io::Error),
    /// Not JSON, or not a result's fields (a bad checksum or count, say).
    #[error("not a unit result (corrupt): {0}")]
    NotAResult(serde_json::Error),
    /// Another kind of file or format.
    #[error("kind {kind:?} format {format}: not a unit result of format {FORMAT}")]
    WrongFormat {
        /// Its `kind`.
        kind: String,
        /// Its `format`.
        format: u32,
    },
    /// The seal does not match the counts: edited or damaged.
    #[error("corrupt: its seal does not match its counts (edited or damaged)")]
    BadSeal,
    /// A result of another plan.
    #[error("foreign: it is a result of another plan ({}, this plan is {})", found.short(), expected.short())]
    ForeignPlan {
        /// Its plan checksum.
        found: Checksum,
        /// This plan's.
        expected: Checksum,
    },
    /// A result of another unit of this plan (copied under this name).
    #[error("foreign: it is the result of unit {found}, not {expected}")]
    WrongIndex {
        /// The unit it counted.
        found: UnitIndex,
        /// The unit whose name it has.
        expected: UnitIndex,
    },
    /// It counted a unit file with another checksum.
    #[error("foreign: it counted another unit file")]
    ForeignUnitFile,
    /// Counted under the other key set.
    #[error("wrong key set: it was counted with key set {found}, not {expected}")]
    WrongKeys {
        /// Its key set.
        found: Keys,
        /// The key set looked for.
        expected: Keys,
    },
    /// Counted to another depth.
    #[error("it counted depth {found}, the plan needs {expected}")]
    WrongDepth {
        /// Its depth.
        found: u32,
        /// The plan's unit depth.
        expected: u32,
    },
    /// Not one count per position of the unit.
    #[error("it has {counts} counts for the unit's {positions} positions")]
    ShortCounts {
        /// Counts in the result.
        counts: usize,
        /// Positions in the unit.
        positions: u64,
    },
    /// The counts do not add up to the total (or pass 2^128).
    #[error("corrupt: its counts do not add up to its total")]
    BadTotal,
}

/// Where a unit index came from and what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexSource {
    /// `--index` or the environment variable's name, with the offset's
    /// when there is one (`SLURM_ARRAY_TASK_ID 3 + PERFT_INDEX_OFFSET 1000`).
    pub name: String,
    /// The index (offset included).
    pub index: u64,
}

/// The unit index: `option` (from `--index`) if given, else the first of
/// [`INDEX_VARIABLES`] that `env` has with a value: a variable that is set
/// but empty (or only blanks) counts as unset, and the next is read. Then
/// the offset is added: `offset` (from `--index-offset`) if given, else
/// [`OFFSET_VARIABLE`] if `env` has it with a value, else none. The offset
/// lets job arrays whose own indexes must stay small (Slurm's
/// `MaxArraySize`) reach every unit.
///
/// # Errors
/// [`DistError::NoIndex`], or [`DistError::BadIndex`] for an index or
/// offset that is not a whole number, or a sum past 2^64.
pub fn resolve_index(
    option: Option<&str>,
    offset: Option<&str>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<IndexSource, DistError> {
    // The option if given, else the first variable set to something; with
    // the name it came from.
    let pick = |option: Option<&str>, flag: &str, variables: &[&str]| match option {
        Some(value) => Some((flag.to_string(), value.to_string())),
        None => variables.iter().find_map(|&name| {
            env(name).filter(|value| !value.trim().is_empty()).map(|value| (name.to_string(), value))
        }),
    };
    let (name, value) = pick(option, "--index", &INDEX_VARIABLES).ok_or(DistError::NoIndex)?;
    let index = parse_index(&name, &value)?;
    let Some((offset_name, offset_value)) = pick(offset, "--index-offset", &[OFFSET_VARIABLE]) else {
        return Ok(IndexSource { name, index });
    };
    let offset = parse_index(&offset_name, &offset_value)?;
    let name = format!("{name} {index} + {offset_name} {offset}");
    match index.checked_add(offset) {
        Some(index) => Ok(IndexSource { name, index }),
        None => Err(DistError::BadIndex { source_name: name, value: format!("{index} + {offset}") }),
    }
}

/// A whole number from 0, blanks around it allowed.
fn parse_index(name: &str, value: &str) -> Result<u64, DistError> {
    let trimmed = value.trim();
    match trimmed.parse::<u64>() {
        Ok(index) if !trimmed.starts_with('+') => Ok(index),
        _ => Err(DistError::BadIndex { source_name: name.to_string(), value: value.to_string() }),
    }
}

/// What to count.
pub struct UnitRequest<'a> {
    /// The plan directory.
    pub plan: &'a Path,
    /// The unit and where its index came from.
    pub index: IndexSource,
    /// The key set of the table.
    pub keys: Keys,
    /// The hash table: MiB (0: no table) or automatic.
    pub hash: HashSize,
    /// Worker threads.
    pub threads: usize,
    /// Raised to stop (a signal): no new position starts.
    pub stop: Option<&'a AtomicBool>,
}

/// How a unit run ended.
pub enum UnitOutcome {
    /// A valid result was already there; nothing was counted.
    AlreadyDone {
        /// The result file.
        path: PathBuf,
        /// The result.
        result: Box<UnitResult>,
    },
    /// Counted (or finished from the journal) and written.
    Finished {
        /// The result file.
        path: PathBuf,
        /// The result.
        result: Box<UnitResult>,
        /// Notes: an invalid result replaced, journal damage.
        notes: Vec<String>,
    },
    /// Stopped by `stop`: the finished positions are in the journal.
    Interrupted {
        /// The journal.
        journal: PathBuf,
        /// Positions finished (journaled).
        done: usize,
        /// Positions in the unit.
        positions: usize,
        /// Notes.
        notes: Vec<String>,
    },
}

/// Takes the lock of unit `index` under `keys` (an advisory lock on its
/// lock file, which the system releases when the process ends, however it
/// ends), and writes this process's host and id into the file.
///
/// # Errors
/// [`DistError::Busy`] when another process holds it.
fn lock_unit(plan: &Plan, index: UnitIndex, keys: Keys) -> Result<std::fs::File, DistError> {
    use std::io::{Seek, Write};
    let path = plan.dir.join(index.lock_file(keys));
    crate::report::write::check_replaceable(&path).map_err(DistError::io(&path))?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(DistError::io(dir))?;
    }
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(DistError::io(&path))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            let holder = crate::report::read::read_regular(&path, 1024)
                .ok()
                .flatten()
                .map(|bytes| String::from_utf8_lossy(&bytes).trim().to_string())
                .filter(|text| !text.is_empty())
                .unwrap_or_else(|| "its lock file says no more".into());
            return Err(DistError::Busy { index, keys, holder });
        }
        Err(std::fs::TryLockError::Error(e)) => return Err(DistError::io(&path)(e)),
    }
    let owner = format!("pid {} on {}", std::process::id(), crate::report::host_name());
    let written =
        file.set_len(0).and_then(|()| file.rewind()).and_then(|()| file.write_all(owner.as_bytes()));
    written.map_err(DistError::io(&path))?;
    Ok(file)
}

/// Counts unit `request.index` of the plan (see the module docs).
///
/// # Errors
/// A bad plan, index or unit file ([`DistError`]), a hash table that cannot
/// be had, or an I/O error on the journal or result.
pub fn run_unit(request: &UnitRequest) -> Result<UnitOutcome, DistError> {
    let plan = Plan::open(request.plan)?;
    plan.check_results_dir()?;
    let entry = plan.unit(request.index.index, &request.index.name)?.clone();
    let positions = plan.read_unit(&entry)?;
    let path = plan.dir.join(entry.index.result_file(request.keys));
    let journal_path = plan.dir.join(entry.index.journal_file(request.keys));
    // Before any work: neither may be a FIFO, device or directory.
    for file in [&path, &journal_path] {
        crate::report::write::check_replaceable(file).map_err(DistError::io(file))?;
    }
    // One owner at a time: a second process of this unit refuses before it
    // touches the journal or the heartbeat.
    let _lock = lock_unit(&plan, entry.index, request.keys)?;
    let mut notes = Vec::new();
    match UnitResult::load(&path, &plan, &entry, request.keys) {
        Ok(Some(result)) => return Ok(UnitOutcome::AlreadyDone { path, result: Box::new(result) }),
        Ok(None) => {}
        Err(reason) => {
            notes.push(format!("{} is not valid ({reason}); counting the unit again", path.display()))
        }
    }
    let depth = plan.manifest.unit_depth();
    // Boards are made as each position is counted (a board holds its move
    // history's buffer); every FEN is checked first, before any work.
    let board_at = |i: usize| {
        Board::from_fen_with(&positions[i].fen, plan.fen_options()).map_err(|e| DistError::BadPlan {
            path: plan.dir.join(&entry.file),
            line: Some(i + 2),
            reason: format!("bad FEN: {e}"),
        })
    };
    for i in 0..positions.len() {
        board_at(i)?;
    }
    let id = JournalId {
        plan: plan.checksum.clone(),
        unit: entry.sha256.clone(),
        index: entry.index,
        keys: request.keys,
        depth,
    };
    let journal = UnitJournal::open(&journal_path, &id, positions.len())?;
    notes.extend(journal.notes.iter().cloned());
    let first = if positions.is_empty() { None } else { Some(board_at(0)?) };
    let (table, TableSize { megabytes: hash_mb, auto: hash_auto }) =
        make_unit_table(request, first.as_ref(), depth, positions.len())?;
    let table_setup_s = table.as_ref().map_or(0.0, PerftTable::setup_seconds);
    let started = crate::report::timestamp();
    let clock = Instant::now();
    let heartbeat = HeartbeatGuard::start(
        plan.dir.join(heartbeat_file(entry.index, request.keys)),
        journal.done.len() as u64,
    )?;
    let counts = count_positions(positions.len(), &board_at, depth, table.as_ref(), &journal, request)?;
    // Whole nanoseconds, as the seal reads them.
    let seconds = clock.elapsed().as_nanos() as f64 / 1e9;
    drop(heartbeat);
    journal.sync()?;
    let Some(counts) = counts.iter().copied().collect::<Option<Vec<u128>>>() else {
        let done = counts.iter().filter(|n| n.is_some()).count();
        return Ok(UnitOutcome::Interrupted {
            journal: journal_path,
            done,
            positions: positions.len(),
            notes,
        });
    };
    let total: u128 = counts.iter().sum();
    let mut result = UnitResult {
        kind: "perft-unit-result".into(),
        format: FORMAT,
        plan_checksum: plan.checksum.clone(),
        unit_checksum: entry.sha256.clone(),
        index: entry.index,
        keys: request.keys,
        depth,
        positions: entry.positions,
        counts: counts.into_iter().map(Count).collect(),
        total: Count(total),
        host: crate::report::host_name(),
        started,
        finished: crate::report::timestamp(),
        seconds,
        resumed_positions: journal.done.len() as u64,
        threads: request.threads,
        hash_mb,
        hash_auto,
        table_setup_s,
        tool: ToolInfo::current(),
        machine: MachineInfo::detect(),
        seal: Checksum(String::new()),
    };
    result.seal();
    write_result(&path, &result)?;
    drop(journal);
    let _ = std::fs::remove_file(&journal_path);
    Ok(UnitOutcome::Finished { path, result: Box::new(result), notes })
}

/// Writes a sealed result to `path` atomically.
fn write_result(path: &Path, result: &UnitResult) -> Result<(), DistError> {
    let mut bytes =
        serde_json::to_vec_pretty(result).map_err(|e| DistError::io(path)(std::io::Error::other(e)))?;
    bytes.push(b'\n');
    crate::report::write::replace_atomic(path, &bytes).map_err(DistError::io(path))
}

/// The table of a unit of `positions` positions like `first`, counted
/// `depth` plies deep (none for 0 MiB), and its size: an automatic one is
/// fitted to fast memory.
fn make_unit_table(
    request: &UnitRequest,
    first: Option<&Board>,
    depth: u32,
    positions: usize,
) -> Result<(Option<PerftTable>, TableSize), DistError> {
    let mut choice = unit_table_size(request.hash, first, depth, positions)?;
    let table = match choice.megabytes {
        0 => None,
        mb => {
            let mut table = with_threads(request.threads, || PerftTable::new(mb, request.keys.key_set()))??;
            memory::fit_automatic(&mut choice, &mut table);
            Some(table)
        }
    };
    Ok((table, choice))
}

/// The table a unit of `positions` positions like `first`, counted `depth`
/// plies deep, makes for `hash` (0 MiB: none; for `auto` why). Every
/// position shares the table: it is sized from their nodes together, as a
/// suite's is.
fn unit_table_size(
    hash: HashSize,
    first: Option<&Board>,
    depth: u32,
    positions: usize,
) -> Result<TableSize, DistError> {
    let nodes =
        || first.map_or(0.0, |board| estimate_nodes(board, depth).nodes_at_flat_growth * positions as f64);
    let useful = || memory::useful_bytes_for_nodes(nodes());
    match memory::resolve_table(hash, useful, "this unit", 1.0, memory::memory_source) {
        Ok(Some(table)) => Ok(table),
        Ok(None) if hash == HashSize::Auto => {
            Ok(TableSize { megabytes: 0, auto: Some("auto: this unit is too small to pay".into()) })
        }
        Ok(None) => Ok(TableSize { megabytes: 0, auto: None }),
        Err(message) => Err(DistError::TableTooLarge(message)),
    }
}

/// Counts every position (`0..positions`, its board from `board_at`) not
/// yet in the journal, journaling each; a position cut short by a stop is
/// `None`.
fn count_positions(
    positions: usize,
    board_at: &(dyn Fn(usize) -> Result<Board, DistError> + Sync),
    depth: u32,
    table: Option<&PerftTable>,
    journal: &UnitJournal,
    request: &UnitRequest,
) -> Result<Vec<Option<u128>>, DistError> {
    let search = CountOptions { table, stop: request.stop, ..CountOptions::new(Mode::Bulk) };
    with_threads(request.threads, || {
        count_resumable(positions, &journal.done, |i| {
            let Some(n) = perft_with(&board_at(i)?, depth, &search) else { return Ok(None) };
            journal.record(i, n)?;
            Ok(Some(n))
        })
    })?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_sources() {
        let none = |_: &str| None;
        assert_eq!(
            resolve_index(Some("7"), None, none).unwrap(),
            IndexSource { name: "--index".into(), index: 7 }
        );
        assert!(matches!(resolve_index(None, None, none), Err(DistError::NoIndex)));
        let aws = |name: &str| (name == "AWS_BATCH_JOB_ARRAY_INDEX").then(|| "3".to_string());
        assert_eq!(resolve_index(None, None, aws).unwrap().name, "AWS_BATCH_JOB_ARRAY_INDEX");
        let both = |name: &str| match name {
            "SLURM_ARRAY_TASK_ID" => Some("1".to_string()),
            "JOB_COMPLETION_INDEX" => Some("2".to_string()),
            _ => None,
        };
        assert_eq!(
            resolve_index(None, None, both).unwrap(),
            IndexSource { name: "SLURM_ARRAY_TASK_ID".into(), index: 1 }
        );
        assert_eq!(resolve_index(Some("4"), None, both).unwrap().index, 4, "--index wins");
        // Set but empty: as if unset, the next variable is read.
        let empty_slurm = |name: &str| match name {
            "SLURM_ARRAY_TASK_ID" => Some(" ".to_string()),
            "JOB_COMPLETION_INDEX" => Some("2".to_string()),
            _ => None,
        };
        assert_eq!(
            resolve_index(None, None, empty_slurm).unwrap(),
            IndexSource { name: "JOB_COMPLETION_INDEX".into(), index: 2 }
        );
        let all_empty = |_: &str| Some(String::new());
        assert!(matches!(resolve_index(None, None, all_empty), Err(DistError::NoIndex)));
        // An offset, from --index-offset or PERFT_INDEX_OFFSET (empty: none).
        let slurm_offset = |name: &str| match name {
            "SLURM_ARRAY_TASK_ID" => Some("3".to_string()),
            "PERFT_INDEX_OFFSET" => Some("1000".to_string()),
            _ => None,
        };
        assert_eq!(
            resolve_index(None, None, slurm_offset).unwrap(),
            IndexSource { name: "SLURM_ARRAY_TASK_ID 3 + PERFT_INDEX_OFFSET 1000".into(), index: 1003 }
        );
        assert_eq!(
            resolve_index(Some("2"), Some("5"), slurm_offset).unwrap(),
            IndexSource { name: "--index 2 + --index-offset 5".into(), index: 7 }
        );
        let empty_offset = |name: &str| (name == "PERFT_INDEX_OFFSET").then(String::new);
        assert_eq!(resolve_index(Some("2"), None, empty_offset).unwrap().index, 2);
        for (offset, needle) in
            [("-1", "--index-offset"), ("x", "--index-offset"), ("18446744073709551615", "+")]
        {
            match resolve_index(Some("2"), Some(offset), none) {
                Err(DistError::BadIndex { source_name, .. }) => {
                    assert!(source_name.contains(needle), "{source_name}")
                }
                other => panic!("{offset}: {other:?}"),
            }
        }
        for bad in ["", "x", "-1", "+2", "1.5", "99999999999999999999999"] {
            assert!(
                matches!(resolve_index(Some(bad), None, none), Err(DistError::BadIndex { .. })),
                "{bad:?}"
            );
        }
    }
}
