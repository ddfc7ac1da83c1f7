//! The planted-bug engine's move generation: the harness's board for
//! legal moves, and the careless ways of real engines on top of it (the
//! bugs `--bug` plants). Bugs that make moves the board cannot make (castling
//! with a lost right or through pieces) are in [`super::careless`].

use perft::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
};
use perft::board::{Board, CastlingMode, FenOptions};
use perft::{CastlingSide, Color, Move, MoveKind, PieceKind, Square};

use super::careless::{self, Listed};

/// The bug planted (`--bug NAME`).
#[derive(Clone, Copy, PartialEq)]
pub enum Bug {
    None,
    EnPassant,
    EnPassantPin,
    Underpromotion,
    RookPromotion,
    NoKingSafety,
    LeafEnPassantPin,
    LeafPin,
    LeafKing,
    LeafPromotion,
    LeafEnPassant,
    Duplicate,
    DivideOff,
    FirstAnswer,
    CastlingRights,
    CastlingPath,
    EnPassantLapse,
    MateNode,
    NoBlock,
}

impl Bug {
    /// The bug `--bug` names.
    pub fn named(name: &str) -> Option<Bug> {
        Some(match name {
            "ep" => Bug::EnPassant,
            "ep-pin" => Bug::EnPassantPin,
            "underpromotion" => Bug::Underpromotion,
            "rook-promotion" => Bug::RookPromotion,
            "no-king-safety" => Bug::NoKingSafety,
            "leaf-ep-pin" => Bug::LeafEnPassantPin,
            "leaf-pin" => Bug::LeafPin,
            "leaf-king" => Bug::LeafKing,
            "leaf-promotion" => Bug::LeafPromotion,
            "leaf-ep" => Bug::LeafEnPassant,
            "duplicate" => Bug::Duplicate,
            "divide-off" => Bug::DivideOff,
            "first-answer" => Bug::FirstAnswer,
            "castling-rights" => Bug::CastlingRights,
            "castling-path" => Bug::CastlingPath,
            "ep-lapse" => Bug::EnPassantLapse,
            "mate-node" => Bug::MateNode,
            "no-block" => Bug::NoBlock,
            _ => return None,
        })
    }
}

/// What this engine keeps beside the board, the careless way.
#[derive(Clone, Copy, Default)]
pub struct State {
    /// The en-passant square any double push leaves, legal capture or not.
    pub en_passant: Option<Square>,
    /// A square kept past the move after its double push (`--bug ep-lapse`).
    pub lapsed: Option<Square>,
    /// Rights it still believes in after their rook was captured on its
    /// square (`--bug castling-rights`): the rook's square, by color and
    /// side ([`careless::right_index`]).
    pub phantom: [Option<Square>; 4],
}

/// A position as this engine sees it: the board, and what it keeps beside.
#[derive(Clone)]
pub struct Position {
    pub board: Board,
    pub state: State,
}

impl Position {
    pub fn new(fen: &str, moves: &[&str], chess960: bool, bug: Bug) -> Result<Position, String> {
        let options = FenOptions { castling: CastlingMode::from_chess960(chess960), relaxed: true };
        let board = Board::from_fen_with(fen, options).map_err(|e| e.to_string())?;
        let en_passant = fen.split_whitespace().nth(3).and_then(|s| s.parse().ok());
        let mut position = Position { board, state: State { en_passant, ..State::default() } };
        for text in moves {
            let mv = position.board.parse_uci(text).map_err(|e| e.to_string())?;
            position.state = state_after(&position.board, position.state, mv, bug);
            position.board.make(mv);
        }
        Ok(position)
    }
}

/// What this engine keeps after `mv`, played on `board` (not yet made).
pub fn state_after(board: &Board, state: State, mv: Move, bug: Bug) -> State {
    let en_passant = double_push_square(mv);
    let lapsed = match bug {
        Bug::EnPassantLapse if en_passant.is_none() => state.en_passant.or(state.lapsed),
        _ => None,
    };
    let phantom = match bug {
        Bug::CastlingRights => careless::phantom_after(board, state.phantom, mv),
        _ => state.phantom,
    };
    State { en_passant, lapsed, phantom }
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

/// Every move the side to move's pieces can make by how they move, whatever
/// happens to its king: square by square, ray by ray. Written apart from
/// the harness's own pseudo-legal generator, which the tests check with it.
pub fn pseudo_legal(board: &Board, en_passant: Option<Square>) -> Vec<Move> {
    let us = board.side_to_move();
    let mut moves = Vec::new();
    let ours = |sq: Square| board.piece_on(sq).is_some_and(|p| p.color() == us);
    let theirs = |sq: Square| board.piece_on(sq).is_some_and(|p| p.color() != us);
    for from in (0..64).map(Square::index).filter(|&sq| ours(sq)) {
        let kind = board.piece_on(from).expect("our piece").kind();
        let (steps, slides): (&[(i8, i8)], bool) = match kind {
            PieceKind::Pawn => {
                pawn_moves(board, from, en_passant, &mut moves);
                continue;
            }
            PieceKind::Knight => {
                (&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)], false)
            }
            PieceKind::Bishop => (&[(1, 1), (1, -1), (-1, 1), (-1, -1)], true),
            PieceKind::Rook => (&[(1, 0), (-1, 0), (0, 1), (0, -1)], true),
            PieceKind::Queen | PieceKind::King => (
                &[(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)],
                kind == PieceKind::Queen,
            ),
        };
        for &(files, ranks) in steps {
            let mut to = from.offset(files, ranks);
            while let Some(sq) = to.filter(|&sq| !ours(sq)) {
                moves.push(Move::new(from, sq, MoveKind::Normal));
                if !slides || theirs(sq) {
                    break;
                }
                to = sq.offset(files, ranks);
            }
        }
    }
    moves.extend(castles(board));
    moves
}

/// A pawn's pushes, captures, en passant onto `en_passant`, promotions.
fn pawn_moves(board: &Board, from: Square, en_passant: Option<Square>, moves: &mut Vec<Move>) {
    let us = board.side_to_move();
    let ahead: i8 = if us == Color::White { 1 } else { -1 };
    let rank = from as usize / 8;
    let (start, last) = if us == Color::White { (1, 7) } else { (6, 0) };
    let mut add = |to: Square, kind: MoveKind| {
        if to as usize / 8 == last {
            for piece in [PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook, PieceKind::Queen] {
                moves.push(Move::new(from, to, MoveKind::promotion(piece).expect("a promotion piece")));
            }
        } else {
            moves.push(Move::new(from, to, kind));
        }
    };
    if let Some(one) = from.offset(0, ahead).filter(|&sq| board.piece_on(sq).is_none()) {
        add(one, MoveKind::Normal);
        if let Some(two) = one.offset(0, ahead).filter(|&sq| rank == start && board.piece_on(sq).is_none()) {
            add(two, MoveKind::DoublePush);
        }
    }
    for files in [-1, 1] {
        let Some(to) = from.offset(files, ahead) else { continue };
        if board.piece_on(to).is_some_and(|p| p.color() != us) {
            add(to, MoveKind::Normal);
        } else if Some(to) == en_passant && board.piece_on(to).is_none() {
            add(to, MoveKind::EnPassant);
        }
    }
}

/// Castling with the right and nothing between, attacked or not.
fn castles(board: &Board) -> Vec<Move> {
    let us = board.side_to_move();
    let king = board.king(us);
    let rank = king as usize / 8 * 8;
    let mut moves = Vec::new();
    for (side, king_file, rook_file) in [(CastlingSide::King, 6, 5), (CastlingSide::Queen, 2, 3)] {
        let Some(rook) = board.castling_rook(us, side) else { continue };
        let span = |a: usize, b: usize| a.min(b)..=a.max(b);
        let (king_from, rook_from) = (king as usize % 8, rook as usize % 8);
        let clear = span(king_from, king_file).chain(span(rook_from, rook_file)).all(|file| {
            let sq = Square::index(rank + file);
            sq == king || sq == rook || board.piece_on(sq).is_none()
        });
        if clear {
            moves.push(Move::new(king, rook, MoveKind::Castle));
        }
    }
    moves
}

/// The moves this engine lists that the board can make.
pub fn moves(board: &Board, state: State, bug: Bug) -> Vec<Move> {
    let mut list: Vec<Move> = match bug {
        Bug::NoKingSafety => pseudo_legal(board, state.en_passant.or(board.en_passant())),
        _ => board.legal_moves().into_iter().collect(),
    };
    list.retain(|m| match bug {
        Bug::EnPassant => !m.is_en_passant(),
        Bug::Underpromotion => m.promotion().is_none_or(|p| p == PieceKind::Queen),
        Bug::RookPromotion => m.promotion() != Some(PieceKind::Rook),
        // In check, only the king moves: no block, no capture of the checker.
        Bug::NoBlock if board.is_check() => {
            board.piece_on(m.from()).is_some_and(|p| p.kind() == PieceKind::King)
        }
        _ => true,
    });
    // After an illegal move the side to move may be able to take the king;
    // like any engine, this one never generates king captures.
    list.retain(|m| board.piece_on(m.to()).is_none_or(|p| p.kind() != PieceKind::King));
    let careless = match bug {
        Bug::EnPassantPin => careless_ep_captures(board, state.en_passant),
        Bug::EnPassantLapse => careless_ep_captures(board, state.lapsed),
        _ => Vec::new(),
    };
    for capture in careless {
        if !list.contains(&capture) {
            list.push(capture);
        }
    }
    if bug == Bug::Duplicate {
        if let Some(&double) = list.iter().find(|m| m.kind() == MoveKind::DoublePush) {
            list.push(double);
        }
    }
    list
}

/// Every move this engine lists: those the board makes, then those it
/// makes up, with the positions they lead to.
pub fn listed(board: &Board, state: State, bug: Bug) -> Vec<Listed> {
    let moves = moves(board, state, bug);
    // In Chess960 notation a made-up castle can read as a king move there
    // (the king taking what stands on the rook's square): not listed twice.
    let texts: Vec<String> = moves.iter().map(|mv| mv.uci(board.is_chess960()).to_string()).collect();
    let made_up = careless::made_up(board, state, bug)
        .into_iter()
        .filter(|item| !matches!(item, Listed::MadeUp { text, .. } if texts.contains(text)));
    moves.into_iter().map(Listed::Move).chain(made_up).collect()
}

/// The count one ply deep, by the count-only path (no move list).
fn leaf_count(board: &Board, state: State, bug: Bug) -> u64 {
    let listed = listed(board, state, bug).len() as u64;
    let legal = board.legal_moves();
    match bug {
        Bug::LeafEnPassantPin => {
            listed
                + careless_ep_captures(board, state.en_passant).iter().filter(|m| !legal.contains(m)).count()
                    as u64
        }
        Bug::LeafPin if !board.is_check() => {
            listed + piece_moves(board).iter().filter(|m| !legal.contains(m)).count() as u64
        }
        Bug::LeafKing if !board.is_check() => {
            let us = board.color(board.side_to_move());
            let king = board.king(board.side_to_move());
            let steps =
                (king_attacks(king) & !us).into_iter().map(|to| Move::new(king, to, MoveKind::Normal));
            listed + steps.filter(|m| !legal.contains(m)).count() as u64
        }
        // Each pawn move onto the last rank counted once, not once a piece.
        Bug::LeafPromotion => {
            listed
                - legal.iter().filter(|m| m.promotion().is_some_and(|p| p != PieceKind::Queen)).count() as u64
        }
        Bug::LeafEnPassant => listed - legal.iter().filter(|m| m.is_en_passant()).count() as u64,
        _ => listed,
    }
}

/// Knight, bishop, rook and queen moves without a pin test: out of check,
/// the illegal ones are pinned pieces leaving their line.
fn piece_moves(board: &Board) -> Vec<Move> {
    let (ours, occupied) = (board.color(board.side_to_move()), board.occupied());
    let mut moves = Vec::new();
    for from in ours {
        let targets = match board.piece_on(from).map(|p| p.kind()) {
            Some(PieceKind::Knight) => knight_attacks(from),
            Some(PieceKind::Bishop) => bishop_attacks(from, occupied),
            Some(PieceKind::Rook) => rook_attacks(from, occupied),
            Some(PieceKind::Queen) => queen_attacks(from, occupied),
            _ => continue,
        };
        moves.extend((targets & !ours).into_iter().map(|to| Move::new(from, to, MoveKind::Normal)));
    }
    moves
}

/// The nodes `depth` plies below `board`, as this engine counts them.
pub fn count(board: &mut Board, state: State, depth: u32, bug: Bug) -> u64 {
    if bug == Bug::MateNode && depth >= 1 && listed(board, state, bug).is_empty() {
        // A node without moves is taken for a leaf (its answer asked
        // there is the sum of its divide, so right).
        return 1;
    }
    match depth {
        0 => 1,
        1 => leaf_count(board, state, bug),
        _ => listed(board, state, bug)
            .into_iter()
            .map(|item| count_after(board, state, item, depth - 1, bug))
            .sum(),
    }
}

/// The nodes `depth` plies below the position `item` leads to.
pub fn count_after(board: &mut Board, state: State, item: Listed, depth: u32, bug: Bug) -> u64 {
    match item {
        Listed::Move(mv) => {
            let next = state_after(board, state, mv, bug);
            board.make(mv);
            let nodes = count(board, next, depth, bug);
            board.unmake();
            nodes
        }
        Listed::MadeUp { mut child, state, .. } => count(&mut child, state, depth, bug),
    }
}
