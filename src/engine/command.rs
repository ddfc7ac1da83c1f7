//! A program run once per count, such as qperft or Gigantua.

use std::time::{Duration, Instant};

use regex::Regex;

use super::process::{Next, Process};
use super::{parse_divide_line, Engine, EngineError, EnginePosition, EngineRun};
use crate::board::{Board, CastlingMode, FenOptions};

/// A program started for every count from a template with `{depth}`,
/// `{fen}` and `{moves}` placeholders; the total is the first group of the
/// last match of a pattern in its output.
pub struct CommandEngine {
    name: String,
    template: Vec<String>,
    total: String,
}

impl CommandEngine {
    /// An engine run from `template`, its total found by `total` (a regular
    /// expression whose `{depth}` is replaced by the depth).
    pub fn new(name: &str, template: Vec<String>, total: String) -> Self {
        CommandEngine { name: name.to_string(), template, total }
    }

    /// The FEN after the position's moves: command-line programs take a FEN
    /// only, unless the template has a `{moves}` placeholder.
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
        Ok(board.fen())
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
        let fen = self.fen_for(position)?;
        let depth_text = depth.to_string();
        let moves = position.moves.join(" ");
        let words: Vec<String> = self
            .template
            .iter()
            .map(|w| w.replace("{depth}", &depth_text).replace("{fen}", &fen).replace("{moves}", &moves))
            .collect();
        let (program, args) = words.split_first().expect("spec has a program");
        let pattern = self.total.replace("{depth}", &regex::escape(&depth_text));
        let total = Regex::new(&format!("(?m){pattern}")).map_err(|e| EngineError::Io(e.to_string()))?;

        let start = Instant::now();
        let deadline = start + timeout;
        let mut process = Process::spawn(program, args, false)
            .map_err(|e| EngineError::Start { program: program.clone(), reason: e.to_string() })?;
        let mut output = String::new();
        let mut divide = Vec::new();
        loop {
            match process.next_line(deadline) {
                Next::Line(line) => {
                    if let Some(entry) = parse_divide_line(&line) {
                        divide.push(entry);
                    }
                    if output.len() < 1 << 20 {
                        output.push_str(&line);
                        output.push('\n');
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
            }
        }
        let Some(status) = process.wait(deadline) else {
            process.kill();
            return Err(EngineError::Timeout { seconds: timeout.as_secs_f64(), output: process.tail() });
        };
        let seconds = start.elapsed().as_secs_f64();
        if !status.success() {
            return Err(EngineError::Exited { status: status.to_string(), output: process.tail() });
        }
        let nodes = total
            .captures_iter(&output)
            .last()
            .and_then(|c| c.get(1))
            .and_then(|m| m.as_str().replace(',', "").parse::<u64>().ok());
        match nodes {
            Some(nodes) => Ok(EngineRun { nodes, seconds, divide: (!divide.is_empty()).then_some(divide) }),
            None => {
                Err(EngineError::Unparsable { what: format!("pattern {pattern}"), output: process.tail() })
            }
        }
    }
}
