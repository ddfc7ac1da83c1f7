//! A UCI engine driven with `position` and `go perft N`.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::answer::{find_total, AnswerFormat, DivideReader};
use super::process::{Cut, Next, Process};
use super::{Engine, EngineError, EnginePosition, EngineRun};

/// A UCI engine (Stockfish or any other that implements `go perft`).
pub struct UciEngine {
    name: String,
    command: Vec<String>,
    options: Vec<(String, String)>,
    process: Option<Process>,
    chess960: Option<bool>,
    stop: Option<&'static AtomicBool>,
    handshake: Duration,
    format: AnswerFormat,
    /// Whether the running engine offered `UCI_Chess960` at its handshake.
    offers_chess960: bool,
    /// Declared not to play Chess960 (`uci,no960:`), whatever it offers.
    refuses_chess960: bool,
}

impl UciEngine {
    /// An engine started with `command` (program and arguments) on first use.
    pub fn new(name: &str, command: Vec<String>) -> Self {
        UciEngine {
            name: name.to_string(),
            command,
            options: Vec::new(),
            process: None,
            chess960: None,
            stop: None,
            handshake: super::DEFAULT_HANDSHAKE,
            format: AnswerFormat::default(),
            offers_chess960: false,
            refuses_chess960: false,
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

    /// The longest the engine may take to answer `uci` (with its options)
    /// and each `isready` [default: 30 s].
    pub fn with_handshake_timeout(mut self, limit: Duration) -> Self {
        self.handshake = limit;
        self
    }

    /// Calls give up (killing the engine) once `stop` is raised.
    pub fn with_stop(mut self, stop: Option<&'static AtomicBool>) -> Self {
        self.stop = stop;
        self
    }

    /// Sets a UCI option at start-up (`setoption name NAME value VALUE`),
    /// such as `Threads` or `Hash`.
    pub fn set_option(&mut self, name: &str, value: &str) {
        self.options.push((name.to_string(), value.to_string()));
        self.process = None;
    }

    fn fail(&mut self, error: EngineError) -> EngineError {
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
        self.chess960 = None;
        error
    }

    /// The engine's next line; an engine that closes its output, says
    /// nothing before `deadline`, or floods its output is stopped and
    /// reported.
    fn next_line(&mut self, deadline: Instant, timeout: Duration) -> Result<String, EngineError> {
        let process = self.process.as_mut().expect("started");
        let error = match process.next_line(deadline) {
            Next::Line(line) => return Ok(line),
            Next::Closed => match process.wait(Instant::now() + Duration::from_secs(1)) {
                Err(Cut::Stopped) => EngineError::Interrupted,
                waited => EngineError::Exited {
                    status: waited.ok().flatten().map_or("closed its output".into(), |s| s.to_string()),
                    output: process.tail(),
                },
            },
            Next::Cut(cut) => cut.error(process, timeout),
        };
        Err(self.fail(error))
    }

    fn wait_for(&mut self, prefix: &str, deadline: Instant, timeout: Duration) -> Result<(), EngineError> {
        while !self.next_line(deadline, timeout)?.trim_start().starts_with(prefix) {}
        Ok(())
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let process = self.process.as_mut().expect("started");
        if let Err(e) = process.send(line) {
            let output = process.tail();
            let error = if e.kind() == std::io::ErrorKind::BrokenPipe {
                EngineError::Exited { status: "closed its input".into(), output }
            } else {
                EngineError::Io(e.to_string())
            };
            return Err(self.fail(error));
        }
        Ok(())
    }

    /// Starts the engine if needed and completes the handshake within
    /// `limit`.
    fn ensure_started(&mut self, limit: Duration) -> Result<(), EngineError> {
        if self.process.is_some() {
            return Ok(());
        }
        let (program, args) = self.command.split_first().expect("spec has a program");
        let process = Process::spawn(program, args, true, self.stop)
            .map_err(|e| EngineError::Start { program: program.clone(), reason: e.to_string() })?;
        self.process = Some(process);
        self.handshake(limit).map_err(|e| match e {
            EngineError::Interrupted => e,
            e => EngineError::Handshake(Box::new(e)),
        })
    }

    fn handshake(&mut self, limit: Duration) -> Result<(), EngineError> {
        self.process.as_mut().expect("started").begin_answer();
        let deadline = Instant::now() + limit;
        self.send("uci")?;
        self.offers_chess960 = false;
        loop {
            let line = self.next_line(deadline, limit)?;
            let line = line.trim();
            if line.starts_with("uciok") {
                break;
            }
            if line.starts_with("option name UCI_Chess960 ") {
                self.offers_chess960 = true;
            }
        }
        for (name, value) in self.options.clone() {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.send("isready")?;
        self.wait_for("readyok", deadline, limit)
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
        let handshake = self.handshake;
        let (total, divide) = self.format.regexes(depth).map_err(EngineError::Pattern)?;
        self.ensure_started(handshake)?;
        if position.chess960 && !self.offers_chess960 {
            return Err(EngineError::Unsupported(
                "a Chess960 position, and it does not offer UCI_Chess960".into(),
            ));
        }
        self.process.as_mut().expect("started").begin_answer();
        if self.chess960 != Some(position.chess960) {
            self.send(&format!("setoption name UCI_Chess960 value {}", position.chess960))?;
            self.chess960 = Some(position.chess960);
        }
        let mut command = format!("position fen {}", position.fen);
        if !position.moves.is_empty() {
            command.push_str(" moves ");
            command.push_str(&position.moves.join(" "));
        }
        self.send(&command)?;
        self.send("isready")?;
        self.wait_for("readyok", Instant::now() + handshake, handshake)?;

        let start = Instant::now();
        let deadline = start + timeout;
        self.send(&format!("go perft {depth}"))?;
        let mut divide = DivideReader::new(divide);
        loop {
            let line = self.next_line(deadline, timeout)?;
            // Stockfish's total label with something unreadable after it
            // is an answer too, a bad one.
            let stockfish_total = line.trim_start().starts_with("Nodes searched:");
            if total.is_match(&line) || stockfish_total {
                let seconds = start.elapsed().as_secs_f64();
                let Some(nodes) = find_total(&total, &line) else {
                    let output = self.process.as_ref().expect("started").tail();
                    let what = format!("{:?} is not a number the total pattern reads", line.trim());
                    return Err(self.fail(EngineError::Unparsable { what, output }));
                };
                return Ok(EngineRun { nodes, seconds, divide: divide.finish() });
            }
            divide.line(&line);
        }
    }
}
