//! Why a move an engine generates is illegal, and which moves may explain
//! a count that differs where the move lists agree.
//!
//! A move is first matched against the pseudo-legal moves of the position
//! (every move the pieces can make by how they move, castling with its
//! right and an empty path, en passant onto the square the FEN names),
//! then played on a copy of the occupancy to see whether its own king is
//! attacked after it, and by what. A move that is not even pseudo-legal is
//! told in the author's words where it is one of the classic bugs:
//! castling without the right (which right, and the capture or move that
//! should have removed it, found by walking back through the moves that
//! reached the position), castling with pieces between the king and the
//! rook, en passant onto a square the position does not give (and why it
//! does not: the double push lapsed, or the pawn came one square).

use std::collections::BTreeMap;
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
    /// Castling with a right its rook's capture, on the rook's square,
    /// should have removed.
    CastlesAfterRookCaptured,
    /// Castling with a right its rook's move should have removed.
    CastlesAfterRookMoved,
    /// Castling with a right a king move should have removed.
    CastlesAfterKingMoved,
    /// Castling with a right the position never had (its FEN, or the
    /// moves that led to the test position, gave none).
    CastlesWithoutRight,
    /// Castling with the right, but with pieces between the king and the
    /// rook, or on the squares they go to.
    CastlesThroughPieces,
    /// An en-passant capture onto a square the position does not give.
    EnPassantWithoutSquare,
    /// Not a move the piece can make there (wrong shape, blocked, no such
    /// piece).
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
    /// Castling with a right the position does not have: the rights are
    /// not updated when a rook is captured or moves, or the king moves.
    CastlingRight,
    /// Castling with pieces between the king and the rook.
    CastlingPath,
    /// En passant onto a square the position does not give: the square is
    /// kept too long, or set by a one-square step.
    EnPassantSquare,
    /// Not even pseudo-legal: the move generation itself is wrong.
    NotPseudoLegal,
}

impl Why {
    /// Kinds in the order a count's candidates are tried: the rarer and
    /// more often wrong first.
    pub const BY_LIKELIHOOD: [Why; 14] = [
        Why::EnPassantExposesKing,
        Why::CastlesThroughCheck,
        Why::CastlesOutOfCheck,
        Why::CastlesIntoCheck,
        Why::PinnedPieceMoves,
        Why::CheckIgnored,
        Why::KingIntoCheck,
        Why::CastlesAfterRookCaptured,
        Why::CastlesAfterRookMoved,
        Why::CastlesAfterKingMoved,
        Why::CastlesWithoutRight,
        Why::CastlesThroughPieces,
        Why::EnPassantWithoutSquare,
        Why::NotPseudoLegal,
    ];

    /// What it comes down to.
    pub fn family(self) -> Family {
        match self {
            Why::CastlesAfterRookCaptured
            | Why::CastlesAfterRookMoved
            | Why::CastlesAfterKingMoved
            | Why::CastlesWithoutRight => Family::CastlingRight,
            Why::CastlesThroughPieces => Family::CastlingPath,
            Why::EnPassantWithoutSquare => Family::EnPassantSquare,
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
            Why::CastlesAfterRookCaptured => "the right kept after its rook was captured",
            Why::CastlesAfterRookMoved => "the right kept after its rook moved",
            Why::CastlesAfterKingMoved => "the right kept after the king moved",
            Why::CastlesWithoutRight => "a right the position does not give",
            Why::CastlesThroughPieces => "castling with pieces between the king and the rook",
            Why::EnPassantWithoutSquare => "en passant without the en-passant square",
            Why::NotPseudoLegal => "not a move of that piece there",
        })
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Family::KingSafety => "moves that leave or put their own king in check",
            Family::CastlingRight => "castling without the right",
            Family::CastlingPath => "castling with pieces between the king and the rook",
            Family::EnPassantSquare => "en passant onto a square the position does not give",
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
    /// The pieces that attack the king after it (`knight on g4`), the
    /// attacked squares castling crosses, or the pieces in castling's way.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attackers: Vec<String>,
    /// For castling without the right or en passant without the square, in
    /// words: which right, and the move that should have removed it
    /// (`black's kingside right went with b2h8, 2 plies before: the bishop
    /// took the rook on h8`); why there is no en-passant square.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
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
    let named = |why, attackers, detail| NamedMove {
        uci: text.to_string(),
        class,
        why: Some(why),
        attackers,
        detail,
    };
    match pseudo.map(|mv| self_check(board, mv)) {
        Some(Some((why, attackers))) => named(why, attackers, None),
        Some(None) => named(Why::NotPseudoLegal, Vec::new(), None),
        None => match not_pseudo_legal(board, fen, text, class) {
            Some((why, attackers, detail)) => named(why, attackers, Some(detail)),
            None => named(Why::NotPseudoLegal, Vec::new(), None),
        },
    }
}

/// `text`'s squares, and the king of the side to move on its back rank
/// moving along it as castling is written (two files or more, or onto its
/// own rook): the side it castles to.
fn castling_side(board: &Board, text: &str) -> Option<(Square, Square, CastlingSide)> {
    let (from, to) = (text.get(0..2)?.parse::<Square>().ok()?, text.get(2..4)?.parse::<Square>().ok()?);
    let us = board.side_to_move();
    let back = if us == Color::White { Rank::First } else { Rank::Eighth };
    let king = board.piece_on(from).is_some_and(|p| p.color() == us && p.kind() == PieceKind::King);
    if !king || from.rank() != back || to.rank() != back {
        return None;
    }
    Some((from, to, if to.file() > from.file() { CastlingSide::King } else { CastlingSide::Queen }))
}

fn side_name(side: CastlingSide) -> &'static str {
    match side {
        CastlingSide::King => "kingside",
        CastlingSide::Queen => "queenside",
    }
}

/// A move that is not even pseudo-legal, told as the classic bug it is
/// where it is one: castling without the right or through pieces, en
/// passant without the square. Why, what is in the way, and the story in
/// words.
fn not_pseudo_legal(
    board: &Board,
    fen: &str,
    text: &str,
    class: MoveClass,
) -> Option<(Why, Vec<String>, String)> {
    let us = board.side_to_move();
    match class {
        MoveClass::Castling => {
            let (king, to, side) = castling_side(board, text)?;
            let Some(rook) = board.castling_rook(us, side) else {
                let (why, detail) = right_lost(board, us, side).map_or_else(
                    || {
                        let field = fen.split_whitespace().nth(2).unwrap_or("-");
                        let detail = format!(
                            "the position gives {us} no {} right (castling field `{field}`)",
                            side_name(side)
                        );
                        (Why::CastlesWithoutRight, detail)
                    },
                    |lost| (lost.why, lost.detail),
                );
                return Some((why, Vec::new(), detail));
            };
            let castle = Move::new(king, rook, MoveKind::Castle);
            let path = span(king, castle.king_destination()) | span(rook, castle.piece_destination());
            let blockers = path & board.occupied().without(king).without(rook);
            let named_rook = to == rook || to == castle.king_destination();
            (named_rook && blockers.any()).then(|| {
                let detail = format!("{us}'s {} castling needs its path empty", side_name(side));
                (Why::CastlesThroughPieces, describe(board, blockers), detail)
            })
        }
        MoveClass::EnPassant => {
            let to = text.get(2..4)?.parse::<Square>().ok()?;
            Some((Why::EnPassantWithoutSquare, Vec::new(), lapsed_square(board, fen, to)))
        }
        _ => None,
    }
}

/// A castling right that went along the moves that reached a position.
struct LostRight {
    /// How it went: its rook captured, its rook moved, the king moved.
    why: Why,
    /// The story: `black's kingside right went with b2h8, 2 plies before:
    /// the bishop took the rook on h8`.
    detail: String,
    /// Where the king and the rook stood while it was held.
    king: Square,
    rook: Square,
}

/// Where `color`'s right to castle on `side` went, walking back through
/// the moves that reached `board`; `None` if the board never had it.
fn right_lost(board: &Board, color: Color, side: CastlingSide) -> Option<LostRight> {
    let mut before = board.clone();
    for plies in 1.. {
        let mv = before.moves_played().last()?;
        let after = before.castling_rights();
        before.unmake();
        if !before.castling_rights().has(color, side) || after.has(color, side) {
            continue;
        }
        let rook = before.castling_rook(color, side)?;
        let mover = before.piece_on(mv.from())?;
        let text = before.uci(mv);
        let (why, what) = if mover.color() != color && mv.to() == rook {
            (
                Why::CastlesAfterRookCaptured,
                format!("the {} took the rook on {rook}", piece_name(mover.kind())),
            )
        } else if mv.from() == rook && !mv.is_castle() {
            (Why::CastlesAfterRookMoved, format!("the rook left {rook}"))
        } else {
            (Why::CastlesAfterKingMoved, "the king moved".to_string())
        };
        let ago = if plies == 1 { "the last move".to_string() } else { format!("{plies} plies before") };
        let detail = format!("{color}'s {} right went with {text}, {ago}: {what}", side_name(side));
        return Some(LostRight { why, detail, king: before.king(color), rook });
    }
    None
}

/// The castling moves a generator that forgets to remove rights would
/// still make here: for each right of the side to move that went along
/// the moves that reached `board`, with the king where it stood then and
/// the squares it and the rook go through empty (the rook's own square
/// may hold what took it). Written as the board writes castling.
fn lost_castles(board: &Board) -> Vec<String> {
    let us = board.side_to_move();
    let mut texts = Vec::new();
    for side in [CastlingSide::King, CastlingSide::Queen] {
        if board.castling_rook(us, side).is_some() {
            continue;
        }
        let Some(lost) = right_lost(board, us, side) else { continue };
        if board.king(us) != lost.king {
            continue;
        }
        let castle = Move::new(lost.king, lost.rook, MoveKind::Castle);
        let path = span(lost.king, castle.king_destination()) | span(lost.rook, castle.piece_destination());
        if (path & board.occupied().without(lost.king).without(lost.rook)).any() {
            continue;
        }
        let to = if board.is_chess960() { lost.rook } else { castle.king_destination() };
        texts.push(format!("{}{to}", lost.king));
    }
    texts
}

/// Why there is no en-passant square onto `to` at `board` (written `fen`):
/// the double push of the pawn beside it lapsed, the pawn came one square,
/// or there is no such pawn.
fn lapsed_square(board: &Board, fen: &str, to: Square) -> String {
    let field = fen.split_whitespace().nth(3).unwrap_or("-");
    let victim = Square::index(to as usize ^ 8);
    let them = !board.side_to_move();
    let has_pawn = board.piece_on(victim).is_some_and(|p| p.color() == them && p.kind() == PieceKind::Pawn);
    let mut story = format!("the position's en-passant field is `{field}`");
    if !has_pawn {
        story.push_str(&format!(": no pawn of {them}'s on {victim} to take"));
        return story;
    }
    let mut before = board.clone();
    for plies in 1..=board.ply() {
        let Some(mv) = before.moves_played().last() else { break };
        before.unmake();
        if mv.to() != victim {
            continue;
        }
        let text = before.uci(mv);
        if mv.kind() == MoveKind::DoublePush && plies == 1 {
            let square = Square::index((mv.from() as usize + mv.to() as usize) / 2);
            story.push_str(&format!(": {text} was the last move, which gives {square}, not {to}"));
        } else if mv.kind() == MoveKind::DoublePush {
            story.push_str(&format!(
                ": {text} pushed that pawn two squares {plies} plies before, and the square lapsed after the \
                 next move"
            ));
        } else {
            story.push_str(&format!(
                ": the pawn on {victim} came with {text}, which gives no en-passant square"
            ));
        }
        return story;
    }
    let mut start = board.clone();
    while start.ply() > 0 {
        start.unmake();
    }
    if board.ply() > 0 && start.en_passant() == Some(to) {
        story.push_str(&format!(
            ": the test position gave {to}, and the square lapsed after its first move, {} plies before",
            board.ply()
        ));
    }
    story
}

/// The pseudo-legal moves that are illegal here, named; and castling with
/// a right the moves that reached `board` took away (`lost_castles`),
/// which an engine that forgets to remove rights still makes.
pub fn illegal_moves(board: &Board, fen: &str) -> Vec<NamedMove> {
    let legal = board.legal_moves();
    let mut named: Vec<NamedMove> = pseudo_legal_moves(board, fen_en_passant(fen))
        .into_iter()
        .filter(|mv| !legal.iter().any(|l| l == mv))
        .map(|mv| illegal_move(board, fen, &board.uci(mv)))
        .collect();
    named.extend(lost_castles(board).iter().map(|text| illegal_move(board, fen, text)));
    named.extend(lapsed_en_passants(board).iter().map(|text| illegal_move(board, fen, text)));
    named
}

/// The en-passant captures a generator that keeps an en-passant square
/// too long would still make here: onto the square the last double push
/// skipped (or, before any, the square the test position's FEN gave),
/// at least one move later, empty, with a pawn of the other side's on the
/// square beyond it, by every pawn of the side to move that attacks it.
fn lapsed_en_passants(board: &Board) -> Vec<String> {
    let us = board.side_to_move();
    let Some(square) = last_en_passant_square(board) else { return Vec::new() };
    let victim = Square::index(square as usize ^ 8);
    let taken = board.piece_on(victim).is_some_and(|p| p.color() != us && p.kind() == PieceKind::Pawn);
    if !taken || board.piece_on(square).is_some() {
        return Vec::new();
    }
    let pawns = pawn_attacks(!us, square) & board.colored(us, PieceKind::Pawn);
    pawns.into_iter().map(|from| format!("{from}{square}")).collect()
}

/// The en-passant square last given before the move that led to `board`:
/// by the last double push of the moves that reached it, else by the
/// position they started from; `None` if neither gave one, or `board` is
/// that position.
fn last_en_passant_square(board: &Board) -> Option<Square> {
    let played: Vec<Move> = board.moves_played().collect();
    let (last, earlier) = played.split_last()?;
    if let Some(push) = earlier.iter().rev().find(|mv| mv.kind() == MoveKind::DoublePush) {
        return Some(Square::index((push.from() as usize + push.to() as usize) / 2));
    }
    if last.kind() == MoveKind::DoublePush {
        return None;
    }
    let mut start = board.clone();
    while start.ply() > 0 {
        start.unmake();
    }
    start.en_passant()
}

/// How many of [`illegal_moves`] there are of each kind.
pub fn illegal_by_kind(board: &Board, fen: &str) -> BTreeMap<Why, u128> {
    let mut by_kind = BTreeMap::new();
    for why in illegal_moves(board, fen).iter().filter_map(|m| m.why) {
        *by_kind.entry(why).or_insert(0) += 1;
    }
    by_kind
}
