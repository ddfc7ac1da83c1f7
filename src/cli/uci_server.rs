//! `perft uci`: a minimal UCI engine whose `go perft` prints the divide as
//! Stockfish does, so anything that drives Stockfish's perft can drive ours.

use std::io::{BufRead, Write};

use anyhow::Result;
use perft::board::{truncate_chars, Board, CastlingMode, FenOptions, STARTPOS_FEN};
use perft::counting::{
    divide_with_progress, thread_pool, CountOptions, KeySet, Mode, PerftTable, MAX_THREADS,
};

use super::{output, resolve, EXIT_OK};

struct UciServer {
    board: Board,
    chess960: bool,
    /// Size of the table `go perft` uses, in MiB (0: no table).
    hash_mb: u64,
    /// Allocated at the first `go perft` after the size is set, and kept
    /// across positions (entries are keyed by position and depth).
    table: Option<(u64, PerftTable)>,
    /// Worker threads `go perft` uses (1 to [`MAX_THREADS`]).
    threads: usize,
    /// Why the last `position` command failed: `go perft` is refused until
    /// a position is set again, rather than counting some other position.
    position_error: Option<String>,
    /// Built at the first `go perft` after the thread count is set, so
    /// `setoption` itself never starts threads.
    pool: Option<(usize, rayon::ThreadPool)>,
}

impl UciServer {
    fn set_position(&mut self, words: &[&str]) -> Result<(), String> {
        let (fen, rest) = match words.first() {
            Some(&"startpos") => (STARTPOS_FEN.to_string(), &words[1..]),
            Some(&"fen") => {
                let end = words.iter().position(|w| *w == "moves").unwrap_or(words.len());
                (words[1..end].join(" "), &words[end..])
            }
            _ => return Err("expected `position startpos` or `position fen FEN`".into()),
        };
        let options = FenOptions { castling: CastlingMode::from_chess960(self.chess960), relaxed: true };
        let mut board = Board::from_fen_with(&fen, options).map_err(|e| format!("bad FEN: {e}"))?;
        match rest.split_first() {
            None => {}
            Some((&"moves", moves)) => {
                for mv in moves {
                    board.play_uci(mv).map_err(|e| e.to_string())?;
                }
            }
            Some((word, _)) => {
                return Err(format!(
                    "expected `moves` after the position, not {:?}",
                    truncate_chars(word, 40)
                ))
            }
        }
        // Only a position read whole replaces the one there: a failed
        // command leaves the previous position as it was.
        self.board = board;
        Ok(())
    }

    fn perft(&mut self, depth: u32, out: &mut dyn Write) -> std::io::Result<()> {
        if self.hash_mb == 0 {
            self.table = None;
        } else if self.table.as_ref().is_none_or(|(mb, _)| *mb != self.hash_mb) {
            self.table = None; // free the old table before allocating the new one
            match PerftTable::new(self.hash_mb, KeySet::Primary) {
                Ok(table) => self.table = Some((self.hash_mb, table)),
                Err(e) => writeln!(out, "info string {e}; counting without a table")?,
            }
        }
        if self.pool.as_ref().is_none_or(|(n, _)| *n != self.threads) {
            self.pool = None; // end the old workers before starting new ones
            match thread_pool(self.threads) {
                Ok(pool) => self.pool = Some((self.threads, pool)),
                Err(e) => {
                    writeln!(out, "info string cannot start {} threads ({e}); set fewer", self.threads)?;
                    return Ok(());
                }
            }
        }
        let pool = &self.pool.as_ref().expect("just built").1;
        let search =
            CountOptions { table: self.table.as_ref().map(|(_, t)| t), ..CountOptions::new(Mode::Bulk) };
        let divide: Vec<(perft::types::Move, u128)> = if depth == 0 {
            Vec::new()
        } else {
            pool.install(|| divide_with_progress(&self.board, depth, &search, &|_, _| {}))
                .into_iter()
                .filter_map(|(mv, n)| Some((mv, n?)))
                .collect()
        };
        let nodes: u128 = if depth == 0 { 1 } else { divide.iter().map(|&(_, n)| n).sum() };
        output::print_divide(out, divide.into_iter().map(|(mv, n)| (self.board.uci(mv), n)), nodes)
    }
}

/// What `help` prints.
const HELP: &str = "commands:
  uci                               identify, list the options, uciok
  isready                           readyok
  setoption name Threads value N    worker threads for go perft (1 to 1024)
  setoption name Hash value MB      table of subtree counts (0: none; 16 by default)
  setoption name UCI_Chess960 value true|false
  ucinewgame                        back to the start position
  position startpos|fen FEN [moves M...]
  go perft N                        divide and total, as Stockfish prints them
  d                                 show the position
  quit";

/// Table size before any `setoption name Hash`, in MiB (Stockfish's default).
const DEFAULT_HASH_MB: u64 = 16;

/// The longest command line read, in bytes (a `position` with a thousand
/// moves takes about 6 kB); a longer one is skipped, and said so.
const MAX_COMMAND_BYTES: usize = 1 << 20;

/// One line of input, read in bounded memory.
enum Input {
    /// A line, without its line ending.
    Line(Vec<u8>),
    /// A line longer than [`MAX_COMMAND_BYTES`], skipped: its length.
    TooLong(usize),
}

/// The next line of `reader`, or `None` at the end of input; a line over
/// [`MAX_COMMAND_BYTES`] is read through to its end without being kept.
fn next_input(reader: &mut impl BufRead) -> std::io::Result<Option<Input>> {
    let mut line = Vec::new();
    let mut length = 0usize;
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            return Ok((length > 0).then(|| finish(line, length)));
        }
        let (taken, ended) = match buffer.iter().position(|&b| b == b'\n') {
            Some(end) => (end + 1, true),
            None => (buffer.len(), false),
        };
        let part = &buffer[..taken - usize::from(ended)];
        if length + part.len() <= MAX_COMMAND_BYTES {
            line.extend_from_slice(part);
        }
        length += part.len();
        reader.consume(taken);
        if ended {
            return Ok(Some(finish(line, length)));
        }
    }
}

fn finish(mut line: Vec<u8>, length: usize) -> Input {
    if length > MAX_COMMAND_BYTES {
        return Input::TooLong(length);
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Input::Line(line)
}

pub fn uci() -> Result<u8> {
    super::EXIT_ON_SIGNAL.store(true, std::sync::atomic::Ordering::SeqCst);
    let threads = resolve::threads(None)?;
    let mut engine = UciServer {
        board: Board::startpos(),
        chess960: false,
        hash_mb: DEFAULT_HASH_MB,
        table: None,
        threads,
        pool: None,
        position_error: None,
    };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    // Engines greet at start; some drivers (perftree) wait for a line.
    writeln!(
        out,
        "perft {} by the perft developers (type help for the commands)",
        env!("CARGO_PKG_VERSION")
    )?;
    out.flush()?;
    let mut input = stdin.lock();
    while let Some(read) = next_input(&mut input)? {
        let Some(line) = readable(read, &mut out)? else { continue };
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() == Some(&"quit") {
            break;
        }
        engine.command(&words, &mut out)?;
        out.flush()?;
    }
    Ok(EXIT_OK)
}

/// The line read as text; a line that is not UTF-8, or too long, is said
/// to be ignored (`None`).
fn readable(read: Input, out: &mut dyn Write) -> Result<Option<String>> {
    let said = match read {
        Input::Line(bytes) => match String::from_utf8(bytes) {
            Ok(line) => return Ok(Some(line)),
            Err(_) => "a line that is not UTF-8 text was ignored".to_string(),
        },
        Input::TooLong(bytes) => {
            format!("a line of {bytes} bytes was ignored (at most {MAX_COMMAND_BYTES} are read)")
        }
    };
    writeln!(out, "info string {said}")?;
    out.flush()?;
    Ok(None)
}

impl UciServer {
    /// Answers one command (its words; not `quit`).
    fn command(&mut self, words: &[&str], out: &mut dyn Write) -> Result<()> {
        match words.first().copied() {
            None => {}
            Some("uci") => {
                writeln!(out, "id name perft {}", env!("CARGO_PKG_VERSION"))?;
                writeln!(out, "id author the perft developers")?;
                writeln!(
                    out,
                    "option name Threads type spin default {} min 1 max {MAX_THREADS}",
                    self.threads
                )?;
                writeln!(out, "option name Hash type spin default {DEFAULT_HASH_MB} min 0 max 1048576")?;
                writeln!(out, "option name UCI_Chess960 type check default false")?;
                writeln!(out, "uciok")?;
            }
            Some("isready") => writeln!(out, "readyok")?,
            Some("ucinewgame") => {
                self.board = Board::startpos();
                self.position_error = None;
            }
            Some("help") => writeln!(out, "{HELP}")?,
            Some("setoption") => self.set_option(words, out)?,
            Some("position") => {
                self.position_error = self.set_position(&words[1..]).err();
                if let Some(e) = &self.position_error {
                    writeln!(out, "info string {e}")?;
                }
            }
            Some("go") => self.go(words, out)?,
            Some("d") => {
                write!(out, "{}", self.board.pretty())?;
                let checkers: Vec<String> =
                    self.board.checkers().into_iter().map(|s| s.to_string()).collect();
                writeln!(out, "Checkers: {}", checkers.join(" "))?;
            }
            Some(other) => writeln!(
                out,
                "Unknown command: '{}'. Type help for more information.",
                truncate_chars(other, 40)
            )?,
        }
        Ok(())
    }

    /// `setoption name NAME [value VALUE]`: UCI_Chess960, Threads, Hash.
    fn set_option(&mut self, words: &[&str], out: &mut dyn Write) -> Result<()> {
        let name_end = words.iter().position(|w| *w == "value").unwrap_or(words.len());
        let name = words.get(2..name_end).map(|w| w.join(" ")).unwrap_or_default();
        let value = words.get(name_end + 1..).map(|w| w.join(" ")).unwrap_or_default();
        match name.to_ascii_lowercase().as_str() {
            "uci_chess960" => {
                self.chess960 = value.eq_ignore_ascii_case("true");
                if self.board.set_chess960(self.chess960).is_err() {
                    writeln!(out, "info string the current position needs Chess960 castling")?;
                }
            }
            "threads" => match value.parse::<u64>() {
                Ok(n) if n > MAX_THREADS as u64 => {
                    self.threads = MAX_THREADS;
                    writeln!(out, "info string Threads {n} is above the maximum; using {MAX_THREADS}")?;
                }
                Ok(n) if n >= 1 => self.threads = n as usize,
                _ => writeln!(out, "info string bad Threads value {value:?}")?,
            },
            "hash" => match value.parse::<u64>().map(|mb| (mb, perft::memory::table_fits(mb))) {
                Ok((mb, Ok(()))) if mb <= 1 << 20 => self.hash_mb = mb,
                Ok((_, Err(limit))) => {
                    let kept = self.hash_mb;
                    writeln!(out, "info string Hash {limit}; keeping {kept} MB")?
                }
                _ => writeln!(out, "info string bad Hash value {value:?}")?,
            },
            _ => writeln!(out, "info string unknown option {name:?}")?,
        }
        Ok(())
    }

    /// `go perft N`; anything else is said to be unsupported.
    fn go(&mut self, words: &[&str], out: &mut dyn Write) -> Result<()> {
        match (words.get(1), words.get(2).and_then(|d| d.parse::<u32>().ok())) {
            (Some(&"perft"), Some(_)) if self.position_error.is_some() => writeln!(
                out,
                "info string error: not counting, the last position command failed ({})",
                self.position_error.as_deref().unwrap_or_default()
            )?,
            (Some(&"perft"), Some(depth)) if depth <= perft::counting::MAX_DEPTH => self.perft(depth, out)?,
            (Some(&"perft"), Some(depth)) => writeln!(
                out,
                "info string depth {depth} is beyond the {} plies supported",
                perft::counting::MAX_DEPTH
            )?,
            _ => writeln!(out, "info string only `go perft N` is supported")?,
        }
        Ok(())
    }
}
