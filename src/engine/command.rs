//! A program run once per count, such as qperft or Gigantua.

use std::collections::VecDeque;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::answer::{find_total, AnswerFormat, DivideReader};
use super::process::{Next, Process};
use super::{Engine, EngineError, EnginePosition, EngineRun};
use crate::board::{Board, CastlingMode, FenOptions};

/// A program started for every count from a template with `{depth}`,
/// `{fen}`, `{moves}` and `{chess960}` (`true` or `false`) placeholders;
/// the total is the first group of the
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

    /// The FEN for `{fen}`: the root as written when the template has a
    /// `{moves}` placeholder, else [`EnginePosition::fen_only`].
    fn fen_for(&self, position: &EnginePosition) -> Result<String, EngineError> {
        if position.moves.is_empty() || self.template.iter().any(|w| w.contains("{moves}")) {
            return Ok(position.fen.clone());
        }
        let options = FenOptions { castling: CastlingMode::from_chess960(position.chess960), relaxed: true };
        let mut board =
            Board::from_fen_with(&position.fen, options).map_err(|e| EngineError::Position(e.to_string()))?;
        for mv in &position.moves {
            board.play_uci(mv).map_err(|e| EngineError::Position(e.to_string()))?;
        }
        Ok(position.fen_only(&board))
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
        let chess960_text = if position.chess960 { "true" } else { "false" };
        let fen = self.fen_for(position)?;
        let depth_text = depth.to_string();
        let moves = position.moves.join(" ");
        let words: Vec<String> = self
            .template
            .iter()
            .map(|w| {
                w.replace("{depth}", &depth_text)
                    .replace("{fen}", &fen)
                    .replace("{moves}", &moves)
                    .replace("{chess960}", chess960_text)
            })
            .collect();
        let (program, args) = words.split_first().expect("spec has a program");
        let (total, divide) = self.format.regexes(depth).map_err(EngineError::Pattern)?;

        let start = Instant::now();
        let deadline = start + timeout;
        let mut process = Process::spawn(program, args, false, self.stop)
            .map_err(|e| EngineError::Start { program: program.clone(), reason: e.to_string() })?;
        // The last lines, for the total pattern (it is normally at the end).
        let mut lines: VecDeque<String> = VecDeque::new();
        let mut kept_bytes = 0;
        let mut divide = DivideReader::new(divide);
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
                Next::Cut(cut) => {
                    process.kill();
                    return Err(cut.error(&process, timeout));
                }
            }
        }
        // Output closed: the program has exited (or is about to).
        let status = match process.wait(deadline) {
            Ok(status) => status,
            Err(cut) => {
                process.kill();
                return Err(cut.error(&process, timeout));
            }
        };
        let seconds = start.elapsed().as_secs_f64();
        if !status.is_some_and(|s| s.success()) {
            let status = status.map_or("status unknown".into(), |s| s.to_string());
            return Err(EngineError::Exited { status, output: process.tail() });
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
