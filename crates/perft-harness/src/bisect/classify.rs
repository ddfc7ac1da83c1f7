//! What a faulty position and its differing moves are: each move's kind
//! ([`MoveClass`]) and what the position exercises ([`Tag`]).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::types::{PieceKind, Square};

/// What a faulty position exercises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tag {
    /// An en-passant capture is possible or involved.
    EnPassant,
    /// Castling is possible or involved.
    Castling,
    /// Castling in Chess960.
    Chess960Castling,
    /// A promotion is possible or involved.
    Promotion,
    /// An extra move leaves or puts its own king in check, or castles
    /// through check.
    KingSafety,
    /// A king move is among the moves that differ.
    KingMove,
    /// The side to move is in check.
    Check,
    /// The side to move is in double check.
    DoubleCheck,
    /// The side to move has a pinned piece.
    Pin,
    /// A Chess960 position (castling written king-takes-rook).
    Chess960,
}

impl Tag {
    /// All tags, in report order.
    pub const ALL: [Tag; 10] = [
        Tag::EnPassant,
        Tag::Castling,
        Tag::Chess960Castling,
        Tag::Promotion,
        Tag::KingSafety,
        Tag::KingMove,
        Tag::Check,
        Tag::DoubleCheck,
        Tag::Pin,
        Tag::Chess960,
    ];

    /// The tag's name in reports (`en_passant`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Tag::EnPassant => "en_passant",
            Tag::Castling => "castling",
            Tag::Chess960Castling => "chess960_castling",
            Tag::Promotion => "promotion",
            Tag::KingSafety => "king_safety",
            Tag::KingMove => "king_move",
            Tag::Check => "check",
            Tag::DoubleCheck => "double_check",
            Tag::Pin => "pin",
            Tag::Chess960 => "chess960",
        }
    }
}

impl fmt::Display for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name().replace('_', " "))
    }
}

/// What kind of move a missing or extra move is, in the position where it
/// was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveClass {
    /// A pawn capturing en passant.
    EnPassant,
    /// Castling, either side.
    Castling,
    /// A promotion to this piece.
    Promotion(PromotionPiece),
    /// A pawn's two-square first move.
    DoublePush,
    /// Another pawn move.
    Pawn,
    /// Another king move.
    King,
    /// A knight, bishop, rook or queen move.
    Piece,
    /// In check, a move of a piece or pawn that blocks the check or
    /// captures the checker (how a cause groups such moves, whatever moves:
    /// an engine that does not stop checks that way misses them all).
    Evasion,
    /// Move text that does not name a piece's move in the position.
    Unreadable,
}

/// The piece a promotion makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PromotionPiece {
    /// To a knight.
    Knight,
    /// To a bishop.
    Bishop,
    /// To a rook.
    Rook,
    /// To a queen.
    Queen,
}

impl std::fmt::Display for MoveClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self {
            MoveClass::EnPassant => "en passant",
            MoveClass::Castling => "castling",
            MoveClass::Promotion(PromotionPiece::Knight) => "promotion to a knight",
            MoveClass::Promotion(PromotionPiece::Bishop) => "promotion to a bishop",
            MoveClass::Promotion(PromotionPiece::Rook) => "promotion to a rook",
            MoveClass::Promotion(PromotionPiece::Queen) => "promotion to a queen",
            MoveClass::DoublePush => "pawn double push",
            MoveClass::Pawn => "pawn move",
            MoveClass::King => "king move",
            MoveClass::Piece => "piece move",
            MoveClass::Evasion => "block or capture of the checking piece",
            MoveClass::Unreadable => "unreadable move",
        };
        f.write_str(text)
    }
}

/// Classifies `uci` (as an engine wrote it) in `board`: a legal move by
/// what it is, any other (an extra move is illegal by definition) by its
/// shape.
pub fn classify(board: &Board, uci: &str) -> MoveClass {
    if let Ok(mv) = board.parse_uci(uci) {
        if mv.is_castle() {
            return MoveClass::Castling;
        }
        if mv.is_en_passant() {
            return MoveClass::EnPassant;
        }
    }
    let square = |text: Option<&str>| text.and_then(|t| t.parse::<Square>().ok());
    let (Some(from), Some(to)) = (square(uci.get(0..2)), square(uci.get(2..4))) else {
        return MoveClass::Unreadable;
    };
    let Some(piece) = board.piece_on(from).filter(|p| p.color() == board.side_to_move()) else {
        return MoveClass::Unreadable;
    };
    let promotion = match uci.get(4..).map(|rest| rest.to_ascii_lowercase()).as_deref() {
        None | Some("") => None,
        Some("n") => Some(PromotionPiece::Knight),
        Some("b") => Some(PromotionPiece::Bishop),
        Some("r") => Some(PromotionPiece::Rook),
        Some("q") => Some(PromotionPiece::Queen),
        Some(_) => return MoveClass::Unreadable,
    };
    let files_apart = (from.file() as u8).abs_diff(to.file() as u8);
    match piece.kind() {
        _ if promotion.is_some() => MoveClass::Promotion(promotion.unwrap_or(PromotionPiece::Queen)),
        // A pawn's diagonal step onto an empty square: en passant, whether
        // or not the FEN (or the board, which keeps only a capturable
        // square) names the square.
        PieceKind::Pawn if files_apart != 0 && board.piece_on(to).is_none() => MoveClass::EnPassant,
        PieceKind::Pawn if (from.rank() as u8).abs_diff(to.rank() as u8) == 2 => MoveClass::DoublePush,
        PieceKind::Pawn => MoveClass::Pawn,
        // Two files or more, or onto its own rook: castling as some engine
        // writes it.
        PieceKind::King
            if files_apart >= 2
                || board
                    .piece_on(to)
                    .is_some_and(|p| p.color() == piece.color() && p.kind() == PieceKind::Rook) =>
        {
            MoveClass::Castling
        }
        PieceKind::King => MoveClass::King,
        _ => MoveClass::Piece,
    }
}

/// Tags for a faulty node: what its position offers and what the differing
/// moves are.
pub fn tags_for(board: &Board, moves: &[String]) -> Vec<Tag> {
    let mut tags = Vec::new();
    let checkers = board.checkers().count();
    let mut add = |tag| {
        if !tags.contains(&tag) {
            tags.push(tag);
        }
    };
    let legal = board.legal_moves();
    let castles = legal.iter().any(|m| m.is_castle());
    if board.en_passant().is_some() || legal.iter().any(|m| m.is_en_passant()) {
        add(Tag::EnPassant);
    }
    if castles {
        add(Tag::Castling);
        if board.is_chess960() {
            add(Tag::Chess960Castling);
        }
    }
    if legal.iter().any(|m| m.promotion().is_some()) {
        add(Tag::Promotion);
    }
    for text in moves {
        match classify(board, text) {
            MoveClass::Castling => {
                add(Tag::Castling);
                if board.is_chess960() {
                    add(Tag::Chess960Castling);
                }
            }
            MoveClass::EnPassant => add(Tag::EnPassant),
            MoveClass::Promotion(_) => add(Tag::Promotion),
            MoveClass::King => add(Tag::KingMove),
            _ => {}
        }
    }
    if checkers >= 1 {
        add(Tag::Check);
    }
    if checkers >= 2 {
        add(Tag::DoubleCheck);
    }
    if board.pinned().any() {
        add(Tag::Pin);
    }
    if board.is_chess960() {
        add(Tag::Chess960);
    }
    tags.sort();
    tags
}
