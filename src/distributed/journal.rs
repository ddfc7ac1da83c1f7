//! The journal of a unit being counted: one line per finished position,
//! appended and flushed as it finishes, so a unit stopped by preemption
//! (SIGTERM), a kill or a crash resumes where it stopped.
//!
//! ```text
//! perft-unit-journal 1 plan 3f0c... unit 9a41... index 17 keys 1 depth 6 build 0.1.0+1caaeb7d2f0e
//! 0 1834561 5e0b7c1a2f3d4e5f
//! 2 2209337 c0ffee0011223344
//! ```
//!
//! The header ends with the build that wrote it (`build 0.1.0+COMMIT`,
//! see [`this_build`]). A record is `position count check`, `check` the
//! first 16 hex digits of the SHA-256 of `position count`. A record that
//! does not check (a torn last line, a flipped bit, an edit) or names a
//! position twice with two counts is dropped with a note and its position
//! counted again. A journal whose header is for another plan, unit, key
//! set or depth, or was written by another build (whose counts this one
//! cannot vouch for), is set aside (renamed `.old`) and the unit starts
//! afresh.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::{Checksum, DistError, Keys, UnitIndex, FORMAT};
use crate::counting::journal::read_records;
use crate::report::ToolInfo;

/// What a unit journal belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JournalId {
    /// The plan's checksum.
    pub plan: Checksum,
    /// The unit file's checksum.
    pub unit: Checksum,
    /// The unit.
    pub index: UnitIndex,
    /// The key set.
    pub keys: Keys,
    /// The depth counted below each position.
    pub depth: u32,
}

/// The first words of every unit journal.
const MAGIC: &str = "perft-unit-journal";

impl JournalId {
    /// The header's fields after the magic and the format, in order, as
    /// `name value` pairs; the build that writes the journal last.
    fn fields(&self) -> [(&'static str, String); 6] {
        [
            ("plan", self.plan.to_string()),
            ("unit", self.unit.to_string()),
            ("index", self.index.to_string()),
            ("keys", self.keys.to_string()),
            ("depth", self.depth.to_string()),
            ("build", this_build()),
        ]
    }

    fn header(&self) -> String {
        let fields: String = self.fields().iter().map(|(name, value)| format!(" {name} {value}")).collect();
        format!("{MAGIC} {FORMAT}{fields}")
    }

    /// Why a journal whose header is `found` is not this one's: the first
    /// field that differs (one it lacks reads as `unknown`).
    fn difference(&self, found: &str) -> String {
        let mut words = found.split_whitespace();
        let format = FORMAT.to_string();
        if words.next() != Some(MAGIC) || words.next() != Some(format.as_str()) {
            return format!("is not a unit journal of format {FORMAT}");
        }
        let words: Vec<&str> = words.collect();
        let theirs = |name: &str| {
            words
                .chunks(2)
                .find(|pair| pair[0] == name)
                .and_then(|pair| pair.get(1))
                .copied()
                .unwrap_or("unknown")
        };
        for (name, ours) in self.fields() {
            let theirs = theirs(name);
            if theirs == ours {
                continue;
            }
            return if name == "build" {
                format!("was written by another build of perft ({theirs}; this is {ours}), whose counts are not reused")
            } else {
                let what = if name == "keys" { "key set" } else { name };
                format!("belongs to another {what} ({theirs}; this unit's is {ours})")
            };
        }
        "has a header this program does not write".into()
    }
}

/// This program's version and git commit, as journal headers carry them:
/// `0.1.0+1caaeb7d2f0e` (`-dirty` when built from a changed tree).
pub fn this_build() -> String {
    let tool = ToolInfo::current();
    format!("{}+{}", tool.version, tool.git_commit)
}

fn check(body: &str) -> String {
    Checksum::of(body.as_bytes()).0[..16].to_string()
}

/// An open unit journal: what it already held, and appends from any thread.
pub struct UnitJournal {
    path: PathBuf,
    file: Mutex<File>,
    /// Counts already recorded, by position (line of the unit, from 0).
    pub done: BTreeMap<usize, u128>,
    /// What was dropped or set aside, one note each.
    pub notes: Vec<String>,
}

impl UnitJournal {
    /// Opens (or starts) the journal at `path` for `id`, for a unit of
    /// `positions` positions.
    ///
    /// # Errors
    /// An I/O error.
    pub fn open(path: &Path, id: &JournalId, positions: usize) -> Result<UnitJournal, DistError> {
        let io = DistError::io(path);
        let header = id.header();
        let mut notes = Vec::new();
        let mut done = BTreeMap::new();
        let mut rewritten = format!("{header}\n");
        match crate::report::read::read_regular(path, super::MAX_PLAN_FILE_BYTES) {
            Ok(Some(bytes)) => {
                let text = String::from_utf8_lossy(&bytes);
                let first = text.lines().next().map(str::trim_end).unwrap_or_default();
                if first == header {
                    let lines: Vec<&str> = text.split_inclusive('\n').skip(1).collect();
                    let records = read_records(&lines, 2, "position", |line| read_record(line, positions));
                    rewritten = records.rewritten(&rewritten);
                    notes = records.notes;
                    done = records.done;
                } else {
                    let old = path.with_extension("journal.old");
                    std::fs::rename(path, &old).map_err(DistError::io(path))?;
                    notes.push(format!(
                        "{} {}; set aside as {} and starting afresh",
                        path.display(),
                        id.difference(first),
                        old.display()
                    ));
                }
            }
            Ok(None) => {}
            Err(e) => return Err(io(e)),
        }
        // Rewrite it with the usable records only (atomically), so damage is
        // met once and appends start on a fresh line. A symbolic link there
        // is replaced, never written through, and appends never follow one.
        crate::report::write::replace_atomic(path, rewritten.as_bytes()).map_err(DistError::io(path))?;
        let mut options = OpenOptions::new();
        options.append(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NOFOLLOW);
        let file = options.open(path).map_err(DistError::io(path))?;
        Ok(UnitJournal { path: path.to_path_buf(), file: Mutex::new(file), done, notes })
    }

    /// Appends one finished position and hands it to the operating system.
    ///
    /// # Errors
    /// An I/O error.
    pub fn record(&self, position: usize, count: u128) -> Result<(), DistError> {
        let body = format!("{position} {count}");
        let line = format!("{body} {}\n", check(&body));
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        file.write_all(line.as_bytes()).map_err(DistError::io(&self.path))
    }

    /// Flushes the journal to disk.
    ///
    /// # Errors
    /// An I/O error.
    pub fn sync(&self) -> Result<(), DistError> {
        self.file.lock().unwrap_or_else(|e| e.into_inner()).sync_all().map_err(DistError::io(&self.path))
    }
}

/// How many positions the unit journal at `path` (of a unit of `positions`
/// positions) holds, its records read as [`UnitJournal::open`] reads them
/// but nothing written: a progress figure (0 where there is none).
pub fn journaled_positions(path: &Path, positions: usize) -> usize {
    let Ok(Some(bytes)) = crate::report::read::read_regular(path, super::MAX_PLAN_FILE_BYTES) else {
        return 0;
    };
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<&str> = text.split_inclusive('\n').skip(1).collect();
    read_records(&lines, 2, "position", |line| read_record(line, positions)).done.len()
}

/// One record line (without its line ending) of a unit of `positions`
/// positions: the position and its count, or why it cannot be trusted.
fn read_record(line: &str, positions: usize) -> Result<(usize, u128), String> {
    let (body, sum) = line.rsplit_once(' ').ok_or("no check")?;
    if check(body) != sum {
        return Err("check does not match".into());
    }
    let (position, count) = body.split_once(' ').ok_or("no count")?;
    let position: usize = position.parse().map_err(|_| "bad position")?;
    let count: u128 = count.parse().map_err(|_| "bad count")?;
    if position >= positions {
        return Err(format!("no position {position} in this unit of {positions}"));
    }
    Ok((position, count))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_damage_and_foreign_headers() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("unit-000000.k1.journal");
        let id = JournalId {
            plan: Checksum::of(b"plan"),
            unit: Checksum::of(b"unit"),
            index: UnitIndex(0),
            keys: Keys::PRIMARY,
            depth: 3,
        };
        let journal = UnitJournal::open(&path, &id, 10).unwrap();
        assert!(journal.done.is_empty() && journal.notes.is_empty());
        for (position, count) in [(0, 100), (3, 300), (5, 500)] {
            journal.record(position, count).unwrap();
        }
        drop(journal);
        let mut text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(UnitJournal::open(&path, &id, 10).unwrap().done.len(), 3);
        // An edited count, a torn last line and a position past the unit.
        text = text.replacen("3 300 ", "3 301 ", 1);
        let body = "12 7";
        text.push_str(&format!("{body} {}\n9 90", check(body)));
        std::fs::write(&path, &text).unwrap();
        let journal = UnitJournal::open(&path, &id, 10).unwrap();
        assert_eq!(journal.done.keys().copied().collect::<Vec<_>>(), vec![0, 5]);
        assert_eq!(journal.notes.len(), 3, "{:?}", journal.notes);
        drop(journal);
        // Rewritten without the damage: the next open meets none.
        let journal = UnitJournal::open(&path, &id, 10).unwrap();
        assert_eq!((journal.done.len(), journal.notes.len()), (2, 0));
        // Two counts for one position: both dropped.
        journal.record(5, 501).unwrap();
        drop(journal);
        let journal = UnitJournal::open(&path, &id, 10).unwrap();
        assert_eq!(journal.done.keys().copied().collect::<Vec<_>>(), vec![0]);
        drop(journal);
        // Another build: set aside, started afresh, said so.
        let mut text = std::fs::read_to_string(&path).unwrap();
        text = text.replacen(&format!(" build {}\n", this_build()), " build 0.0.1+0123456789ab\n", 1);
        std::fs::write(&path, &text).unwrap();
        let journal = UnitJournal::open(&path, &id, 10).unwrap();
        assert!(journal.done.is_empty(), "{:?}", journal.done);
        assert!(
            journal.notes[0].contains("another build of perft (0.0.1+0123456789ab; this is"),
            "{:?}",
            journal.notes
        );
        assert!(path.with_extension("journal.old").exists());
        journal.record(0, 100).unwrap();
        drop(journal);
        // A journal from before builds were written (no build at all).
        let text =
            std::fs::read_to_string(&path).unwrap().replacen(&format!(" build {}", this_build()), "", 1);
        std::fs::write(&path, &text).unwrap();
        let journal = UnitJournal::open(&path, &id, 10).unwrap();
        assert!(journal.done.is_empty(), "{:?}", journal.done);
        assert!(journal.notes[0].contains("another build of perft (unknown; this is"), "{:?}", journal.notes);
        journal.record(0, 100).unwrap();
        drop(journal);
        // Another key set: set aside, started afresh.
        let other = JournalId { keys: Keys::SECONDARY, ..id.clone() };
        let journal = UnitJournal::open(&path, &other, 10).unwrap();
        assert!(journal.done.is_empty() && journal.notes[0].contains("set aside"), "{:?}", journal.notes);
        assert!(
            journal.notes[0].contains("belongs to another key set (1; this unit's is 2)"),
            "{:?}",
            journal.notes
        );
        assert!(path.with_extension("journal.old").exists());
        drop(journal);
        // Not a unit journal at all.
        std::fs::write(&path, "perft-checkpoint 1 something else\n").unwrap();
        let journal = UnitJournal::open(&path, &id, 10).unwrap();
        assert!(journal.notes[0].contains("is not a unit journal of format"), "{:?}", journal.notes);
    }
}
