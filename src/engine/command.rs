//! A program run once per count, such as qperft or Gigantua.

use std::collections::VecDeque;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::answer::{find_total, AnswerFormat, DivideReader};
use super::process::{Next, Process};
use super::{Engine, EngineError, EnginePosition, EngineRun};
use crate::board::{Board, CastlingMode, FenOptions};

/// A program started for every count from a template with `{depth}`,
/// `{fen}` and `{moves}` placeholders; the total is the first group of the
/// last match of a pattern in its output.
pub struct CommandEngine {
    name: String,
    template: Vec<String>,
    format: AnswerFormat,
    chess960: bool,
    stop: Option<&'static AtomicBool>,
}

/// The total pattern is searched in at most the last this many bytes of
/// the output (whole lines).
const SEARCHED_OUTPUT_BYTES: usize = 1 << 20;

impl CommandEngine {
    /// An engine run from `template`, its answers read with `format`.
    pub fn new(name: &str, template: Vec<String>, format: AnswerFormat) -> Self {
        CommandEngine { name: name.to_string(), template, format, chess960: true, stop: None }
    }

    /// Whether the program reads Chess960 castling [default: assumed]; if
    /// not, Chess960 positions are [`EngineError::Unsupported`].
    pub fn with_chess960(mut self, chess960: bool) -> Self {
        self.chess960 = chess960;
        self
    }

    /// Calls give up (killing the program) once `stop` is raised.
    pub fn with_stop(mut self, stop: Option<&'static AtomicBool>) -> Self {
        self.stop = stop;
        self
    }

    /// The FEN after the position's moves: command-line programs take a FEN
    /// only, unless the template has a `{moves}` placeholder. The
    /// en-passant square is kept whenever a pawn could capture
    /// pseudo-legally: an engine that tests legality only after generating
    /// needs it to show its bug.
    fn fen_for(&self, position: &EnginePosition) -> Result<String, EngineError> {
        if position.moves.is_empty() || self.template.iter().any(|w| w.contains("{moves}")) {
            return Ok(position.fen.clone());
        }
        let options = FenOptions { castling: CastlingMode::from_chess960(position.chess960), relaxed: true };
        let mut board =
            Board::from_fen_with(&position.fen, options).map_err(|e| EngineError::Io(e.to_string()))?;
        for mv in &position.moves {
            board.play_uci(mv).map_err(|e| EngineError::Io(e.to_string()))?;
        }
        Ok(board.fen_keeping_en_passant())
    }
}

impl Engine for CommandEngine {
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
                "a Chess960 position, which this program does not read".into(),
            ));
        }
        let fen = self.fen_for(position)?;
        let depth_text = depth.to_string();
        let moves = position.moves.join(" ");
        let words: Vec<String> = self
            .template
            .iter()
            .map(|w| w.replace("{depth}", &depth_text).replace("{fen}", &fen).replace("{moves}", &moves))
            .collect();
        let (program, args) = words.split_first().expect("spec has a program");
        let (total, divide) = match (self.format.total_regex(depth), self.format.divide_regex()) {
            (Ok(total), Ok(divide)) => (total, divide),
            (Err(e), _) | (_, Err(e)) => return Err(EngineError::Io(e.to_string())),
        };

        let start = Instant::now();
        let deadline = start + timeout;
        let mut process = Process::spawn(program, args, false, self.stop)
            .map_err(|e| EngineError::Start { program: program.clone(), reason: e.to_string() })?;
        // The last lines, for the total pattern (it is normally at the end).
        let mut lines: VecDeque<String> = VecDeque::new();
        let mut kept_bytes = 0;
        let mut divide = DivideReader::new(divide);
        let failure = |process: &mut Process, error: fn(String) -> EngineError| {
            process.kill();
            Err(error(process.tail()))
        };
        loop {
            match process.next_line(deadline) {
                Next::Line(line) => {
                    divide.line(&line);
                    kept_bytes += line.len() + 1;
                    lines.push_back(line);
                    while kept_bytes > SEARCHED_OUTPUT_BYTES && lines.len() > 1 {
                        kept_bytes -= lines.pop_front().map_or(0, |l| l.len() + 1);
                    }
                }
                Next::Closed => break,
                Next::Timeout => {
                    process.kill();
                    return Err(EngineError::Timeout {
                        seconds: timeout.as_secs_f64(),
                        output: process.tail(),
                    });
                }
                Next::Flood => return failure(&mut process, |output| EngineError::Flood { output }),
                Next::Stopped => return failure(&mut process, |_| EngineError::Interrupted),
            }
        }
        // Output closed: the program has exited (or is about to).
        let Some(status) = process.wait(deadline) else {
            process.kill();
            if self.stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed)) {
                return Err(EngineError::Interrupted);
            }
            return Err(EngineError::Timeout { seconds: timeout.as_secs_f64(), output: process.tail() });
        };
        let seconds = start.elapsed().as_secs_f64();
        if !status.success() {
            return Err(EngineError::Exited { status: status.to_string(), output: process.tail() });
        }
        let mut output = String::with_capacity(kept_bytes);
        for line in &lines {
            output.push_str(line);
            output.push('\n');
        }
        match find_total(&total, &output) {
            Some(nodes) => Ok(EngineRun { nodes, seconds, divide: divide.finish() }),
            None => Err(EngineError::Unparsable {
                what: format!("pattern {}", total.as_str()),
                output: process.tail(),
            }),
        }
    }
}
