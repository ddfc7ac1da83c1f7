//! A program run once per count, such as qperft or Gigantua.

use std::collections::VecDeque;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::answer::{find_total, AnswerFormat, Said};
use super::process::{Next, Process};
use super::template::{uses_moves, FenFields, Values};
use super::{Engine, EngineError, EnginePosition, EngineRun};

/// A program started for every count from a template with `{depth}`,
/// `{fen}`, `{moves}` and `{chess960}` (`true` or `false`) placeholders (a
/// word that is just `{moves}` is left out when there are none); the
/// total is the last match of the total pattern in its output, or else
/// what the answer reader's other rules find (a bare number, the divide's
/// sum).
pub struct CommandEngine {
    name: String,
    template: Vec<String>,
    format: AnswerFormat,
    chess960: bool,
    fen: FenFields,
    stop: Option<&'static AtomicBool>,
}

/// The total pattern is searched in at most the last this many bytes of
/// the output (whole lines).
const SEARCHED_OUTPUT_BYTES: usize = 1 << 20;

impl CommandEngine {
    /// An engine run from `template`, its answers read with `format`.
    pub fn new(name: &str, template: Vec<String>, format: AnswerFormat) -> Self {
        CommandEngine {
            name: name.to_string(),
            template,
            format,
            chess960: true,
            fen: FenFields::Six,
            stop: None,
        }
    }

    /// Whether the program reads Chess960 castling [default: assumed]; if
    /// not, Chess960 positions are [`EngineError::Unsupported`].
    pub fn with_chess960(mut self, chess960: bool) -> Self {
        self.chess960 = chess960;
        self
    }

    /// Writes its FENs with `fields` fields [default: six].
    pub fn with_fen_fields(mut self, fields: FenFields) -> Self {
        self.fen = fields;
        self
    }

    /// Calls give up (killing the program) once `stop` is raised.
    pub fn with_stop(mut self, stop: Option<&'static AtomicBool>) -> Self {
        self.stop = stop;
        self
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
        let uses_moves = uses_moves(self.template.iter().map(String::as_str));
        let values = Values::new(position, depth, uses_moves, self.fen)?;
        let words = values.fill_words(&self.template);
        let Some((program, args)) = words.split_first() else {
            return Err(EngineError::Start { program: String::new(), reason: "no program given".into() });
        };
        let total = self.format.total_regex(depth).map_err(|e| EngineError::Pattern(e.to_string()))?;
        let mut reader = self.format.reader(depth).map_err(|e| EngineError::Pattern(e.to_string()))?;

        let start = Instant::now();
        let deadline = start + timeout;
        let mut process = Process::spawn(program, args, false, self.stop)
            .map_err(|e| EngineError::Start { program: program.clone(), reason: e.to_string() })?;
        // The last lines, for the total pattern (it is normally at the end).
        let mut lines: VecDeque<String> = VecDeque::new();
        let mut kept_bytes = 0;
        // The total no pattern names, by the reader's other rules.
        let mut by_value = None;
        loop {
            match process.next_line(deadline) {
                Next::Line(line) => {
                    if let Said::Total(nodes) = reader.line(&line) {
                        by_value = Some(nodes);
                    }
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
        match find_total(&total, &output).or(by_value) {
            Some(nodes) => {
                let (divide, divide_lines) = reader.finish();
                Ok(EngineRun { nodes, seconds, divide, divide_lines })
            }
            None => Err(EngineError::Unparsable {
                what: match &self.format.total {
                    Some(pattern) => format!("--total-regex {pattern}"),
                    None => "none of the total forms it knows; --total-regex names another".into(),
                },
                output: process.tail(),
            }),
        }
    }

    fn give_positions_as_fens(&mut self) -> bool {
        let before = self.template.len();
        self.template.retain(|word| word != "{moves}");
        for word in self.template.iter_mut().filter(|w| w.contains("{moves}")) {
            *word = word.replace("{moves}", "");
        }
        self.template.len() != before
    }
}
