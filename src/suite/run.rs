//! Running suites: every position at every depth it lists, in parallel.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use rayon::prelude::*;

use crate::board::{Board, CastlingMode, FenOptions};
use crate::counting::{divide_with_progress, perft_with, CountOptions, KeySet, Mode, PerftTable};
use crate::report::{DivideEntry, SkipReason, SkippedCheck, SuiteError, SuiteResult, SuiteSummary};
pub use perft_harness::check::PlannedCheck;
use perft_harness::suite::{parse_suite, ParsedSuite, SuiteEntry, MAX_LISTED_ERRORS};

/// Largest suite file read, in bytes.
pub const MAX_SUITE_FILE_BYTES: u64 = 512 * 1024 * 1024;

/// Why a suite file could not be read.
#[derive(Clone, Debug, thiserror::Error)]
pub enum SuiteFileError {
    /// Opening or reading it failed.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// What failed (shared, so the error can be cloned with its file).
        source: std::sync::Arc<std::io::Error>,
    },
    /// A directory was named.
    #[error("{} is a directory, not a suite file", .0.display())]
    Directory(std::path::PathBuf),
    /// Larger than [`MAX_SUITE_FILE_BYTES`].
    #[error("{} is too large ({bytes} bytes)", path.display())]
    TooLarge {
        /// The file.
        path: std::path::PathBuf,
        /// Its size.
        bytes: u64,
    },
}

/// Reads and parses a suite file.
///
/// # Errors
/// [`SuiteFileError`] for a missing, unreadable, oversized or non-regular
/// file.
pub fn load_suite_file(path: &Path) -> Result<ParsedSuite, SuiteFileError> {
    let io = |source| SuiteFileError::Io { path: path.to_path_buf(), source: std::sync::Arc::new(source) };
    let metadata = std::fs::metadata(path).map_err(io)?;
    if metadata.is_dir() {
        return Err(SuiteFileError::Directory(path.to_path_buf()));
    }
    if metadata.len() > MAX_SUITE_FILE_BYTES {
        return Err(SuiteFileError::TooLarge { path: path.to_path_buf(), bytes: metadata.len() });
    }
    let bytes = crate::report::read::read_existing(path, MAX_SUITE_FILE_BYTES).map_err(io)?;
    Ok(parse_suite(&bytes))
}

/// At most this many lines per file are named in the note on positions
/// counted although impossible; the others are counted in it.
const MAX_IMPOSSIBLE_NOTES: usize = 10;

/// The one note of a file on its positions impossible in a real game but
/// counted (`impossible`: lines and why): one such position by its line,
/// several in one line, by why, so that they do not bury what follows.
fn impossible_note(file: &str, impossible: &[(usize, String)]) -> Option<SuiteError> {
    let note = |line: usize, message: String| Some(SuiteError { file: file.to_string(), line, message });
    match impossible {
        [] => None,
        [(line, why)] => {
            note(*line, format!("impossible in a real game, counted anyway (--strict refuses it): {why}"))
        }
        _ => {
            let mut groups: Vec<(&str, Vec<String>)> = Vec::new();
            for (line, why) in impossible.iter().take(MAX_IMPOSSIBLE_NOTES) {
                let why = why
                    .trim_start_matches("illegal position: ")
                    .trim_end_matches(" (accepted in relaxed mode)");
                match groups.iter_mut().find(|(w, _)| *w == why) {
                    Some((_, lines)) => lines.push(line.to_string()),
                    None => groups.push((why, vec![line.to_string()])),
                }
            }
            let listed: Vec<String> =
                groups.iter().map(|(why, lines)| format!("{} ({why})", lines.join(", "))).collect();
            let more = impossible.len().saturating_sub(MAX_IMPOSSIBLE_NOTES);
            let more = if more > 0 { format!("; and {more} more") } else { String::new() };
            note(
                0,
                format!(
                    "{} positions impossible in a real game, counted anyway (--strict refuses them): lines {}{more}",
                    impossible.len(),
                    listed.join("; ")
                ),
            )
        }
    }
}

/// How a suite is run (by default: detected castling, impossible positions
/// counted with a note, no limits, bulk counting).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SuiteOptions {
    /// Castling notation of the positions (detected by default).
    pub castling: CastlingMode,
    /// Accept impossible-but-playable positions without a note.
    pub relaxed: bool,
    /// Refuse impossible-but-playable positions (by default they are
    /// counted, with a note saying why they are impossible).
    pub strict: bool,
    /// Skip depths above this.
    pub max_depth: Option<u32>,
    /// Skip checks expecting more nodes than this.
    pub max_nodes: Option<u128>,
    /// Stop starting new checks after the first mismatch.
    pub fail_fast: bool,
    /// Skip Chess960 positions (their checks count as skipped).
    pub skip_chess960: bool,
    /// Skip depth-0 counts (their checks count as skipped): for engines,
    /// which read `go perft 0` in different ways (Stockfish starts a
    /// search); perft(0) is 1 by definition.
    pub skip_depth_zero: bool,
    /// Bulk or full counting.
    pub mode: Mode,
    /// Also check every position at this depth where it lists no count;
    /// such a check has no expected count (`None`): a run takes its own
    /// count as the reference, as `perft check --depth` does for an engine.
    pub extra_depth: Option<u32>,
}

impl SuiteOptions {
    /// Why a count of a position (Chess960 or not) at `depth`, expecting
    /// `expected` nodes, is skipped; `None` if it runs.
    fn skip_reason(&self, chess960: bool, depth: u32, expected: Option<u128>) -> Option<SkipReason> {
        if self.skip_chess960 && chess960 {
            return Some(SkipReason::Chess960);
        }
        if self.skip_depth_zero && depth == 0 {
            return Some(SkipReason::DepthZero);
        }
        if let Some(max) = self.max_depth.filter(|&max| depth > max) {
            return Some(SkipReason::MaxDepth(max));
        }
        self.max_nodes.filter(|&max| expected.is_some_and(|n| n > max)).map(SkipReason::MaxNodes)
    }
}

/// The options a report records (the mode and the extra depth are
/// recorded elsewhere).
impl From<&SuiteOptions> for crate::report::SuiteSettings {
    fn from(options: &SuiteOptions) -> Self {
        crate::report::SuiteSettings {
            max_depth: options.max_depth,
            max_nodes: options.max_nodes,
            relaxed: options.relaxed,
            strict: options.strict,
            chess960: options.castling == CastlingMode::Chess960,
            fail_fast: options.fail_fast,
            skip_chess960: options.skip_chess960,
        }
    }
}

/// A suite file to run, by the name reports use for it.
#[derive(Clone, Debug)]
pub struct SuiteFile {
    /// Name in reports (usually the path as given).
    pub name: String,
    /// Its content, or why it could not be read.
    pub content: Result<ParsedSuite, SuiteFileError>,
}

/// The checks a run will make, before it starts.
pub struct SuitePlan {
    checks: Vec<PlannedCheck>,
    /// Checks to run per position, indexed by `Check::position`.
    checks_per_position: Vec<usize>,
    errors: Vec<SuiteError>,
    /// Unusable lines and files per file, listed or not.
    error_counts: BTreeMap<String, usize>,
    /// Things worth saying that are not errors (an unknown EPD operation),
    /// at most one per file.
    warnings: Vec<SuiteError>,
    positions: usize,
    skipped: usize,
    /// Checks skipped because their position is Chess960.
    skipped_chess960: usize,
    skipped_depth_zero: usize,
    /// Every count skipped, and why.
    skipped_checks: Vec<SkippedCheck>,
    options: SuiteOptions,
}

/// Totals so far, passed to the progress callback after each check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SuiteProgress {
    /// Checks finished.
    pub checks_done: usize,
    /// Positions whose checks have all finished.
    pub positions_done: usize,
    /// Leaf nodes counted so far.
    pub nodes_done: u128,
}

/// What a finished run found.
#[derive(Clone, Debug)]
pub struct SuiteOutcome {
    /// Every check run, in file, line and depth order.
    pub results: Vec<SuiteResult>,
    /// Unusable files and lines (see [`SuitePlan::errors`]).
    pub errors: Vec<SuiteError>,
    /// Number of unusable lines per file, listed or not.
    pub error_counts: BTreeMap<String, usize>,
    /// Totals.
    pub summary: SuiteSummary,
    /// Whether `fail_fast` stopped the run early.
    pub stopped_early: bool,
    /// Whether the caller's stop flag cut the run short; checks cut short
    /// are left out of `results` and counted as skipped.
    pub interrupted: bool,
    /// Every count skipped (by the options, or not run), and why.
    pub skipped: Vec<SkippedCheck>,
}

impl SuitePlan {
    /// Reads every position with `options`, recording unusable lines as
    /// errors and the depths the limits exclude as skipped.
    pub fn new(files: Vec<SuiteFile>, options: SuiteOptions) -> Self {
        let fen_options = FenOptions { castling: options.castling, relaxed: options.relaxed };
        let mut plan = SuitePlan {
            checks: Vec::new(),
            checks_per_position: Vec::new(),
            errors: Vec::new(),
            error_counts: BTreeMap::new(),
            warnings: Vec::new(),
            positions: 0,
            skipped: 0,
            skipped_chess960: 0,
            skipped_depth_zero: 0,
            skipped_checks: Vec::new(),
            options,
        };
        for (index, file) in files.into_iter().enumerate() {
            let first_error = plan.errors.len();
            let name = file.name.clone();
            let unlisted = plan.add_file(index, file, fen_options);
            let file_errors = &mut plan.errors[first_error..];
            file_errors.sort_by_key(|e| e.line);
            let listed = file_errors.len().min(MAX_LISTED_ERRORS);
            let unlisted = unlisted + (file_errors.len() - listed);
            if listed + unlisted > 0 {
                *plan.error_counts.entry(name.clone()).or_default() += listed + unlisted;
            }
            plan.errors.truncate(first_error + listed);
            if unlisted > 0 {
                plan.errors.push(SuiteError {
                    file: name,
                    line: 0,
                    message: format!("{unlisted} more unreadable lines, not listed (the first {listed} are)"),
                });
            }
        }
        plan
    }

    /// Adds a file's checks and errors; returns the number of its
    /// unreadable lines the parser counted without listing.
    fn add_file(&mut self, index: usize, file: SuiteFile, fen_options: FenOptions) -> usize {
        let parsed = match file.content {
            Ok(parsed) => parsed,
            Err(error) => {
                self.errors.push(SuiteError { file: file.name, line: 0, message: error.to_string() });
                return 0;
            }
        };
        self.note_file(&file.name, &parsed);
        let mut bad_positions = 0;
        let mut impossible = Vec::new();
        let mut unlisted = parsed.unlisted_errors;
        for entry in parsed.entries {
            let board = match self.read_position(&entry, fen_options, &mut impossible) {
                Ok(board) => board,
                Err(message) => {
                    // Kept only while they can be listed: a file of bad
                    // positions must not fill memory with messages.
                    bad_positions += 1;
                    if bad_positions <= MAX_LISTED_ERRORS {
                        self.errors.push(SuiteError { file: file.name.clone(), line: entry.line, message });
                    } else {
                        unlisted += 1;
                    }
                    continue;
                }
            };
            self.positions += 1;
            self.add_checks(index, &file.name, &entry, &board);
        }
        if let Some(note) = impossible_note(&file.name, &impossible) {
            self.warnings.push(note);
        }
        unlisted
    }

    /// The file's unreadable lines, its unknown operation, and the mistakes
    /// of a file as a whole: no positions, or positions without counts.
    fn note_file(&mut self, name: &str, parsed: &ParsedSuite) {
        let error = |line: usize, message: String| SuiteError { file: name.to_string(), line, message };
        if parsed.entries.is_empty() && parsed.errors.is_empty() {
            // An empty file (or comments only) is a mistake, not a pass.
            self.errors.push(error(0, "no positions in the file".into()));
        }
        for e in &parsed.errors {
            self.errors.push(error(e.line, e.message.clone()));
        }
        if let Some(warning) = &parsed.unknown_operation {
            self.warnings.push(error(warning.line, warning.message.clone()));
        }
        // Positions without a single count would pass silently with no
        // check at all: say so, and how to get counts.
        if self.options.extra_depth.is_none()
            && !parsed.entries.is_empty()
            && parsed.entries.iter().all(|e| e.counts.is_empty())
        {
            let count = parsed.entries.len();
            self.errors.push(error(
                0,
                format!("{count} positions but no perft counts (`;D1 20 ;D2 400`): `perft label --depth 4 {name}` writes them"),
            ));
        }
    }

    /// The entry's position; one impossible in a real game but playable
    /// (the published suites hold a few on purpose) is counted, its line and
    /// why added to `impossible` for the file's note, unless relaxed or
    /// strict options say otherwise.
    fn read_position(
        &self,
        entry: &SuiteEntry,
        fen_options: FenOptions,
        impossible: &mut Vec<(usize, String)>,
    ) -> Result<Board, String> {
        let strict = Board::from_fen_with(&entry.fen, fen_options);
        let e = match strict {
            Ok(board) => return Ok(board),
            Err(e) if fen_options.relaxed || self.options.strict => return Err(e.to_string()),
            Err(e) => e,
        };
        let relaxed = FenOptions { relaxed: true, ..fen_options };
        let board = Board::from_fen_with(&entry.fen, relaxed).map_err(|_| e.to_string())?;
        impossible.push((entry.line, e.to_string()));
        Ok(board)
    }

    /// The entry's counts (and the extra depth) as checks, or as skipped
    /// with their reason.
    fn add_checks(&mut self, index: usize, name: &str, entry: &SuiteEntry, board: &Board) {
        let options = self.options;
        let position = self.checks_per_position.len();
        let mut checks = 0;
        let mut counts: Vec<(u32, Option<u128>)> = entry.counts.iter().map(|&(d, n)| (d, Some(n))).collect();
        if let Some(depth) = options.extra_depth.filter(|&d| !entry.counts.iter().any(|&(e, _)| e == d)) {
            counts.push((depth, None));
        }
        for (depth, expected) in counts {
            if let Some(reason) = options.skip_reason(board.is_chess960(), depth, expected) {
                self.skipped += 1;
                self.skipped_chess960 += usize::from(reason == SkipReason::Chess960);
                self.skipped_depth_zero += usize::from(reason == SkipReason::DepthZero);
                let file = name.to_string();
                self.skipped_checks.push(SkippedCheck { file, line: entry.line, depth, reason });
                continue;
            }
            checks += 1;
            self.checks.push(PlannedCheck {
                position,
                file_index: index,
                file: name.to_string(),
                line: entry.line,
                id: entry.id.clone(),
                fen: entry.fen.clone(),
                board: board.clone(),
                depth,
                expected,
            });
        }
        if checks > 0 {
            self.checks_per_position.push(checks);
        }
    }

    /// Number of checks that will run.
    pub fn checks(&self) -> usize {
        self.checks.len()
    }

    /// The checks that will run, in file, line and depth order.
    pub fn planned(&self) -> &[PlannedCheck] {
        &self.checks
    }

    /// Positions read (with or without checks to run).
    pub fn positions(&self) -> usize {
        self.positions
    }

    /// Checks the limits exclude (Chess960 positions included, when
    /// skipped).
    pub fn skipped(&self) -> usize {
        self.skipped
    }

    /// Every count not run: those the options skipped, then the planned
    /// ones not among `ran` (file, line and depth of each count that ran),
    /// each with the reason `why` gives for its index in [`Self::planned`].
    pub fn skipped_besides<'r>(
        &self,
        ran: impl IntoIterator<Item = (&'r str, usize, u32)>,
        why: impl Fn(usize) -> SkipReason,
    ) -> Vec<SkippedCheck> {
        let ran: std::collections::HashSet<(&str, usize, u32)> = ran.into_iter().collect();
        let mut skipped = self.skipped_checks.clone();
        for (index, check) in self.checks.iter().enumerate() {
            if !ran.contains(&(check.file.as_str(), check.line, check.depth)) {
                let (file, line, depth) = (check.file.clone(), check.line, check.depth);
                skipped.push(SkippedCheck { file, line, depth, reason: why(index) });
            }
        }
        skipped
    }

    /// Checks skipped because their position is Chess960.
    pub fn skipped_chess960(&self) -> usize {
        self.skipped_chess960
    }

    /// Depth-0 checks skipped ([`SuiteOptions::skip_depth_zero`]).
    pub fn skipped_depth_zero(&self) -> usize {
        self.skipped_depth_zero
    }

    /// Unusable files and lines, in the order the files were given: at
    /// most [`MAX_LISTED_ERRORS`] per file, then one entry (line 0) saying
    /// how many more there are.
    pub fn errors(&self) -> &[SuiteError] {
        &self.errors
    }

    /// Warnings that are not errors (an unknown EPD operation), at most one
    /// per file.
    pub fn warnings(&self) -> &[SuiteError] {
        &self.warnings
    }

    /// Number of unusable files and lines, listed or not.
    pub fn error_count(&self) -> usize {
        self.error_counts.values().sum()
    }

    /// Number of positions with at least one check to run.
    pub fn positions_to_check(&self) -> usize {
        self.checks_per_position.len()
    }

    /// Sum of the expected counts of the checks that will run (those that
    /// have one).
    pub fn expected_nodes(&self) -> u128 {
        self.checks.iter().filter_map(|c| c.expected).fold(0, u128::saturating_add)
    }

    /// Runs every check on the current rayon pool, largest first, each
    /// check itself split across workers when large. `progress` is called
    /// after each check, from any thread.
    pub fn run(self, progress: &(dyn Fn(&SuiteResult, SuiteProgress) + Sync)) -> SuiteOutcome {
        self.run_with(None, None, progress)
    }

    /// [`SuitePlan::run`] with a shared table of subtree counts (kept
    /// across positions and depths) and a flag that, once raised, stops
    /// the run: checks not finished by then are left out.
    pub fn run_with(
        self,
        table: Option<&PerftTable>,
        interrupt: Option<&AtomicBool>,
        progress: &(dyn Fn(&SuiteResult, SuiteProgress) + Sync),
    ) -> SuiteOutcome {
        let start = Instant::now();
        let stop = AtomicBool::new(false);
        let tally = Tally::new(&self.checks_per_position);
        let search = CountOptions { table, stop: interrupt, ..CountOptions::new(self.options.mode) };
        let interrupted = || interrupt.is_some_and(|flag| flag.load(Ordering::Relaxed));
        let fail_fast = self.options.fail_fast;
        let recount_table: OnceLock<Option<PerftTable>> = OnceLock::new();
        let mut order: Vec<&PlannedCheck> = self.checks.iter().collect();
        order.sort_by_key(|check| std::cmp::Reverse(check.expected));
        let mut results: Vec<(usize, SuiteResult)> = order
            .par_iter()
            .filter_map(|check| {
                if stop.load(Ordering::Relaxed) || interrupted() {
                    return None;
                }
                let result = count_check(check, &search, &recount_table, fail_fast.then_some(&stop))?;
                progress(&result, tally.record(check, result.nodes));
                Some((check.file_index, result))
            })
            .collect();
        results.sort_by_key(|(file, r)| (*file, r.line, r.depth));
        let results = results.into_iter().map(|(_, r)| r).collect();
        self.finish(results, start.elapsed().as_secs_f64(), interrupted())
    }

    /// The outcome of a run that gave `results` in `seconds`.
    fn finish(self, results: Vec<SuiteResult>, seconds: f64, interrupted: bool) -> SuiteOutcome {
        let ran = results.iter().map(|r| (r.file.as_str(), r.line, r.depth));
        let skipped = self.skipped_besides(ran, |_| SkipReason::NotRun);
        let nodes: u128 = results.iter().map(|r| r.nodes).sum();
        let not_run = self.checks.len() - results.len();
        let summary = SuiteSummary {
            positions: self.positions,
            checks: results.len(),
            passed: results.iter().filter(|r| r.ok).count(),
            failed: results.iter().filter(|r| !r.ok).count(),
            errors: self.error_count(),
            skipped: self.skipped + not_run,
            nodes,
            seconds,
            nodes_per_second: crate::report::nodes_per_second(nodes, seconds),
        };
        SuiteOutcome {
            results,
            errors: self.errors,
            error_counts: self.error_counts,
            summary,
            stopped_early: not_run > 0 && !interrupted,
            interrupted,
            skipped,
        }
    }
}

/// Counts of a run so far, kept from any worker thread.
struct Tally {
    /// Checks left per position.
    remaining: Vec<AtomicUsize>,
    checks_done: AtomicUsize,
    positions_done: AtomicUsize,
    /// Once per check, so a lock costs nothing (there is no stable 128-bit
    /// atomic).
    nodes_done: Mutex<u128>,
}

impl Tally {
    fn new(checks_per_position: &[usize]) -> Self {
        Tally {
            remaining: checks_per_position.iter().map(|&n| AtomicUsize::new(n)).collect(),
            checks_done: AtomicUsize::new(0),
            positions_done: AtomicUsize::new(0),
            nodes_done: Mutex::new(0),
        }
    }

    /// `check` finished with `nodes`: the totals since the start.
    fn record(&self, check: &PlannedCheck, nodes: u128) -> SuiteProgress {
        let positions_done = if self.remaining[check.position].fetch_sub(1, Ordering::AcqRel) == 1 {
            self.positions_done.fetch_add(1, Ordering::AcqRel) + 1
        } else {
            self.positions_done.load(Ordering::Acquire)
        };
        let mut done = self.nodes_done.lock().unwrap_or_else(|e| e.into_inner());
        *done += nodes;
        SuiteProgress {
            checks_done: self.checks_done.fetch_add(1, Ordering::AcqRel) + 1,
            positions_done,
            nodes_done: *done,
        }
    }
}

/// Counts one check (`None` when stopped); a wrong count comes with our
/// divide, recounted with a table indexed by the second key set (a quarter
/// of the size, made at the first failure: a stored count could only
/// explain the mismatch if both key sets collided, and a deep check still
/// recounts at table speed). `stop_at_wrong` is raised at a wrong count.
fn count_check(
    check: &PlannedCheck,
    search: &CountOptions,
    recount_table: &OnceLock<Option<PerftTable>>,
    stop_at_wrong: Option<&AtomicBool>,
) -> Option<SuiteResult> {
    let started = Instant::now();
    let nodes = perft_with(&check.board, check.depth, search)?;
    let seconds = started.elapsed().as_secs_f64();
    // Without an expected count, ours is the reference.
    let expected = check.expected.unwrap_or(nodes);
    let ok = nodes == expected;
    let mut recount = None;
    let mut divide = Vec::new();
    if !ok {
        // No new check starts while the divide is recounted.
        if let Some(stop) = stop_at_wrong {
            stop.store(true, Ordering::Relaxed);
        }
        let second = search.table.and_then(|table| {
            recount_table
                .get_or_init(|| PerftTable::with_buckets(table.buckets() / 4, KeySet::Secondary).ok())
                .as_ref()
        });
        let again = CountOptions { table: second, ..*search };
        let counted = divide_with_progress(&check.board, check.depth, &again, &|_, _| {});
        let total: Option<u128> = counted.iter().map(|&(_, n)| n).sum();
        recount = total.filter(|&total| total != nodes);
        divide = counted
            .into_iter()
            .filter_map(|(mv, nodes)| Some(DivideEntry { mv: check.board.uci(mv), nodes: nodes? }))
            .collect();
    }
    Some(SuiteResult {
        file: check.file.clone(),
        line: check.line,
        id: check.id.clone(),
        fen: check.fen.clone(),
        depth: check.depth,
        expected,
        nodes,
        ok,
        seconds,
        divide,
        recount,
    })
}
