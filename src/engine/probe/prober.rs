//! The prober's conversation with one program: starting it (banner, the
//! UCI handshake, a slow start), asking one count, and checking an answer
//! against ours, with six FEN fields and then four.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::{ProbeOptions, Try};
use crate::board::{Board, STARTPOS_FEN};
use crate::counting::{perft, Mode};
use crate::engine::answer::AnswerFormat;
use crate::engine::session::{says_unknown, Ending, Question, Session};
use crate::engine::template::{uses_moves, FenFields, Values};
use crate::engine::{EngineError, EnginePosition};

/// The second position, whose count tells a command that reads the
/// position from one that counts the start position whatever it is told
/// (Kiwipete).
pub(super) const SECOND_FEN: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// Moves that test a position command's `moves` (from the start position).
pub(super) const SECOND_MOVES: [&str; 3] = ["e2e4", "d7d5", "e4d5"];

/// How long a try waits for a count after the engine said something
/// without one (a line, or `readyok`).
const AFTER_LINE: Duration = Duration::from_secs(1);
/// How long a console engine is listened to after a total, for a later
/// one.
const SETTLE: Duration = Duration::from_millis(50);
/// A program's banner ends once it has been quiet this long.
const BANNER_QUIET: Duration = Duration::from_millis(300);

/// What one question got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Reply {
    Count(u128),
    /// Anything else, in words; `exited` when the program ended; `last`
    /// its last line.
    Not {
        what: String,
        exited: bool,
        last: String,
    },
}

impl Reply {
    fn not(what: impl Into<String>) -> Reply {
        Reply::Not { what: what.into(), exited: false, last: String::new() }
    }

    /// Whether the FEN may be what the engine misread: a wrong count (0:
    /// an empty board), or an error (or a crash) whose last words name the
    /// FEN or the position. Its own words only: what it echoes of `sent`
    /// does not count, and a command it does not know (or its usage) is
    /// not a FEN it misread.
    pub(super) fn may_be_the_fen(&self, sent: &[String]) -> bool {
        match self {
            Reply::Count(_) => true,
            Reply::Not { last, .. } => {
                let mut own = last.clone();
                for line in sent {
                    own = own.replace(line.as_str(), "");
                }
                let own = own.to_ascii_lowercase();
                let named = ["fen", "invalid", "illegal", "position", "field", "parse"];
                !says_unknown(&own) && !own.contains("usage") && named.iter().any(|w| own.contains(w))
            }
        }
    }
}

/// A count that calibrates a try: a position and our count there.
pub(super) struct Expected {
    pub(super) position: EnginePosition,
    pub(super) depth: u32,
    pub(super) nodes: u128,
}

/// Our count of `fen` after `moves`, `depth` plies deep.
pub(super) fn expected(fen: &str, moves: &[&str], depth: u32) -> Expected {
    let mut board = Board::from_fen(fen).expect("a valid built-in position");
    for mv in moves {
        board.play_uci(mv).expect("a legal built-in move");
    }
    let nodes = perft(&mut board, depth, Mode::Bulk);
    let position = EnginePosition {
        fen: fen.into(),
        moves: moves.iter().map(|m| m.to_string()).collect(),
        chess960: false,
    };
    Expected { position, depth, nodes }
}

/// The prober: one program, what was tried, what was learnt.
pub(super) struct Prober {
    pub(super) session: Session,
    pub(super) format: AnswerFormat,
    pub(super) wait: Duration,
    pub(super) start: Duration,
    pub(super) stop: Option<&'static AtomicBool>,
    /// It answered `uci` with `uciok`, and is being asked in UCI mode.
    pub(super) uci: bool,
    /// The program now running has been sent something.
    pub(super) asked: bool,
    /// The program now running has not been asked a count yet: it may
    /// still be starting.
    fresh: bool,
    /// The FEN form it reads.
    pub(super) fen: FenFields,
    /// How long it took to start: from its start to its first word after
    /// `uci` (or to its exit).
    pub(super) startup: Duration,
    /// The longest a command-line count it answered took: what
    /// bounds its next ones (its exit on arguments it cannot read, often
    /// at once, says nothing of how long it loads before a real count).
    pub(super) real_count: Option<Duration>,
    pub(super) tries: Vec<Try>,
    pub(super) notes: Vec<String>,
}

impl Prober {
    pub(super) fn new(mut session: Session, format: AnswerFormat, options: &ProbeOptions) -> Prober {
        session.set_stderr(true);
        Prober {
            session,
            format,
            wait: options.wait,
            start: options.start.max(options.wait),
            stop: options.stop,
            uci: false,
            asked: false,
            fresh: false,
            fen: FenFields::Six,
            startup: Duration::ZERO,
            real_count: None,
            tries: Vec::new(),
            notes: Vec::new(),
        }
    }

    pub(super) fn tried(&mut self, what: impl Into<String>, outcome: impl Into<String>) {
        self.tries.push(Try { what: what.into(), outcome: outcome.into(), miscount: None });
    }

    /// Starts the program and reads its banner; then, if `uci`, sends
    /// `uci`: `uciok` (and `readyok` after it) makes it a UCI engine
    /// (`Ok(true)`). While it has said nothing since it was sent, it is
    /// waited for up to [`ProbeOptions::start`]; once it speaks, for
    /// [`ProbeOptions::wait`] after its last line. An exit is an error.
    pub(super) fn start_program(&mut self, uci: bool) -> Result<bool, EngineError> {
        let began = Instant::now();
        self.asked = false;
        self.fresh = true;
        self.session.start()?;
        self.session.banner(BANNER_QUIET, self.start)?;
        if !uci {
            return Ok(false);
        }
        self.asked = true;
        self.session.send("uci")?;
        let sent = Instant::now();
        let mut heard: Option<Instant> = None;
        loop {
            let deadline = heard.map_or(sent + self.start, |at| at + self.wait);
            match self.session.line_before(deadline, None)? {
                Some(line) => {
                    if heard.is_none() {
                        self.startup = began.elapsed();
                    }
                    heard = Some(Instant::now());
                    if line.trim_start().starts_with("uciok") {
                        self.ready()?;
                        return Ok(true);
                    }
                }
                None => return Ok(false),
            }
        }
    }

    /// `isready` answered with `readyok`.
    fn ready(&mut self) -> Result<(), EngineError> {
        self.session.send("isready")?;
        let deadline = Instant::now() + self.start;
        while let Some(line) = self.session.line_before(deadline, None)? {
            if line.trim_end().ends_with("readyok") {
                return Ok(());
            }
        }
        Err(EngineError::Timeout { seconds: self.start.as_secs_f64(), output: self.session.tail() })
    }

    /// Starts the program again, in the mode it is being asked in.
    fn restart(&mut self) -> bool {
        self.session.restart();
        let uci = self.uci;
        matches!(self.start_program(uci), Ok(answered) if answered == uci)
    }

    /// Asks one count: `lines` sent (the position, the perft command),
    /// then `isready` for a UCI engine; the answer read as a run reads
    /// one ([`Session::read_answer`]), ending at a total, a search, or
    /// silence for the wait (longer after a restart, by the time the
    /// program takes to start). An engine that failed is stopped: the next
    /// question starts it again.
    fn ask(&mut self, lines: &[String], depth: u32) -> Reply {
        if !self.session.is_running() && !self.restart() {
            return Reply::Not {
                what: "it could not be started again".into(),
                exited: true,
                last: String::new(),
            };
        }
        // A program just started may still be starting.
        let wait = if std::mem::take(&mut self.fresh) { self.wait + self.startup } else { self.wait };
        let reader = match self.format.reader(depth) {
            Ok(reader) => reader,
            Err(e) => return Reply::not(e.to_string()),
        };
        self.session.begin_answer();
        self.asked = true;
        let sent = lines.iter().try_for_each(|line| self.session.send(line));
        let sent = sent.and_then(|()| if self.uci { self.session.send("isready") } else { Ok(()) });
        if let Err(error) = sent {
            return Reply::Not { what: error.summary(), exited: true, last: last_line(&self.session.tail()) };
        }
        let question = Question {
            command: lines.last().cloned().unwrap_or_default(),
            ending: if self.uci { Ending::ReadyOk } else { Ending::FirstTotal },
            patience: Some(AFTER_LINE.min(self.wait / 2)),
            first: false,
            settle: (!self.uci).then_some(SETTLE),
        };
        let answer = self.session.read_answer(&question, reader, Instant::now() + wait, wait);
        answer.map_or_else(|error| reply_for(error, wait), |(nodes, _)| Reply::Count(nodes))
    }

    /// Asks `perft` (with `position` first, if any) at `expect`'s position
    /// and depth, its FEN written with six fields and, if the engine seems
    /// to misread those, with four (kept for the rest once they work); each
    /// try is recorded.
    pub(super) fn check(
        &mut self,
        position: Option<&str>,
        perft: &str,
        expect: &Expected,
    ) -> Result<(), Reply> {
        let first = self.check_as(position, perft, expect, self.fen);
        let Err((reply, sent)) = first else { return Ok(()) };
        let has_fen = position.into_iter().chain([perft]).any(|t| t.contains("{fen}"));
        // A command it said it does not know is not a FEN it misread.
        let unknown = self.session.unknown_said();
        if self.fen == FenFields::Four || !has_fen || unknown || !reply.may_be_the_fen(&sent) {
            return Err(reply);
        }
        self.check_as(position, perft, expect, FenFields::Four).map_err(|(reply, _)| reply)?;
        self.fen = FenFields::Four;
        self.notes.push("it misreads six-field FENs (with the move counters): given four (fen4)".into());
        Ok(())
    }

    /// One try with `fields` FEN fields; a failure comes with the lines
    /// sent.
    fn check_as(
        &mut self,
        position: Option<&str>,
        perft: &str,
        expect: &Expected,
        fields: FenFields,
    ) -> Result<(), (Reply, Vec<String>)> {
        let templates = std::iter::once(perft).chain(position);
        let values = Values::new(&expect.position, expect.depth, uses_moves(templates), fields)
            .map_err(|e| (Reply::not(e.summary()), Vec::new()))?;
        let mut lines: Vec<String> = position.map(|p| values.fill_line(p)).into_iter().collect();
        lines.push(values.fill_line(perft));
        let reply = self.ask(&lines, expect.depth);
        let outcome = match &reply {
            Reply::Count(n) if *n == expect.nodes => n.to_string(),
            Reply::Count(n) => format!("{n} (we count {})", expect.nodes),
            Reply::Not { what, .. } => what.clone(),
        };
        let four = if fields == FenFields::Four { " (four FEN fields)" } else { "" };
        let what = match position {
            Some(_) if !self.uci => format!("`{}` then `{}`", short(&lines[0]), short(&lines[1])),
            _ => format!("`{}`{}", short(&values.fill_line(perft)), where_shown(expect)),
        };
        let miscount = match reply {
            Reply::Count(n) if n != expect.nodes => Some((n, expect.nodes)),
            _ => None,
        };
        self.tries.push(Try { what: format!("{what}{four}"), outcome, miscount });
        match reply {
            Reply::Count(n) if n == expect.nodes => Ok(()),
            other => Err((other, lines)),
        }
    }

    /// The start position at depths 1 and 2: whether `perft` counts at all.
    pub(super) fn counts_at_start(&mut self, position: Option<&str>, perft: &str) -> bool {
        let first = expected(STARTPOS_FEN, &[], 1);
        if self.check(position, perft, &first).is_err() {
            return false;
        }
        self.check(position, perft, &expected(STARTPOS_FEN, &[], 2)).is_ok()
    }

    /// The position command to use, given that `position` (with `{moves}`)
    /// counts Kiwipete right: itself if the engine applies the moves after
    /// the FEN, else the same without them (the position reached is given
    /// as a FEN), with a note. An engine that applies the moves and counts
    /// the position reached wrong keeps `position`: that is for the check
    /// to find.
    pub(super) fn moves_form(&mut self, position: &str, perft: &str) -> String {
        let bare = position.replace(" moves {moves}", "");
        if !position.contains("{moves}") {
            return bare;
        }
        let moved = expected(STARTPOS_FEN, &SECOND_MOVES, 1);
        let fen = self.fen;
        let Err((reply, _)) = self.check_as(Some(position), perft, &moved, fen) else {
            return position.to_string();
        };
        let root = expected(STARTPOS_FEN, &[], 1).nodes;
        let shown = position.replace("{fen}", "FEN").replace("{moves}", "MOVES");
        let as_fen_right = self.check_as(Some(&bare), perft, &moved, fen).is_ok();
        match reply {
            // It applies them, and counts the position reached otherwise
            // than its FEN: state it carries across moves (an en-passant
            // square or a castling right kept too long) is its bug, which
            // the check sees only if it is given the moves.
            Reply::Count(n) if n != root && as_fen_right => {
                self.notes.push(carried_state_note(&format!("`{shown}`"), n, moved.nodes));
                position.to_string()
            }
            reply if as_fen_right || reply == Reply::Count(root) => {
                let said = match reply {
                    Reply::Count(n) => format!("it answered {n}, the count without them"),
                    Reply::Not { what, .. } => what,
                };
                self.notes.push(format!(
                    "it does not apply the moves after `{shown}` ({said}): it is given the position reached as a FEN"
                ));
                bare
            }
            _ => position.to_string(),
        }
    }
}

/// The note for an engine that applies the moves after a FEN and counts
/// the position reached as `with_moves`, where given as a FEN it counts it
/// right (`as_fen`).
pub(super) fn carried_state_note(shown: &str, with_moves: u128, as_fen: u128) -> String {
    format!(
        "after {shown} it counts {with_moves} where, given the position reached as a FEN, it counts \
         {as_fen} (right): it carries something across the moves that a FEN does not give (an \
         en-passant square or a castling right kept too long, say); it is given the moves"
    )
}

/// A failed answer in the words of a try.
fn reply_for(error: EngineError, wait: Duration) -> Reply {
    let (what, exited, output) = match error {
        EngineError::NoPerft { what, output, .. } => {
            let what = what.strip_prefix("it took it for ").map_or(what.clone(), str::to_string);
            let what = if what.starts_with("it answered without a count") { "no count".into() } else { what };
            (what, false, output)
        }
        EngineError::Timeout { output, .. } => {
            (format!("no answer in {:.0} s", wait.as_secs_f64()), false, output)
        }
        EngineError::Rejected(line) => (format!("it rejected the position: {line}"), false, line),
        EngineError::Exited { output, .. } => {
            let last = last_line(&output);
            let what = if last.is_empty() { "it exited".to_string() } else { format!("it exited: {last}") };
            (what, true, output)
        }
        error => return Reply::not(error.summary()),
    };
    Reply::Not { what, exited, last: last_line(&output) }
}

/// Built-in FENs shortened in what a try shows.
fn short(line: &str) -> String {
    line.replace(SECOND_FEN, "<Kiwipete FEN>")
        .replace(&SECOND_FEN.replace(" 0 1", ""), "<Kiwipete FEN>")
        .replace(STARTPOS_FEN, "<start FEN>")
        .replace(&STARTPOS_FEN.replace(" 0 1", ""), "<start FEN>")
}

/// Which position a try asked, unless the perft command names it.
pub(super) fn where_shown(expect: &Expected) -> String {
    match (expect.position.fen.as_str(), expect.position.moves.is_empty()) {
        (STARTPOS_FEN, true) => String::new(),
        (STARTPOS_FEN, false) => format!(" (after {})", expect.position.moves.join(" ")),
        _ => " (Kiwipete)".into(),
    }
}

/// The last line of an engine's output that says something (not blank,
/// not Rust's note on backtraces), if any, without the stderr mark.
pub(super) fn last_line(output: &str) -> String {
    if let Some(panic) = rust_panic(output) {
        return panic;
    }
    let says = |line: &&str| {
        let text = line.strip_prefix("(stderr) ").unwrap_or(line).trim();
        !(text.is_empty() || (text.starts_with("note: ") && text.contains("RUST_BACKTRACE")))
    };
    match output.lines().rev().find(says) {
        Some(line) if line != crate::engine::NO_OUTPUT => {
            let line = line.strip_prefix("(stderr) ").unwrap_or(line);
            crate::board::whole_sentences(line.trim(), 100)
        }
        _ => String::new(),
    }
}

/// A Rust panic's message (`panicked: MESSAGE`), from the lines after
/// `thread 'main' panicked at FILE:LINE:COLUMN:`.
fn rust_panic(output: &str) -> Option<String> {
    let mut lines = output.lines().map(|l| l.strip_prefix("(stderr) ").unwrap_or(l));
    lines
        .find(|l| l.starts_with("thread '") && l.contains("' panicked at") || l.contains(") panicked at "))?;
    let message = lines.next()?.trim();
    Some(crate::board::whole_sentences(&format!("panicked: {message}"), 100))
}
