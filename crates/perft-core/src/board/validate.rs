//! Turning a read FEN into a board: what is impossible, and what relaxed
//! mode lets through.

use core::fmt;

use super::setup::{CastlingMode, CastlingToken, FenOptions, Setup};
use super::{zobrist, Board, CastlingConfig, State};
use crate::attacks::aligned;
use crate::types::{Bitboard, CastlingRights, CastlingSide, Color, File, Piece, PieceKind, Rank, Square};

/// Something that makes a position unacceptable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// A side has no king.
    MissingKing(Color),
    /// A side has more than one king.
    TooManyKings(Color),
    /// A pawn stands on the first or eighth rank.
    PawnOnBackRank(Square),
    /// The side that is not to move is in check.
    OppositeCheck(Color),
    /// The en-passant square does not fit the position.
    InvalidEnPassant {
        /// The square from the FEN.
        square: Square,
        /// Why it does not fit.
        reason: &'static str,
    },
    /// A castling right has no king or rook to go with it.
    InvalidCastling {
        /// The right as written in the FEN (`K`, `q`, `H`, ...).
        right: char,
        /// What is missing or wrong.
        reason: String,
    },
    /// The castling rights could not survive from any start position (for
    /// example a king on the h-file with a right). Relaxed mode accepts it.
    ImpossibleCastling(String),
    /// No legal move could have produced this check. Relaxed mode accepts it.
    ImpossibleCheck(&'static str),
    /// More pieces than promotions can explain. Relaxed mode accepts it.
    TooMuchMaterial(Color),
}

impl Problem {
    /// Whether relaxed validation accepts a position with this problem.
    pub fn is_relaxable(&self) -> bool {
        matches!(
            self,
            Problem::ImpossibleCastling(_) | Problem::ImpossibleCheck(_) | Problem::TooMuchMaterial(_)
        )
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::MissingKing(color) => write!(f, "{color} has no king"),
            Problem::TooManyKings(color) => write!(f, "{color} has more than one king"),
            Problem::PawnOnBackRank(sq) => write!(f, "pawn on the back rank ({sq})"),
            Problem::OppositeCheck(color) => {
                write!(f, "{color} is in check but it is {}'s move", !*color)
            }
            Problem::InvalidEnPassant { square, reason } => {
                write!(f, "bad en-passant square {square}: {reason}")
            }
            Problem::InvalidCastling { right, reason } => {
                write!(f, "castling right '{right}': {reason}")
            }
            Problem::ImpossibleCastling(reason) => {
                write!(f, "impossible castling rights: {reason} (accepted in relaxed mode)")
            }
            Problem::ImpossibleCheck(reason) => {
                write!(f, "impossible check: {reason} (accepted in relaxed mode)")
            }
            Problem::TooMuchMaterial(color) => {
                write!(f, "{color} has too much material (accepted in relaxed mode)")
            }
        }
    }
}

/// A position was rejected; holds every problem found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct PositionError {
    problems: Vec<Problem>,
}

impl PositionError {
    pub(crate) fn new(problems: Vec<Problem>) -> Self {
        PositionError { problems }
    }

    /// The problems, in the order they were found.
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, problem) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{problem}")?;
        }
        Ok(())
    }
}

/// Checks that a castling right fits standard chess: king on e1/e8, rook in
/// the corner of its side.
pub(crate) fn check_standard_castling(
    color: Color,
    side: CastlingSide,
    king: Square,
    rook: Square,
) -> Result<(), Problem> {
    let rook_file = match side {
        CastlingSide::King => File::H,
        CastlingSide::Queen => File::A,
    };
    if king.file() != File::E || rook.file() != rook_file {
        let right = match side {
            CastlingSide::King => 'K',
            CastlingSide::Queen => 'Q',
        };
        return Err(Problem::InvalidCastling {
            right: if color == Color::White { right } else { right.to_ascii_lowercase() },
            reason: format!(
                "needs the king on e{0} and a rook on {1}{0} in standard chess \
                 (king on {king}, rook on {rook}); is this Chess960?",
                Rank::First.relative_to(color).to_char(),
                rook_file.to_char()
            ),
        });
    }
    Ok(())
}

struct ResolvedRight {
    color: Color,
    side: CastlingSide,
    rook: Square,
    letter: char,
}

/// Matches each castling token to a rook. Returns the rights found and
/// whether any of them needs Chess960.
fn resolve_castling(board: &Board, setup: &Setup, problems: &mut Vec<Problem>) -> (Vec<ResolvedRight>, bool) {
    let mut rights: Vec<ResolvedRight> = Vec::new();
    let mut needs_960 = false;
    for &(color, token, letter) in &setup.castling {
        let back_rank = Rank::First.relative_to(color);
        let king = board.king(color);
        if king.rank() != back_rank {
            problems.push(Problem::InvalidCastling {
                right: letter,
                reason: format!("the {color} king is not on rank {}", back_rank.to_char()),
            });
            continue;
        }
        let rooks = board.colored(color, PieceKind::Rook) & back_rank.bitboard();
        let resolved = match token {
            CastlingToken::Outermost(side) => board.outermost_rook(color, side).map(|r| (side, r)),
            CastlingToken::File(file) => {
                needs_960 = true;
                let sq = Square::new(file, back_rank);
                if rooks.has(sq) && file != king.file() {
                    let side = if file > king.file() { CastlingSide::King } else { CastlingSide::Queen };
                    Some((side, sq))
                } else {
                    None
                }
            }
        };
        let Some((side, rook)) = resolved else {
            problems.push(Problem::InvalidCastling {
                right: letter,
                reason: format!("no {color} rook for it on rank {}", back_rank.to_char()),
            });
            continue;
        };
        if rights.iter().any(|r| r.color == color && r.side == side) {
            problems.push(Problem::InvalidCastling {
                right: letter,
                reason: format!("{color} already has a right on that side"),
            });
            continue;
        }
        if check_standard_castling(color, side, king, rook).is_err() {
            needs_960 = true;
        }
        rights.push(ResolvedRight { color, side, rook, letter });
    }
    (rights, needs_960)
}

/// Too much material: more pawns and promoted pieces than eight (a bishop
/// counts as promoted when its side has two on one square color).
fn too_much_material(board: &Board, color: Color) -> bool {
    let count = |kind| board.colored(color, kind).count() as i32;
    let bishops = board.colored(color, PieceKind::Bishop);
    let promoted = (count(PieceKind::Queen) - 1).max(0)
        + (count(PieceKind::Rook) - 2).max(0)
        + (count(PieceKind::Knight) - 2).max(0)
        + ((bishops & Bitboard::LIGHT).count() as i32 - 1).max(0)
        + ((bishops & Bitboard::DARK).count() as i32 - 1).max(0);
    count(PieceKind::Pawn) + promoted > 8
}

pub(crate) fn board_from_setup(setup: &Setup, options: FenOptions) -> Result<Board, PositionError> {
    let us = setup.side_to_move;
    let mut board = Board::empty(us, false, CastlingConfig::standard());
    for sq in Square::ALL {
        if let Some(piece) = setup.placement[sq as usize] {
            board.put_piece(piece, sq);
        }
    }

    let mut problems = Vec::new();
    for color in Color::ALL {
        match board.colored(color, PieceKind::King).count() {
            0 => problems.push(Problem::MissingKing(color)),
            1 => {}
            _ => problems.push(Problem::TooManyKings(color)),
        }
    }
    if !problems.is_empty() {
        return Err(PositionError::new(problems));
    }
    let back_ranks = Rank::First.bitboard() | Rank::Eighth.bitboard();
    if let Some(sq) = (board.pieces(PieceKind::Pawn) & back_ranks).first() {
        problems.push(Problem::PawnOnBackRank(sq));
    }
    let occupied = board.occupied();
    if board.attackers(board.king(!us), us, occupied).any() {
        problems.push(Problem::OppositeCheck(!us));
    }

    // Castling.
    let (rights, needs_960) = resolve_castling(&board, setup, &mut problems);
    let chess960 = castling_mode_problems(&board, &rights, needs_960, options.castling, &mut problems);

    // Checks and the en-passant square.
    let en_passant = check_and_en_passant_problems(&board, setup.en_passant, &mut problems);

    for color in Color::ALL {
        if too_much_material(&board, color) {
            problems.push(Problem::TooMuchMaterial(color));
        }
    }

    problems.retain(|p| !(options.relaxed && p.is_relaxable()));
    if !problems.is_empty() {
        return Err(PositionError::new(problems));
    }

    let mut castling = CastlingRights::NONE;
    let mut rook = [[Square::H1, Square::A1], [Square::H8, Square::A8]];
    for right in &rights {
        castling = castling.union(CastlingRights::single(right.color, right.side));
        rook[right.color as usize][right.side as usize] = right.rook;
    }
    board.castling =
        CastlingConfig::new(castling, rook, [board.king(Color::White), board.king(Color::Black)]);
    board.chess960 = chess960;
    board.state = State {
        key: 0,
        rule50: setup.halfmove_clock,
        castling,
        en_passant: en_passant.filter(|&ep| board.any_legal_ep_capture(ep)),
    };
    board.start_ply = 2 * (u64::from(setup.fullmove_number) - 1) + u64::from(us == Color::Black);
    board.state.key = board.key_with(&zobrist::PRIMARY);
    debug_assert_eq!(board.check_consistency(), Ok(()));
    Ok(board)
}

/// Problems with castling rights `rights` under `mode` (standard rights
/// need standard king and rook squares; Chess960 kings cannot stand on a
/// corner file); returns whether the board follows Chess960 rules
/// (`needs_960`: the rights can only be Chess960 ones).
fn castling_mode_problems(
    board: &Board,
    rights: &[ResolvedRight],
    needs_960: bool,
    mode: CastlingMode,
    problems: &mut Vec<Problem>,
) -> bool {
    let chess960 = match mode {
        CastlingMode::Standard => {
            for right in rights {
                if let Err(problem) =
                    check_standard_castling(right.color, right.side, board.king(right.color), right.rook)
                {
                    let problem = match problem {
                        Problem::InvalidCastling { reason, .. } => {
                            Problem::InvalidCastling { right: right.letter, reason }
                        }
                        other => other,
                    };
                    problems.push(problem);
                }
            }
            false
        }
        CastlingMode::Chess960 => true,
        CastlingMode::Detect => needs_960,
    };
    if chess960 {
        for right in rights {
            let file = board.king(right.color).file();
            if file == File::A || file == File::H {
                problems.push(Problem::ImpossibleCastling(format!(
                    "the {} king on the {}-file cannot have started between its rooks",
                    right.color,
                    file.to_char()
                )));
                break;
            }
        }
        // The two sides' kings and rooks need not share files: in
        // double-Fischer-random chess each side has its own setup.
    }
    chess960
}

/// Problems with the checks on the side to move and with the en-passant
/// square the FEN gives (`en_passant_square`); returns that square if it is
/// consistent with the position.
fn check_and_en_passant_problems(
    board: &Board,
    en_passant_square: Option<Square>,
    problems: &mut Vec<Problem>,
) -> Option<Square> {
    let us = board.side_to_move();
    let occupied = board.occupied();
    let our_king = board.king(us);
    let checkers = board.attackers(our_king, !us, occupied);
    let mut en_passant = None;
    if let Some(ep) = en_passant_square {
        let pushed_to = ep.xor(8);
        let pushed_from = ep.xor(24);
        let their_pawn = Piece::new(!us, PieceKind::Pawn);
        let reason = if ep.rank() != Rank::Sixth.relative_to(us) {
            Some(if us == Color::White {
                "must be on rank 6 when White is to move"
            } else {
                "must be on rank 3 when Black is to move"
            })
        } else if occupied.has(ep) {
            Some("the square is occupied")
        } else if board.piece_on(pushed_to) != Some(their_pawn) {
            Some("no pawn that could have just made a double push")
        } else if occupied.has(pushed_from) {
            Some("the pawn's starting square is occupied")
        } else {
            None
        };
        match reason {
            Some(reason) => problems.push(Problem::InvalidEnPassant { square: ep, reason }),
            None => {
                if checkers.any() {
                    let uncovered =
                        board.attackers(our_king, !us, (occupied ^ pushed_to.bitboard()) | pushed_from).any();
                    if checkers.more_than_one() || (checkers.single() != Some(pushed_to) && uncovered) {
                        problems.push(Problem::ImpossibleCheck(
                            "the check could not come from the double push the en-passant square implies",
                        ));
                    }
                }
                en_passant = Some(ep);
            }
        }
    }
    if checkers.count() > 2 {
        problems.push(Problem::ImpossibleCheck("more than two pieces give check"));
    } else if checkers.count() == 2 {
        let a = checkers.lsb();
        let b = checkers.without(a).lsb();
        if aligned(a, our_king, b) {
            problems.push(Problem::ImpossibleCheck("two checkers on one line through the king"));
        }
    }
    let steppers = board.pieces(PieceKind::Pawn) | board.pieces(PieceKind::Knight);
    if (checkers & steppers).more_than_one() {
        problems.push(Problem::ImpossibleCheck("two pawns or knights give check at once"));
    }
    en_passant
}
