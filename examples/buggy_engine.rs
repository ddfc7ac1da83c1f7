//! An engine with planted move-generation bugs, for testing `perft check`
//! and `perft debug` (and for trying them out). It speaks UCI by default,
//! or counts once from the command line, or answers `perft N` at a prompt,
//! each in the output format of a common kind of engine:
//!
//! ```text
//! buggy_engine [OPTIONS]                          UCI (go perft N)
//! buggy_engine [OPTIONS] --perft DEPTH FEN [MOVE...]   one count, then exit
//! buggy_engine [OPTIONS] --interactive            `position FEN [moves ...]`, `perft N`, `quit` at a prompt
//! ```
//!
//! - `--bug ep`: never generates en-passant captures.
//! - `--bug ep-pin`: generates en-passant captures without the king-safety
//!   test (the most common real bug: a pinned capturer, or a rank opened
//!   onto its king). It keeps the en-passant square as FEN gives it or a
//!   double push leaves it, legal capture or not.
//! - `--bug underpromotion`: promotes to a queen only.
//! - `--crash-on FEN`: aborts when asked to count the position whose first
//!   four FEN fields are these.
//! - `--no-divide`: prints only the total, like engines without a divide.
//! - `--format F`: how the divide and the total are printed:
//!   `stockfish` (`e2e4: 20`, `Nodes searched: 400`), `dash` (`e2e4 - 20`,
//!   `Total: 400`), `space` (`e2e4 20`, `Nodes: 400`), `nodes`
//!   (`e2e4: 20 nodes`, `Perft total: 400`), `move` (`Move e2e4: 20`,
//!   `Total nodes: 400`) or `odd` (`20 <- e2e4`, `leaves 400`, which only
//!   `--divide-regex` and `--total-regex` can read), or `perftree`
//!   (`e2e4 20`, a blank line, `400`: what the perftree debugger reads).
//! - `--no-chess960`: does not offer `UCI_Chess960` (and refuses Chess960
//!   castling).

use std::io::{BufRead, Write};

use perft::attacks::pawn_attacks;
use perft::board::{Board, CastlingMode, FenOptions, STARTPOS_FEN};
use perft::{Move, MoveKind, PieceKind, Square};

#[derive(Clone, Copy, PartialEq)]
enum Bug {
    None,
    EnPassant,
    EnPassantPin,
    Underpromotion,
}

#[derive(Clone, Copy, PartialEq)]
enum Format {
    Stockfish,
    Dash,
    Space,
    Nodes,
    Move,
    Odd,
    Perftree,
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

fn moves(board: &Board, en_passant: Option<Square>, bug: Bug) -> Vec<Move> {
    let mut list: Vec<Move> = board
        .legal_moves()
        .into_iter()
        .filter(|m| match bug {
            Bug::None | Bug::EnPassantPin => true,
            Bug::EnPassant => !m.is_en_passant(),
            Bug::Underpromotion => m.promotion().is_none_or(|p| p == PieceKind::Queen),
        })
        .collect();
    // After an illegal capture the side to move may be able to take the
    // king; like any engine, this one never generates king captures.
    list.retain(|m| board.piece_on(m.to()).is_none_or(|p| p.kind() != PieceKind::King));
    if bug == Bug::EnPassantPin {
        // Every pawn beside the pushed pawn captures, legal or not.
        if let Some(ep) = en_passant {
            let us = board.side_to_move();
            let victim = Square::index(ep as usize ^ 8);
            let pushed =
                board.piece_on(victim).is_some_and(|p| p.kind() == PieceKind::Pawn && p.color() != us);
            for from in pawn_attacks(!us, ep) & board.colored(us, PieceKind::Pawn) {
                let capture = Move::new(from, ep, MoveKind::EnPassant);
                if pushed && board.piece_on(ep).is_none() && !list.contains(&capture) {
                    list.push(capture);
                }
            }
        }
    }
    list
}

fn count(board: &mut Board, en_passant: Option<Square>, depth: u32, bug: Bug) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    for mv in moves(board, en_passant, bug) {
        if depth == 1 {
            nodes += 1;
            continue;
        }
        board.make(mv);
        nodes += count(board, double_push_square(mv), depth - 1, bug);
        board.unmake();
    }
    nodes
}

struct Options {
    bug: Bug,
    crash_on: Option<String>,
    divide: bool,
    format: Format,
    chess960: bool,
}

/// Counts `depth` plies below `position` and prints the divide and total.
fn perft(position: &mut Position, depth: u32, options: &Options, chess960: bool, out: &mut impl Write) {
    let key: String = position.board.fen().split(' ').take(4).collect::<Vec<_>>().join(" ");
    if options.crash_on.as_deref() == Some(key.as_str()) {
        std::process::abort();
    }
    let mut total = 0;
    for mv in moves(&position.board, position.en_passant, options.bug) {
        let nodes = if depth <= 1 {
            1
        } else {
            position.board.make(mv);
            let n = count(&mut position.board, double_push_square(mv), depth - 1, options.bug);
            position.board.unmake();
            n
        };
        total += nodes;
        if options.divide {
            let mv = mv.uci(chess960 || position.board.is_chess960());
            let _ = match options.format {
                Format::Stockfish => writeln!(out, "{mv}: {nodes}"),
                Format::Dash => writeln!(out, "{mv} - {nodes}"),
                Format::Space | Format::Perftree => writeln!(out, "{mv} {nodes}"),
                Format::Nodes => writeln!(out, "{mv}: {nodes} nodes"),
                Format::Move => writeln!(out, "Move {mv}: {nodes}"),
                Format::Odd => writeln!(out, "{nodes} <- {mv}"),
            };
        }
    }
    let _ = match options.format {
        Format::Stockfish => writeln!(out, "\nNodes searched: {total}\n"),
        Format::Dash => writeln!(out, "Total: {total}"),
        Format::Space => writeln!(out, "Nodes: {total}"),
        Format::Nodes => writeln!(out, "Perft total: {total}"),
        Format::Move => writeln!(out, "Total nodes: {total}"),
        Format::Odd => writeln!(out, "leaves {total}"),
        Format::Perftree => writeln!(out, "\n{total}"),
    };
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

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut options =
        Options { bug: Bug::None, crash_on: None, divide: true, format: Format::Stockfish, chess960: true };
    let mut one_shot: Option<Vec<String>> = None;
    let mut interactive = false;
    let mut i = 1;
    while i < args.len() {
        match args[i].as_str() {
            "--bug" => {
                options.bug = match args.get(i + 1).map(String::as_str) {
                    Some("ep") => Bug::EnPassant,
                    Some("ep-pin") => Bug::EnPassantPin,
                    Some("underpromotion") => Bug::Underpromotion,
                    other => panic!("unknown bug {other:?}"),
                };
                i += 1;
            }
            "--crash-on" => {
                options.crash_on =
                    args.get(i + 1).map(|f| f.split_whitespace().take(4).collect::<Vec<_>>().join(" "));
                i += 1;
            }
            "--format" => {
                options.format = match args.get(i + 1).map(String::as_str) {
                    Some("stockfish") => Format::Stockfish,
                    Some("dash") => Format::Dash,
                    Some("space") => Format::Space,
                    Some("nodes") => Format::Nodes,
                    Some("move") => Format::Move,
                    Some("odd") => Format::Odd,
                    Some("perftree") => Format::Perftree,
                    other => panic!("unknown format {other:?}"),
                };
                i += 1;
            }
            "--no-divide" => options.divide = false,
            "--no-chess960" => options.chess960 = false,
            "--interactive" => interactive = true,
            "--perft" => {
                one_shot = Some(args[i + 1..].to_vec());
                break;
            }
            other => panic!("unknown argument {other}"),
        }
        i += 1;
    }
    let mut out = std::io::stdout();
    if let Some(rest) = one_shot {
        let depth: u32 = rest.first().and_then(|d| d.parse().ok()).expect("--perft DEPTH FEN [MOVE...]");
        let fen = rest.get(1).expect("--perft DEPTH FEN [MOVE...]");
        let moves: Vec<&str> = rest[2..].iter().flat_map(|m| m.split_whitespace()).collect();
        match Position::new(fen, &moves, false) {
            Ok(mut position) => perft(&mut position, depth, &options, false, &mut out),
            Err(e) => {
                eprintln!("bad position: {e}");
                std::process::exit(1);
            }
        }
        return;
    }
    let mut chess960 = false;
    let mut position = Position::new(STARTPOS_FEN, &[], false).expect("start position");
    let stdin = std::io::stdin();
    if interactive {
        let _ = write!(out, "buggy engine, type help\n> ");
        let _ = out.flush();
    }
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") if !interactive => {
                let _ = writeln!(out, "id name buggy-engine");
                if options.chess960 {
                    let _ = writeln!(out, "option name UCI_Chess960 type check default false");
                }
                let _ = writeln!(out, "uciok");
            }
            Some("isready") => {
                let _ = writeln!(out, "readyok");
            }
            Some("setoption") if line.contains("UCI_Chess960") && options.chess960 => {
                chess960 = line.trim_end().ends_with("true")
            }
            Some("position") => match parse_position(&words, chess960) {
                Ok(p) => position = p,
                Err(e) => {
                    let _ = writeln!(out, "error: {e}");
                }
            },
            Some("go") if words.get(1) == Some(&"perft") => {
                let depth: u32 = words.get(2).and_then(|d| d.parse().ok()).unwrap_or(1);
                perft(&mut position, depth, &options, chess960, &mut out);
            }
            Some("perft") if interactive => {
                let depth: u32 = words.get(1).and_then(|d| d.parse().ok()).unwrap_or(1);
                perft(&mut position, depth, &options, chess960, &mut out);
            }
            Some("help") if interactive => {
                let _ = writeln!(out, "position fen FEN [moves ...] | perft N | quit");
            }
            Some("quit") => break,
            _ => {}
        }
        if interactive {
            let _ = write!(out, "> ");
        }
        let _ = out.flush();
    }
}
