//! The journal of a unit being counted: one line per finished position,
//! appended and flushed as it finishes, so a unit stopped by preemption
//! (SIGTERM), a kill or a crash resumes where it stopped.
//!
//! ```text
//! perft-unit-journal 2 plan 3f0c... unit 9a41... index 17 keys 1 depth 6 build 0.1.0+1caaeb7d2f0e
//! 0 1834561 7d1e0a9b3c2f4e58 5e0b7c1a2f3d4e5f
//! 2 2209337 7d1e0a9b3c2f4e58 c0ffee0011223344
//! ```
//!
//! The header ends with the build that wrote it (`build 0.1.0+COMMIT`,
//! see [`this_build`]). A record is `position count unit check`: `unit`
//! the journal's identity (the first 16 hex digits of the SHA-256 of the
//! header line: plan, unit file, index, key set, depth, build), `check`
//! the first 16 hex digits of the SHA-256 of the rest of the line. A record
//! that does not check (a torn last line, a flipped bit, an edit), names a
//! position twice with two counts, or belongs to another unit's journal
//! (appended from it) is dropped with a note and its position counted
//! again. A journal whose header is for another plan, unit, key set or
//! depth, or was written by another build (whose counts this one cannot
//! vouch for), or whose records all belong to other journals, is set aside
//! (renamed `.old`) and the unit starts afresh: never summed.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::{Checksum, DistError, Keys, UnitIndex};
use crate::counting::journal::{read_records, Unusable};
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
/// The unit journal's format: 2 since records name their journal.
const JOURNAL_FORMAT: u32 = 2;

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
        format!("{MAGIC} {JOURNAL_FORMAT}{fields}")
    }

    /// Why a journal whose header is `found` is not this one's: the first
    /// field that differs (one it lacks reads as `unknown`).
    fn difference(&self, found: &str) -> String {
        let mut words = found.split_whitespace();
        let format = JOURNAL_FORMAT.to_string();
        if words.next() != Some(MAGIC) || words.next() != Some(format.as_str()) {
            return format!("is not a unit journal of format {JOURNAL_FORMAT}");
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

/// The identity every record of the journal with header line `header`
/// carries.
fn journal_tag(header: &str) -> String {
    check(header)
}

/// An open unit journal: what it already held, and appends from any thread.
pub struct UnitJournal {
    path: PathBuf,
    file: Mutex<File>,
    /// This journal's identity, written into every record.
    tag: String,
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
        let tag = journal_tag(&header);
        let mut notes = Vec::new();
        let mut done = BTreeMap::new();
        let mut rewritten = format!("{header}\n");
        match crate::report::read::read_regular(path, super::MAX_PLAN_FILE_BYTES) {
            Ok(Some(bytes)) => {
                let text = String::from_utf8_lossy(&bytes);
                let first = text.lines().next().map(str::trim_end).unwrap_or_default();
                let lines: Vec<&str> = text.split_inclusive('\n').skip(1).collect();
                let records = read_records(&lines, 2, "position", |line| read_record(line, &tag, positions));
                let why_not = if first != header {
                    Some(id.difference(first))
                } else if records.all_foreign() {
                    Some(format!("holds only records of other journals ({} of them)", records.foreign))
                } else {
                    None
                };
                if let Some(why_not) = why_not {
                    let old = path.with_extension("journal.old");
                    std::fs::rename(path, &old).map_err(DistError::io(path))?;
                    notes.push(format!(
                        "{} {why_not}; set aside as {} and starting afresh",
                        path.display(),
                        old.display()
                    ));
                } else {
                    rewritten = records.rewritten(&rewritten);
                    notes = records.notes;
                    done = records.done;
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
        Ok(UnitJournal { path: path.to_path_buf(), file: Mutex::new(file), tag, done, notes })
    }

    /// Appends one finished position and hands it to the operating system.
    ///
    /// # Errors
    /// An I/O error.
    pub fn record(&self, position: usize, count: u128) -> Result<(), DistError> {
        let body = format!("{position} {count} {}", self.tag);
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
/// (only those of its own header) but nothing written: a progress figure
/// (0 where there is none).
pub fn journaled_positions(path: &Path, positions: usize) -> usize {
    let Ok(Some(bytes)) = crate::report::read::read_regular(path, super::MAX_PLAN_FILE_BYTES) else {
        return 0;
    };
    let text = String::from_utf8_lossy(&bytes);
    let tag = journal_tag(text.lines().next().map(str::trim_end).unwrap_or_default());
    let lines: Vec<&str> = text.split_inclusive('\n').skip(1).collect();
    read_records(&lines, 2, "position", |line| read_record(line, &tag, positions)).done.len()
}

/// One record line (without its line ending) of a unit of `positions`
/// positions: the position and its count, or why it cannot be trusted.
fn read_record(line: &str, tag: &str, positions: usize) -> Result<(usize, u128), Unusable> {
    let (body, sum) = line.rsplit_once(' ').ok_or("no check")?;
    if check(body) != sum {
        return Err("check does not match".into());
    }
    let (body, theirs) = body.rsplit_once(' ').ok_or("no journal")?;
    if theirs != tag {
        return Err(Unusable::Foreign(format!("written under journal {theirs}, this one is {tag}")));
    }
    let (position, count) = body.split_once(' ').ok_or("no count")?;
    let position: usize = position.parse().map_err(|_| "bad position")?;
    let count: u128 = count.parse().map_err(|_| "bad count")?;
    if position >= positions {
        return Err(format!("no position {position} in this unit of {positions}").into());
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
        text = text.replacen("\n3 300 ", "\n3 301 ", 1);
        let body = format!("12 7 {}", journal_tag(&id.header()));
        text.push_str(&format!("{body} {}\n9 90", check(&body)));
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

    #[test]
    fn records_of_another_unit_are_dropped_and_a_journal_of_them_set_aside() {
        let dir = tempfile::tempdir().unwrap();
        let id = |index| JournalId {
            plan: Checksum::of(b"plan"),
            unit: Checksum::of(format!("unit {index}").as_bytes()),
            index: UnitIndex(index),
            keys: Keys::PRIMARY,
            depth: 3,
        };
        let (zero, one) =
            (dir.path().join("unit-000000.k1.journal"), dir.path().join("unit-000001.k1.journal"));
        let journal = UnitJournal::open(&zero, &id(0), 10).unwrap();
        journal.record(0, 100).unwrap();
        drop(journal);
        let journal = UnitJournal::open(&one, &id(1), 10).unwrap();
        for position in 1..4 {
            journal.record(position, 1000 + position as u128).unwrap();
        }
        drop(journal);
        let theirs: String =
            std::fs::read_to_string(&one).unwrap().lines().skip(1).map(|l| format!("{l}\n")).collect();
        let ours = std::fs::read_to_string(&zero).unwrap();
        std::fs::write(&zero, format!("{ours}{theirs}")).unwrap();
        assert_eq!(journaled_positions(&zero, 10), 1);
        let journal = UnitJournal::open(&zero, &id(0), 10).unwrap();
        assert_eq!(journal.done.iter().map(|(&p, &n)| (p, n)).collect::<Vec<_>>(), vec![(0, 100)]);
        assert_eq!(journal.notes.len(), 3, "{:?}", journal.notes);
        assert!(
            journal.notes.iter().all(|n| n.contains("a record of another journal")),
            "{:?}",
            journal.notes
        );
        drop(journal);
        // Unit 1's records alone under unit 0's header: set aside, never summed.
        let header = ours.lines().next().unwrap();
        std::fs::write(&zero, format!("{header}\n{theirs}")).unwrap();
        let journal = UnitJournal::open(&zero, &id(0), 10).unwrap();
        assert!(journal.done.is_empty(), "{:?}", journal.done);
        assert!(
            journal.notes[0].contains("holds only records of other journals (3 of them)"),
            "{:?}",
            journal.notes
        );
        assert!(zero.with_extension("journal.old").exists());
    }
}
