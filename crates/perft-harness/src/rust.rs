//! A Rust engine checked in process, from its own `cargo test`: the engine
//! implements [`MoveGenerator`] (set a FEN, list its legal moves in UCI,
//! make and unmake one; optionally its own perft), and [`check_suite`]
//! checks it against a bundled suite or a file with the bisection and the
//! causes of `perft check`, returning a [`SuiteCheck`] whose `Display` is
//! the report a person reads. [`assert_suite`] is the `#[test]` form.
//!
//! Every count is asked of the engine as `perft check` asks another
//! program: its divide (each legal move with the count of its child, by
//! the engine's own [`MoveGenerator::perft`]) is compared with ours, and a
//! wrong count is followed down to the position whose move list differs,
//! where each extra move is told why it is illegal. A panic in the engine
//! is an error of that count; the check goes on.

use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::bisect::{bisect, BisectError, Bisection, Target};
use crate::board::{Board, CastlingMode, FenOptions};
use crate::check::causes::{group_by_cause, Cause};
use crate::check::text::{describe, plural, print_causes, print_engine_errors};
use crate::check::{run_check, CheckOptions, CheckResult, PlannedCheck};
use crate::engine::{Engine, EngineError, EnginePosition, EngineRun};
use crate::suite::{bundled, parse_suite, LineError};

/// What the harness needs of a Rust engine's move generation. Moves are
/// UCI text (`e2e4`, `e7e8q`): castling as the king's two-square move in
/// standard chess (`e1g1`), as the king taking its own rook in Chess960
/// (`e1h1`).
pub trait MoveGenerator {
    /// Sets the position: a FEN, with Chess960 castling (X-FEN or
    /// Shredder-FEN letters) when `chess960`.
    ///
    /// # Errors
    /// Why the FEN cannot be read; that check is reported as an error and
    /// the others go on.
    fn set_fen(&mut self, fen: &str, chess960: bool) -> Result<(), String>;

    /// The legal moves of the current position.
    fn legal_moves(&mut self) -> Vec<String>;

    /// Plays `uci`, a legal move of the current position.
    fn make(&mut self, uci: &str);

    /// Takes back the last move made.
    fn unmake(&mut self);

    /// Perft of the current position to `depth`. By default counted with
    /// the methods above; an engine with a perft of its own (bulk
    /// counting, say) returns that here, and the harness checks it too.
    fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut nodes = 0;
        for mv in &moves {
            self.make(mv);
            nodes += self.perft(depth - 1);
            self.unmake();
        }
        nodes
    }

    /// Whether it plays Chess960 [default: yes]; if not, Chess960
    /// positions are skipped.
    fn plays_chess960(&self) -> bool {
        true
    }
}

/// A [`MoveGenerator`] as the harness's [`Engine`].
struct InProcess<'a, G> {
    generator: &'a mut G,
}

/// The message of a panic.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into())
}

impl<G: MoveGenerator + Send> InProcess<'_, G> {
    /// The position set, the moves played, and the divide counted.
    fn divide(
        &mut self,
        position: &EnginePosition,
        depth: u32,
    ) -> Result<(u128, Vec<(String, u128)>), EngineError> {
        self.generator.set_fen(&position.fen, position.chess960).map_err(EngineError::Position)?;
        for mv in &position.moves {
            self.generator.make(mv);
        }
        let mut divide = Vec::new();
        let mut total = 0u128;
        for mv in self.generator.legal_moves() {
            let nodes = if depth <= 1 {
                1
            } else {
                self.generator.make(&mv);
                let nodes = self.generator.perft(depth - 1);
                self.generator.unmake();
                u128::from(nodes)
            };
            total += nodes;
            divide.push((mv, nodes));
        }
        Ok((total, divide))
    }
}

impl<G: MoveGenerator + Send> Engine for InProcess<'_, G> {
    fn name(&self) -> &str {
        "engine"
    }

    fn perft(
        &mut self,
        position: &EnginePosition,
        depth: u32,
        _: Duration,
    ) -> Result<EngineRun, EngineError> {
        if position.chess960 && !self.generator.plays_chess960() {
            return Err(EngineError::Unsupported("a Chess960 position (plays_chess960 is false)".into()));
        }
        let start = Instant::now();
        match catch_unwind(AssertUnwindSafe(|| self.divide(position, depth))) {
            Ok(Ok((nodes, divide))) => Ok(EngineRun {
                nodes,
                seconds: start.elapsed().as_secs_f64(),
                divide_lines: divide.len(),
                divide: Some(divide),
            }),
            Ok(Err(error)) => Err(error),
            Err(payload) => Err(EngineError::Exited {
                status: format!("panicked: {}", panic_message(payload.as_ref())),
                output: "(in process)".into(),
            }),
        }
    }
}

/// Which suite to check against.
#[derive(Clone, Copy, Debug)]
pub enum Suite<'a> {
    /// A bundled suite by name (`default`, `standard`, `fischer`,
    /// `tricky`, ...: see [`crate::suite::BUNDLED`]).
    Bundled(&'a str),
    /// A suite file (EPD or `.perft`).
    File(&'a Path),
    /// Suite text, and the name its lines are reported under.
    Text {
        /// The name.
        name: &'a str,
        /// The EPD or `.perft` lines.
        text: &'a str,
    },
}

/// How much of a suite to check.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Counts deeper than this are skipped.
    pub max_depth: Option<u32>,
    /// Counts larger than this are skipped [default: 1,000,000: a suite in
    /// seconds].
    pub max_nodes: Option<u128>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_depth: None, max_nodes: Some(1_000_000) }
    }
}

/// Why a suite could not be checked at all.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    /// No bundled suite has that name.
    #[error("no bundled suite is called {0:?} (see perft_harness::suite::BUNDLED)")]
    UnknownSuite(String),
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
}

/// The outcome of [`check_suite`]: every count asked, the causes of the
/// wrong ones, and the suite's unreadable lines. `Display` is the report
/// `perft check` prints.
#[derive(Clone, Debug)]
pub struct SuiteCheck {
    /// The suite's name.
    pub suite: String,
    /// Every count asked, in suite order.
    pub results: Vec<CheckResult>,
    /// The wrong counts grouped by cause, the largest first.
    pub causes: Vec<Cause>,
    /// Lines of the suite that could not be read.
    pub line_errors: Vec<LineError>,
    /// Counts skipped (past the limits, depth 0, Chess960 for an engine
    /// without it).
    pub skipped: usize,
}

impl SuiteCheck {
    /// Whether every count asked matched and nothing failed.
    pub fn passed(&self) -> bool {
        self.results.iter().all(|r| r.ok) && self.line_errors.is_empty()
    }

    /// The wrong counts (not the engine's errors).
    pub fn failures(&self) -> impl Iterator<Item = &CheckResult> {
        self.results.iter().filter(|r| !r.ok && r.error.is_none())
    }
}

impl fmt::Display for SuiteCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = Vec::new();
        let every = "SuiteCheck::failures has every wrong count";
        let written = print_causes(&mut text, &self.results, &self.causes, "the engine", false, every)
            .and_then(|()| print_engine_errors(&mut text, &self.results, false));
        written.map_err(|_| fmt::Error)?;
        f.write_str(&String::from_utf8_lossy(&text))?;
        for error in &self.line_errors {
            writeln!(f, "ERROR {}:{}: {}", self.suite, error.line, error.message)?;
        }
        let failed = self.failures().count();
        let errors = self.results.iter().filter(|r| r.error.is_some()).count() + self.line_errors.len();
        write!(
            f,
            "{}: {}: {} passed, {failed} failed, {}, {} skipped",
            self.suite,
            plural(self.results.len(), "check"),
            self.results.iter().filter(|r| r.ok).count(),
            plural(errors, "error"),
            self.skipped
        )
    }
}

/// Reads `suite`: its name and text.
fn suite_text(suite: Suite) -> Result<(String, Vec<u8>), SuiteError> {
    match suite {
        Suite::Bundled(name) => {
            let (file, bytes) = bundled(name).ok_or_else(|| SuiteError::UnknownSuite(name.into()))?;
            Ok((file.to_string(), bytes.to_vec()))
        }
        Suite::File(path) => {
            let bytes = std::fs::read(path)
                .map_err(|source| SuiteError::Io { path: path.display().to_string(), source })?;
            Ok((path.display().to_string(), bytes))
        }
        Suite::Text { name, text } => Ok((name.to_string(), text.as_bytes().to_vec())),
    }
}

/// The checks of a suite within `limits`, and how many were skipped.
fn plan(
    name: &str,
    bytes: &[u8],
    limits: Limits,
    chess960: bool,
) -> (Vec<PlannedCheck>, Vec<LineError>, usize) {
    let parsed = parse_suite(bytes);
    let mut line_errors = parsed.errors;
    let (mut planned, mut skipped) = (Vec::new(), 0);
    let options = FenOptions { castling: CastlingMode::Detect, relaxed: true };
    for entry in parsed.entries {
        let board = match Board::from_fen_with(&entry.fen, options) {
            Ok(board) => board,
            Err(e) => {
                line_errors.push(LineError { line: entry.line, message: format!("bad FEN: {e}") });
                continue;
            }
        };
        let position = planned.last().map_or(0, |p: &PlannedCheck| p.position + 1);
        for &(depth, expected) in &entry.counts {
            let too_much = depth == 0
                || limits.max_depth.is_some_and(|d| depth > d)
                || limits.max_nodes.is_some_and(|n| expected > n)
                || (board.is_chess960() && !chess960);
            if too_much {
                skipped += 1;
                continue;
            }
            planned.push(PlannedCheck {
                position,
                file_index: 0,
                file: name.to_string(),
                line: entry.line,
                id: entry.id.clone(),
                fen: entry.fen.clone(),
                board: board.clone(),
                depth,
                expected: Some(expected),
            });
        }
    }
    (planned, line_errors, skipped)
}

/// Checks `generator` against `suite` within `limits` (see the module
/// docs). Our own counts and bisections run on rayon's global pool.
///
/// # Errors
/// [`SuiteError`] when the suite cannot be read at all; unreadable lines
/// and engine failures are in the [`SuiteCheck`].
pub fn check_suite<G: MoveGenerator + Send>(
    generator: &mut G,
    suite: Suite,
    limits: Limits,
) -> Result<SuiteCheck, SuiteError> {
    let (name, bytes) = suite_text(suite)?;
    let (planned, line_errors, skipped) = plan(&name, &bytes, limits, generator.plays_chess960());
    let engine = Mutex::new(Some(InProcess { generator }));
    let make_engine = || -> Box<dyn Engine + '_> {
        let engine = engine.lock().unwrap_or_else(|e| e.into_inner()).take();
        Box::new(engine.expect("one engine: one job"))
    };
    let options = CheckOptions { timeout: Duration::MAX, jobs: 1, fail_fast: false, stop: None };
    let reproduce = |item: &PlannedCheck, bisection: &Bisection| reproduce(item, bisection);
    let outcome = run_check(&planned, &make_engine, &options, &reproduce, &|_| {});
    let causes = group_by_cause(&outcome.results);
    Ok(SuiteCheck {
        suite: name,
        skipped: skipped + outcome.unsupported + outcome.hopeless_checks.len() + outcome.not_run,
        results: outcome.results,
        causes,
        line_errors,
    })
}

/// The call that shows a fault again: [`debug`] at the position the
/// bisection names.
fn reproduce(item: &PlannedCheck, bisection: &Bisection) -> String {
    let (path, depth) = bisection.reproduce_at();
    let moves: Vec<String> = path.iter().map(|m| format!("{m:?}")).collect();
    format!("perft_harness::rust::debug(&mut engine, {:?}, &[{}], {depth})", item.fen, moves.join(", "))
}

/// [`check_suite`] for a `#[test]`: panics with the report unless every
/// count matched.
///
/// # Panics
/// When a count is wrong, the engine failed, or the suite cannot be read;
/// the panic names the caller's line (`#[track_caller]`), the test's own.
#[track_caller]
pub fn assert_suite<G: MoveGenerator + Send>(generator: &mut G, suite: Suite, limits: Limits) {
    match check_suite(generator, suite, limits) {
        Ok(check) if check.passed() => {}
        Ok(check) => panic!("perft check failed:\n{check}"),
        Err(error) => panic!("perft check could not run: {error}"),
    }
}

/// Bisects one position's count difference with `generator` (as
/// `perft debug` does): the FEN, the moves played from it, the depth.
///
/// # Errors
/// [`BisectError::NoDifference`] when the engine agrees; others when it
/// fails.
pub fn debug<G: MoveGenerator + Send>(
    generator: &mut G,
    fen: &str,
    moves: &[&str],
    depth: u32,
) -> Result<Debugged, BisectError> {
    let options = FenOptions { castling: CastlingMode::Detect, relaxed: true };
    let mut board = Board::from_fen_with(fen, options)
        .map_err(|e| BisectError::FirstQuestion(EngineError::Position(e.to_string())))?;
    for mv in moves {
        board.play_uci(mv).map_err(|e| BisectError::FirstQuestion(EngineError::Position(e.to_string())))?;
    }
    let start = EnginePosition {
        fen: fen.to_string(),
        moves: moves.iter().map(|m| m.to_string()).collect(),
        chess960: board.is_chess960(),
    };
    let target = Target { board: &board, start: &start, depth, answered: None };
    let mut engine = InProcess { generator };
    Ok(Debugged(bisect(&mut engine, &target, Duration::MAX, None, &mut |_| {})?))
}

/// What [`debug`] found; `Display` describes it as `perft debug` does.
#[derive(Clone, Debug)]
pub struct Debugged(pub Bisection);

impl fmt::Display for Debugged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = Vec::new();
        describe(&mut text, &self.0).map_err(|_| fmt::Error)?;
        f.write_str(String::from_utf8_lossy(&text).trim_end())
    }
}
