//! Drivers for other programs' perft: UCI engines (`go perft`) and command
//! templates such as qperft, all behind one [`Engine`] trait.
//!
//! An engine that fails to start, exits, hangs past its deadline, floods
//! its output or prints something unreadable yields an [`EngineError`] that
//! carries the last lines it printed; a UCI engine that died is restarted
//! on the next call. Every engine runs in a process group of its own, killed
//! as a whole when the engine stops, fails or is dropped; [`kill_all`] ends
//! every engine still alive at once.

mod command;
mod process;
mod uci;

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

pub use command::CommandEngine;
pub use process::{kill_all, MAX_ANSWER_BYTES};
pub use uci::UciEngine;

/// A position to hand to an engine: a FEN and moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnginePosition {
    /// The starting FEN.
    pub fen: String,
    /// UCI moves played from it (Chess960 notation when `chess960`).
    pub moves: Vec<String>,
    /// Whether castling is Chess960 (the engine is told `UCI_Chess960`).
    pub chess960: bool,
}

impl EnginePosition {
    /// A position without moves.
    pub fn new(fen: impl Into<String>, chess960: bool) -> Self {
        EnginePosition { fen: fen.into(), moves: Vec::new(), chess960 }
    }
}

/// What one perft call returned.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineRun {
    /// The total the engine reported.
    pub nodes: u128,
    /// Wall time of the call, measured from outside the engine.
    pub seconds: f64,
    /// Per-move counts, when the engine printed them (`move: count` lines).
    pub divide: Option<Vec<(String, u128)>>,
}

/// Why an engine call failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EngineError {
    /// The program could not be started.
    #[error("cannot start {program}: {reason}")]
    Start {
        /// The program.
        program: String,
        /// The operating system's reason.
        reason: String,
    },
    /// The program ended before answering.
    #[error("exited ({status}) before answering; its last output:\n{output}")]
    Exited {
        /// Exit status as text.
        status: String,
        /// Its last lines.
        output: String,
    },
    /// No answer before the deadline; the program was killed.
    #[error("no answer within {seconds:.1} s (killed); its last output:\n{output}")]
    Timeout {
        /// The deadline.
        seconds: f64,
        /// Its last lines.
        output: String,
    },
    /// The output did not contain a count.
    #[error("no node count found in its output ({what}); its last output:\n{output}")]
    Unparsable {
        /// What was looked for.
        what: String,
        /// Its last lines.
        output: String,
    },
    /// It printed more than [`MAX_ANSWER_BYTES`] without answering.
    #[error("printed more than {} MB without an answer (killed); its last output:\n{output}", MAX_ANSWER_BYTES >> 20)]
    Flood {
        /// Its last lines.
        output: String,
    },
    /// A UCI engine did not finish `uci` / `isready`.
    #[error("did not finish the UCI handshake: {0}")]
    Handshake(Box<EngineError>),
    /// The caller's stop flag was raised (a signal); the engine was stopped.
    #[error("stopped by an interrupt")]
    Interrupted,
    /// Talking to it failed.
    #[error("i/o error talking to it: {0}")]
    Io(String),
}

impl EngineError {
    /// Whether the engine could not be started or did not finish its
    /// handshake: it answered nothing at all, and will probably fail the
    /// same way next time.
    pub fn is_startup(&self) -> bool {
        matches!(self, EngineError::Start { .. } | EngineError::Handshake(_))
    }
}

/// A program that can count perft.
pub trait Engine: Send {
    /// The name used in reports.
    fn name(&self) -> &str;
    /// Perft of `position` to `depth`, within `timeout`.
    ///
    /// # Errors
    /// [`EngineError`] when the engine fails in any way; the engine object
    /// stays usable (a dead engine is restarted on the next call).
    fn perft(
        &mut self,
        position: &EnginePosition,
        depth: u32,
        timeout: Duration,
    ) -> Result<EngineRun, EngineError>;
}

/// How to run an engine, as given on the command line (`NAME=SPEC`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineSpec {
    /// `uci:PROGRAM [ARGS...]`: a UCI engine driven with `position` and
    /// `go perft N`, the total read from `Nodes searched:`.
    Uci {
        /// The program and its arguments.
        command: Vec<String>,
    },
    /// `cmd:TEMPLATE`, `qperft:PATH` or `gigantua:PATH`: a program run once
    /// per count, its total found by a regular expression.
    Command {
        /// Program and arguments with `{depth}`, `{fen}` and `{moves}`
        /// placeholders.
        template: Vec<String>,
        /// Pattern whose first group is the total; `{depth}` is replaced by
        /// the depth. The last match in the output wins.
        total: String,
    },
}

/// How engines built from a spec are run.
#[derive(Clone, Copy, Debug)]
pub struct EngineOptions {
    /// Threads a UCI engine is told to use (its `Threads` option); command
    /// engines choose their own.
    pub threads: Option<usize>,
    /// Once raised, a call in progress kills the engine and returns
    /// [`EngineError::Interrupted`].
    pub stop: Option<&'static AtomicBool>,
    /// The longest a UCI engine may take to answer `uci` and each
    /// `isready`.
    pub handshake: Duration,
}

/// The default handshake limit of UCI engines.
pub const DEFAULT_HANDSHAKE: Duration = Duration::from_secs(30);

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions { threads: None, stop: None, handshake: DEFAULT_HANDSHAKE }
    }
}

/// Output formats with a known total pattern (for `cmd` engines).
pub const PRESETS: &[(&str, &str, &str)] = &[
    // (name, default template after the program, total pattern)
    ("qperft", "{depth} {fen}", r"perft\(\s*{depth}\)\s*=\s*(\d+)"),
    ("gigantua", "{fen} {depth}", r"Perft {depth}:\s*(\d+)"),
];

/// The total pattern of plain `cmd:` engines: `Nodes searched: N`,
/// `nodes = N`, `Nodes: N` (commas allowed).
pub const DEFAULT_TOTAL_PATTERN: &str = r"(?i)\bnodes(?:\s+searched)?\s*[:=]\s*([\d,]+)";

/// Why an engine spec could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad engine spec {spec:?}: {reason}")]
pub struct SpecError {
    spec: String,
    reason: String,
}

impl EngineSpec {
    /// Reads `uci:...`, `cmd:...`, `qperft:...` or `gigantua:...`.
    /// `total_pattern` overrides the total pattern of command engines.
    ///
    /// # Errors
    /// [`SpecError`] for an unknown kind, an empty command, a template
    /// without `{depth}`, or a pattern that is not a regular expression with
    /// one group.
    pub fn parse(spec: &str, total_pattern: Option<&str>) -> Result<EngineSpec, SpecError> {
        let error = |reason: &str| SpecError { spec: spec.to_string(), reason: reason.to_string() };
        let (kind, rest) = spec
            .split_once(':')
            .ok_or_else(|| error("expected uci:COMMAND, cmd:TEMPLATE, qperft:PATH or gigantua:PATH"))?;
        let words = shlex::split(rest).ok_or_else(|| error("unbalanced quotes"))?;
        if words.is_empty() {
            return Err(error("no program given"));
        }
        let parsed = match kind {
            "uci" => EngineSpec::Uci { command: words },
            "cmd" => EngineSpec::Command {
                template: words,
                total: total_pattern.unwrap_or(DEFAULT_TOTAL_PATTERN).to_string(),
            },
            preset => {
                let &(_, arguments, pattern) = PRESETS
                    .iter()
                    .find(|(name, _, _)| *name == preset)
                    .ok_or_else(|| error("unknown kind; expected uci, cmd, qperft or gigantua"))?;
                let mut template = words;
                if !template.iter().any(|w| w.contains('{')) {
                    template.extend(arguments.split(' ').map(str::to_string));
                }
                EngineSpec::Command { template, total: total_pattern.unwrap_or(pattern).to_string() }
            }
        };
        if let EngineSpec::Command { template, total } = &parsed {
            if !template.iter().any(|w| w.contains("{depth}")) {
                return Err(error("the command template has no {depth} placeholder"));
            }
            let regex = regex::Regex::new(&total.replace("{depth}", "1"))
                .map_err(|e| error(&format!("bad total pattern: {e}")))?;
            if regex.captures_len() < 2 {
                return Err(error("the total pattern needs a group around the number"));
            }
        }
        Ok(parsed)
    }

    /// An engine for this spec, set up as `options` say.
    pub fn build(&self, name: &str, options: &EngineOptions) -> Box<dyn Engine> {
        match self {
            EngineSpec::Uci { command } => {
                let mut engine = UciEngine::new(name, command.clone())
                    .with_stop(options.stop)
                    .with_handshake_timeout(options.handshake);
                if let Some(threads) = options.threads {
                    engine.set_option("Threads", &threads.to_string());
                }
                Box::new(engine)
            }
            EngineSpec::Command { template, total } => {
                Box::new(CommandEngine::new(name, template.clone(), total.clone()).with_stop(options.stop))
            }
        }
    }
}

impl fmt::Display for EngineSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineSpec::Uci { command } => {
                write!(f, "uci:{}", shlex::try_join(command.iter().map(String::as_str)).unwrap_or_default())
            }
            EngineSpec::Command { template, .. } => {
                write!(f, "cmd:{}", shlex::try_join(template.iter().map(String::as_str)).unwrap_or_default())
            }
        }
    }
}

/// More divide lines than this in one answer is not a divide (no position
/// has more than 682 legal moves); the lines are then ignored.
pub(crate) const MAX_DIVIDE_LINES: usize = 1024;

/// Reads a `move: count` divide line (`e2e4: 20`, also `e2e4 20`).
pub(crate) fn parse_divide_line(line: &str) -> Option<(String, u128)> {
    let line = line.trim();
    let (mv, count) = line.split_once(':').or_else(|| line.split_once(' '))?;
    let mv = mv.trim();
    let bytes = mv.as_bytes();
    let square =
        |i: usize| matches!(bytes.get(i), Some(b'a'..=b'h')) && matches!(bytes.get(i + 1), Some(b'1'..=b'8'));
    let valid = (mv.len() == 4 || (mv.len() == 5 && matches!(bytes[4], b'q' | b'r' | b'b' | b'n')))
        && square(0)
        && square(2);
    if !valid {
        return None;
    }
    let count = count.trim().replace(',', "");
    Some((mv.to_string(), count.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs() {
        assert_eq!(
            EngineSpec::parse("uci:/usr/games/stockfish", None).unwrap(),
            EngineSpec::Uci { command: vec!["/usr/games/stockfish".into()] }
        );
        let q = EngineSpec::parse("qperft:./qperft", None).unwrap();
        assert_eq!(
            q,
            EngineSpec::Command {
                template: vec!["./qperft".into(), "{depth}".into(), "{fen}".into()],
                total: PRESETS[0].2.into()
            }
        );
        let g = EngineSpec::parse("gigantua:'/opt/gig antua'", None).unwrap();
        assert!(
            matches!(g, EngineSpec::Command { ref template, .. } if template[0] == "/opt/gig antua" && template[1] == "{fen}")
        );
        assert!(EngineSpec::parse("cmd:./x {depth} {fen}", Some(r"total (\d+)")).is_ok());
        for bad in ["stockfish", "uci:", "foo:bar", "cmd:./x {fen}", "cmd:'unbalanced"] {
            assert!(EngineSpec::parse(bad, None).is_err(), "{bad}");
        }
        assert!(EngineSpec::parse("cmd:./x {depth}", Some("no group")).is_err());
        assert!(EngineSpec::parse("cmd:./x {depth}", Some("(unclosed")).is_err());
    }

    #[test]
    fn divide_lines() {
        assert_eq!(parse_divide_line("e2e4: 20"), Some(("e2e4".into(), 20)));
        assert_eq!(parse_divide_line("a7a8q: 1,234"), Some(("a7a8q".into(), 1234)));
        assert_eq!(parse_divide_line("e1h1 9"), Some(("e1h1".into(), 9)));
        assert_eq!(parse_divide_line("Nodes searched: 20"), None);
        assert_eq!(parse_divide_line("info depth 1"), None);
        assert_eq!(parse_divide_line("e2e4: x"), None);
    }
}
