//! Fake engines that read their input and print their perft as real
//! open-source engines do, for testing how `perft check` finds them and
//! that it raises no false alarm on a correct one. Each kind copies a real
//! engine's *parsing* (how many FEN fields it takes, what it does with
//! `moves`, where its perft lives), not only its output:
//!
//! ```text
//! dialect_engine --kind console6   a console (like Blunder): a banner and help text at start;
//!                                  `fen FEN` wants exactly six fields ("fen entered is not
//!                                  valid" otherwise, the position kept); `perft N` and `dperft N`
//!                                  (divide, `Nodes: N`); `uci` switches to a UCI mode in which
//!                                  the console commands are gone; Chess960 castling rights other
//!                                  than KQkq are rejected as an invalid FEN
//! dialect_engine --kind uci6       UCI, whose `position fen` reads exactly six tokens (C++
//!                                  `>>`): a bare four-field FEN aborts it, `moves` after four
//!                                  fields is read as the counters; `go perft N` prints its divide
//!                                  as `info currmove M currmovenumber K nodes N` lines, then
//!                                  `info nodes N time T nps X`
//! dialect_engine --kind uci-drop   UCI whose `position fen FEN moves ...` drops the moves;
//!                                  `go perft N` as Stockfish prints it
//! dialect_engine --kind flags      a command line: `-d N -f FEN [-s]` prints `perft N = X`
//!                                  (with `-s`, a divide first); with no arguments it counts
//!                                  the start position to depth 3 unprompted and exits; a
//!                                  Chess960 castling FEN makes it panic
//! ```
//!
//! `--start-delay MS` makes it build its tables for that long at every
//! start, before it reads anything; `--fields 4` makes the console's `fen`
//! want exactly four fields instead (an engine that refuses the counters). Bugs: `--bug ep-pin` lists en-passant
//! captures that expose its king; `--bug leaf-ep-pin` counts them only in
//! its count-only last ply (its move lists are right); `--bug ep` never
//! generates en passant. With `DIALECT_ENGINE_LOG=FILE` it appends a line
//! to FILE at each start (`start PID`) and one for each line it reads
//! (`in LINE`).

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use perft::bisect::{fen_en_passant, pseudo_legal_moves};
use perft::board::{Board, CastlingMode, FenOptions, STARTPOS_FEN};
use perft::{CastlingRights, Move, MoveKind, PieceKind, Square};

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Console6,
    Uci6,
    UciDrop,
    Flags,
}

#[derive(Clone, Copy, PartialEq)]
enum Bug {
    None,
    EnPassantPin,
    LeafEnPassantPin,
    NoEnPassant,
}

/// The engine's position: a board, and the en-passant square kept as the
/// FEN or the last double push left it (legal capture or not).
struct Position {
    board: Board,
    ep: Option<Square>,
}

impl Position {
    fn start() -> Position {
        Position { board: Board::from_fen(STARTPOS_FEN).expect("the start position"), ep: None }
    }
}

/// The moves it generates.
fn moves(position: &Position, bug: Bug) -> Vec<Move> {
    let board = &position.board;
    let mut list: Vec<Move> = board.legal_moves().into_iter().collect();
    match bug {
        Bug::NoEnPassant => list.retain(|m| !m.is_en_passant()),
        Bug::EnPassantPin => {
            let careless = pseudo_legal_moves(board, position.ep).into_iter().filter(|m| m.is_en_passant());
            for mv in careless {
                if !list.contains(&mv) {
                    list.push(mv);
                }
            }
        }
        _ => {}
    }
    // After an illegal move its king may be en prise; like any engine, it
    // never generates king captures.
    list.retain(|m| board.piece_on(m.to()).is_none_or(|p| p.kind() != PieceKind::King));
    list
}

/// Its count one ply deep: the move list's length, and for
/// `leaf-ep-pin` the illegal en-passant captures too.
fn leaf_count(position: &Position, bug: Bug) -> u64 {
    let listed = moves(position, bug).len() as u64;
    if bug != Bug::LeafEnPassantPin {
        return listed;
    }
    let legal = position.board.legal_moves();
    let careless = pseudo_legal_moves(&position.board, position.ep);
    listed + careless.iter().filter(|m| m.is_en_passant() && !legal.contains(m)).count() as u64
}

fn play(position: &mut Position, mv: Move) -> Option<Square> {
    let before = position.ep;
    position.ep = (mv.kind() == MoveKind::DoublePush)
        .then(|| Square::index((mv.from() as usize + mv.to() as usize) / 2));
    position.board.make(mv);
    before
}

fn count(position: &mut Position, depth: u32, bug: Bug) -> u64 {
    if depth == 1 {
        return leaf_count(position, bug);
    }
    let mut nodes = 0;
    for mv in moves(position, bug) {
        let ep = play(position, mv);
        nodes += count(position, depth - 1, bug);
        position.board.unmake();
        position.ep = ep;
    }
    nodes
}

/// Each root move's count, then the total.
fn divide(position: &mut Position, depth: u32, bug: Bug) -> (Vec<(String, u64)>, u64) {
    if depth == 0 {
        return (Vec::new(), 1);
    }
    let mut lines = Vec::new();
    for mv in moves(position, bug) {
        let text = position.board.uci(mv);
        let ep = play(position, mv);
        let nodes = if depth == 1 { 1 } else { count(position, depth - 1, bug) };
        position.board.unmake();
        position.ep = ep;
        lines.push((text, nodes));
    }
    let total = lines.iter().map(|(_, n)| n).sum();
    (lines, total)
}

/// A FEN read as the engine's own parser reads it: castling other than
/// KQkq is refused unless `chess960`.
fn read_fen(fen: &str, chess960: bool) -> Result<Position, String> {
    let options = FenOptions { castling: CastlingMode::Detect, relaxed: true };
    let board = Board::from_fen_with(fen, options).map_err(|e| e.to_string())?;
    if !chess960 && board.is_chess960() && board.castling_rights() != CastlingRights::NONE {
        return Err("castling rights".into());
    }
    Ok(Position { ep: fen_en_passant(fen), board })
}

fn apply_moves(position: &mut Position, moves: &[&str]) -> Result<(), String> {
    for text in moves {
        let mv = position.board.parse_uci(text).map_err(|e| e.to_string())?;
        play(position, mv);
    }
    Ok(())
}

struct Engine {
    kind: Kind,
    bug: Bug,
    /// The FEN fields its console's `fen` wants.
    fields: usize,
    position: Position,
    /// The console switched to UCI mode.
    uci_mode: bool,
}

impl Engine {
    /// One line of input; false to quit.
    fn command(&mut self, line: &str, out: &mut impl Write) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        match (self.kind, self.uci_mode, words.as_slice()) {
            (_, _, ["quit"]) => return false,
            (Kind::Console6, false, ["uci"]) => {
                self.uci_mode = true;
                let _ = writeln!(out, "id name console6\nid author fake\nuciok");
            }
            (Kind::Console6, false, ["fen", fen @ ..]) => {
                // Exactly six fields, as a `strings.Fields(...)[0:6]` parser.
                match (fen.len() == self.fields).then(|| read_fen(&fen.join(" "), false)) {
                    Some(Ok(position)) => self.position = position,
                    _ => {
                        let _ = writeln!(out, "fen entered is not valid");
                    }
                }
            }
            (Kind::Console6, false, ["perft" | "dperft", depth]) => {
                let depth = depth.parse().unwrap_or(1);
                let (lines, total) = divide(&mut self.position, depth, self.bug);
                for (mv, nodes) in lines {
                    let _ = writeln!(out, "{mv}: {nodes}");
                }
                let _ = writeln!(out, "\nNodes: {total}\nTime: 1ms\nNps: {total}");
            }
            (Kind::Console6, false, _) => {
                let _ = writeln!(out, "Unknown command {line:?}");
            }
            (_, _, ["uci"]) => {
                let _ = writeln!(out, "id name fake\nid author fake\nuciok");
            }
            (_, _, ["isready"]) => {
                let _ = writeln!(out, "readyok");
            }
            (_, _, ["position", "fen", rest @ ..]) => self.position(rest, out),
            (_, _, ["position", "startpos", rest @ ..]) => {
                self.position = Position::start();
                if rest.first() == Some(&"moves") && self.kind != Kind::UciDrop {
                    let _ = apply_moves(&mut self.position, &rest[1..]);
                }
            }
            (Kind::Uci6 | Kind::UciDrop, _, ["go", "perft", depth]) => {
                self.go_perft(depth.parse().unwrap_or(1), out)
            }
            // The console's UCI mode searches; its perft is gone.
            (Kind::Console6, true, ["go", ..]) => {
                let best = self.position.board.legal_moves().into_iter().next();
                let best = best.map_or("0000".into(), |mv| self.position.board.uci(mv));
                let _ = writeln!(out, "info depth 1 score cp 0 nodes 1 pv {best}\nbestmove {best}");
            }
            _ => {}
        }
        true
    }

    /// `position fen ...` as this kind parses it.
    fn position(&mut self, rest: &[&str], out: &mut impl Write) {
        if self.kind != Kind::UciDrop {
            // `for i in 0..6 { is >> token; }`: a FEN shorter than six
            // tokens is a fatal error; the seventh must be `moves`.
            if rest.len() < 6 {
                eprintln!("terminate called after throwing an instance of 'std::out_of_range'");
                std::process::abort();
            }
            match read_fen(&rest[..6].join(" "), true) {
                Ok(position) => self.position = position,
                Err(e) => {
                    let _ = writeln!(out, "info string invalid fen: {e}");
                    return;
                }
            }
            if rest.get(6) == Some(&"moves") {
                let _ = apply_moves(&mut self.position, &rest[7..]);
            }
            return;
        }
        // uci-drop: the FEN up to `moves`; the moves are never played.
        let end = rest.iter().position(|w| *w == "moves").unwrap_or(rest.len());
        if let Ok(position) = read_fen(&rest[..end].join(" "), true) {
            self.position = position;
        }
    }

    fn go_perft(&mut self, depth: u32, out: &mut impl Write) {
        let began = Instant::now();
        let (lines, total) = divide(&mut self.position, depth, self.bug);
        if self.kind == Kind::Uci6 {
            for (number, (mv, nodes)) in lines.iter().enumerate() {
                let _ = writeln!(out, "info currmove {mv} currmovenumber {} nodes {nodes}", number + 1);
            }
            let ms = began.elapsed().as_millis().max(1);
            let _ = writeln!(out, "info nodes {total} time {ms} nps {}", u128::from(total) * 1000 / ms);
            return;
        }
        for (mv, nodes) in lines {
            let _ = writeln!(out, "{mv}: {nodes}");
        }
        let _ = writeln!(out, "\nNodes searched: {total}\n");
    }
}

/// The command-line kind: `-d N -f FEN [-s]`, or with no arguments its own
/// count of the start position.
fn flags(args: &[String], bug: Bug) -> i32 {
    let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1));
    let (Some(depth), Some(fen)) = (value("-d"), value("-f")) else {
        if args.is_empty() {
            let mut position = Position::start();
            for depth in 1..=3 {
                println!("perft {depth} = {}", divide(&mut position, depth, bug).1);
            }
            return 0;
        }
        eprintln!("usage: dialect_engine --kind flags -d DEPTH -f FEN [-s]");
        return 2;
    };
    let Ok(depth) = depth.parse::<u32>() else { return 2 };
    let options = FenOptions { castling: CastlingMode::Detect, relaxed: true };
    let Ok(board) = Board::from_fen_with(fen, options) else {
        eprintln!("invalid fen");
        return 2;
    };
    if board.is_chess960() && board.castling_rights() != CastlingRights::NONE {
        // A real engine's unwrap on a rook it looks for on a1/h1: the
        // message carries an address, new each time.
        let rook: Option<&Board> = None;
        panic!("no castling rook for {:p}: {}", &board, rook.map_or("none", |_| "some"));
    }
    let mut position = Position { ep: fen_en_passant(fen), board };
    let (lines, total) = divide(&mut position, depth, bug);
    if args.iter().any(|a| a == "-s") {
        for (mv, nodes) in lines {
            println!("{mv}: {nodes}");
        }
    }
    println!("perft {depth} = {total}");
    0
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut kind = None;
    let mut bug = Bug::None;
    let mut delay = 0u64;
    let mut fields = 6;
    let mut rest = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        match word.as_str() {
            "--kind" => {
                kind = match words.next().map(String::as_str) {
                    Some("console6") => Some(Kind::Console6),
                    Some("uci6") => Some(Kind::Uci6),
                    Some("uci-drop") => Some(Kind::UciDrop),
                    Some("flags") => Some(Kind::Flags),
                    other => panic!("unknown kind {other:?}"),
                }
            }
            "--bug" => {
                bug = match words.next().map(String::as_str) {
                    Some("ep-pin") => Bug::EnPassantPin,
                    Some("leaf-ep-pin") => Bug::LeafEnPassantPin,
                    Some("ep") => Bug::NoEnPassant,
                    other => panic!("unknown bug {other:?}"),
                }
            }
            "--start-delay" => delay = words.next().and_then(|v| v.parse().ok()).expect("--start-delay MS"),
            "--fields" => fields = words.next().and_then(|v| v.parse().ok()).expect("--fields 4|6"),
            _ => rest.push(word.clone()),
        }
    }
    let mut log = std::env::var_os("DIALECT_ENGINE_LOG")
        .map(|path| std::fs::OpenOptions::new().create(true).append(true).open(path).expect("the log file"));
    if let Some(file) = &mut log {
        let _ = writeln!(file, "start {}", std::process::id());
    }
    // Its tables, built at every start.
    std::thread::sleep(Duration::from_millis(delay));
    let kind = kind.expect("--kind console6|uci6|uci-drop|flags");
    if kind == Kind::Flags {
        std::process::exit(flags(&rest, bug));
    }
    let mut out = std::io::stdout();
    if kind == Kind::Console6 {
        let _ = writeln!(
            out,
            "Console6 1.0, a fake engine\nCommands: uci, fen <FEN>, perft <depth>, dperft <depth>, quit"
        );
        let _ = out.flush();
    }
    let mut engine = Engine { kind, bug, fields, position: Position::start(), uci_mode: false };
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if let Some(file) = &mut log {
            let _ = writeln!(file, "in {line}");
        }
        if !engine.command(&line, &mut out) {
            break;
        }
        let _ = out.flush();
    }
}
