//! A child process read line by line with deadlines, robust to whatever it
//! prints: lines are cut at a length limit, bytes decoded lossily, and the
//! last lines kept for error messages.

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// Longest line kept; the rest of a longer line is dropped.
const MAX_LINE: usize = 64 * 1024;
/// Lines of output kept for error messages.
const TAIL_LINES: usize = 30;

enum Event {
    Stdout(String),
    Stderr(String),
    StdoutClosed,
}

/// What waiting for a line gave.
pub(crate) enum Next {
    /// A line of standard output (without the line ending).
    Line(String),
    /// Standard output closed: the process ended or closed it.
    Closed,
    /// The deadline passed.
    Timeout,
}

pub(crate) struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    tail: VecDeque<String>,
    stdout_closed: bool,
}

fn pump(mut source: impl Read + Send + 'static, out: mpsc::Sender<Event>, is_stdout: bool) {
    thread::spawn(move || {
        let mut buffer = [0u8; 8192];
        let mut line: Vec<u8> = Vec::new();
        let send = |line: &mut Vec<u8>| {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            let text = String::from_utf8_lossy(line).into_owned();
            line.clear();
            let event = if is_stdout { Event::Stdout(text) } else { Event::Stderr(text) };
            out.send(event).is_ok()
        };
        loop {
            match source.read(&mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    for &byte in &buffer[..n] {
                        if byte == b'\n' {
                            if !send(&mut line) {
                                return;
                            }
                        } else if line.len() < MAX_LINE {
                            line.push(byte);
                        }
                    }
                }
            }
        }
        if !line.is_empty() {
            send(&mut line);
        }
        if is_stdout {
            let _ = out.send(Event::StdoutClosed);
        }
    });
}

impl Process {
    /// Starts `program` with `args`; stdin is a pipe when `interactive`,
    /// otherwise empty (so a program waiting for a key press goes on).
    pub(crate) fn spawn(program: &str, args: &[String], interactive: bool) -> std::io::Result<Process> {
        let mut command = Command::new(program);
        // Its own process group on Unix: a Ctrl-C at the terminal interrupts
        // this program, which then stops the engine itself, instead of
        // killing the engine mid-count.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .args(args)
            .stdin(if interactive { Stdio::piped() } else { Stdio::null() })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let (sender, events) = mpsc::channel();
        pump(child.stdout.take().expect("piped"), sender.clone(), true);
        pump(child.stderr.take().expect("piped"), sender, false);
        let stdin = child.stdin.take();
        Ok(Process { child, stdin, events, tail: VecDeque::new(), stdout_closed: false })
    }

    /// Sends one line to the process's standard input.
    pub(crate) fn send(&mut self, line: &str) -> std::io::Result<()> {
        let stdin = self.stdin.as_mut().ok_or_else(|| std::io::Error::other("stdin is closed"))?;
        writeln!(stdin, "{line}")?;
        stdin.flush()
    }

    fn remember(&mut self, line: &str) {
        if self.tail.len() == TAIL_LINES {
            self.tail.pop_front();
        }
        self.tail.push_back(line.chars().take(300).collect());
    }

    /// The next line of standard output, waiting until `deadline`.
    pub(crate) fn next_line(&mut self, deadline: Instant) -> Next {
        if self.stdout_closed {
            return Next::Closed;
        }
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(wait) {
                Ok(Event::Stdout(line)) => {
                    self.remember(&line);
                    return Next::Line(line);
                }
                Ok(Event::Stderr(line)) => self.remember(&format!("(stderr) {line}")),
                Ok(Event::StdoutClosed) | Err(RecvTimeoutError::Disconnected) => {
                    self.stdout_closed = true;
                    return Next::Closed;
                }
                Err(RecvTimeoutError::Timeout) => return Next::Timeout,
            }
        }
    }

    /// Waits for the process to exit until `deadline`, draining its output.
    pub(crate) fn wait(&mut self, deadline: Instant) -> Option<ExitStatus> {
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                // Collect what is still buffered for error messages.
                while let Ok(event) = self.events.recv_timeout(Duration::from_millis(20)) {
                    match event {
                        Event::Stdout(line) => self.remember(&line),
                        Event::Stderr(line) => self.remember(&format!("(stderr) {line}")),
                        Event::StdoutClosed => self.stdout_closed = true,
                    }
                }
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(Duration::from_micros(200));
        }
    }

    /// Stops the process for good.
    pub(crate) fn kill(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The last lines it printed (standard error marked), for error messages.
    pub(crate) fn tail(&self) -> String {
        if self.tail.is_empty() {
            return "(no output)".into();
        }
        self.tail.iter().cloned().collect::<Vec<_>>().join("\n")
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.send("quit");
            self.stdin = None;
            let deadline = Instant::now() + Duration::from_millis(300);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                thread::sleep(Duration::from_millis(5));
            }
            self.kill();
        }
    }
}
