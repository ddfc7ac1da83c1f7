//! What the harness asks of an engine: perft of a position to a depth,
//! with the divide where the engine prints one ([`Engine`]), and why a call
//! failed ([`EngineError`]). The `perft` tool drives UCI, console and
//! command-line engines through it; a Rust engine is driven in process
//! (see [`crate::rust`]).

use std::time::Duration;

use crate::board::Board;

/// Most output (standard output and error together) accepted for one
/// answer, in bytes.
pub const MAX_ANSWER_BYTES: usize = 16 << 20;

/// More divide lines than this in one answer is not a divide (no position
/// has more than 218 legal moves, nor the 682 a board of queens would
/// give): such an answer's divide is not read.
pub const MAX_DIVIDE_LINES: usize = 1024;

/// What an engine's output is said to be when it printed nothing.
pub const NO_OUTPUT: &str = "(no output)";

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

    /// The FEN an engine that takes a FEN only is given for this position,
    /// `reached` being the board after the moves: the FEN as written when
    /// there are none, else ours with the en-passant square kept whenever a
    /// pawn could capture pseudo-legally (an engine that tests legality
    /// only after generating needs it to show its bug).
    pub fn fen_only(&self, reached: &Board) -> String {
        if self.moves.is_empty() {
            self.fen.clone()
        } else {
            reached.fen_keeping_en_passant()
        }
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
    /// Lines that read as divide lines; more than [`MAX_DIVIDE_LINES`]
    /// is not a divide (and `divide` is `None`).
    pub divide_lines: usize,
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
    #[error("no node count found in its output ({what}){}; its last output:\n{output}", total_hint(output))]
    Unparsable {
        /// What was looked for.
        what: String,
        /// Its last lines.
        output: String,
    },
    /// The engine cannot count this position (a Chess960 position for an
    /// engine that does not read Chess960 castling).
    #[error("cannot count this position: {0}")]
    Unsupported(String),
    /// It printed more than [`MAX_ANSWER_BYTES`] without answering.
    #[error("printed more than {} MB without an answer (killed); its last output:\n{output}", MAX_ANSWER_BYTES >> 20)]
    Flood {
        /// Its last lines.
        output: String,
    },
    /// The engine does not count perft with this command: it took it for a
    /// search, or said nothing before it had ever answered a count.
    #[error("does not count perft with `{command}`: {what}; its last output:\n{output}")]
    NoPerft {
        /// The command, as sent.
        command: String,
        /// What it did instead.
        what: String,
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
    /// A pattern for reading its answers is unusable (the reason).
    #[error("{0}")]
    Pattern(String),
    /// The position could not be written for it (a FEN or a move that
    /// does not read).
    #[error("cannot write the position for it: {0}")]
    Position(String),
    /// It said it could not set the position (`fen entered is not
    /// valid`): the line it said. Its count would be of another position.
    #[error("it rejected the position: {0}")]
    Rejected(String),
}

/// A hint when an engine printed numbers but no total the pattern knows.
fn total_hint(output: &str) -> &'static str {
    if output.lines().any(|line| line.bytes().any(|b| b.is_ascii_digit())) {
        "; it printed numbers: if one of them is the total, say which with --total-regex"
    } else {
        ""
    }
}

impl EngineError {
    /// Whether the engine could not be started or did not finish its
    /// handshake: it answered nothing at all, and will probably fail the
    /// same way next time.
    pub fn is_startup(&self) -> bool {
        matches!(self, EngineError::Start { .. } | EngineError::Handshake(_))
    }

    /// Whether the program itself could not be started (missing, not
    /// executable): retrying cannot help.
    pub fn is_unstartable(&self) -> bool {
        matches!(self, EngineError::Start { .. })
    }

    /// Whether the engine is dead for the rest of a run: it could not be
    /// started, did not finish its handshake (said nothing, closed its
    /// pipes or died before `uciok`/`readyok`), or exited without printing
    /// anything at all. A crash mid-count, after it had answered before, is
    /// not: it may be the position's fault, and the engine is restarted.
    pub fn is_dead(&self) -> bool {
        match self {
            EngineError::Exited { output, .. } | EngineError::Unparsable { output, .. } => {
                output == NO_OUTPUT
            }
            EngineError::NoPerft { .. } => true,
            _ => self.is_startup(),
        }
    }

    /// The error in one short line, without the engine's output: for a
    /// title ("exited (signal: 6) before answering").
    pub fn summary(&self) -> String {
        let text = match self {
            EngineError::Handshake(inner) => format!("did not finish the UCI handshake: {}", inner.summary()),
            other => other.to_string(),
        };
        let first = text.lines().next().unwrap_or_default();
        let first = first.strip_suffix("; its last output:").unwrap_or(first);
        crate::board::whole_sentences(first, 120)
    }

    /// What to try when the engine does not count this way: probing.
    pub fn hint(&self) -> Option<&'static str> {
        matches!(self, EngineError::NoPerft { .. }).then_some(
            "give the program alone (--engine NAME=PROGRAM) and perft probes it for the perft command it \
             understands, or name the command: --engine 'NAME=uci,perft=perft {depth}:PROGRAM' (see \
             docs/engines.md)",
        )
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

    /// From now on, gives positions reached by moves as the FEN of the
    /// position reached (for an engine seen not to apply the moves after
    /// `position fen FEN moves ...`); false when it cannot, or does so
    /// already [default: false].
    fn give_positions_as_fens(&mut self) -> bool {
        false
    }
}
