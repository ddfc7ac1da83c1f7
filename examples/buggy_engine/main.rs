//! An engine with planted move-generation bugs, for testing `perft check`
//! and `perft debug` (and for trying them out). It speaks the perft
//! dialects real engines speak, each in the output format of a common
//! kind of engine:
//!
//! ```text
//! buggy_engine [OPTIONS]                          UCI (`go perft N`), and a console command (`perft N`)
//! buggy_engine [OPTIONS] --perft DEPTH FEN [MOVE...]   one count, then exit
//! buggy_engine [OPTIONS] --cli [DEPTH FEN [MOVES]]     the same, perftree's way: usage and exit 1 without arguments
//! buggy_engine [OPTIONS] --interactive            `position FEN [moves ...]`, `perft N`, `quit` at a prompt
//! ```
//!
//! Bugs:
//! - `--bug ep`: never generates en-passant captures.
//! - `--bug ep-pin`: generates en-passant captures without the king-safety
//!   test (the most common real bug: a pinned capturer, or a rank opened
//!   onto its king). It keeps the en-passant square as FEN gives it or a
//!   double push leaves it, legal capture or not.
//! - `--bug underpromotion`: promotes to a queen only.
//! - `--bug rook-promotion`: never promotes to a rook.
//! - `--bug no-king-safety`: generates every pseudo-legal move (no legality
//!   test at all).
//! - `--bug leaf-ep-pin`: lists its moves right, but its count-only path
//!   for the last ply (bulk counting) counts en-passant captures by a
//!   pinned pawn.
//! - `--bug leaf-pin`: the same, for knights, bishops, rooks and queens
//!   leaving the line of their pin (when not in check).
//! - `--bug leaf-king`: the same, for the king stepping onto an attacked
//!   square (when not in check).
//! - `--bug leaf-promotion`: lists its moves right, but its count-only path
//!   counts each pawn move onto the last rank once, not once per piece.
//! - `--bug leaf-ep`: lists its moves right, but its count-only path leaves
//!   out en-passant captures.
//! - `--bug duplicate`: lists the first pawn double push twice.
//! - `--bug divide-off`: its divide three plies deep or more counts its
//!   first move one node too many (and its total with it); asked that
//!   move's position directly, it counts right.
//! - `--bug first-answer`: its first count two plies deep or more is one
//!   node too many; asked again, it counts right.
//! - `--bug castling-rights`: keeps a castling right after its rook is
//!   captured on its square (a king or rook move still removes it), and
//!   castles with it through an empty path.
//! - `--bug castling-path`: castles with the right and the king safe, but
//!   with pieces between the king and the rook.
//! - `--bug ep-lapse`: keeps an en-passant square past the move after its
//!   double push, and captures onto it while the pushed pawn stands.
//! - `--bug no-block`: in check, moves only its king: never blocks the
//!   check or captures the checker with another piece or a pawn.
//! - `--bug mate-node`: counts a position without legal moves (checkmate
//!   or stalemate) below the one asked as a node; asked at that position,
//!   it sums its empty divide, 0, as Go engines that print a divide do.
//! - `--crash-on FEN`: aborts when asked to count the position whose first
//!   four FEN fields are these.
//! - `--crash-after N`: aborts when asked for a count after its first N.
//!
//! With `BUGGY_ENGINE_LOG=FILE` it appends a line to FILE at each start, so
//! tests can count the processes started.
//!
//! Dialects:
//! - `--go-perft search|silent`: `go perft N` starts a search (`info ...`
//!   then `bestmove`), or is ignored until `stop`, as in engines whose
//!   perft is a command of their own.
//! - `--perft-command WORDS`: the console command that counts (`perft`
//!   by default; `perft depth`, `divide`, `go perft depth`, ...), taken in
//!   the UCI loop and at the prompt.
//! - `--no-uci`: answers `uci` and `isready` with "Unknown command".
//! - `--setboard`: sets positions with `setboard FEN` (and not `position`).
//! - `--start-delay MS`: sleeps before reading its input (a slow start).
//! - `--count-delay MS`: a one-shot count (`--perft`, `--cli`) loads for
//!   this long before it counts, but a usage message comes at once.
//!
//! Output:
//! - `--no-divide`: prints only the total, like engines without a divide;
//!   `--divide-from D` prints a divide only at depth D or more (a
//!   count-only path one ply deep).
//! - `--format F`: how the divide and the total are printed:
//!   `stockfish` (`e2e4: 20`, `Nodes searched: 400`), `dash` (`e2e4 - 20`,
//!   `Total: 400`), `space` (`e2e4 20`, `Nodes: 400`), `nodes`
//!   (`e2e4: 20 nodes`, `Perft total: 400`), `move` (`Move e2e4: 20`,
//!   `Total nodes: 400`), `moves` (`e2e4: 20`, `Moves       197,742`),
//!   `bare` (no label: the total alone on its line) or `odd` (`20 <- e2e4`,
//!   `leaves 400`, which only `--divide-regex` and `--total-regex` can
//!   read), or `perftree` (`e2e4 20`, a blank line, `400`: what the
//!   perftree debugger reads).
//! - `--no-chess960`: does not offer `UCI_Chess960` (and refuses Chess960
//!   castling).
//! - `--quirk Q` (repeatable), answers as some real engines do: `stderr`
//!   (the answer on standard error), `utf8` (a line of non-ASCII text
//!   first), `moves-header` (`Moves: N` first), `late-total=MS` (the total
//!   said again MS milliseconds later), `per-depth-info` (`go perft N`
//!   answers `info depth d nodes n` for each depth), `threaded=MS` (counts
//!   on a thread MS milliseconds later: `readyok` comes first),
//!   `exit-on-unknown`, `ignore-moves` (`position` reads the FEN, not the
//!   moves), `divide-sum-off` (the total is one more than the divide's
//!   sum).

use std::io::{BufRead, Write};
use std::time::Duration;

use perft::board::STARTPOS_FEN;

mod careless;
mod movegen;

use careless::Listed;
use movegen::{count, count_after, listed, Bug, Position};

/// A count two plies deep or more was answered (for `--bug first-answer`).
static ANSWERED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// What `--bug divide-off` and `--bug first-answer` add to the first move's
/// count of a divide at `depth`.
fn off_by(bug: Bug, depth: u32) -> u64 {
    let first = depth >= 2 && !ANSWERED.swap(true, std::sync::atomic::Ordering::Relaxed);
    u64::from((bug == Bug::DivideOff && depth >= 3) || (bug == Bug::FirstAnswer && first))
}

#[derive(Clone, Copy, PartialEq)]
enum Format {
    Stockfish,
    Dash,
    Space,
    Nodes,
    Move,
    Moves,
    Bare,
    Odd,
    Perftree,
}

#[derive(Clone, Copy, PartialEq)]
enum GoPerft {
    Counts,
    Search,
    Silent,
}

#[derive(Clone)]
struct Options {
    bug: Bug,
    crash_on: Option<String>,
    crash_after: Option<usize>,
    divide_from: u32,
    format: Format,
    chess960: bool,
    go_perft: GoPerft,
    perft_command: Vec<String>,
    uci: bool,
    setboard: bool,
    quirks: Quirks,
    /// Milliseconds a one-shot count loads before it counts (not before a
    /// usage message).
    count_delay: u64,
}

/// Ways of answering that real engines have, which a harness must read.
#[derive(Clone, Copy, Default)]
struct Quirks {
    /// The answer goes to standard error.
    stderr: bool,
    /// A line of non-ASCII text before each answer.
    utf8: bool,
    /// `Moves: N` (the number of legal moves) before each answer.
    moves_header: bool,
    /// The total said again this many milliseconds after the answer.
    late_total: Option<u64>,
    /// `go perft N` answers `info depth d nodes n` for each depth up to N.
    per_depth_info: bool,
    /// Counts on a thread of its own, this many milliseconds later
    /// (`readyok` comes first).
    threaded: Option<u64>,
    /// Exits on a command it does not know.
    exit_on_unknown: bool,
    /// `position ... moves ...` reads the FEN and not the moves.
    ignore_moves: bool,
    /// The divide's total is one more than its sum.
    divide_sum_off: bool,
}

/// `n` with commas between groups of three digits.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn print_divide_line(out: &mut impl Write, format: Format, mv: &str, nodes: u64) {
    let _ = match format {
        Format::Stockfish | Format::Moves => writeln!(out, "{mv}: {nodes}"),
        Format::Dash => writeln!(out, "{mv} - {nodes}"),
        Format::Space | Format::Perftree | Format::Bare => writeln!(out, "{mv} {nodes}"),
        Format::Nodes => writeln!(out, "{mv}: {nodes} nodes"),
        Format::Move => writeln!(out, "Move {mv}: {nodes}"),
        Format::Odd => writeln!(out, "{nodes} <- {mv}"),
    };
}

fn print_total(out: &mut impl Write, format: Format, total: u64) {
    let _ = match format {
        Format::Stockfish => writeln!(out, "\nNodes searched: {total}\n"),
        Format::Dash => writeln!(out, "Total: {total}"),
        Format::Space => writeln!(out, "Nodes: {total}"),
        Format::Nodes => writeln!(out, "Perft total: {total}"),
        Format::Move => writeln!(out, "Total nodes: {total}"),
        Format::Moves => writeln!(out, "Moves       {}", thousands(total)),
        Format::Bare => writeln!(out, "{total}"),
        Format::Odd => writeln!(out, "leaves {total}"),
        Format::Perftree => writeln!(out, "\n{total}"),
    };
}

/// Counts `depth` plies below `position` and prints the answer, with the
/// quirks asked for.
fn answer(position: &mut Position, depth: u32, options: &Options, chess960: bool) {
    let quirks = options.quirks;
    let mut text = Vec::new();
    if quirks.utf8 {
        let _ = writeln!(text, "Zählung läuft — ♔ perft {depth} …");
    }
    if quirks.moves_header {
        let _ = writeln!(text, "Moves: {}", listed(&position.board, position.state, options.bug).len());
    }
    let total = perft(position, depth, options, chess960, &mut text);
    let mut out: Box<dyn Write> =
        if quirks.stderr { Box::new(std::io::stderr()) } else { Box::new(std::io::stdout()) };
    let _ = out.write_all(&text);
    let _ = out.flush();
    if let Some(ms) = quirks.late_total {
        std::thread::sleep(Duration::from_millis(ms));
        let _ = writeln!(out, "Total nodes: {total}");
        let _ = out.flush();
    }
}

/// `go perft N` as `info depth d nodes n` lines, one per depth.
fn per_depth_info(position: &mut Position, depth: u32, bug: Bug, out: &mut impl Write) {
    for d in 1..=depth {
        let nodes = count(&mut position.board, position.state, d, bug);
        let _ = writeln!(out, "info depth {d} nodes {nodes} time 1");
    }
}

/// Counts `depth` plies below `position`, prints the divide and total, and
/// returns the total.
fn perft(
    position: &mut Position,
    depth: u32,
    options: &Options,
    chess960: bool,
    out: &mut impl Write,
) -> u64 {
    let key: String = position.board.fen().split(' ').take(4).collect::<Vec<_>>().join(" ");
    static COUNTS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let asked = COUNTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    if options.crash_on.as_deref() == Some(key.as_str()) || options.crash_after.is_some_and(|n| asked >= n) {
        std::process::abort();
    }
    if depth < options.divide_from {
        let total =
            count(&mut position.board, position.state, depth, options.bug) + off_by(options.bug, depth);
        print_total(out, options.format, total);
        return total;
    }
    let mut total = 0;
    let mut off = off_by(options.bug, depth);
    let (bug, state) = (options.bug, position.state);
    for item in listed(&position.board, state, bug) {
        let text = match &item {
            Listed::Move(mv) => mv.uci(chess960 || position.board.is_chess960()).to_string(),
            Listed::MadeUp { text, .. } => text.clone(),
        };
        let below =
            if depth <= 1 { 1 } else { count_after(&mut position.board, state, item, depth - 1, bug) };
        let nodes = std::mem::take(&mut off) + below;
        total += nodes;
        print_divide_line(out, options.format, &text, nodes);
    }
    let total = total + u64::from(options.quirks.divide_sum_off);
    print_total(out, options.format, total);
    total
}

/// `position startpos|fen FEN [moves ...]` (UCI and the prompt alike).
fn parse_position(words: &[&str], chess960: bool, bug: Bug) -> Result<Position, String> {
    let end = words.iter().position(|w| *w == "moves").unwrap_or(words.len());
    let moves = words.get(end + 1..).unwrap_or(&[]);
    match words.get(1) {
        Some(&"fen") => Position::new(&words[2..end].join(" "), moves, chess960, bug),
        _ => Position::new(STARTPOS_FEN, moves, chess960, bug),
    }
}

/// The depth after the perft command's words, if `words` start with them.
fn perft_command_depth(words: &[&str], command: &[String]) -> Option<u32> {
    let n = command.len();
    let matches = words.len() == n + 1 && words[..n].iter().zip(command).all(|(w, c)| w == c);
    matches.then(|| words[n].parse().ok()).flatten()
}

fn parse_options(args: &[String]) -> (Options, Option<Vec<String>>, bool, bool, u64) {
    let mut options = Options {
        bug: Bug::None,
        crash_on: None,
        crash_after: None,
        divide_from: 1,
        format: Format::Stockfish,
        chess960: true,
        go_perft: GoPerft::Counts,
        perft_command: vec!["perft".into()],
        uci: true,
        setboard: false,
        quirks: Quirks::default(),
        count_delay: 0,
    };
    let (mut one_shot, mut interactive, mut cli, mut delay) = (None, false, false, 0);
    let mut i = 1;
    while i < args.len() {
        let value = args.get(i + 1).map(String::as_str);
        match args[i].as_str() {
            "--bug" => {
                options.bug = value.and_then(Bug::named).unwrap_or_else(|| panic!("unknown bug {value:?}"));
                i += 1;
            }
            "--crash-after" => {
                options.crash_after = Some(value.and_then(|v| v.parse().ok()).expect("--crash-after N"));
                i += 1;
            }
            "--crash-on" => {
                options.crash_on = value.map(|f| f.split_whitespace().take(4).collect::<Vec<_>>().join(" "));
                i += 1;
            }
            "--format" => {
                options.format = match value {
                    Some("stockfish") => Format::Stockfish,
                    Some("dash") => Format::Dash,
                    Some("space") => Format::Space,
                    Some("nodes") => Format::Nodes,
                    Some("move") => Format::Move,
                    Some("moves") => Format::Moves,
                    Some("bare") => Format::Bare,
                    Some("odd") => Format::Odd,
                    Some("perftree") => Format::Perftree,
                    other => panic!("unknown format {other:?}"),
                };
                i += 1;
            }
            "--go-perft" => {
                options.go_perft = match value {
                    Some("search") => GoPerft::Search,
                    Some("silent") => GoPerft::Silent,
                    other => panic!("unknown --go-perft {other:?}"),
                };
                i += 1;
            }
            "--perft-command" => {
                options.perft_command =
                    value.unwrap_or("perft").split_whitespace().map(String::from).collect();
                i += 1;
            }
            "--divide-from" => {
                options.divide_from = value.and_then(|v| v.parse().ok()).expect("--divide-from D");
                i += 1;
            }
            "--start-delay" => {
                delay = value.and_then(|v| v.parse().ok()).expect("--start-delay MS");
                i += 1;
            }
            "--quirk" => {
                let q = &mut options.quirks;
                match value {
                    Some("stderr") => q.stderr = true,
                    Some("utf8") => q.utf8 = true,
                    Some("moves-header") => q.moves_header = true,
                    Some("per-depth-info") => q.per_depth_info = true,
                    Some("exit-on-unknown") => q.exit_on_unknown = true,
                    Some("ignore-moves") => q.ignore_moves = true,
                    Some("divide-sum-off") => q.divide_sum_off = true,
                    Some(v) if v.starts_with("late-total=") => q.late_total = v[11..].parse().ok(),
                    Some(v) if v.starts_with("threaded=") => q.threaded = v[9..].parse().ok(),
                    other => panic!("unknown quirk {other:?}"),
                }
                i += 1;
            }
            "--no-divide" => options.divide_from = u32::MAX,
            "--no-chess960" => options.chess960 = false,
            "--no-uci" => options.uci = false,
            "--setboard" => options.setboard = true,
            "--count-delay" => {
                options.count_delay = args[i + 1].parse().expect("--count-delay MS");
                i += 1;
            }
            "--interactive" => interactive = true,
            "--perft" | "--cli" => {
                cli = args[i] == "--cli";
                one_shot = Some(args[i + 1..].to_vec());
                break;
            }
            other => panic!("unknown argument {other}"),
        }
        i += 1;
    }
    (options, one_shot, interactive, cli, delay)
}

/// One count from the command line, then exit.
fn count_once(rest: &[String], options: &Options, cli: bool) {
    let usage = || {
        eprintln!("usage: buggy_engine [OPTIONS] --cli DEPTH FEN [MOVES]");
        std::process::exit(1);
    };
    if rest.len() < 2 {
        if cli {
            usage();
        }
        panic!("--perft DEPTH FEN [MOVE...]");
    }
    let Ok(depth) = rest[0].parse::<u32>() else { return usage() };
    let moves: Vec<&str> = rest[2..].iter().flat_map(|m| m.split_whitespace()).collect();
    match Position::new(&rest[1], &moves, false, options.bug) {
        Ok(mut position) => {
            std::thread::sleep(Duration::from_millis(options.count_delay));
            perft(&mut position, depth, options, false, &mut std::io::stdout());
        }
        Err(e) => {
            eprintln!("bad position: {e}");
            std::process::exit(1);
        }
    }
}

/// What `go perft N` does when it is not a perft: a search's output.
fn fake_search(position: &Position, out: &mut impl Write) {
    let best =
        position.board.legal_moves().into_iter().next().map_or("0000".into(), |m| position.board.uci(m));
    let _ = writeln!(out, "info depth 1 seldepth 1 score cp 12 nodes 20 nps 20000 pv {best}");
    let _ = writeln!(out, "bestmove {best}");
}

/// An engine at its prompt or in its UCI loop.
struct Loop {
    options: Options,
    position: Position,
    chess960: bool,
    interactive: bool,
    /// `go perft` ignored: the search it started, ended by `stop`.
    searching: bool,
}

impl Loop {
    /// Answers one command; false to quit.
    fn command(&mut self, line: &str, out: &mut impl Write) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let options = &self.options;
        if let Some(depth) = perft_command_depth(&words, &options.perft_command) {
            self.count(depth);
            return true;
        }
        match words.first().copied() {
            Some("uci") if options.uci && !self.interactive => {
                let _ = writeln!(out, "id name buggy-engine");
                if options.chess960 {
                    let _ = writeln!(out, "option name UCI_Chess960 type check default false");
                }
                let _ = writeln!(out, "uciok");
            }
            Some("isready") if options.uci => {
                let _ = writeln!(out, "readyok");
            }
            Some("setoption") if line.contains("UCI_Chess960") && options.chess960 => {
                self.chess960 = line.trim_end().ends_with("true")
            }
            Some("position") if !options.setboard => {
                let words = if options.quirks.ignore_moves {
                    &words[..words.iter().position(|w| *w == "moves").unwrap_or(words.len())]
                } else {
                    &words[..]
                };
                self.set(parse_position(words, self.chess960, options.bug), out);
            }
            Some("setboard") if options.setboard => {
                self.set(Position::new(&words[1..].join(" "), &[], self.chess960, options.bug), out)
            }
            Some("go") if words.get(1) == Some(&"perft") => match options.go_perft {
                GoPerft::Counts => self.count(words.get(2).and_then(|d| d.parse().ok()).unwrap_or(1)),
                GoPerft::Search => fake_search(&self.position, out),
                GoPerft::Silent => self.searching = true,
            },
            Some("stop") if self.searching => {
                self.searching = false;
                fake_search(&self.position, out);
            }
            Some("help") if self.interactive => {
                let _ = writeln!(out, "position fen FEN [moves ...] | perft N | quit");
            }
            Some("quit") => return false,
            Some(_) => {
                let _ = writeln!(out, "Unknown command: '{line}'. Type help for more information.");
                return !options.quirks.exit_on_unknown;
            }
            None => {}
        }
        true
    }

    fn set(&mut self, position: Result<Position, String>, out: &mut impl Write) {
        match position {
            Ok(position) => self.position = position,
            Err(e) => {
                let _ = writeln!(out, "error: {e}");
            }
        }
    }

    /// A count asked: answered now, or on a thread of its own.
    fn count(&mut self, depth: u32) {
        let options = &self.options;
        if options.quirks.per_depth_info {
            per_depth_info(&mut self.position, depth, options.bug, &mut std::io::stdout());
            return;
        }
        let Some(ms) = options.quirks.threaded else {
            answer(&mut self.position, depth, options, self.chess960);
            return;
        };
        let mut position = self.position.clone();
        let options = Options { perft_command: Vec::new(), crash_on: None, ..self.options.clone() };
        let chess960 = self.chess960;
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(ms));
            answer(&mut position, depth, &options, chess960);
        });
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (options, one_shot, interactive, cli, delay) = parse_options(&args);
    if let Some(log) = std::env::var_os("BUGGY_ENGINE_LOG") {
        let mut file = std::fs::OpenOptions::new().create(true).append(true).open(log).expect("the log file");
        let _ = writeln!(file, "start {}", std::process::id());
    }
    if let Some(rest) = one_shot {
        count_once(&rest, &options, cli);
        return;
    }
    std::thread::sleep(Duration::from_millis(delay));
    let mut out = std::io::stdout();
    if interactive || !options.uci {
        let _ = write!(out, "buggy engine, type help\n{}", if interactive { "> " } else { "" });
        let _ = out.flush();
    }
    let position = Position::new(STARTPOS_FEN, &[], false, options.bug).expect("start position");
    let mut engine = Loop { options, position, chess960: false, interactive, searching: false };
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if !engine.command(&line, &mut out) {
            break;
        }
        if interactive {
            let _ = write!(out, "> ");
        }
        let _ = out.flush();
    }
}
