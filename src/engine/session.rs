//! An engine process kept running between counts and talked to line by
//! line: UCI engines and console engines share it.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::answer::{AnswerReader, Said};
use super::process::{Cut, Next, Process};
use super::EngineError;

/// How long leftover output is read before a new question: until the
/// engine has been quiet this long.
const DRAIN_QUIET: Duration = Duration::from_millis(5);
/// At most this long.
const DRAIN_LIMIT: Duration = Duration::from_millis(200);

/// One engine process, started on demand and restarted after a failure.
pub(crate) struct Session {
    command: Vec<String>,
    process: Option<Process>,
    stop: Option<&'static AtomicBool>,
    merge_stderr: bool,
    /// The current answer had a line saying a command is unknown.
    unknown_said: bool,
}

/// A divide as read: each move's count, in the order printed (if one was
/// printed and was not absurdly long), and the lines that read as divide
/// lines.
pub(crate) type Divide = (Option<Vec<(String, u128)>>, usize);

/// One question to an engine.
pub(crate) struct Question {
    /// The command that asks for the count, as sent.
    pub(crate) command: String,
    /// How its answer ends.
    pub(crate) ending: Ending,
    /// Before any total, once the engine has said something (a line, or
    /// `readyok`), the longest quiet spell accepted: past it the engine
    /// does not count this way ([`EngineError::NoPerft`]). For an engine
    /// that has not answered a count yet, and for probes; `None` otherwise
    /// (a slow count may be quiet for long).
    pub(crate) patience: Option<Duration>,
    /// Silence until the deadline from an engine that has not answered a
    /// count yet also means it ignores the command.
    pub(crate) first: bool,
    /// With [`Ending::FirstTotal`]: after the first total, lines that come
    /// within this are read too and the last total wins (an engine without
    /// `isready` may print a header that reads as a total, or a total
    /// twice); `None`: the first total ends the answer.
    pub(crate) settle: Option<Duration>,
}

/// How an answer ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ending {
    /// At the first line that gives a total (Stockfish's `go perft`).
    FirstTotal,
    /// At `readyok` (the engine was sent `isready` after the command), with
    /// the last total read before it; an engine that answers `readyok`
    /// before counting ends at the first total after it.
    ReadyOk,
}

/// The error for a program that closed one of its pipes (`what`, when its
/// exit status cannot be had): it is waited for, up to a second, and what it
/// printed last (a usage line, say, still on its way through the pipes) is
/// read before its tail is taken. [`EngineError::Interrupted`] if the stop
/// flag is raised meanwhile.
fn closed(process: &mut Process, what: &str) -> EngineError {
    match process.wait(Instant::now() + Duration::from_secs(1)) {
        Err(Cut::Stopped) => EngineError::Interrupted,
        waited => EngineError::Exited {
            status: waited.ok().flatten().map_or(what.into(), |s| s.to_string()),
            output: process.tail(),
        },
    }
}

impl Session {
    /// A session for `command` (program and arguments), not yet started.
    pub(crate) fn new(command: Vec<String>, stop: Option<&'static AtomicBool>) -> Self {
        Session { command, process: None, stop, merge_stderr: false, unknown_said: false }
    }

    /// Standard error's lines are read as answer lines too (from the next
    /// start).
    pub(crate) fn set_stderr(&mut self, merge: bool) {
        self.merge_stderr = merge;
    }

    /// Questions give up (killing the program) once `stop` is raised (from
    /// the next start).
    pub(crate) fn set_stop(&mut self, stop: Option<&'static AtomicBool>) {
        self.stop = stop;
    }

    /// Stops the program, if it runs; the next question starts it again.
    pub(crate) fn restart(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
    }

    pub(crate) fn command(&self) -> &[String] {
        &self.command
    }

    pub(crate) fn is_running(&self) -> bool {
        self.process.is_some()
    }

    /// Starts the program.
    pub(crate) fn start(&mut self) -> Result<(), EngineError> {
        let Some((program, args)) = self.command.split_first() else {
            return Err(EngineError::Start { program: String::new(), reason: "no program given".into() });
        };
        let mut process = Process::spawn(program, args, true, self.stop)
            .map_err(|e| EngineError::Start { program: program.clone(), reason: e.to_string() })?;
        process.merge_stderr(self.merge_stderr);
        self.process = Some(process);
        Ok(())
    }

    /// Stops the program (it is started again on the next question) and
    /// returns `error`.
    pub(crate) fn fail(&mut self, error: EngineError) -> EngineError {
        self.restart();
        error
    }

    fn process(&mut self) -> &mut Process {
        self.process.as_mut().expect("started")
    }

    /// The last lines the program printed.
    pub(crate) fn tail(&self) -> String {
        self.process.as_ref().map_or_else(|| super::process::NO_OUTPUT.into(), Process::tail)
    }

    /// Starts a new answer: its output budget, and leftover lines read.
    pub(crate) fn begin_answer(&mut self) {
        self.unknown_said = false;
        let process = self.process();
        process.drain(DRAIN_QUIET, DRAIN_LIMIT);
        process.begin_answer();
    }

    /// Whether the answer begun last had a line saying a command is
    /// unknown (`Unknown command: 'position ...'`).
    pub(crate) fn unknown_said(&self) -> bool {
        self.unknown_said
    }

    /// Sends one line.
    pub(crate) fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let process = self.process();
        if let Err(e) = process.send(line) {
            let error = if e.kind() == std::io::ErrorKind::BrokenPipe {
                closed(process, "closed its input")
            } else {
                EngineError::Io(e.to_string())
            };
            return Err(self.fail(error));
        }
        Ok(())
    }

    /// The next line; an engine that closes its output, says nothing
    /// before `deadline`, or floods its output is stopped and reported.
    pub(crate) fn next_line(&mut self, deadline: Instant, timeout: Duration) -> Result<String, EngineError> {
        match self.line_before(deadline, Some(timeout)) {
            Ok(line) => Ok(line.expect("a timeout is an error")),
            Err(error) => Err(error),
        }
    }

    /// The next line, or `None` once `deadline` passes (the program keeps
    /// running), when `timeout` is `None`; with a timeout, passing the
    /// deadline is [`EngineError::Timeout`] and stops the program. An
    /// engine that closes its output or floods it is stopped and reported.
    pub(crate) fn line_before(
        &mut self,
        deadline: Instant,
        timeout: Option<Duration>,
    ) -> Result<Option<String>, EngineError> {
        let process = self.process();
        let error = match process.next_line(deadline) {
            Next::Line(line) => return Ok(Some(line)),
            Next::Cut(Cut::Timeout) if timeout.is_none() => return Ok(None),
            Next::Closed => closed(process, "closed its output"),
            Next::Cut(cut) => cut.error(process, timeout.unwrap_or_default()),
        };
        Err(self.fail(error))
    }

    /// Reads what the program prints unprompted (its banner, before it is
    /// asked anything) until it has been quiet for `quiet`, for at most
    /// `limit`: those lines are never an answer. An exit meanwhile is
    /// [`EngineError::Exited`] (the program wants no input).
    pub(crate) fn banner(&mut self, quiet: Duration, limit: Duration) -> Result<Vec<String>, EngineError> {
        let end = Instant::now() + limit;
        let mut lines = Vec::new();
        loop {
            let until = (Instant::now() + quiet).min(end);
            match self.line_before(until, None)? {
                Some(line) => lines.push(line),
                None => return Ok(lines),
            }
            if Instant::now() >= end {
                return Ok(lines);
            }
        }
    }

    /// Reads lines until `readyok`; a line that says the position was
    /// rejected (see [`super::answer::is_rejection`]) is
    /// [`EngineError::Rejected`], and the engine is started again.
    pub(crate) fn wait_ready(&mut self, deadline: Instant, timeout: Duration) -> Result<(), EngineError> {
        loop {
            let line = self.next_line(deadline, timeout)?;
            if line.trim_end().ends_with("readyok") {
                return Ok(());
            }
            if super::answer::is_rejection(&line) {
                return Err(self.fail(EngineError::Rejected(line.trim().to_string())));
            }
        }
    }

    /// Reads lines until one starts with `prefix`.
    pub(crate) fn wait_for(
        &mut self,
        prefix: &str,
        deadline: Instant,
        timeout: Duration,
    ) -> Result<(), EngineError> {
        while !self.next_line(deadline, timeout)?.trim_start().starts_with(prefix) {}
        Ok(())
    }

    /// Reads the answer to `question.command` until it ends as `ending`
    /// says: its total, and the divide if one was printed. A search's
    /// answer (the engine took the command for `go`) is
    /// [`EngineError::NoPerft`], and so is a quiet spell past
    /// `question.patience` before any total, and silence until the deadline
    /// from an engine that has never answered (`question.first`).
    pub(crate) fn read_answer(
        &mut self,
        question: &Question,
        mut reader: AnswerReader,
        deadline: Instant,
        timeout: Duration,
    ) -> Result<(u128, Divide), EngineError> {
        let mut state = AnswerState { latest: None, ready: false, heard: false, settle_until: None };
        loop {
            // The earliest of the deadline, the patience after the last
            // line, and the settling window.
            let patience = question.patience.filter(|_| state.heard && state.latest.is_none());
            let quiet_until = patience.map(|p| Instant::now() + p);
            let until = [Some(deadline), quiet_until, state.settle_until]
                .into_iter()
                .flatten()
                .min()
                .unwrap_or(deadline);
            let line = match self.line_before(until, None) {
                Ok(Some(line)) => line,
                Ok(None) => match self.quiet_end(question, &state, until >= deadline, timeout) {
                    Ok(()) => break,
                    Err(error) => return Err(error),
                },
                Err(error) => return Err(error),
            };
            state.heard = true;
            if self.take_line(question, &mut reader, &mut state, &line)? {
                break;
            }
        }
        Ok((state.latest.expect("read until a total"), reader.finish()))
    }

    /// Reads one line of an answer; true when the answer is complete.
    fn take_line(
        &mut self,
        question: &Question,
        reader: &mut AnswerReader,
        state: &mut AnswerState,
        line: &str,
    ) -> Result<bool, EngineError> {
        self.unknown_said |= says_unknown(line);
        // `readyok` may end a line the engine left unfinished.
        let text = line.trim_end();
        let readyok = question.ending == Ending::ReadyOk && text.ends_with("readyok");
        let text = if readyok { &text[..text.len() - "readyok".len()] } else { text };
        match reader.line(text) {
            Said::Total(nodes) => {
                let first = state.latest.is_none();
                state.latest = Some(nodes);
                match (question.ending, question.settle) {
                    (Ending::FirstTotal, Some(settle)) => state.settle_until = Some(Instant::now() + settle),
                    (Ending::FirstTotal, None) if first => return Ok(true),
                    _ if state.ready || readyok => return Ok(true),
                    _ => {}
                }
            }
            Said::Unreadable(line) => {
                let what = format!("{line:?} is not a number the total pattern reads");
                return Err(self.fail(EngineError::Unparsable { what, output: self.tail() }));
            }
            Said::Rejected(line) => return Err(self.fail(EngineError::Rejected(line))),
            Said::Search(line) => {
                let what = format!("it took it for a search ({line})");
                return Err(self.fail(EngineError::NoPerft {
                    command: question.command.clone(),
                    what,
                    output: self.tail(),
                }));
            }
            Said::Nothing => {}
        }
        if readyok {
            state.ready = true;
            return Ok(state.latest.is_some());
        }
        Ok(false)
    }

    /// The engine said nothing until `until`: the settled end of an answer,
    /// or why there is none (the engine is stopped).
    fn quiet_end(
        &mut self,
        question: &Question,
        state: &AnswerState,
        at_deadline: bool,
        timeout: Duration,
    ) -> Result<(), EngineError> {
        if state.latest.is_some() {
            return Ok(()); // settled, or a total without the `readyok` after it
        }
        let command = question.command.clone();
        let what = if !at_deadline {
            let quiet = question.patience.unwrap_or_default().as_secs_f64();
            format!("it answered without a count, then said nothing for {quiet:.1} s")
        } else if !state.heard && question.first {
            format!("it printed nothing in {:.1} s, and has not answered a count yet", timeout.as_secs_f64())
        } else {
            return Err(
                self.fail(EngineError::Timeout { seconds: timeout.as_secs_f64(), output: self.tail() })
            );
        };
        Err(self.fail(EngineError::NoPerft { command, what, output: self.tail() }))
    }
}

/// What an answer has given so far.
struct AnswerState {
    /// The last total read.
    latest: Option<u128>,
    /// `readyok` came.
    ready: bool,
    /// The engine said something.
    heard: bool,
    /// The settling window after a total ends here.
    settle_until: Option<Instant>,
}

/// Whether a line says a command is not known (`Unknown command: 'x'`,
/// `unrecognized command`, `x: command not found`).
pub(crate) fn says_unknown(line: &str) -> bool {
    let line = line.to_ascii_lowercase();
    [
        "unknown",
        "unrecognized",
        "unrecognised",
        "not a command",
        "no such command",
        "not found",
        "invalid command",
    ]
    .iter()
    .any(|w| line.contains(w))
}
