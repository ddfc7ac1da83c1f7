//! Checkpoint journals: a long count split into subtrees, each finished
//! subtree appended (and flushed) as one line, so a crashed, killed or
//! interrupted run can resume where it stopped with the same total.
//!
//! ```text
//! perft-journal 2
//! fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
//! depth 8
//! mode bulk
//! split 2
//! tasks 400
//! header 5c1a0b2e9f3d4477
//! 17 5c1a0b2e9f3d4477 b1c3 g8f6 96432181 3a0e...
//! ```
//!
//! Each record is `index run moves... count checksum`: `run` the journal's
//! identity (the `header` checksum, an FNV-1a hash of the lines above it:
//! position, depth, mode, split, subtrees), the checksum an FNV-1a hash of
//! the rest of the line. A journal whose header does not match the run
//! asked for is refused as foreign, one whose header is damaged as
//! corrupt. A record that does not parse or check (a flipped bit, an edit)
//! is skipped with a note, and its subtree is counted again; so is an
//! unterminated last line, what a kill during a write leaves, and a record
//! of another run (appended from another journal): a journal whose records
//! all belong to other runs is refused, never summed. Line endings may be
//! LF or CRLF.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rayon::prelude::*;

use crate::board::Board;
use crate::counting::{perft_with, CountOptions, Mode};
use crate::movegen::MoveList;
use crate::types::Move;

const MAGIC: &str = "perft-journal 2";
/// What journals of earlier builds begin with: records that do not name
/// their run.
const OLD_MAGIC: &str = "perft-journal 1";
/// The split aims for at least this many subtrees.
const MIN_TASKS: usize = 256;

/// One record line (without its line ending) of the run whose identity is
/// `run`: the subtree index and its count, or why it cannot be trusted.
fn read_record(line: &str, run: &str, tasks: &[Vec<Move>], board: &Board) -> Result<(usize, u128), Unusable> {
    let (body, sum) = line.rsplit_once(' ').ok_or("no checksum")?;
    if sum != format!("{:016x}", fnv1a(body)) {
        return Err("checksum does not match".into());
    }
    let (index, body) = body.split_once(' ').ok_or("no run")?;
    let (theirs, body) = body.split_once(' ').ok_or("no run")?;
    if theirs != run {
        return Err(Unusable::Foreign(format!("written for run {theirs}, this run is {run}")));
    }
    let words: Vec<&str> = std::iter::once(index).chain(body.split(' ')).collect();
    let index: usize = words[0].parse().map_err(|_| "bad subtree index")?;
    let count: u128 = words.last().and_then(|c| c.parse().ok()).ok_or("bad count")?;
    let task = tasks.get(index).ok_or_else(|| format!("no subtree {index}"))?;
    let moves: Vec<String> = task.iter().map(|&m| m.uci(board.is_chess960()).to_string()).collect();
    if words.len() != moves.len() + 2
        || words[1..words.len() - 1] != moves.iter().map(String::as_str).collect::<Vec<_>>()[..]
    {
        return Err(format!("subtree {index} is not {}", moves.join(" ")).into());
    }
    Ok((index, count))
}

/// FNV-1a, 64 bits: a checksum against torn or edited lines.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// Why a journal record is not used.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Unusable {
    /// It does not parse or check: torn, flipped or edited.
    Damaged(String),
    /// It checks, but was written for another run or unit (appended from
    /// another journal): what it names, against this journal's identity.
    Foreign(String),
}

impl From<&str> for Unusable {
    fn from(reason: &str) -> Unusable {
        Unusable::Damaged(reason.into())
    }
}

impl From<String> for Unusable {
    fn from(reason: String) -> Unusable {
        Unusable::Damaged(reason)
    }
}

/// The usable records of a journal.
pub(crate) struct Records<'t> {
    /// Count by item (subtree or position).
    pub(crate) done: BTreeMap<usize, u128>,
    /// The line of each item kept, to rewrite the journal without the
    /// records it cannot use.
    pub(crate) kept: BTreeMap<usize, &'t str>,
    /// One note per record dropped.
    pub(crate) notes: Vec<String>,
    /// Records that check but belong to another journal's run.
    pub(crate) foreign: usize,
}

impl Records<'_> {
    /// Whether every record that checks belongs to another run (and there
    /// is at least one): such a journal is refused, never summed.
    pub(crate) fn all_foreign(&self) -> bool {
        self.foreign > 0 && self.done.is_empty()
    }

    /// The journal rewritten: `header` (whole lines, each ending in a line
    /// break) and then the kept records, one per line.
    pub(crate) fn rewritten(&self, header: &str) -> String {
        let mut text = header.to_string();
        for line in self.kept.values() {
            text.push_str(line);
            text.push('\n');
        }
        text
    }
}

/// Reads the records of a journal: `lines` (with their line endings) are
/// numbered from `first_line`, and `parse` turns one (without its ending)
/// into an item and its count, or says why it cannot be trusted. An
/// unterminated last line (what a kill during a write leaves) and damaged
/// records are dropped, and so are both records of an item recorded twice
/// with different counts; each drop gets a note naming its line and the
/// `item` word ("subtree", "position").
pub(crate) fn read_records<'t>(
    lines: &[&'t str],
    first_line: usize,
    item: &str,
    parse: impl Fn(&str) -> Result<(usize, u128), Unusable>,
) -> Records<'t> {
    let mut records = Records { done: BTreeMap::new(), kept: BTreeMap::new(), notes: Vec::new(), foreign: 0 };
    let mut conflicting = Vec::new();
    for (number, raw) in (first_line..).zip(lines) {
        if !raw.ends_with('\n') {
            records.notes.push(format!(
                "journal line {number}: incomplete last record dropped (cut off when the run stopped); \
                 its {item} is counted again"
            ));
            break;
        }
        let line = raw.trim_end();
        match parse(line) {
            Ok((index, count)) => match records.done.get(&index) {
                Some(&earlier) if earlier != count => {
                    records.notes.push(format!(
                        "journal line {number}: {item} {index} recorded twice with different counts \
                         ({earlier} and {count}); it is counted again"
                    ));
                    conflicting.push(index);
                }
                Some(_) => {}
                None => {
                    records.done.insert(index, count);
                    records.kept.insert(index, line);
                }
            },
            Err(Unusable::Damaged(reason)) => records.notes.push(format!(
                "journal line {number}: damaged record skipped ({reason}); its {item} is counted again"
            )),
            Err(Unusable::Foreign(reason)) => {
                records.foreign += 1;
                records.notes.push(format!(
                    "journal line {number}: a record of another journal dropped ({reason}); its {item} is \
                     counted again"
                ));
            }
        }
    }
    for index in conflicting {
        records.done.remove(&index);
        records.kept.remove(&index);
    }
    records
}

/// What a journal is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JournalHeader {
    /// The position counted.
    pub fen: String,
    /// Depth of the count.
    pub depth: u32,
    /// Bulk or full.
    pub mode: Mode,
    /// Plies of the subtree paths.
    pub split: u32,
    /// Number of subtrees.
    pub tasks: usize,
}

impl JournalHeader {
    fn lines(&self) -> String {
        format!(
            "{MAGIC}\nfen {}\ndepth {}\nmode {}\nsplit {}\ntasks {}\n",
            self.fen,
            self.depth,
            self.mode.name(),
            self.split,
            self.tasks
        )
    }
}

/// Why a journal cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    /// Reading or writing failed (the I/O error is the source).
    #[error("journal {}", path.display())]
    Io {
        /// The journal.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// `--checkpoint` would overwrite an existing journal.
    #[error("journal {0} already exists; resume it with --resume, or remove it")]
    Exists(PathBuf),
    /// Not a journal of this run.
    #[error("journal {path} is for another run ({what}); refusing to resume from it")]
    Foreign {
        /// The journal.
        path: PathBuf,
        /// What differs.
        what: String,
    },
    /// A record or the header is damaged.
    #[error("journal {path} is corrupt at line {line}: {reason}")]
    Corrupt {
        /// The journal.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        reason: String,
    },
}

/// The subtrees of a count: every path of `split` plies from the root, in
/// generation order, with `split` the smallest number of plies (at most
/// `depth - 1`) that gives at least 256 subtrees. Depends only on the
/// position and the depth, so a resumed run splits the same way whatever
/// its thread count.
pub fn plan_tasks(board: &Board, depth: u32) -> (u32, Vec<Vec<Move>>) {
    let mut split = 1;
    loop {
        let mut tasks = Vec::new();
        collect(&mut board.fork(), split, &mut Vec::new(), &mut tasks);
        if tasks.len() >= MIN_TASKS || split + 1 >= depth {
            return (split, tasks);
        }
        split += 1;
    }
}

fn collect(board: &mut Board, plies: u32, path: &mut Vec<Move>, out: &mut Vec<Vec<Move>>) {
    if plies == 0 {
        out.push(path.clone());
        return;
    }
    let mut moves = MoveList::new();
    board.generate_moves(&mut moves);
    if moves.is_empty() {
        // A mate or stalemate before the split: a subtree of its own (its
        // count is zero at any depth below).
        out.push(path.clone());
        return;
    }
    for &mv in &moves {
        path.push(mv);
        board.make(mv);
        collect(board, plies - 1, path, out);
        board.unmake();
        path.pop();
    }
}

/// A journal reopened to resume.
pub struct Resumed {
    /// The journal, open for appending.
    pub journal: Journal,
    /// The finished subtrees: count by subtree index.
    pub done: BTreeMap<usize, u128>,
    /// What was skipped (damaged or incomplete records, whose subtrees are
    /// counted again), one note per record.
    pub notes: Vec<String>,
}

/// An open journal, appended to by any thread.
pub struct Journal {
    path: PathBuf,
    file: Mutex<File>,
    /// The run's identity, written into every record.
    run: String,
}

impl Journal {
    /// Starts a new journal; refuses to overwrite one.
    ///
    /// # Errors
    /// [`JournalError::Exists`] or an I/O error.
    pub fn create(path: &Path, header: &JournalHeader) -> Result<Journal, JournalError> {
        let io = |source| JournalError::Io { path: path.to_path_buf(), source };
        let mut file = OpenOptions::new().write(true).create_new(true).open(path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::AlreadyExists {
                JournalError::Exists(path.to_path_buf())
            } else {
                io(e)
            }
        })?;
        let lines = header.lines();
        let run = format!("{:016x}", fnv1a(&lines));
        writeln!(file, "{lines}header {run}").map_err(io)?;
        file.sync_all().map_err(io)?;
        Ok(Journal { path: path.to_path_buf(), file: Mutex::new(file), run })
    }

    /// Opens a journal to resume it: checks that it belongs to `expected`
    /// (the header must match) and returns the finished subtrees by index,
    /// with a note for each record skipped.
    ///
    /// # Errors
    /// [`JournalError::Foreign`], [`JournalError::Corrupt`] (a damaged
    /// header) or an I/O error.
    pub fn resume(
        path: &Path,
        expected: &JournalHeader,
        tasks: &[Vec<Move>],
        board: &Board,
    ) -> Result<Resumed, JournalError> {
        let io = |source| JournalError::Io { path: path.to_path_buf(), source };
        let corrupt =
            |line: usize, reason: String| JournalError::Corrupt { path: path.to_path_buf(), line, reason };
        // A journal is never larger than its tasks' records; 4 GiB is far past any.
        let bytes = crate::report::read::read_existing(path, 4 << 30).map_err(io)?;
        let text = String::from_utf8(bytes).map_err(|_| corrupt(0, "not text".into()))?;
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        let header_len = 7;
        if lines.first().is_some_and(|line| line.trim_end() == OLD_MAGIC) {
            return Err(JournalError::Foreign {
                path: path.to_path_buf(),
                what: "written by an earlier perft, whose records do not name their run; start a new one"
                    .into(),
            });
        }
        if lines.len() < header_len || lines[0].trim_end() != MAGIC {
            return Err(JournalError::Foreign {
                path: path.to_path_buf(),
                what: "not a perft journal".into(),
            });
        }
        // CRLF journals (converted by an editor or a transfer) read alike.
        let header_text: String = lines[..header_len - 1]
            .iter()
            .map(|l| format!("{}\n", l.trim_end_matches(['\r', '\n'])))
            .collect();
        let checksum = lines[header_len - 1].trim_end().strip_prefix("header ").unwrap_or("");
        let run = format!("{:016x}", fnv1a(&header_text));
        if checksum != run || !lines[header_len - 1].ends_with('\n') {
            return Err(corrupt(header_len, "header checksum does not match".into()));
        }
        let expected_lines = expected.lines();
        if header_text != expected_lines {
            let what = header_text
                .lines()
                .zip(expected_lines.lines())
                .find(|(a, b)| a != b)
                .map(|(a, b)| format!("journal has `{a}`, this run `{b}`"))
                .unwrap_or_else(|| "header differs".into());
            return Err(JournalError::Foreign { path: path.to_path_buf(), what });
        }
        let records = read_records(&lines[header_len..], header_len + 1, "subtree", |line| {
            read_record(line, &run, tasks, board)
        });
        if records.all_foreign() {
            return Err(JournalError::Foreign {
                path: path.to_path_buf(),
                what: format!(
                    "its header is this run's, but none of its records is: {} written for other runs",
                    if records.foreign == 1 {
                        "1 was".to_string()
                    } else {
                        format!("{} were", records.foreign)
                    }
                ),
            });
        }
        if !records.notes.is_empty() {
            // Rewrite it with the usable records only (atomically), so the
            // next resume does not meet the same damage again.
            let header = format!("{header_text}header {run}\n");
            crate::report::write_atomic(path, records.rewritten(&header).as_bytes()).map_err(io)?;
        }
        let Records { done, notes, .. } = records;
        let file = OpenOptions::new().append(true).open(path).map_err(io)?;
        Ok(Resumed {
            journal: Journal { path: path.to_path_buf(), file: Mutex::new(file), run },
            done,
            notes,
        })
    }

    /// Appends one finished subtree (its index, its path from the root,
    /// castling written for Chess960 if `chess960`, its count) and flushes
    /// it to the operating system.
    ///
    /// # Errors
    /// An I/O error.
    pub fn record(
        &self,
        index: usize,
        path: &[Move],
        chess960: bool,
        count: u128,
    ) -> Result<(), JournalError> {
        let mut body = format!("{index} {}", self.run);
        for mv in path {
            body.push_str(&format!(" {}", mv.uci(chess960)));
        }
        body.push_str(&format!(" {count}"));
        let line = format!("{body} {:016x}\n", fnv1a(&body));
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        file.write_all(line.as_bytes()).map_err(|source| JournalError::Io { path: self.path.clone(), source })
    }
}

/// Root moves with their counts; `None` for a move with a subtree cut
/// short by the stop flag.
pub type Divide = Vec<(Move, Option<u128>)>;

/// Runs `count(i)` for every item `i` in `0..items` not already in `done`
/// (whose counts are taken from there) on the current rayon pool. `count`
/// gives `None` for an item cut short by a stop flag.
///
/// # Errors
/// The first error `count` returned; items not yet started then are not
/// started (their counts could not be kept).
pub fn count_resumable<E: Send>(
    items: usize,
    done: &BTreeMap<usize, u128>,
    count: impl Fn(usize) -> Result<Option<u128>, E> + Sync,
) -> Result<Vec<Option<u128>>, E> {
    (0..items)
        .into_par_iter()
        .map(|i| match done.get(&i) {
            Some(&n) => Ok(Some(n)),
            None => count(i),
        })
        .collect()
}

/// Counts `board` to `depth` subtree by subtree on the current rayon pool:
/// `tasks` as [`plan_tasks`] makes them, those in `done` taken from there,
/// each other one counted with `search`, recorded in `journal` (if any) as
/// soon as it finishes, and passed to `finished` (task index and count,
/// from any worker thread). Returns the root divide.
///
/// # Errors
/// The first journal write that failed; subtrees not yet started then are
/// not started (their counts could not be kept).
pub fn count_journaled(
    board: &Board,
    depth: u32,
    search: &CountOptions,
    tasks: &[Vec<Move>],
    journal: Option<&Journal>,
    done: &BTreeMap<usize, u128>,
    finished: &(dyn Fn(usize, u128) + Sync),
) -> Result<Divide, JournalError> {
    let counts = count_resumable(tasks.len(), done, |i| {
        let path = &tasks[i];
        let mut child = board.fork();
        for &mv in path {
            child.make(mv);
        }
        let Some(n) = perft_with(&child, depth - path.len() as u32, search) else { return Ok(None) };
        if let Some(journal) = journal {
            journal.record(i, path, board.is_chess960(), n)?;
        }
        finished(i, n);
        Ok(Some(n))
    })?;
    // Subtrees are in root-move order: sum them per root move.
    let mut divide: Divide = Vec::new();
    for (path, n) in tasks.iter().zip(counts) {
        let Some(&first) = path.first() else { continue };
        match divide.last_mut() {
            Some((mv, total)) if *mv == first => *total = total.zip(n).map(|(a, b)| a + b),
            _ => divide.push((first, n)),
        }
    }
    Ok(divide)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resumable_counts_take_done_items_and_stop_at_an_error() {
        let done = BTreeMap::from([(1, 7u128), (3, 9)]);
        let asked = Mutex::new(Vec::new());
        let counts = count_resumable(5, &done, |i| -> Result<_, String> {
            asked.lock().unwrap().push(i);
            Ok((i != 4).then_some(i as u128 * 100))
        });
        assert_eq!(counts, Ok(vec![Some(0), Some(7), Some(200), Some(9), None]));
        let mut asked = asked.into_inner().unwrap();
        asked.sort_unstable();
        assert_eq!(asked, [0, 2, 4]);
        let failed = count_resumable(64, &BTreeMap::new(), |i| if i == 5 { Err(i) } else { Ok(Some(1)) });
        assert_eq!(failed, Err(5));
    }

    #[test]
    fn split_is_deterministic_and_covers_the_tree() {
        let board = Board::startpos();
        let (split, tasks) = plan_tasks(&board, 8);
        assert_eq!((split, tasks.len()), (2, 400));
        let (split, tasks) = plan_tasks(&board, 2);
        assert_eq!((split, tasks.len()), (1, 20));
        let total: u128 = tasks
            .iter()
            .map(|path| {
                let mut b = board.fork();
                for &m in path {
                    b.make(m);
                }
                crate::counting::perft(&mut b, 1, Mode::Bulk)
            })
            .sum();
        assert_eq!(total, 400);
    }

    #[test]
    fn journal_round_trip_and_damage() {
        let dir = std::env::temp_dir().join(format!("perft-journal-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("j.txt");
        let _ = std::fs::remove_file(&path);
        let board = Board::startpos();
        let (split, tasks) = plan_tasks(&board, 4);
        let header =
            JournalHeader { fen: board.fen(), depth: 4, mode: Mode::Bulk, split, tasks: tasks.len() };
        let journal = Journal::create(&path, &header).unwrap();
        journal.record(0, &tasks[0], false, 380).unwrap();
        journal.record(5, &tasks[5], false, 420).unwrap();
        drop(journal);
        assert!(matches!(Journal::create(&path, &header), Err(JournalError::Exists(_))));
        let resumed = Journal::resume(&path, &header, &tasks, &board).unwrap();
        assert_eq!(resumed.done.into_iter().collect::<Vec<_>>(), vec![(0, 380), (5, 420)]);
        assert!(resumed.notes.is_empty());
        // An incomplete last line is dropped with a note.
        std::fs::OpenOptions::new().append(true).open(&path).unwrap().write_all(b"7 c2c3 4").unwrap();
        let resumed = Journal::resume(&path, &header, &tasks, &board).unwrap();
        assert_eq!(resumed.done.len(), 2);
        assert_eq!(resumed.notes.len(), 1, "{:?}", resumed.notes);
        resumed.journal.record(7, &tasks[7], false, 420).unwrap();
        drop(resumed);
        assert_eq!(Journal::resume(&path, &header, &tasks, &board).unwrap().done.len(), 3);
        // CRLF line endings read alike.
        let lf = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, lf.replace('\n', "\r\n")).unwrap();
        let resumed = Journal::resume(&path, &header, &tasks, &board).unwrap();
        assert_eq!((resumed.done.len(), resumed.notes.len()), (3, 0));
        drop(resumed);
        std::fs::write(&path, &lf).unwrap();
        // Another depth: foreign.
        let other = JournalHeader { depth: 5, ..header.clone() };
        assert!(matches!(Journal::resume(&path, &other, &tasks, &board), Err(JournalError::Foreign { .. })));
        // An edited count, or one flipped bit: that record is skipped (and
        // counted again), the others kept.
        let edited = lf.replacen(" 380 ", " 381 ", 1);
        std::fs::write(&path, &edited).unwrap();
        let resumed = Journal::resume(&path, &header, &tasks, &board).unwrap();
        assert_eq!(resumed.done.keys().copied().collect::<Vec<_>>(), vec![5, 7]);
        assert!(
            resumed.notes[0].contains("line 8") && resumed.notes[0].contains("checksum"),
            "{:?}",
            resumed.notes
        );
        drop(resumed);
        // The journal was rewritten without it: the next resume meets no
        // damage (and recounts nothing twice).
        let resumed = Journal::resume(&path, &header, &tasks, &board).unwrap();
        assert_eq!((resumed.done.len(), resumed.notes.len()), (2, 0));
        drop(resumed);
        // Two different counts for one subtree: both dropped, once.
        let first_record = lf.lines().nth(7).unwrap().rsplit_once(' ').unwrap().0;
        let other = format!("{} 381", first_record.rsplit_once(' ').unwrap().0);
        std::fs::write(&path, format!("{lf}{other} {:016x}\n", fnv1a(&other))).unwrap();
        let resumed = Journal::resume(&path, &header, &tasks, &board).unwrap();
        assert_eq!(resumed.done.keys().copied().collect::<Vec<_>>(), vec![5, 7]);
        assert!(resumed.notes[0].contains("recorded twice"), "{:?}", resumed.notes);
        drop(resumed);
        assert!(Journal::resume(&path, &header, &tasks, &board).unwrap().notes.is_empty());
        let mut bytes = lf.clone().into_bytes();
        let last_record = lf.trim_end().rfind('\n').unwrap() + 3;
        bytes[last_record] ^= 0x04;
        std::fs::write(&path, &bytes).unwrap();
        let resumed = Journal::resume(&path, &header, &tasks, &board).unwrap();
        assert_eq!(resumed.done.keys().copied().collect::<Vec<_>>(), vec![0, 5]);
        assert_eq!(resumed.notes.len(), 1);
        drop(resumed);
        // A damaged header: refused as corrupt.
        std::fs::write(&path, lf.replacen("depth 4", "depth 5", 1)).unwrap();
        assert!(matches!(Journal::resume(&path, &header, &tasks, &board), Err(JournalError::Corrupt { .. })));
        std::fs::write(&path, "something else\n").unwrap();
        assert!(matches!(Journal::resume(&path, &header, &tasks, &board), Err(JournalError::Foreign { .. })));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn records_of_another_run_are_dropped_and_a_journal_of_them_refused() {
        let dir = tempfile::tempdir().unwrap();
        let board = Board::startpos();
        let (split, tasks) = plan_tasks(&board, 6);
        assert_eq!(plan_tasks(&board, 5).1, tasks, "depths 5 and 6 split alike");
        let header =
            |depth| JournalHeader { fen: board.fen(), depth, mode: Mode::Bulk, split, tasks: tasks.len() };
        let (six, five) = (dir.path().join("six"), dir.path().join("five"));
        let journal = Journal::create(&six, &header(6)).unwrap();
        journal.record(1, &tasks[1], false, 9_000_000).unwrap();
        drop(journal);
        let journal = Journal::create(&five, &header(5)).unwrap();
        for (i, task) in tasks.iter().enumerate().take(3) {
            journal.record(i, task, false, 200_000 + i as u128).unwrap();
        }
        drop(journal);
        // Depth 5's records appended to depth 6's journal: dropped, each
        // with a note, and counted again; depth 6's own record kept.
        let records: String =
            std::fs::read_to_string(&five).unwrap().lines().skip(7).map(|l| format!("{l}\n")).collect();
        let mixed = format!("{}{records}", std::fs::read_to_string(&six).unwrap());
        std::fs::write(&six, &mixed).unwrap();
        let resumed = Journal::resume(&six, &header(6), &tasks, &board).unwrap();
        assert_eq!(resumed.done.into_iter().collect::<Vec<_>>(), vec![(1, 9_000_000)]);
        assert_eq!(resumed.notes.len(), 3, "{:?}", resumed.notes);
        assert!(
            resumed.notes.iter().all(|n| n.contains("a record of another journal")),
            "{:?}",
            resumed.notes
        );
        // Only depth 5's records under depth 6's header: refused.
        let header_six: String = mixed.lines().take(7).map(|l| format!("{l}\n")).collect();
        std::fs::write(&six, format!("{header_six}{records}")).unwrap();
        match Journal::resume(&six, &header(6), &tasks, &board) {
            Err(JournalError::Foreign { what, .. }) => {
                assert!(what.contains("3 were written for other runs"), "{what}")
            }
            other => panic!("{:?}", other.map(|r| r.done)),
        }
        // A journal of the format before records named their run.
        std::fs::write(&six, mixed.replacen("perft-journal 2", "perft-journal 1", 1)).unwrap();
        match Journal::resume(&six, &header(6), &tasks, &board) {
            Err(JournalError::Foreign { what, .. }) => assert!(what.contains("earlier perft"), "{what}"),
            other => panic!("{:?}", other.map(|r| r.done)),
        }
    }
}
