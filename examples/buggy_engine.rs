//! A UCI engine with planted move-generation bugs, for testing `perft check`
//! and `perft debug` (and for trying them out):
//!
//! ```text
//! buggy-engine [--bug ep|underpromotion] [--crash-on FEN] [--no-divide]
//! ```
//!
//! - `--bug ep`: never generates en-passant captures.
//! - `--bug underpromotion`: promotes to a queen only.
//! - `--crash-on FEN`: aborts when asked to count the position whose first
//!   four FEN fields are these.
//! - `--no-divide`: prints only the total, like engines without a divide.

use std::io::{BufRead, Write};

use perft::board::{Board, CastlingMode, FenOptions, STARTPOS_FEN};
use perft::{Move, MoveList};

#[derive(Clone, Copy, PartialEq)]
enum Bug {
    None,
    EnPassant,
    Underpromotion,
}

fn moves(board: &Board, bug: Bug) -> Vec<Move> {
    board
        .legal_moves()
        .into_iter()
        .filter(|m| match bug {
            Bug::None => true,
            Bug::EnPassant => !m.is_en_passant(),
            Bug::Underpromotion => m.promotion().is_none_or(|p| p == perft::PieceKind::Queen),
        })
        .collect()
}

fn count(board: &mut Board, depth: u32, bug: Bug) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    for mv in moves(board, bug) {
        if depth == 1 {
            nodes += 1;
            continue;
        }
        board.make(mv);
        nodes += count(board, depth - 1, bug);
        board.unmake();
    }
    nodes
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut bug = Bug::None;
    let mut crash_on: Option<String> = None;
    let mut divide = true;
    let mut i = 1;
    while i < args.len() {
        match args[i].as_str() {
            "--bug" => {
                bug = match args.get(i + 1).map(String::as_str) {
                    Some("ep") => Bug::EnPassant,
                    Some("underpromotion") => Bug::Underpromotion,
                    other => panic!("unknown bug {other:?}"),
                };
                i += 1;
            }
            "--crash-on" => {
                crash_on =
                    args.get(i + 1).map(|f| f.split_whitespace().take(4).collect::<Vec<_>>().join(" "));
                i += 1;
            }
            "--no-divide" => divide = false,
            other => panic!("unknown argument {other}"),
        }
        i += 1;
    }
    let mut chess960 = false;
    let mut board = Board::startpos();
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => {
                writeln!(
                    out,
                    "id name buggy-engine\noption name UCI_Chess960 type check default false\nuciok"
                )
                .ok();
            }
            Some("isready") => {
                writeln!(out, "readyok").ok();
            }
            Some("setoption") if line.contains("UCI_Chess960") => {
                chess960 = line.trim_end().ends_with("true")
            }
            Some("position") => {
                let (fen, rest) = match words.get(1) {
                    Some(&"fen") => {
                        let end = words.iter().position(|w| *w == "moves").unwrap_or(words.len());
                        (words[2..end].join(" "), &words[end..])
                    }
                    _ => (STARTPOS_FEN.to_string(), &words[2.min(words.len())..]),
                };
                let options = FenOptions { castling: CastlingMode::from_chess960(chess960), relaxed: true };
                board = Board::from_fen_with(&fen, options).expect("valid FEN");
                for mv in rest.iter().skip(1) {
                    board.play_uci(mv).expect("legal move");
                }
            }
            Some("go") if words.get(1) == Some(&"perft") => {
                let depth: u32 = words.get(2).and_then(|d| d.parse().ok()).unwrap_or(1);
                let key: String = board.fen().split(' ').take(4).collect::<Vec<_>>().join(" ");
                if crash_on.as_deref() == Some(key.as_str()) {
                    std::process::abort();
                }
                let mut total = 0;
                let list: MoveList = moves(&board, bug).into_iter().collect();
                for mv in list {
                    let nodes = if depth <= 1 {
                        1
                    } else {
                        board.make(mv);
                        let n = count(&mut board, depth - 1, bug);
                        board.unmake();
                        n
                    };
                    total += nodes;
                    if divide {
                        writeln!(out, "{}: {nodes}", mv.uci(chess960 || board.is_chess960())).ok();
                    }
                }
                writeln!(out, "\nNodes searched: {total}\n").ok();
            }
            Some("quit") => break,
            _ => {}
        }
        out.flush().ok();
    }
}
