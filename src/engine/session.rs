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
}

/// A divide as read: each move's count, in the order printed.
pub(crate) type Divide = Vec<(String, u128)>;

/// One question to an engine.
pub(crate) struct Question {
    /// The command that asks for the count, as sent.
    pub(crate) command: String,
    /// How its answer ends.
    pub(crate) ending: Ending,
    /// The engine has not answered a count yet: silence means it ignores
    /// the command.
    pub(crate) first: bool,
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

impl Session {
    /// A session for `command` (program and arguments), not yet started.
    pub(crate) fn new(command: Vec<String>, stop: Option<&'static AtomicBool>) -> Self {
        Session { command, process: None, stop, merge_stderr: false }
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
        let (program, args) = self.command.split_first().expect("spec has a program");
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
        let process = self.process();
        process.drain(DRAIN_QUIET, DRAIN_LIMIT);
        process.begin_answer();
    }

    /// Sends one line.
    pub(crate) fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let process = self.process();
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
            Next::Closed => match process.wait(Instant::now() + Duration::from_secs(1)) {
                Err(Cut::Stopped) => EngineError::Interrupted,
                waited => EngineError::Exited {
                    status: waited.ok().flatten().map_or("closed its output".into(), |s| s.to_string()),
                    output: process.tail(),
                },
            },
            Next::Cut(cut) => cut.error(process, timeout.unwrap_or_default()),
        };
        Err(self.fail(error))
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
    /// [`EngineError::NoPerft`], and so is silence until the deadline from
    /// an engine that has never answered (`question.first`).
    pub(crate) fn read_answer(
        &mut self,
        question: &Question,
        mut reader: AnswerReader,
        deadline: Instant,
        timeout: Duration,
    ) -> Result<(u128, Option<Divide>), EngineError> {
        let (command, ending) = (question.command.as_str(), question.ending);
        let mut latest = None;
        let mut ready = false;
        let mut lines = 0usize;
        loop {
            let line = match self.next_line(deadline, timeout) {
                Ok(line) => line,
                Err(EngineError::Timeout { seconds, .. }) if lines == 0 && question.first => {
                    let what =
                        format!("it printed nothing in {seconds:.1} s, and has not answered a count yet");
                    return Err(EngineError::NoPerft { command: command.into(), what, output: self.tail() });
                }
                Err(error) => return Err(error),
            };
            lines += 1;
            // `readyok` may end a line the engine left unfinished.
            let text = line.trim_end();
            let readyok = ending == Ending::ReadyOk && text.ends_with("readyok");
            let text = if readyok { &text[..text.len() - "readyok".len()] } else { text };
            match reader.line(text) {
                Said::Total(nodes) => {
                    latest = Some(nodes);
                    if ending == Ending::FirstTotal || ready || readyok {
                        break;
                    }
                }
                Said::Unreadable(line) => {
                    let what = format!("{line:?} is not a number the total pattern reads");
                    return Err(self.fail(EngineError::Unparsable { what, output: self.tail() }));
                }
                Said::Search(line) => {
                    let what = format!("it took it for a search ({line})");
                    let error = EngineError::NoPerft { command: command.into(), what, output: self.tail() };
                    return Err(self.fail(error));
                }
                Said::Nothing => {}
            }
            if readyok {
                ready = true;
                if latest.is_some() {
                    break;
                }
            }
        }
        Ok((latest.expect("read until a total"), reader.finish()))
    }
}
