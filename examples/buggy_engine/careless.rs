//! Castling the careless way: moves the harness's board cannot make, made
//! up the way real engines get them wrong, each with the position it leads
//! to (written as a FEN and read back, as the engine's own board would
//! hold it).
//!
//! - `--bug castling-rights`: a right is removed when its king or rook
//!   moves, but not when the rook is captured on its square; the engine
//!   then castles with it, moving whatever stands on the rook's square
//!   (the piece that took the rook, or nothing) beside the king.
//! - `--bug castling-path`: castling is tested for the right and for check
//!   on the king's squares, not for pieces between the king and the rook;
//!   the king and the rook land on their squares over whatever stood there.

use perft::board::{Board, CastlingMode, FenOptions};
use perft::{CastlingSide, Color, Move, MoveKind, Piece, Square};

use super::movegen::{Bug, State};

/// A move this engine lists: one the board can make, or one it makes up,
/// with the position it leads to and what it keeps there.
pub enum Listed {
    Move(Move),
    MadeUp { text: String, child: Box<Board>, state: State },
}

/// The slot of `color`'s right on `side` in [`State::phantom`].
pub fn right_index(color: Color, side: CastlingSide) -> usize {
    color as usize * 2 + side as usize
}

/// The rights believed in after `mv` (on `board`, not yet made): one the
/// board loses because its rook is captured on its square is kept (the
/// bug); one whose king moves, or whose square a piece leaves, goes.
pub fn phantom_after(board: &Board, mut phantom: [Option<Square>; 4], mv: Move) -> [Option<Square>; 4] {
    for color in [Color::White, Color::Black] {
        for side in [CastlingSide::King, CastlingSide::Queen] {
            let slot = &mut phantom[right_index(color, side)];
            if let Some(rook) = board.castling_rook(color, side) {
                let mover = board.piece_on(mv.from()).map(Piece::color);
                if mv.to() == rook && mover != Some(color) {
                    *slot = Some(rook);
                }
            }
            if slot.is_some_and(|rook| mv.from() == rook || mv.from() == board.king(color)) {
                *slot = None;
            }
        }
    }
    phantom
}

/// The castling moves this engine makes up at `board`.
pub fn made_up(board: &Board, state: State, bug: Bug) -> Vec<Listed> {
    let us = board.side_to_move();
    let mut listed = Vec::new();
    for side in [CastlingSide::King, CastlingSide::Queen] {
        let rook = match bug {
            Bug::CastlingRights => state.phantom[right_index(us, side)],
            Bug::CastlingPath => board.castling_rook(us, side),
            _ => None,
        };
        let Some(rook) = rook else { continue };
        let king = board.king(us);
        let castle = Move::new(king, rook, MoveKind::Castle);
        let (to, beside) = (castle.king_destination(), castle.piece_destination());
        let mut between = span(king, to).chain(span(rook, beside)).filter(|&sq| sq != king && sq != rook);
        let blocked = between.any(|sq| board.piece_on(sq).is_some());
        // The path bug castles only where the board would not (pieces in
        // the way); the rights bug only through an empty path.
        if blocked != (bug == Bug::CastlingPath) || !king_safe(board, king, to) {
            continue;
        }
        let Some(child) = castled(board, king, rook, to, beside) else { continue };
        let text = if board.is_chess960() { format!("{king}{rook}") } else { format!("{king}{to}") };
        let mut phantom = state.phantom;
        phantom[right_index(us, CastlingSide::King)] = None;
        phantom[right_index(us, CastlingSide::Queen)] = None;
        let state = State { phantom, ..State::default() };
        listed.push(Listed::MadeUp { text, child: Box::new(child), state });
    }
    listed
}

/// The squares from `a` to `b` on one rank, both included.
fn span(a: Square, b: Square) -> impl Iterator<Item = Square> {
    let (low, high) = (a.min(b) as usize, a.max(b) as usize);
    (low..=high).map(Square::index)
}

/// Not in check, and no square the king crosses or lands on attacked.
fn king_safe(board: &Board, king: Square, to: Square) -> bool {
    let them = !board.side_to_move();
    span(king, to).all(|sq| board.attackers(sq, them, board.occupied()).is_empty())
}

/// The position after castling as this engine does it: the king onto `to`,
/// whatever stood on `rook` onto `beside` (over whatever stood there), no
/// castling rights left for the side that castled, no en-passant square.
fn castled(board: &Board, king: Square, rook: Square, to: Square, beside: Square) -> Option<Board> {
    let mut squares: Vec<Option<Piece>> = (0..64).map(|i| board.piece_on(Square::index(i))).collect();
    let (king_piece, rook_piece) = (squares[king as usize], squares[rook as usize]);
    squares[king as usize] = None;
    squares[rook as usize] = None;
    squares[to as usize] = king_piece;
    if rook_piece.is_some() {
        squares[beside as usize] = rook_piece;
    }
    let us = board.side_to_move();
    let fen = board.fen();
    let rights: String = fen
        .split_whitespace()
        .nth(2)
        .unwrap_or("-")
        .chars()
        .filter(|c| *c != '-' && c.is_ascii_uppercase() != (us == Color::White))
        .collect();
    let rights = if rights.is_empty() { "-".to_string() } else { rights };
    let side = if us == Color::White { "b" } else { "w" };
    let fen = format!("{} {side} {rights} - 0 1", placement(&squares));
    let options = FenOptions { castling: CastlingMode::from_chess960(board.is_chess960()), relaxed: true };
    Board::from_fen_with(&fen, options).ok()
}

/// The piece placement field of a FEN.
fn placement(squares: &[Option<Piece>]) -> String {
    let mut rows = Vec::new();
    for rank in (0..8).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..8 {
            match squares[rank * 8 + file] {
                Some(piece) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(piece.to_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    rows.join("/")
}
