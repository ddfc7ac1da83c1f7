//! Checking another engine against suites and our counts: every planned
//! check asked of the engine (by several engine processes at once if
//! wanted), every wrong count bisected to the move path it comes from.
//!
//! An engine that is dead (see [`EngineError::is_dead`]: it cannot be
//! started, does not finish its handshake, or exits without a word) is not
//! asked again: every check left is an error at once, and the run says
//! once why. Positions the engine says it cannot count (Chess960 for an
//! engine without it) are skipped, not failed.

pub mod causes;
pub mod text;

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::bisect::{bisect, Bisection, Family, Tag, Target, Why};
use crate::board::Board;
use crate::counting::{perft_with, CountOptions, Mode};
use crate::engine::{Engine, EngineError, EnginePosition, EngineRun};

/// One check a plan will make: a position at a depth.
#[derive(Clone, Debug)]
pub struct PlannedCheck {
    /// Index of the position among those with checks to run (a position's
    /// depths share it: it is bisected once).
    pub position: usize,
    /// Index of the file among those given.
    pub file_index: usize,
    /// The suite file's name.
    pub file: String,
    /// 1-based line of the position.
    pub line: usize,
    /// The position's `id`, if any.
    pub id: Option<String>,
    /// The FEN as written.
    pub fen: String,
    /// The position.
    pub board: Board,
    /// Depth to count.
    pub depth: u32,
    /// The count the file gives, if any; `None`: ours is the reference.
    pub expected: Option<u128>,
}

impl PlannedCheck {
    /// Index of the position among those with checks to run.
    pub fn position_index(&self) -> usize {
        self.position
    }
}

/// One check of another engine: a position at one depth.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckResult {
    /// The suite file.
    pub file: String,
    /// 1-based line of the position.
    pub line: usize,
    /// The record's name, if the file gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The position as written in the file.
    pub fen: String,
    /// Plies counted.
    pub depth: u32,
    /// The reference count: the file's, or ours where the file has none.
    pub expected: u128,
    /// Where `expected` comes from: `file` or `perft`.
    pub expected_from: ExpectedFrom,
    /// The engine's count, if it answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine_nodes: Option<u128>,
    /// Whether the engine's count matches.
    pub ok: bool,
    /// Wall time of the engine's count.
    pub seconds: f64,
    /// Why the engine gave no count (crash, hang, unreadable output).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Where a wrong count comes from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bisection: Option<Bisection>,
    /// Why the bisection could not finish, if it could not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bisection_error: Option<String>,
    /// For a wrong count not bisected because the same position's count
    /// at another depth was: that depth.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bisected_at: Option<u32>,
    /// A command that reproduces the fault in seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reproduce: Option<String>,
}

/// Where a check's reference count comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExpectedFrom {
    /// The suite file.
    File,
    /// Our own count (the file gives none at that depth).
    Perft,
}

/// How a check runs.
#[derive(Clone, Copy, Debug)]
pub struct CheckOptions {
    /// The longest one engine call may take.
    pub timeout: Duration,
    /// Engine processes at once, each with its own share of the checks.
    pub jobs: usize,
    /// Stop asking after the first wrong count.
    pub fail_fast: bool,
    /// Once raised, no new check starts and calls in progress are stopped
    /// (the engine's own stop flag should be the same).
    pub stop: Option<&'static AtomicBool>,
}

/// What happens, for progress display (from any job's thread).
pub enum CheckEvent<'a> {
    /// A wrong count is being bisected.
    Bisecting(&'a PlannedCheck),
    /// A check finished.
    Done(&'a CheckResult),
}

/// What a check run found.
#[derive(Clone, Debug, Default)]
pub struct CheckOutcome {
    /// The checks the engine answered or failed, in plan order.
    pub results: Vec<CheckResult>,
    /// Checks skipped because the engine cannot count their positions.
    pub unsupported: usize,
    /// Their indexes in the plan, in order.
    pub unsupported_checks: Vec<usize>,
    /// Why it cannot (the first such answer).
    pub unsupported_reason: Option<String>,
    /// Checks skipped as hopeless: so deep that an engine known to count
    /// illegal moves would not finish them (in plan order).
    pub hopeless_checks: Vec<usize>,
    /// Why (the cause that showed it).
    pub hopeless_reason: Option<String>,
    /// Why the engine was given up, if it was (its checks left are errors).
    pub abandoned: Option<String>,
    /// What to try instead, when the engine was given up for not counting
    /// perft the way it was asked (see [`EngineError::hint`]).
    pub abandoned_hint: Option<&'static str>,
    /// Planned checks never asked (fail-fast, a stop).
    pub not_run: usize,
    /// The stop flag cut the run short.
    pub interrupted: bool,
}

/// Wrong counts per tag of the position they were bisected to (each
/// bisection counted once, however many depths of its position failed).
pub fn failures_by_tag(results: &[CheckResult]) -> BTreeMap<Tag, usize> {
    let mut by_tag: BTreeMap<Tag, usize> = BTreeMap::new();
    for bisection in
        results.iter().filter(|r| !r.ok && r.error.is_none()).filter_map(|r| r.bisection.as_ref())
    {
        for tag in &bisection.tags {
            *by_tag.entry(*tag).or_default() += 1;
        }
    }
    by_tag
}

/// State shared by the jobs.
struct Shared<'a> {
    plan: &'a [PlannedCheck],
    next: AtomicUsize,
    results: Mutex<Vec<Option<CheckResult>>>,
    /// Positions (by plan position index) already bisected, and at which
    /// depth.
    bisected: Mutex<HashMap<usize, u32>>,
    /// Plan indexes the engine said it cannot count, and the first reason.
    unsupported: Mutex<(HashSet<usize>, Option<String>)>,
    /// How the engine fares on Chess960 positions.
    chess960: Mutex<Chess960Record>,
    /// Set once a bisection shows the engine counting moves that leave its
    /// king in check (the cause, in words): deep checks are then hopeless.
    illegal: Mutex<Option<String>>,
    hopeless: Mutex<Vec<usize>>,
    abandoned: Mutex<Option<(String, Option<&'static str>)>>,
    halt: AtomicBool,
}

/// The engine's Chess960 errors are taken as an inability once this many
/// Chess960 positions in a row failed before any answered.
const CHESS960_TRIES: usize = 3;
/// Checks deeper than this are not asked of an engine known to count moves
/// that leave its king in check: a few such moves a ply make the count
/// explode (the default suite's 32-ply count of a prison position).
pub const HOPELESS_DEPTH: u32 = 9;

/// How an engine fared on Chess960 positions with castling rights so far.
#[derive(Default)]
struct Chess960Record {
    /// Plan indexes of Chess960 checks that failed with an error.
    errors: Vec<usize>,
    /// Chess960 checks it answered (right or wrong).
    answered: usize,
    /// Given up: every Chess960 position it was asked failed (why, in a
    /// line).
    given_up: Option<String>,
}

/// Runs every check of `plan` on engines made by `make_engine` (one per
/// job), `options.jobs` at once. Our reference counts (where the file has
/// none) and bisections run on rayon's global pool. `reproduce` turns a
/// bisection into a command that shows the fault again.
pub fn run_check<'e>(
    planned: &[PlannedCheck],
    make_engine: &(dyn Fn() -> Box<dyn Engine + 'e> + Sync),
    options: &CheckOptions,
    reproduce: &(dyn Fn(&PlannedCheck, &Bisection) -> String + Sync),
    progress: &(dyn Fn(CheckEvent) + Sync),
) -> CheckOutcome {
    let shared = Shared {
        plan: planned,
        next: AtomicUsize::new(0),
        results: Mutex::new(vec![None; planned.len()]),
        bisected: Mutex::new(HashMap::new()),
        unsupported: Mutex::new((HashSet::new(), None)),
        chess960: Mutex::new(Chess960Record::default()),
        illegal: Mutex::new(None),
        hopeless: Mutex::new(Vec::new()),
        abandoned: Mutex::new(None),
        halt: AtomicBool::new(false),
    };
    let jobs = options.jobs.clamp(1, planned.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| job(&shared, make_engine(), options, reproduce, progress));
        }
    });
    let stopped = options.stop.is_some_and(|s| s.load(Ordering::Relaxed));
    let mut results = std::mem::take(&mut *lock(&shared.results));
    let (mut unsupported, mut unsupported_reason) = std::mem::take(&mut *lock(&shared.unsupported));
    let chess960 = std::mem::take(&mut *lock(&shared.chess960));
    if let Some(reason) = chess960.given_up {
        // Its first Chess960 errors were the inability, not faults.
        for index in chess960.errors {
            results[index] = None;
            unsupported.insert(index);
        }
        unsupported_reason.get_or_insert(reason);
    }
    let (abandoned, abandoned_hint) = lock(&shared.abandoned).clone().unzip();
    let mut hopeless_checks = std::mem::take(&mut *lock(&shared.hopeless));
    hopeless_checks.sort_unstable();
    let hopeless_reason = (!hopeless_checks.is_empty()).then(|| lock(&shared.illegal).clone()).flatten();
    if abandoned.is_some() && !stopped {
        // A dead engine's checks left are errors, not silently skipped.
        for (index, result) in results.iter_mut().enumerate() {
            if result.is_none() && !unsupported.contains(&index) {
                *result = Some(not_asked(&planned[index]));
            }
        }
    }
    let results: Vec<CheckResult> = results.into_iter().flatten().collect();
    let mut unsupported_checks: Vec<usize> = unsupported.into_iter().collect();
    unsupported_checks.sort_unstable();
    let unsupported = unsupported_checks.len();
    CheckOutcome {
        not_run: planned.len() - results.len() - unsupported - hopeless_checks.len(),
        results,
        unsupported,
        unsupported_checks,
        unsupported_reason,
        hopeless_checks,
        hopeless_reason,
        abandoned,
        abandoned_hint: abandoned_hint.flatten(),
        interrupted: stopped,
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// One job: its own engine, taking the next unasked check until none is
/// left or the run halts.
fn job(
    shared: &Shared,
    mut engine: Box<dyn Engine + '_>,
    options: &CheckOptions,
    reproduce: &(dyn Fn(&PlannedCheck, &Bisection) -> String + Sync),
    progress: &(dyn Fn(CheckEvent) + Sync),
) {
    let stopped = || options.stop.is_some_and(|s| s.load(Ordering::Relaxed));
    loop {
        if stopped() || shared.halt.load(Ordering::Relaxed) {
            return;
        }
        let index = shared.next.fetch_add(1, Ordering::Relaxed);
        if index >= shared.plan.len() {
            return;
        }
        let Some(result) = ask(shared, engine.as_mut(), index, options, reproduce, progress) else {
            continue;
        };
        let failed = !result.ok && result.error.is_none();
        progress(CheckEvent::Done(&result));
        lock(&shared.results)[index] = Some(result);
        if failed && options.fail_fast {
            shared.halt.store(true, Ordering::Relaxed);
        }
    }
}

/// Asks the engine one check; `None` when there is no result to record
/// (stopped, skipped as unsupported, or the engine was given up).
fn ask(
    shared: &Shared,
    engine: &mut dyn Engine,
    index: usize,
    options: &CheckOptions,
    reproduce: &(dyn Fn(&PlannedCheck, &Bisection) -> String + Sync),
    progress: &(dyn Fn(CheckEvent) + Sync),
) -> Option<CheckResult> {
    let item = &shared.plan[index];
    let chess960 = item.board.is_chess960();
    if skipped_before_asking(shared, index) {
        return None;
    }
    let position = EnginePosition::new(item.fen.clone(), chess960);
    let began = Instant::now();
    let answer = engine.perft(&position, item.depth, options.timeout);
    let seconds = began.elapsed().as_secs_f64();
    let answer = recorded(shared, index, answer)?;
    // Our count only once the engine's answer is worth recording.
    let (expected, expected_from) = match item.expected {
        Some(n) => (n, ExpectedFrom::File),
        None => {
            let search = CountOptions { stop: options.stop, ..CountOptions::new(Mode::Bulk) };
            (perft_with(&item.board, item.depth, &search)?, ExpectedFrom::Perft)
        }
    };
    let mut result = CheckResult {
        file: item.file.clone(),
        line: item.line,
        id: item.id.clone(),
        fen: item.fen.clone(),
        depth: item.depth,
        expected,
        expected_from,
        engine_nodes: None,
        ok: false,
        seconds,
        error: answer.as_ref().err().cloned(),
        bisection: None,
        bisection_error: None,
        bisected_at: None,
        reproduce: None,
    };
    let Ok(run) = answer else { return Some(result) };
    result.engine_nodes = Some(run.nodes);
    result.ok = run.nodes == expected;
    if result.ok {
        return Some(result);
    }
    // One bisection per position: a deeper wrong count of a position
    // already bisected comes from the same fault, as a rule.
    match lock(&shared.bisected).entry(item.position_index()) {
        Entry::Occupied(bisected) => {
            result.bisected_at = Some(*bisected.get());
            return Some(result);
        }
        Entry::Vacant(slot) => {
            slot.insert(item.depth);
        }
    }
    progress(CheckEvent::Bisecting(item));
    let target =
        Target { board: &item.board, start: &position, depth: item.depth, answered: Some(run.nodes) };
    match bisect(engine, &target, options.timeout, options.stop, &mut |_| {}) {
        Ok(bisection) => {
            if counts_illegal_moves(&bisection) {
                lock(&shared.illegal).get_or_insert_with(|| {
                    "the engine counts moves that leave its king in check (see the causes), and a count this \
                     deep of it would not end"
                        .to_string()
                });
            }
            result.reproduce = Some(reproduce(item, &bisection));
            result.bisection = Some(bisection);
        }
        Err(e) => result.bisection_error = Some(e.to_string()),
    }
    Some(result)
}

/// The engine's answer to the check at `index` as it is recorded: its
/// run, or its error in words; `None` when there is nothing to record
/// (stopped by a signal, a position it cannot count, the engine given up
/// by another job meanwhile). Its Chess960 record is kept up to date.
fn recorded(
    shared: &Shared,
    index: usize,
    answer: Result<EngineRun, EngineError>,
) -> Option<Result<EngineRun, String>> {
    let chess960 = castles_chess960(&shared.plan[index].board);
    match answer {
        Ok(run) => {
            if chess960 {
                lock(&shared.chess960).answered += 1;
            }
            Some(Ok(run))
        }
        Err(EngineError::Interrupted) => None,
        Err(EngineError::Unsupported(what)) => {
            unsupported(shared, index, what);
            None
        }
        Err(error) => {
            if !record_failure(shared, &error) {
                return None;
            }
            if chess960 {
                chess960_error(shared, index, &error);
            }
            Some(Err(error.to_string()))
        }
    }
}

/// Records that the engine cannot count the check at `index` (`what`: why).
fn unsupported(shared: &Shared, index: usize, what: String) {
    let mut unsupported = lock(&shared.unsupported);
    unsupported.0.insert(index);
    unsupported.1.get_or_insert(what);
}

/// Whether the check at `index` is skipped before the engine is asked: a
/// Chess960 position once the engine failed every one it was asked, a
/// hopelessly deep count once it is known to count illegal moves.
fn skipped_before_asking(shared: &Shared, index: usize) -> bool {
    let item = &shared.plan[index];
    if castles_chess960(&item.board) {
        let reason = lock(&shared.chess960).given_up.clone();
        if let Some(reason) = reason {
            unsupported(shared, index, reason);
            return true;
        }
    }
    if item.depth > HOPELESS_DEPTH && lock(&shared.illegal).is_some() {
        lock(&shared.hopeless).push(index);
        return true;
    }
    false
}

/// Whether `board` is Chess960 with castling rights: where an engine that
/// does not read X-FEN or Shredder-FEN castling fails (a Chess960 start
/// without rights reads as any standard position).
fn castles_chess960(board: &Board) -> bool {
    board.is_chess960() && board.castling_rights() != crate::types::CastlingRights::NONE
}

/// A Chess960 check failed with `error`: after [`CHESS960_TRIES`] such
/// failures with no Chess960 answer at all, the engine is taken not to
/// play Chess960 (however its error texts vary).
fn chess960_error(shared: &Shared, index: usize, error: &EngineError) {
    let mut record = lock(&shared.chess960);
    record.errors.push(index);
    if record.answered == 0 && record.errors.len() >= CHESS960_TRIES && record.given_up.is_none() {
        record.given_up = Some(format!(
            "Chess960 positions: it failed each of the first {} it was asked ({}); if it does not play \
             Chess960, say so with no960 (--engine 'NAME=KIND,no960:PROGRAM')",
            record.errors.len(),
            error.summary()
        ));
    }
}

/// Whether a bisection shows the engine counting ordinary moves that
/// leave or put its own king in check (not only a special move such as an
/// en-passant capture or castling: those do not make deep counts explode).
fn counts_illegal_moves(bisection: &Bisection) -> bool {
    let king_safety = |m: &crate::bisect::NamedMove| {
        m.why.is_some_and(|w| matches!(w, Why::KingIntoCheck | Why::CheckIgnored | Why::PinnedPieceMoves))
    };
    bisection.illegal.iter().any(king_safety)
        || bisection.candidates.as_ref().is_some_and(|c| {
            c.family() == Some(Family::KingSafety) && c.likeliest().into_iter().any(king_safety)
        })
}

/// Gives the engine up if `error` shows it dead (see
/// [`EngineError::is_dead`]), saying once why; returns whether the call's
/// result should still be recorded (false once another job gave it up).
fn record_failure(shared: &Shared, error: &EngineError) -> bool {
    if !error.is_dead() {
        return true;
    }
    let mut abandoned = lock(&shared.abandoned);
    if abandoned.is_some() {
        return false;
    }
    *abandoned = Some((format!("is dead, not asked again: {}", error.summary()), error.hint()));
    shared.halt.store(true, Ordering::Relaxed);
    true
}

/// The result of a check a dead engine was not asked.
fn not_asked(item: &PlannedCheck) -> CheckResult {
    CheckResult {
        file: item.file.clone(),
        line: item.line,
        id: item.id.clone(),
        fen: item.fen.clone(),
        depth: item.depth,
        expected: item.expected.unwrap_or_default(),
        expected_from: if item.expected.is_some() { ExpectedFrom::File } else { ExpectedFrom::Perft },
        engine_nodes: None,
        ok: false,
        seconds: 0.0,
        error: Some("not asked: the engine is dead (see above)".to_string()),
        bisection: None,
        bisection_error: None,
        bisected_at: None,
        reproduce: None,
    }
}
