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
//! - `--bug duplicate`: lists the first pawn double push twice.
//! - `--bug divide-off`: its divide three plies deep or more counts its
//!   first move one node too many (and its total with it); asked that
//!   move's position directly, it counts right.
//! - `--bug first-answer`: its first count two plies deep or more is one
//!   node too many; asked again, it counts right.
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

use std::io::{BufRead, Write};
use std::time::Duration;

use perft::attacks::pawn_attacks;
use perft::bisect::pseudo_legal_moves;
use perft::board::{Board, CastlingMode, FenOptions, STARTPOS_FEN};
use perft::{Move, MoveKind, PieceKind, Square};

#[derive(Clone, Copy, PartialEq)]
enum Bug {
    None,
    EnPassant,
    EnPassantPin,
    Underpromotion,
    RookPromotion,
    NoKingSafety,
    LeafEnPassantPin,
    Duplicate,
    DivideOff,
    FirstAnswer,
}

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

/// A position as this engine sees it: the board, and the en-passant square
/// kept the careless way (any double push, legal capture or not).
struct Position {
    board: Board,
    en_passant: Option<Square>,
}

impl Position {
    fn new(fen: &str, moves: &[&str], chess960: bool) -> Result<Position, String> {
        let options = FenOptions { castling: CastlingMode::from_chess960(chess960), relaxed: true };
        let board = Board::from_fen_with(fen, options).map_err(|e| e.to_string())?;
        let en_passant = fen.split_whitespace().nth(3).and_then(|s| s.parse().ok());
        let mut position = Position { board, en_passant };
        for text in moves {
            let mv = position.board.parse_uci(text).map_err(|e| e.to_string())?;
            position.en_passant = double_push_square(mv);
            position.board.make(mv);
        }
        Ok(position)
    }
}

/// The square a double push skipped.
fn double_push_square(mv: Move) -> Option<Square> {
    (mv.kind() == MoveKind::DoublePush).then(|| Square::index((mv.from() as usize + mv.to() as usize) / 2))
}

/// En-passant captures onto `ep` by every pawn beside the pushed pawn,
/// legal or not.
fn careless_ep_captures(board: &Board, en_passant: Option<Square>) -> Vec<Move> {
    let Some(ep) = en_passant else { return Vec::new() };
    let us = board.side_to_move();
    let victim = Square::index(ep as usize ^ 8);
    let pushed = board.piece_on(victim).is_some_and(|p| p.kind() == PieceKind::Pawn && p.color() != us);
    if !pushed || board.piece_on(ep).is_some() {
        return Vec::new();
    }
    let capturers = pawn_attacks(!us, ep) & board.colored(us, PieceKind::Pawn);
    capturers.into_iter().map(|from| Move::new(from, ep, MoveKind::EnPassant)).collect()
}

/// The moves this engine lists.
fn moves(board: &Board, en_passant: Option<Square>, bug: Bug) -> Vec<Move> {
    let mut list: Vec<Move> = match bug {
        Bug::NoKingSafety => pseudo_legal_moves(board, en_passant),
        _ => board.legal_moves().into_iter().collect(),
    };
    list.retain(|m| match bug {
        Bug::EnPassant => !m.is_en_passant(),
        Bug::Underpromotion => m.promotion().is_none_or(|p| p == PieceKind::Queen),
        Bug::RookPromotion => m.promotion() != Some(PieceKind::Rook),
        _ => true,
    });
    // After an illegal move the side to move may be able to take the king;
    // like any engine, this one never generates king captures.
    list.retain(|m| board.piece_on(m.to()).is_none_or(|p| p.kind() != PieceKind::King));
    if bug == Bug::EnPassantPin {
        for capture in careless_ep_captures(board, en_passant) {
            if !list.contains(&capture) {
                list.push(capture);
            }
        }
    }
    if bug == Bug::Duplicate {
        if let Some(&double) = list.iter().find(|m| m.kind() == MoveKind::DoublePush) {
            list.push(double);
        }
    }
    list
}

/// The count one ply deep, by the count-only path (no move list).
fn leaf_count(board: &Board, en_passant: Option<Square>, bug: Bug) -> u64 {
    let listed = moves(board, en_passant, bug).len() as u64;
    if bug != Bug::LeafEnPassantPin {
        return listed;
    }
    let legal = board.legal_moves();
    listed + careless_ep_captures(board, en_passant).iter().filter(|m| !legal.contains(m)).count() as u64
}

fn count(board: &mut Board, en_passant: Option<Square>, depth: u32, bug: Bug) -> u64 {
    match depth {
        0 => 1,
        1 => leaf_count(board, en_passant, bug),
        _ => {
            let mut nodes = 0;
            for mv in moves(board, en_passant, bug) {
                board.make(mv);
                nodes += count(board, double_push_square(mv), depth - 1, bug);
                board.unmake();
            }
            nodes
        }
    }
}

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

/// Counts `depth` plies below `position` and prints the divide and total.
fn perft(position: &mut Position, depth: u32, options: &Options, chess960: bool, out: &mut impl Write) {
    let key: String = position.board.fen().split(' ').take(4).collect::<Vec<_>>().join(" ");
    static COUNTS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let asked = COUNTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    if options.crash_on.as_deref() == Some(key.as_str()) || options.crash_after.is_some_and(|n| asked >= n) {
        std::process::abort();
    }
    if depth < options.divide_from {
        let total =
            count(&mut position.board, position.en_passant, depth, options.bug) + off_by(options.bug, depth);
        print_total(out, options.format, total);
        return;
    }
    let mut total = 0;
    let mut off = off_by(options.bug, depth);
    for mv in moves(&position.board, position.en_passant, options.bug) {
        let nodes = std::mem::take(&mut off)
            + if depth <= 1 {
                1
            } else {
                position.board.make(mv);
                let n = count(&mut position.board, double_push_square(mv), depth - 1, options.bug);
                position.board.unmake();
                n
            };
        total += nodes;
        print_divide_line(
            out,
            options.format,
            &mv.uci(chess960 || position.board.is_chess960()).to_string(),
            nodes,
        );
    }
    print_total(out, options.format, total);
}

/// `position startpos|fen FEN [moves ...]` (UCI and the prompt alike).
fn parse_position(words: &[&str], chess960: bool) -> Result<Position, String> {
    let end = words.iter().position(|w| *w == "moves").unwrap_or(words.len());
    let moves = words.get(end + 1..).unwrap_or(&[]);
    match words.get(1) {
        Some(&"fen") => Position::new(&words[2..end].join(" "), moves, chess960),
        _ => Position::new(STARTPOS_FEN, moves, chess960),
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
    };
    let (mut one_shot, mut interactive, mut cli, mut delay) = (None, false, false, 0);
    let mut i = 1;
    while i < args.len() {
        let value = args.get(i + 1).map(String::as_str);
        match args[i].as_str() {
            "--bug" => {
                options.bug = match value {
                    Some("ep") => Bug::EnPassant,
                    Some("ep-pin") => Bug::EnPassantPin,
                    Some("underpromotion") => Bug::Underpromotion,
                    Some("rook-promotion") => Bug::RookPromotion,
                    Some("no-king-safety") => Bug::NoKingSafety,
                    Some("leaf-ep-pin") => Bug::LeafEnPassantPin,
                    Some("duplicate") => Bug::Duplicate,
                    Some("divide-off") => Bug::DivideOff,
                    Some("first-answer") => Bug::FirstAnswer,
                    other => panic!("unknown bug {other:?}"),
                };
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
            "--no-divide" => options.divide_from = u32::MAX,
            "--no-chess960" => options.chess960 = false,
            "--no-uci" => options.uci = false,
            "--setboard" => options.setboard = true,
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
    match Position::new(&rest[1], &moves, false) {
        Ok(mut position) => perft(&mut position, depth, options, false, &mut std::io::stdout()),
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
    let mut chess960 = false;
    let mut position = Position::new(STARTPOS_FEN, &[], false).expect("start position");
    // `go perft` ignored: the search it started, ended by `stop`.
    let mut searching = false;
    if interactive || !options.uci {
        let _ = write!(out, "buggy engine, type help\n{}", if interactive { "> " } else { "" });
        let _ = out.flush();
    }
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let console_depth = perft_command_depth(&words, &options.perft_command);
        match words.first().copied() {
            _ if console_depth.is_some() => {
                perft(&mut position, console_depth.unwrap_or(1), &options, chess960, &mut out);
            }
            Some("uci") if options.uci && !interactive => {
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
                chess960 = line.trim_end().ends_with("true")
            }
            Some("position") if !options.setboard => match parse_position(&words, chess960) {
                Ok(p) => position = p,
                Err(e) => {
                    let _ = writeln!(out, "error: {e}");
                }
            },
            Some("setboard") if options.setboard => match Position::new(&words[1..].join(" "), &[], chess960)
            {
                Ok(p) => position = p,
                Err(e) => {
                    let _ = writeln!(out, "error: {e}");
                }
            },
            Some("go") if words.get(1) == Some(&"perft") => match options.go_perft {
                GoPerft::Counts => {
                    let depth: u32 = words.get(2).and_then(|d| d.parse().ok()).unwrap_or(1);
                    perft(&mut position, depth, &options, chess960, &mut out);
                }
                GoPerft::Search => fake_search(&position, &mut out),
                GoPerft::Silent => searching = true,
            },
            Some("stop") if searching => {
                searching = false;
                fake_search(&position, &mut out);
            }
            Some("help") if interactive => {
                let _ = writeln!(out, "position fen FEN [moves ...] | perft N | quit");
            }
            Some("quit") => break,
            Some(_) => {
                let _ = writeln!(out, "Unknown command: '{line}'. Type help for more information.");
            }
            None => {}
        }
        if interactive {
            let _ = write!(out, "> ");
        }
        let _ = out.flush();
    }
}
