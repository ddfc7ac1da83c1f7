//! A UCI engine driven with `position` and `go perft N`, or with a perft
//! command of its own (`perft N`) in its UCI loop.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::answer::AnswerFormat;
use super::session::{Ending, Question, Session};
use super::template::{uses_moves, FenFields, Values};
use super::{Engine, EngineError, EnginePosition, EngineRun};

/// The perft command of UCI engines that implement it as Stockfish does.
pub const GO_PERFT: &str = "go perft {depth}";
/// How a UCI engine is given a position, unless its spec says otherwise
/// (`position fen {fen}` for one that drops the moves).
pub const UCI_POSITION: &str = "position fen {fen} moves {moves}";

/// A UCI engine (Stockfish or any other that implements `go perft`, or
/// that counts with a command of its own in its UCI loop).
pub struct UciEngine {
    name: String,
    session: Session,
    options: Vec<(String, String)>,
    chess960: Option<bool>,
    handshake: Duration,
    format: AnswerFormat,
    /// The command that asks for a count; `None`: `go perft {depth}`.
    perft: Option<String>,
    /// The command that sets the position; `None`: [`UCI_POSITION`].
    position: Option<String>,
    /// How many fields its FENs have.
    fen: FenFields,
    /// Whether the running engine offered `UCI_Chess960` at its handshake.
    offers_chess960: bool,
    /// Declared not to play Chess960 (`uci,no960:`), whatever it offers.
    refuses_chess960: bool,
    /// It has answered a count since it was made: silence after that is
    /// a slow count, not an engine that ignores the command.
    answered: bool,
}

impl UciEngine {
    /// An engine started with `command` (program and arguments) on first use.
    pub fn new(name: &str, command: Vec<String>) -> Self {
        // Standard error is read too: some engines print their perft there.
        let mut session = Session::new(command, None);
        session.set_stderr(true);
        UciEngine {
            name: name.to_string(),
            session,
            options: Vec::new(),
            chess960: None,
            handshake: super::DEFAULT_HANDSHAKE,
            format: AnswerFormat::default(),
            perft: None,
            position: None,
            fen: FenFields::Six,
            offers_chess960: false,
            refuses_chess960: false,
            answered: false,
        }
    }

    /// Declares that the engine does not play Chess960: such positions are
    /// [`EngineError::Unsupported`] without asking it.
    pub fn without_chess960(mut self) -> Self {
        self.refuses_chess960 = true;
        self
    }

    /// Reads totals and divides with `format` [default: `Nodes searched:`
    /// and the other common forms].
    pub fn with_format(mut self, format: AnswerFormat) -> Self {
        self.format = format;
        self
    }

    /// Asks for a count with `template` (`perft {depth}`, with the
    /// placeholders of command templates) instead of `go perft {depth}`,
    /// after the position was set with `position fen`. The answer ends at
    /// the `readyok` that answers an `isready` sent after it.
    pub fn with_perft_command(mut self, template: Option<String>) -> Self {
        self.perft = template;
        self
    }

    /// Sets positions with `template` (such as `position fen {fen}`, for an
    /// engine that drops the moves after the FEN: `{fen}` is then the
    /// position reached) instead of [`UCI_POSITION`].
    pub fn with_position_command(mut self, template: Option<String>) -> Self {
        self.position = template;
        self
    }

    /// Writes its FENs with `fields` fields [default: six].
    pub fn with_fen_fields(mut self, fields: FenFields) -> Self {
        self.fen = fields;
        self
    }

    /// The longest the engine may take to answer `uci` (with its options)
    /// and each `isready` [default: 30 s].
    pub fn with_handshake_timeout(mut self, limit: Duration) -> Self {
        self.handshake = limit;
        self
    }

    /// Calls give up (killing the engine) once `stop` is raised.
    pub fn with_stop(mut self, stop: Option<&'static AtomicBool>) -> Self {
        self.session.set_stop(stop);
        self
    }

    /// Sets a UCI option at start-up (`setoption name NAME value VALUE`),
    /// such as `Threads` or `Hash`.
    pub fn set_option(&mut self, name: &str, value: &str) {
        self.options.push((name.to_string(), value.to_string()));
        self.session.restart();
    }

    /// Starts the engine if needed and completes the handshake within
    /// `limit`.
    fn ensure_started(&mut self, limit: Duration) -> Result<(), EngineError> {
        if self.session.is_running() {
            return Ok(());
        }
        self.chess960 = None;
        self.session.start()?;
        self.handshake(limit).map_err(|e| match e {
            EngineError::Interrupted => e,
            e => EngineError::Handshake(Box::new(e)),
        })
    }

    fn handshake(&mut self, limit: Duration) -> Result<(), EngineError> {
        self.session.begin_answer();
        let deadline = Instant::now() + limit;
        self.session.send("uci")?;
        self.offers_chess960 = false;
        loop {
            let line = self.session.next_line(deadline, limit)?;
            let line = line.trim();
            if line.starts_with("uciok") {
                break;
            }
            if line.starts_with("option name UCI_Chess960 ") {
                self.offers_chess960 = true;
            }
        }
        for (name, value) in self.options.clone() {
            self.session.send(&format!("setoption name {name} value {value}"))?;
        }
        self.session.send("isready")?;
        self.session.wait_for("readyok", deadline, limit)
    }

    /// Sets the position, and waits until the engine is ready.
    fn set_position(&mut self, position: &EnginePosition) -> Result<(), EngineError> {
        // Only to an engine that offers the option (one that does not is
        // never sent a Chess960 position).
        if self.offers_chess960 && self.chess960 != Some(position.chess960) {
            self.session.send(&format!("setoption name UCI_Chess960 value {}", position.chess960))?;
            self.chess960 = Some(position.chess960);
        }
        let template = self.position.as_deref().unwrap_or(UCI_POSITION);
        let values = Values::new(position, 0, uses_moves(std::iter::once(template)), self.fen)?;
        self.session.send(&values.fill_line(template))?;
        self.session.send("isready")?;
        let handshake = self.handshake;
        self.session.wait_ready(Instant::now() + handshake, handshake)
    }
}

impl Engine for UciEngine {
    fn name(&self) -> &str {
        &self.name
    }

    fn perft(
        &mut self,
        position: &EnginePosition,
        depth: u32,
        timeout: Duration,
    ) -> Result<EngineRun, EngineError> {
        if position.chess960 && self.refuses_chess960 {
            return Err(EngineError::Unsupported("a Chess960 position (declared no960)".into()));
        }
        let reader = self.format.reader(depth).map_err(|e| EngineError::Pattern(e.to_string()))?;
        self.ensure_started(self.handshake)?;
        if position.chess960 && !self.offers_chess960 {
            return Err(EngineError::Unsupported(
                "a Chess960 position, and it does not offer UCI_Chess960".into(),
            ));
        }
        self.session.begin_answer();
        self.set_position(position)?;
        let template = self.perft.as_deref().unwrap_or(GO_PERFT);
        let question = Question {
            command: Values::new(position, depth, uses_moves(std::iter::once(template)), self.fen)?
                .fill_line(template),
            ending: if self.perft.is_some() { Ending::ReadyOk } else { Ending::FirstTotal },
            patience: (!self.answered).then_some(self.handshake),
            first: !self.answered,
            settle: None,
        };
        let start = Instant::now();
        self.session.send(&question.command)?;
        if question.ending == Ending::ReadyOk {
            self.session.send("isready")?;
        }
        let (nodes, (divide, divide_lines)) =
            self.session.read_answer(&question, reader, start + timeout, timeout)?;
        self.answered = true;
        Ok(EngineRun { nodes, seconds: start.elapsed().as_secs_f64(), divide, divide_lines })
    }

    fn give_positions_as_fens(&mut self) -> bool {
        let template = self.position.as_deref().unwrap_or(UCI_POSITION);
        if !template.contains("{moves}") {
            return false;
        }
        self.position = Some(template.replace(" moves {moves}", "").replace("{moves}", ""));
        true
    }
}
