//! Finding how a program counts perft, when it is given alone
//! (`--engine NAME=PROGRAM`): UCI `go perft`, a perft command of its own
//! in its UCI loop or at its prompt, or, for a program that exits at once,
//! a command line per count. Every try is checked against our own counts
//! on the start position (20, then 400) and on a second position, so a
//! command that ignores the position is told from one that reads it.
//!
//! A try that the engine answers with a search (`bestmove`) or with
//! silence ends within [`ProbeOptions::wait`]; the engine is then stopped
//! (`stop`, `isready`) or restarted.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::answer::AnswerFormat;
use super::build::concrete_engine;
use super::console::{CONSOLE_PERFT, CONSOLE_POSITION};
use super::session::{Ending, Question, Session};
use super::spec::{EngineSpec, Protocol};
use super::template::{uses_moves, Values};
use super::uci::GO_PERFT;
use super::{EngineError, EngineOptions, EnginePosition, EngineRun};
use crate::board::{Board, STARTPOS_FEN};
use crate::counting::{perft, Mode};

/// Perft commands tried in an engine's UCI loop or at its prompt, in this
/// order (after `go perft {depth}` for UCI engines): the forms open-source
/// engines use.
pub const PERFT_COMMANDS: &[&str] = &[
    CONSOLE_PERFT,
    "perft {depth} {fen}",
    "perft depth {depth}",
    "go perft depth {depth}",
    "divide {depth}",
    "perft divide {depth}",
];

/// Position commands tried for a console engine without UCI.
pub const POSITION_COMMANDS: &[&str] =
    &[CONSOLE_POSITION, "position fen {fen}", "setboard {fen}", "pos {fen}", "fen {fen}", "position {fen}"];

/// Command lines tried, after the program's own arguments, for a program
/// that exits at once: perftree's (`SCRIPT DEPTH FEN [MOVES]`), then
/// Gigantua's order.
pub const COMMAND_LINES: &[&str] = &["{depth} {fen} {moves}", "{fen} {depth}"];

/// The second position, whose count tells a command that reads the
/// position from one that counts the start position whatever it is told
/// (Kiwipete).
const SECOND_FEN: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// Moves that test a position command's `moves` (from the start position).
const SECOND_MOVES: [&str; 3] = ["e2e4", "d7d5", "e4d5"];

/// How long a try waits for a count after the engine said something
/// without one (a line, or `readyok`).
const AFTER_LINE: Duration = Duration::from_secs(1);
/// How long a console engine is listened to after a total, for a later
/// one.
const SETTLE: Duration = Duration::from_millis(50);

/// How probing runs.
#[derive(Clone, Copy, Debug)]
pub struct ProbeOptions {
    /// How long one try waits for an answer (and for `uciok`) before it
    /// counts as silence.
    pub wait: Duration,
    /// How long a program that has said nothing at all since it started
    /// is waited for (a slow start), and `isready` after `uciok`.
    pub start: Duration,
    /// Once raised, probing stops.
    pub stop: Option<&'static AtomicBool>,
}

impl Default for ProbeOptions {
    fn default() -> Self {
        ProbeOptions { wait: Duration::from_secs(3), start: super::DEFAULT_HANDSHAKE, stop: None }
    }
}

/// One thing tried, and what came of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Try {
    /// What was sent or run (`go perft 1`, `./engine 1 FEN`).
    pub what: String,
    /// What came of it (`20`, `a search: bestmove e2e4`, `no answer in 3 s`).
    pub outcome: String,
}

/// What probing found.
#[derive(Clone, Debug)]
pub struct Probe {
    /// The spec of what was found (the probed spec's format and Chess960
    /// declaration kept), if anything counted.
    pub found: Option<EngineSpec>,
    /// What was tried, in order.
    pub tries: Vec<Try>,
    /// The engine's last output, when nothing was found.
    pub output: String,
}

/// What one question got.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Reply {
    Count(u128),
    /// Anything else, in words; `exited` when the program ended.
    Not {
        what: String,
        exited: bool,
    },
}

/// A count that calibrates a try: a position and our count there.
struct Expected {
    position: EnginePosition,
    depth: u32,
    nodes: u128,
}

fn expected(fen: &str, moves: &[&str], depth: u32) -> Expected {
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

/// Probes `spec`'s program (its `command`) for how it counts perft.
pub fn probe(spec: &EngineSpec, options: &ProbeOptions) -> Probe {
    let mut prober = Prober {
        session: Session::new(spec.command.clone(), options.stop),
        format: spec.format.clone(),
        wait: options.wait,
        start: options.start.max(options.wait),
        stop: options.stop,
        uci: false,
        tries: Vec::new(),
    };
    prober.session.set_stderr(true);
    let found = prober.find();
    let output = prober.session.tail();
    // Written as a spec read from the command line would be: defaults
    // left out.
    let found = found.map(|(protocol, command, perft, position)| EngineSpec {
        protocol,
        command,
        format: spec.format.clone(),
        chess960: spec.chess960,
        perft: perft.filter(|p| !(protocol == Protocol::Console && p == CONSOLE_PERFT)),
        position: position.filter(|p| p != CONSOLE_POSITION),
    });
    Probe { found, tries: prober.tries, output }
}

/// What a found dialect is: protocol, command, perft and position
/// commands.
type Found = (Protocol, Vec<String>, Option<String>, Option<String>);

struct Prober {
    session: Session,
    format: AnswerFormat,
    wait: Duration,
    start: Duration,
    stop: Option<&'static AtomicBool>,
    /// It answered `uci` with `uciok`.
    uci: bool,
    tries: Vec<Try>,
}

impl Prober {
    fn tried(&mut self, what: impl Into<String>, outcome: impl Into<String>) {
        self.tries.push(Try { what: what.into(), outcome: outcome.into() });
    }

    fn find(&mut self) -> Option<Found> {
        match self.first_start() {
            Err(EngineError::Exited { output, .. }) => {
                let last = last_line(&output);
                self.tried("`uci`", format!("it exited at once{last}"));
                // A program that wants its work on its command line; or one
                // that quits on a command it does not know.
                return self.command_lines().or_else(|| self.console_dialects());
            }
            Err(error) => {
                self.tried("start it", error.summary());
                return None;
            }
            Ok(()) => {}
        }
        if self.uci {
            self.uci_dialects()
        } else {
            self.console_dialects()
        }
    }

    /// Starts the program and sends `uci`: `uciok` makes it a UCI engine;
    /// an exit is an error. The answer is awaited [`ProbeOptions::wait`],
    /// or up to [`ProbeOptions::start`] while the program has said nothing
    /// at all (a slow start).
    fn start(&mut self) -> Result<(), EngineError> {
        self.session.start()?;
        self.session.send("uci")?;
        let began = Instant::now();
        let mut deadline = began + self.wait;
        let mut heard = false;
        loop {
            match self.session.line_before(deadline, None)? {
                Some(line) if line.trim_start().starts_with("uciok") => {
                    self.uci = true;
                    return self.ready();
                }
                Some(_) => heard = true,
                None if !heard && deadline < began + self.start => deadline = began + self.start,
                None => return Ok(()),
            }
        }
    }

    /// Starts the program the first time, and says whether it speaks UCI.
    fn first_start(&mut self) -> Result<(), EngineError> {
        self.start()?;
        let outcome = if self.uci {
            "uciok: a UCI engine".to_string()
        } else {
            format!("no uciok in {:.0} s: not a UCI engine", self.wait.as_secs_f64())
        };
        self.tried("`uci`", outcome);
        Ok(())
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

    /// Starts the program again (with the UCI handshake for a UCI engine).
    fn restart(&mut self) -> bool {
        self.session.restart();
        if !self.uci {
            return self.session.start().is_ok();
        }
        self.start().is_ok() && self.uci
    }

    /// Asks one count: `lines` sent (the position, the perft command),
    /// then `isready` for a UCI engine; the answer read as a run reads
    /// one ([`Session::read_answer`]), ending at a total, a search, or
    /// silence for the wait. An engine that failed is stopped: the next
    /// question starts it again.
    fn ask(&mut self, lines: &[String], depth: u32) -> Reply {
        if !self.session.is_running() && !self.restart() {
            return Reply::Not { what: "it could not be started again".into(), exited: true };
        }
        let reader = match self.format.reader(depth) {
            Ok(reader) => reader,
            Err(e) => return Reply::Not { what: e.to_string(), exited: false },
        };
        self.session.begin_answer();
        let sent = lines.iter().try_for_each(|line| self.session.send(line));
        let sent = sent.and_then(|()| if self.uci { self.session.send("isready") } else { Ok(()) });
        if let Err(error) = sent {
            return Reply::Not { what: error.summary(), exited: true };
        }
        let question = Question {
            command: lines.last().cloned().unwrap_or_default(),
            ending: if self.uci { Ending::ReadyOk } else { Ending::FirstTotal },
            patience: Some(AFTER_LINE.min(self.wait / 2)),
            first: false,
            settle: (!self.uci).then_some(SETTLE),
        };
        match self.session.read_answer(&question, reader, Instant::now() + self.wait, self.wait) {
            Ok((nodes, _)) => Reply::Count(nodes),
            Err(EngineError::NoPerft { what, .. }) => {
                let what = what.strip_prefix("it took it for ").map_or(what.clone(), str::to_string);
                let what =
                    if what.starts_with("it answered without a count") { "no count".into() } else { what };
                Reply::Not { what, exited: false }
            }
            Err(EngineError::Timeout { .. }) => {
                Reply::Not { what: format!("no answer in {:.0} s", self.wait.as_secs_f64()), exited: false }
            }
            Err(EngineError::Exited { output, .. }) => {
                Reply::Not { what: format!("it exited{}", last_line(&output)), exited: true }
            }
            Err(error) => Reply::Not { what: error.summary(), exited: false },
        }
    }

    /// Asks `perft` (with `position` first, if any) at `expect`'s position
    /// and depth; the outcome is recorded as a try.
    fn check(&mut self, position: Option<&str>, perft: &str, expect: &Expected) -> Result<(), Reply> {
        let templates = std::iter::once(perft).chain(position);
        let values = Values::new(&expect.position, expect.depth, uses_moves(templates))
            .map_err(|e| Reply::Not { what: e.summary(), exited: false })?;
        let mut lines: Vec<String> = Vec::new();
        if self.uci {
            lines.push(format!("position fen {}", expect.position.fen));
            if !expect.position.moves.is_empty() {
                let last = lines.len() - 1;
                lines[last].push_str(&format!(" moves {}", expect.position.moves.join(" ")));
            }
        }
        lines.extend(position.map(|p| values.fill_line(p)));
        lines.push(values.fill_line(perft));
        let short =
            |line: String| line.replace(SECOND_FEN, "<Kiwipete FEN>").replace(STARTPOS_FEN, "<start FEN>");
        let shown = format!("`{}`{}", short(values.fill_line(perft)), where_shown(expect));
        let reply = self.ask(&lines, expect.depth);
        let outcome = match &reply {
            Reply::Count(n) if *n == expect.nodes => n.to_string(),
            Reply::Count(n) => format!("{n} (we count {})", expect.nodes),
            Reply::Not { what, .. } => what.clone(),
        };
        let what = match position {
            Some(p) if !self.uci => {
                format!("`{}` then `{}`", short(values.fill_line(p)), short(values.fill_line(perft)))
            }
            _ => shown,
        };
        self.tried(what, outcome);
        match reply {
            Reply::Count(n) if n == expect.nodes => Ok(()),
            other => Err(other),
        }
    }

    /// The start position at depths 1 and 2: whether `perft` counts at all.
    fn counts_at_start(&mut self, position: Option<&str>, perft: &str) -> bool {
        let first = expected(STARTPOS_FEN, &[], 1);
        if self.check(position, perft, &first).is_err() {
            return false;
        }
        self.check(position, perft, &expected(STARTPOS_FEN, &[], 2)).is_ok()
    }

    /// A UCI engine: `go perft`, then perft commands of its own in its UCI
    /// loop, each required to read the position set with `position fen`.
    fn uci_dialects(&mut self) -> Option<Found> {
        let second = expected(SECOND_FEN, &[], 1);
        for &perft in std::iter::once(&GO_PERFT).chain(PERFT_COMMANDS) {
            if !self.counts_at_start(None, perft) {
                continue;
            }
            if self.check(None, perft, &second).is_err() {
                continue;
            }
            let perft = (perft != GO_PERFT).then(|| perft.to_string());
            return Some((Protocol::Uci, self.session.command().to_vec(), perft, None));
        }
        None
    }

    /// A console engine without UCI: perft commands of its own at the
    /// start position, then the position commands that make it count
    /// another position.
    fn console_dialects(&mut self) -> Option<Found> {
        let second = expected(SECOND_FEN, &[], 1);
        let moved = expected(STARTPOS_FEN, &SECOND_MOVES, 2);
        for &perft in PERFT_COMMANDS {
            if !self.counts_at_start(None, perft) {
                continue;
            }
            let command = self.session.command().to_vec();
            if perft.contains("{fen}") {
                if self.check(None, perft, &second).is_ok() {
                    return Some((Protocol::Console, command, Some(perft.into()), None));
                }
                continue;
            }
            let mut asked: Vec<String> = Vec::new();
            for &position in POSITION_COMMANDS {
                // Templates that read the same without moves are one try.
                let bare = position.replace(" moves {moves}", "");
                if asked.contains(&bare) {
                    continue;
                }
                asked.push(bare.clone());
                if self.check(Some(position), perft, &second).is_err() {
                    continue;
                }
                // It reads the FEN; if not the moves after it, it is given
                // the position reached as a FEN.
                let reads_moves =
                    !position.contains("{moves}") || self.check(Some(position), perft, &moved).is_ok();
                let position = if reads_moves { position.to_string() } else { bare };
                if reads_moves || self.check(Some(&position), perft, &moved).is_ok() {
                    return Some((Protocol::Console, command, Some(perft.into()), Some(position)));
                }
            }
        }
        None
    }

    /// A program that exits at once: command lines, one run per count.
    fn command_lines(&mut self) -> Option<Found> {
        let program = self.session.command().to_vec();
        for &line in COMMAND_LINES {
            let mut template = program.clone();
            template.extend(line.split(' ').map(str::to_string));
            let spec = EngineSpec {
                protocol: Protocol::Command,
                command: template.clone(),
                format: self.format.clone(),
                chess960: None,
                perft: None,
                position: None,
            };
            let mut engine = concrete_engine(
                &spec,
                "probe",
                &EngineOptions { stop: self.stop, ..EngineOptions::default() },
            );
            let mut counts = true;
            for expect in
                [expected(STARTPOS_FEN, &[], 1), expected(STARTPOS_FEN, &[], 2), expected(SECOND_FEN, &[], 1)]
            {
                let shown = format!("`PROGRAM {line}`")
                    .replace("{depth}", &expect.depth.to_string())
                    .replace(" {moves}", "")
                    .replace(
                        "{fen}",
                        if expect.position.fen == STARTPOS_FEN { "<start FEN>" } else { "<Kiwipete FEN>" },
                    );
                let outcome = match engine.perft(&expect.position, expect.depth, self.wait) {
                    Ok(EngineRun { nodes, .. }) if nodes == expect.nodes => nodes.to_string(),
                    Ok(EngineRun { nodes, .. }) => format!("{nodes} (we count {})", expect.nodes),
                    Err(error) => error.summary(),
                };
                counts &= outcome == expect.nodes.to_string();
                self.tried(shown, outcome);
                if !counts {
                    break;
                }
            }
            if counts {
                return Some((Protocol::Command, template, None, None));
            }
        }
        None
    }
}

/// Which position a try asked, unless the perft command names it.
fn where_shown(expect: &Expected) -> String {
    match (expect.position.fen.as_str(), expect.position.moves.is_empty()) {
        (STARTPOS_FEN, true) => String::new(),
        (STARTPOS_FEN, false) => format!(" (after {})", expect.position.moves.join(" ")),
        _ => " (Kiwipete)".into(),
    }
}

/// `: LINE` for the last line of an engine's output, if any.
fn last_line(output: &str) -> String {
    match output.lines().rev().find(|l| !l.trim().is_empty()) {
        Some(line) if line != super::process::NO_OUTPUT => {
            let line = line.strip_prefix("(stderr) ").unwrap_or(line);
            format!(": {}", crate::board::truncate_chars(line.trim(), 100))
        }
        _ => String::new(),
    }
}
