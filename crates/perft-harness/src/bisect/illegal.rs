//! Why a move an engine generates is illegal, and which moves may explain
//! a count that differs where the move lists agree.
//!
//! A move is first matched against the pseudo-legal moves of the position
//! (every move the pieces can make by how they move, castling with its
//! right and an empty path, en passant onto the square the FEN names),
//! then played on a copy of the occupancy to see whether its own king is
//! attacked after it, and by what.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::classify::{classify, MoveClass};
use crate::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
};
use crate::board::Board;
use crate::types::{Bitboard, CastlingSide, Color, Move, MoveKind, PieceKind, Rank, Square};

/// Why a generated move is illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Why {
    /// An en-passant capture that exposes its own king (a pinned capturer,
    /// or the rank opened by taking two pawns off it).
    EnPassantExposesKing,
    /// Castling while in check.
    CastlesOutOfCheck,
    /// Castling across an attacked square.
    CastlesThroughCheck,
    /// Castling onto an attacked square.
    CastlesIntoCheck,
    /// A pinned piece leaves the line to its king.
    PinnedPieceMoves,
    /// In check, a move that does not answer it.
    CheckIgnored,
    /// The king steps onto an attacked square.
    KingIntoCheck,
    /// Not a move the piece can make there (wrong shape, blocked, no such
    /// piece, no castling right, no en-passant square).
    NotPseudoLegal,
}

/// What a kind of illegal move comes down to: the grouping of causes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    /// The move leaves or puts its own king in check, or castles out of
    /// or through check: the king-safety test is missing or wrong for it.
    /// One family, so an engine without any such test is one cause,
    /// whatever moves show it.
    KingSafety,
    /// Not even pseudo-legal: the move generation itself is wrong.
    NotPseudoLegal,
}

impl Why {
    /// Kinds in the order a count's candidates are tried: the rarer and
    /// more often wrong first.
    pub const BY_LIKELIHOOD: [Why; 8] = [
        Why::EnPassantExposesKing,
        Why::CastlesThroughCheck,
        Why::CastlesOutOfCheck,
        Why::CastlesIntoCheck,
        Why::PinnedPieceMoves,
        Why::CheckIgnored,
        Why::KingIntoCheck,
        Why::NotPseudoLegal,
    ];

    /// What it comes down to.
    pub fn family(self) -> Family {
        match self {
            Why::NotPseudoLegal => Family::NotPseudoLegal,
            _ => Family::KingSafety,
        }
    }
}

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Why::EnPassantExposesKing => "en passant that exposes its king",
            Why::CastlesOutOfCheck => "castling out of check",
            Why::CastlesThroughCheck => "castling through an attacked square",
            Why::CastlesIntoCheck => "castling into check",
            Why::PinnedPieceMoves => "pinned piece leaving its line",
            Why::CheckIgnored => "check not answered",
            Why::KingIntoCheck => "king stepping into an attack",
            Why::NotPseudoLegal => "not a move of that piece there",
        })
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Family::KingSafety => "moves that leave or put their own king in check",
            Family::NotPseudoLegal => "moves that are not even pseudo-legal",
        })
    }
}

/// A move named in a diagnosis: an illegal move the engine generates, or
/// a candidate for a count that differs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NamedMove {
    /// The move, as the engine wrote it (or in our notation).
    #[serde(rename = "move")]
    pub uci: String,
    /// What kind of move it is.
    pub class: MoveClass,
    /// Why it is illegal, for an illegal one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<Why>,
    /// The pieces that attack the king after it (`knight on g4`), or the
    /// attacked squares castling crosses.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attackers: Vec<String>,
}

/// The en-passant square a FEN names, if any (even one no pawn can take:
/// an engine that tests legality late needs it).
pub fn fen_en_passant(fen: &str) -> Option<Square> {
    fen.split_whitespace().nth(3).and_then(|field| field.parse().ok())
}

fn forward(square: Square, us: Color) -> Option<Square> {
    square.offset(0, if us == Color::White { 1 } else { -1 })
}

/// Every pseudo-legal move of the side to move: what its pieces can do by
/// how they move, whatever happens to its king; castling with its right
/// and an empty path, attacked or not; en passant onto `ep`.
pub fn pseudo_legal_moves(board: &Board, ep: Option<Square>) -> Vec<Move> {
    let us = board.side_to_move();
    let (ours, occupied) = (board.color(us), board.occupied());
    let ep = ep.or(board.en_passant());
    let mut moves = Vec::new();
    for from in ours {
        let Some(piece) = board.piece_on(from) else { continue };
        let targets = match piece.kind() {
            PieceKind::Pawn => {
                pawn_moves(board, from, ep, &mut moves);
                continue;
            }
            PieceKind::Knight => knight_attacks(from),
            PieceKind::Bishop => bishop_attacks(from, occupied),
            PieceKind::Rook => rook_attacks(from, occupied),
            PieceKind::Queen => queen_attacks(from, occupied),
            PieceKind::King => king_attacks(from),
        };
        moves.extend((targets & !ours).into_iter().map(|to| Move::new(from, to, MoveKind::Normal)));
    }
    moves.extend(pseudo_castles(board));
    moves
}

fn pawn_moves(board: &Board, from: Square, ep: Option<Square>, moves: &mut Vec<Move>) {
    let us = board.side_to_move();
    let last = if us == Color::White { Rank::Eighth } else { Rank::First };
    let start = if us == Color::White { Rank::Second } else { Rank::Seventh };
    let mut add = |to: Square, kind: MoveKind| {
        if to.rank() == last {
            for piece in [PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook, PieceKind::Queen] {
                moves.push(Move::new(from, to, MoveKind::promotion(piece).expect("a promotion piece")));
            }
        } else {
            moves.push(Move::new(from, to, kind));
        }
    };
    if let Some(one) = forward(from, us).filter(|&s| board.piece_on(s).is_none()) {
        add(one, MoveKind::Normal);
        if let Some(two) = forward(one, us).filter(|&s| from.rank() == start && board.piece_on(s).is_none()) {
            add(two, MoveKind::DoublePush);
        }
    }
    for to in pawn_attacks(us, from) {
        if board.color(!board.side_to_move()).has(to) {
            add(to, MoveKind::Normal);
        } else if Some(to) == ep {
            add(to, MoveKind::EnPassant);
        }
    }
}

/// Castling with the right and the squares the king and rook cross empty
/// (but for themselves), attacked or not.
fn pseudo_castles(board: &Board) -> Vec<Move> {
    let us = board.side_to_move();
    let king = board.king(us);
    let mut moves = Vec::new();
    for side in [CastlingSide::King, CastlingSide::Queen] {
        let Some(rook) = board.castling_rook(us, side) else { continue };
        let castle = Move::new(king, rook, MoveKind::Castle);
        let path = span(king, castle.king_destination()) | span(rook, castle.piece_destination());
        let blockers = board.occupied().without(king).without(rook);
        if (path & blockers).is_empty() {
            moves.push(castle);
        }
    }
    moves
}

/// The squares from `a` to `b` on one rank, both included.
fn span(a: Square, b: Square) -> Bitboard {
    let (low, high) = (a.min(b) as usize, a.max(b) as usize);
    (low..=high).map(Square::index).collect()
}

/// Whether `text` names `mv` in this board (castling also king-takes-rook,
/// and the king's two-square move in standard chess).
fn names(board: &Board, mv: Move, text: &str) -> bool {
    let text = text.to_ascii_lowercase();
    text == board.uci(mv) || text == mv.uci(true).to_string() || text == mv.uci(false).to_string()
}

/// The pieces on `attackers`, as `knight on g4`.
fn describe(board: &Board, attackers: Bitboard) -> Vec<String> {
    attackers
        .into_iter()
        .filter_map(|sq| board.piece_on(sq).map(|p| format!("{} on {sq}", piece_name(p.kind()))))
        .collect()
}

fn piece_name(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::Pawn => "pawn",
        PieceKind::Knight => "knight",
        PieceKind::Bishop => "bishop",
        PieceKind::Rook => "rook",
        PieceKind::Queen => "queen",
        PieceKind::King => "king",
    }
}

/// Why `mv`, pseudo-legal here, is illegal, and what attacks: `None` if
/// it leaves its king safe.
fn self_check(board: &Board, mv: Move) -> Option<(Why, Vec<String>)> {
    let us = board.side_to_move();
    let (from, to) = (mv.from(), mv.to());
    if mv.is_castle() {
        return castling_check(board, mv);
    }
    let mut captured = Bitboard::default();
    if mv.kind() == MoveKind::EnPassant {
        captured = captured.with(Square::index(to as usize ^ 8));
    } else if board.color(!us).has(to) {
        captured = captured.with(to);
    }
    let occupied = (board.occupied().without(from) & !captured).with(to);
    let moving_king = board.king(us) == from;
    let king = if moving_king { to } else { board.king(us) };
    let attackers = board.attackers(king, !us, occupied) & !captured;
    if attackers.is_empty() {
        return None;
    }
    // A checker still attacking: the check was not answered, whatever the
    // move; else the move itself opened the line.
    let why = if moving_king {
        Why::KingIntoCheck
    } else if (attackers & board.checkers()).any() {
        Why::CheckIgnored
    } else if mv.kind() == MoveKind::EnPassant {
        Why::EnPassantExposesKing
    } else {
        Why::PinnedPieceMoves
    };
    Some((why, describe(board, attackers)))
}

fn castling_check(board: &Board, mv: Move) -> Option<(Why, Vec<String>)> {
    let us = board.side_to_move();
    if board.is_check() {
        return Some((Why::CastlesOutOfCheck, describe(board, board.checkers())));
    }
    let (king, rook, destination) = (mv.from(), mv.to(), mv.king_destination());
    let after = board.occupied().without(king).without(rook).with(destination).with(mv.piece_destination());
    let attackers = board.attackers(destination, !us, after);
    if attackers.any() {
        return Some((Why::CastlesIntoCheck, describe(board, attackers)));
    }
    // The squares the king crosses, with the king and rook lifted.
    let lifted = board.occupied().without(king).without(rook);
    let crossed = span(king, destination).without(king).without(destination);
    let attacked: Vec<String> = crossed
        .into_iter()
        .filter(|&sq| board.attackers(sq, !us, lifted).any())
        .map(|sq| format!("{sq} attacked"))
        .collect();
    (!attacked.is_empty()).then_some((Why::CastlesThroughCheck, attacked))
}

/// `text`, a move the engine generates that is not legal here (the
/// position as `fen`, whose en-passant square is read as written), named
/// with why it is illegal.
pub fn illegal_move(board: &Board, fen: &str, text: &str) -> NamedMove {
    let class = classify(board, text);
    let pseudo =
        pseudo_legal_moves(board, fen_en_passant(fen)).into_iter().find(|&mv| names(board, mv, text));
    let (why, attackers) = match pseudo.map(|mv| self_check(board, mv)) {
        Some(Some((why, attackers))) => (why, attackers),
        _ => (Why::NotPseudoLegal, Vec::new()),
    };
    NamedMove { uci: text.to_string(), class, why: Some(why), attackers }
}

/// The pseudo-legal moves that are illegal here, named.
pub fn illegal_moves(board: &Board, fen: &str) -> Vec<NamedMove> {
    let legal = board.legal_moves();
    pseudo_legal_moves(board, fen_en_passant(fen))
        .into_iter()
        .filter(|mv| !legal.iter().any(|l| l == mv))
        .map(|mv| illegal_move(board, fen, &board.uci(mv)))
        .collect()
}
