//! A console engine: a program kept running that counts with a perft
//! command of its own (`perft 5`), its position set with a command of its
//! own (`position fen ...`, `setboard ...`), without the UCI handshake.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::answer::AnswerFormat;
use super::session::{Ending, Question, Session};
use super::template::{uses_moves, FenFields, Values};
use super::{Engine, EngineError, EnginePosition, EngineRun};

/// The default perft command of console engines.
pub const CONSOLE_PERFT: &str = "perft {depth}";
/// The default position command of console engines.
pub const CONSOLE_POSITION: &str = "position fen {fen} moves {moves}";

/// How long a console engine is given at start to answer `isready`: one
/// that does is sent it after each perft command, and its answers end at
/// the `readyok`.
const READY_PROBE: Duration = Duration::from_millis(1500);

/// How long a console engine without `isready` is listened to after a
/// total, for a later one (the last wins).
const SETTLE: Duration = Duration::from_millis(50);

/// A console engine kept running for the whole run (restarted after a
/// crash or a hang).
pub struct ConsoleEngine {
    name: String,
    session: Session,
    format: AnswerFormat,
    perft: String,
    position: Option<String>,
    fen: FenFields,
    chess960: bool,
    /// It answers `isready` (found at start).
    answers_isready: bool,
    /// It exits when sent `isready`: not sent again.
    isready_kills: bool,
    answered: bool,
    /// How long its first answer may be quiet before it is taken not to
    /// count with this command.
    patience: Duration,
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
            fen: FenFields::Six,
            chess960: true,
            answers_isready: false,
            isready_kills: false,
            answered: false,
            patience: super::DEFAULT_HANDSHAKE,
        }
    }

    /// How long its first answer may stay quiet after saying something
    /// without a count [default: 30 s].
    pub fn with_handshake_timeout(mut self, limit: Duration) -> Self {
        self.patience = limit;
        self
    }

    /// Reads totals and divides with `format`.
    pub fn with_format(mut self, format: AnswerFormat) -> Self {
        self.format = format;
        self
    }

    /// Writes its FENs with `fields` fields [default: six].
    pub fn with_fen_fields(mut self, fields: FenFields) -> Self {
        self.fen = fields;
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
        if self.isready_kills {
            return Ok(());
        }
        let answered = self.session.send("isready").and_then(|()| {
            let deadline = Instant::now() + READY_PROBE;
            loop {
                match self.session.line_before(deadline, None)? {
                    Some(line) if line.trim_end().ends_with("readyok") => return Ok(true),
                    Some(_) => {}
                    // Still running: it does not know `isready`.
                    None => return Ok(false),
                }
            }
        });
        self.answers_isready = match answered {
            Ok(answers) => answers,
            // It quit on the unknown command: started again, never sent it.
            Err(EngineError::Exited { .. }) => {
                self.isready_kills = true;
                self.session.start()?;
                false
            }
            Err(error) => return Err(error),
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
        let values = Values::new(position, depth, uses_moves(templates), self.fen)?;
        self.session.begin_answer();
        if let Some(template) = &self.position {
            let line = values.fill_line(template);
            self.session.send(&line)?;
        }
        let question = Question {
            command: values.fill_line(&self.perft),
            ending: if self.answers_isready { Ending::ReadyOk } else { Ending::FirstTotal },
            patience: (!self.answered).then_some(self.patience),
            first: !self.answered,
            // Without `readyok` to end an answer, a moment of quiet does.
            settle: (!self.answers_isready).then_some(SETTLE),
        };
        let start = Instant::now();
        self.session.send(&question.command)?;
        if self.answers_isready {
            self.session.send("isready")?;
        }
        let (nodes, (divide, divide_lines)) =
            self.session.read_answer(&question, reader, start + timeout, timeout)?;
        self.answered = true;
        Ok(EngineRun { nodes, seconds: start.elapsed().as_secs_f64(), divide, divide_lines })
    }

    fn give_positions_as_fens(&mut self) -> bool {
        let templates = std::iter::once(&mut self.perft).chain(self.position.as_mut());
        let mut changed = false;
        for template in templates.filter(|t| t.contains("{moves}")) {
            *template = template.replace(" moves {moves}", "").replace("{moves}", "");
            changed = true;
        }
        changed
    }
}
