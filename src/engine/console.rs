//! A console engine: a program kept running that counts with a perft
//! command of its own (`perft 5`), its position set with a command of its
//! own (`position fen ...`, `setboard ...`), without the UCI handshake.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::answer::AnswerFormat;
use super::session::{Ending, Question, Session};
use super::template::{uses_moves, Values};
use super::{Engine, EngineError, EnginePosition, EngineRun};

/// The default perft command of console engines.
pub const CONSOLE_PERFT: &str = "perft {depth}";
/// The default position command of console engines.
pub const CONSOLE_POSITION: &str = "position fen {fen} moves {moves}";

/// How long a console engine is given at start to answer `isready`: one
/// that does is sent it after each perft command, and its answers end at
/// the `readyok`.
const READY_PROBE: Duration = Duration::from_millis(1500);

/// A console engine kept running for the whole run (restarted after a
/// crash or a hang).
pub struct ConsoleEngine {
    name: String,
    session: Session,
    format: AnswerFormat,
    perft: String,
    position: Option<String>,
    chess960: bool,
    /// It answers `isready` (found at start).
    answers_isready: bool,
    answered: bool,
}

impl ConsoleEngine {
    /// An engine started with `command` on first use, asked with `perft`
    /// (a template such as `perft {depth}`) after its position is set with
    /// `position` (a template such as `setboard {fen}`; `None` when the
    /// perft command carries the position itself).
    pub fn new(name: &str, command: Vec<String>, perft: String, position: Option<String>) -> Self {
        let mut session = Session::new(command, None);
        session.set_stderr(true);
        ConsoleEngine {
            name: name.to_string(),
            session,
            format: AnswerFormat::default(),
            perft,
            position,
            chess960: true,
            answers_isready: false,
            answered: false,
        }
    }

    /// Reads totals and divides with `format`.
    pub fn with_format(mut self, format: AnswerFormat) -> Self {
        self.format = format;
        self
    }

    /// Whether it reads Chess960 castling [default: assumed]; if not,
    /// Chess960 positions are [`EngineError::Unsupported`].
    pub fn with_chess960(mut self, chess960: bool) -> Self {
        self.chess960 = chess960;
        self
    }

    /// Calls give up (killing the program) once `stop` is raised.
    pub fn with_stop(mut self, stop: Option<&'static AtomicBool>) -> Self {
        self.session.set_stop(stop);
        self
    }

    /// Starts the program if needed, and finds whether it answers
    /// `isready` (reading its banner meanwhile).
    fn ensure_started(&mut self) -> Result<(), EngineError> {
        if self.session.is_running() {
            return Ok(());
        }
        self.session.start()?;
        self.session.send("isready")?;
        let deadline = Instant::now() + READY_PROBE;
        self.answers_isready = loop {
            match self.session.line_before(deadline, None)? {
                Some(line) if line.trim_end().ends_with("readyok") => break true,
                Some(_) => {}
                // Still running: it does not know `isready`.
                None => break false,
            }
        };
        Ok(())
    }
}

impl Engine for ConsoleEngine {
    fn name(&self) -> &str {
        &self.name
    }

    fn perft(
        &mut self,
        position: &EnginePosition,
        depth: u32,
        timeout: Duration,
    ) -> Result<EngineRun, EngineError> {
        if position.chess960 && !self.chess960 {
            return Err(EngineError::Unsupported(
                "a Chess960 position, which this engine does not read".into(),
            ));
        }
        let reader = self.format.reader(depth).map_err(|e| EngineError::Pattern(e.to_string()))?;
        self.ensure_started()?;
        let templates = std::iter::once(self.perft.as_str()).chain(self.position.as_deref());
        let values = Values::new(position, depth, uses_moves(templates))?;
        self.session.begin_answer();
        if let Some(template) = &self.position {
            let line = values.fill_line(template);
            self.session.send(&line)?;
        }
        let question = Question {
            command: values.fill_line(&self.perft),
            ending: if self.answers_isready { Ending::ReadyOk } else { Ending::FirstTotal },
            first: !self.answered,
        };
        let start = Instant::now();
        self.session.send(&question.command)?;
        if self.answers_isready {
            self.session.send("isready")?;
        }
        let (nodes, divide) = self.session.read_answer(&question, reader, start + timeout, timeout)?;
        self.answered = true;
        Ok(EngineRun { nodes, seconds: start.elapsed().as_secs_f64(), divide })
    }
}
