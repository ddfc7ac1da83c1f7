//! Legal move generation.
//!
//! Each node computes, once, the pieces giving check, the pin rays and the
//! squares non-king moves may go to (anywhere, or to block or capture a
//! single checker); then it hands out moves by sets. No move is made to test
//! its legality. The en-passant capture, rare and subtle (a discovered check
//! along the rank), is tested by simulating the resulting occupancy.
//!
//! The generator is generic over a `Sink` so that counting leaves costs a
//! popcount per set, while a [`MoveList`] expands sets into moves. Moves come
//! in Stockfish's order (pawns, knights, bishops, rooks, queens, king,
//! castling), so divides read alike.

mod on_board;
mod san;
mod sets;

use arrayvec::ArrayVec;

use crate::attacks::{
    between, bishop_rays, king_attacks, knight_attacks, pawn_attacks, pawn_set_attacks,
    pawn_set_attacks_by_side, pawn_set_pushes, rook_rays,
};
use crate::board::castling::{king_destination, rook_destination, CastlingConfig};
use crate::kernel::{outlined, Isa, Job};
use crate::types::{Bitboard, CastlingRights, CastlingSide, Color, Move, MoveKind, PieceKind, Rank, Square};
pub(crate) use on_board::OnIsa;
pub use sets::MoveSet;

/// What the generator reads of a position: [`Board`], and the compact
/// copy-make position the counting hot path uses below it.
pub(crate) trait Position {
    /// The instruction set the generator runs on for this position: how
    /// sliders are looked up and whether many are filled at once.
    type Isa: Isa;

    /// The side to move.
    fn side_to_move(&self) -> Color;
    /// Squares holding pieces of `kind`, either color.
    fn pieces(&self, kind: PieceKind) -> Bitboard;
    /// Squares holding `color`'s pieces.
    fn color(&self, color: Color) -> Bitboard;
    /// A square a pawn could capture en passant onto, if any (whether a
    /// capture is legal is decided by [`Position::ep_capture_is_legal`]).
    fn en_passant(&self) -> Option<Square>;
    /// Castling rights left.
    fn castling_rights(&self) -> CastlingRights;
    /// Where the kings and castling rooks started.
    fn castling_config(&self) -> &CastlingConfig;
    /// Whether castling follows Chess960 rules (any king and rook squares).
    fn is_chess960(&self) -> bool;

    /// Whether the generator takes the shortcuts that pay off on the
    /// compact counting path: the king's rays tested before its lines are
    /// looked up ([`Position::checkers_and_pins`]) and pawns without a pin
    /// generated without the pin rays. Measured there: faster; on the
    /// board's paths (`--full`, whose nodes are dominated by `make`): 7% and
    /// 2% more time and instructions, so they are off for [`Board`].
    const SHORTCUTS: bool = false;

    /// False where the position is known to have no check by a pawn or a
    /// knight: the move that led to it was by neither (a position where the
    /// side not to move is in check is never accepted, so such a check can
    /// only come from the piece that just moved).
    const LEAPER_CHECKS: bool = true;

    /// False where the side to move is known to have no pawn on its
    /// seventh rank, so no promotion.
    const PROMOTIONS: bool = true;

    /// The pin rays of the side to move, where the caller knows it is not
    /// in check and has counted the moves of its knights, bishops, rooks
    /// and queens itself: the generator then leaves those out.
    #[inline(always)]
    fn known_pins(&self) -> Option<KingLines> {
        None
    }

    /// The squares `color`'s pawns, knights and king attack. The compact
    /// leaves are handed it by their parent (its move changes it only when
    /// by one of them).
    #[inline(always)]
    fn leaper_attacks(&self, color: Color) -> Bitboard {
        leaper_attacks(self, color)
    }

    /// Squares holding `color`'s pieces of `kind`.
    #[inline(always)]
    fn colored(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.pieces(kind) & self.color(color)
    }

    /// Pieces of `by` that attack `sq` when `occupied` holds the blockers.
    #[inline(always)]
    fn attackers(&self, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
        let queens = self.pieces(PieceKind::Queen);
        ((knight_attacks(sq) & self.pieces(PieceKind::Knight))
            | (king_attacks(sq) & self.pieces(PieceKind::King))
            | (pawn_attacks(!by, sq) & self.pieces(PieceKind::Pawn))
            | (Self::Isa::rook_attacks(sq, occupied) & (self.pieces(PieceKind::Rook) | queens))
            | (Self::Isa::bishop_attacks(sq, occupied) & (self.pieces(PieceKind::Bishop) | queens)))
            & self.color(by)
    }

    /// The pieces checking `us` (whose king is on `king`) and the rays of
    /// its pinned pieces. Looking from the king with only their pieces as
    /// blockers finds every slider that checks or pins: the squares between
    /// decide which (none of ours: check; exactly one: pin). With
    /// [`Position::SHORTCUTS`], each kind of line is looked up only when
    /// an enemy slider of that kind stands on the king's empty-board rays
    /// (often none does).
    #[inline(always)]
    fn checkers_and_pins(&self, us: Color, king: Square) -> KingLines {
        let ours = self.color(us);
        let theirs = self.color(!us);
        let queens = self.pieces(PieceKind::Queen);
        let their_straight = (self.pieces(PieceKind::Rook) | queens) & theirs;
        let their_diagonal = (self.pieces(PieceKind::Bishop) | queens) & theirs;
        let mut lines = KingLines {
            checkers: if Self::LEAPER_CHECKS {
                ((knight_attacks(king) & self.pieces(PieceKind::Knight))
                    | (pawn_attacks(us, king) & self.pieces(PieceKind::Pawn)))
                    & theirs
            } else {
                Bitboard::EMPTY
            },
            pinned_straight: Bitboard::EMPTY,
            pinned_diagonal: Bitboard::EMPTY,
        };
        if !Self::SHORTCUTS || (rook_rays(king) & their_straight).any() {
            let seen_straight = Self::Isa::rook_attacks(king, theirs) & their_straight;
            sort_sliders(king, seen_straight, ours, &mut lines.checkers, &mut lines.pinned_straight);
        }
        if !Self::SHORTCUTS || (bishop_rays(king) & their_diagonal).any() {
            let seen_diagonal = Self::Isa::bishop_attacks(king, theirs) & their_diagonal;
            sort_sliders(king, seen_diagonal, ours, &mut lines.checkers, &mut lines.pinned_diagonal);
        }
        lines
    }

    /// Whether the pawn on `capturer` may take en passant onto `ep` without
    /// leaving its king attacked (the captured pawn leaves the rank too).
    /// Rare: a function of its own (per kernel).
    #[inline(always)]
    fn ep_capture_is_legal(&self, capturer: Square, ep: Square) -> bool
    where
        Self: Sized,
    {
        outlined::<Self::Isa, _>(EpCaptureIsLegal { position: self, capturer, ep })
    }
}

/// [`Position::ep_capture_is_legal`], compiled per kernel.
struct EpCaptureIsLegal<'p, P> {
    position: &'p P,
    capturer: Square,
    ep: Square,
}

impl<P: Position> Job for EpCaptureIsLegal<'_, P> {
    type Output = bool;

    #[inline(always)]
    fn run<K: Isa>(self) -> bool {
        let EpCaptureIsLegal { position, capturer, ep } = self;
        let us = position.side_to_move();
        let victim = ep.xor(8);
        let occupied = (position.color(Color::White) | position.color(Color::Black))
            ^ capturer.bitboard()
            ^ victim.bitboard()
            | ep.bitboard();
        let king = position.colored(us, PieceKind::King).lsb();
        let queens = position.pieces(PieceKind::Queen);
        let theirs = position.color(!us);
        let straight = (position.pieces(PieceKind::Rook) | queens) & theirs;
        let diagonal = (position.pieces(PieceKind::Bishop) | queens) & theirs;
        let other = ((knight_attacks(king) & position.pieces(PieceKind::Knight))
            | (pawn_attacks(us, king) & position.pieces(PieceKind::Pawn).without(victim)))
            & theirs;
        // A kind of slider the other side lacks is not looked up (in an
        // endgame often neither).
        other.is_empty()
            && (straight.is_empty() || (P::Isa::rook_attacks(king, occupied) & straight).is_empty())
            && (diagonal.is_empty() || (P::Isa::bishop_attacks(king, occupied) & diagonal).is_empty())
    }
}

/// The squares `color`'s pawns, knights and king attack in `board`,
/// computed.
#[inline(always)]
pub(crate) fn leaper_attacks<P: Position + ?Sized>(board: &P, color: Color) -> Bitboard {
    let mut attacks = pawn_set_attacks(color, board.colored(color, PieceKind::Pawn))
        | king_attacks(board.colored(color, PieceKind::King).lsb());
    for knight in board.colored(color, PieceKind::Knight) {
        attacks |= knight_attacks(knight);
    }
    attacks
}

/// Sorts the enemy sliders `seen` on lines through `king` into `checkers`
/// (none of `ours` between) and pin rays (exactly one between; the ray from
/// the king to the slider, slider included, is added to `pins`).
#[inline(always)]
fn sort_sliders(king: Square, seen: Bitboard, ours: Bitboard, checkers: &mut Bitboard, pins: &mut Bitboard) {
    for slider in seen {
        let ray = between(king, slider);
        let blockers = ray & ours;
        if blockers.is_empty() {
            *checkers |= slider;
        } else if !blockers.more_than_one() {
            *pins |= ray.with(slider);
        }
    }
}

/// What the enemy does to a king's lines.
#[derive(Clone, Copy)]
pub(crate) struct KingLines {
    /// Pieces giving check.
    pub(crate) checkers: Bitboard,
    /// Rook-like pin rays: from the king (excluded) to the pinning slider
    /// (included), each holding one pinned piece.
    pub(crate) pinned_straight: Bitboard,
    /// Bishop-like pin rays, the same way.
    pub(crate) pinned_diagonal: Bitboard,
}

/// An upper bound on the number of legal moves in any position a board
/// accepts, relaxed positions with too much material included (682).
///
/// With `n` pieces on the moving side, no piece has more than 27 moves (a
/// queen; a pawn has at most 12), the king 8 plus 2 castlings: at most
/// `27(n-1) + 10`. And each of the `64 - n` squares not holding our pieces
/// can be reached by at most 16 pieces (the first piece along each of the 8
/// lines through it, and 8 knights), plus 9 extra moves per last-rank square
/// for three pawns promoting four ways, plus 2 castlings. The bound is the
/// largest over `n` of the smaller of the two. Legal games never exceed 218.
pub const MAX_LEGAL_MOVES: usize = max_legal_moves_bound();

const fn max_legal_moves_bound() -> usize {
    let mut best = 0;
    let mut n = 1;
    while n < 64 {
        let by_piece = 27 * (n - 1) + 10;
        let by_target = 16 * (64 - n) + 8 * 9 + 2;
        let bound = if by_piece < by_target { by_piece } else { by_target };
        if bound > best {
            best = bound;
        }
        n += 1;
    }
    best
}

/// A stack-allocated list of moves, large enough for any accepted position.
pub type MoveList = ArrayVec<Move, MAX_LEGAL_MOVES>;

/// What a set of pawn moves handed to a `Sink` is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum PawnMoves {
    /// One-square pushes not reaching the last rank.
    Push,
    /// Two-square first moves.
    DoublePush,
    /// Captures not reaching the last rank.
    Capture,
    /// Pushes or captures onto the last rank: four moves per target.
    Promotion,
}

/// Receives legal moves by sets.
pub(crate) trait Sink {
    /// A knight, bishop, rook, queen or king on `from` may move to each
    /// square of `to` (castling excluded).
    fn piece(&mut self, kind: PieceKind, from: Square, to: Bitboard);
    /// Pawns move to each square of `to` from the square `delta` below it
    /// (`from = to - delta`, counting a1 = 0).
    fn pawns(&mut self, to: Bitboard, delta: i8, kind: PawnMoves);
    /// The king on `king` may castle with the rook on `rook`.
    fn castle(&mut self, king: Square, rook: Square);
    /// The pawn on `from` may capture en passant onto `to`.
    fn en_passant(&mut self, from: Square, to: Square);

    /// The unpinned `sliders` may move to the squares of `target` they
    /// attack with `occupied` as blockers (looked up as `K` does). By
    /// default each is handed to [`Sink::piece`] (see [`each_slider`]).
    #[inline(always)]
    fn sliders<K: Isa>(&mut self, sliders: Sliders, occupied: Bitboard, target: Bitboard) {
        each_slider::<K, _>(self, sliders, occupied, target);
    }
}

/// Bishops, rooks and queens of the side to move.
#[derive(Clone, Copy)]
pub(crate) struct Sliders {
    pub(crate) bishops: Bitboard,
    pub(crate) rooks: Bitboard,
    pub(crate) queens: Bitboard,
}

impl Sliders {
    /// No slider.
    pub(crate) const NONE: Self =
        Sliders { bishops: Bitboard::EMPTY, rooks: Bitboard::EMPTY, queens: Bitboard::EMPTY };
}

/// Hands each slider's moves to `sink`: bishops first, then rooks, then
/// queens.
#[inline(always)]
fn each_slider<K: Isa, S: Sink + ?Sized>(
    sink: &mut S,
    sliders: Sliders,
    occupied: Bitboard,
    target: Bitboard,
) {
    for from in sliders.bishops {
        sink.piece(PieceKind::Bishop, from, K::bishop_attacks(from, occupied) & target);
    }
    for from in sliders.rooks {
        sink.piece(PieceKind::Rook, from, K::rook_attacks(from, occupied) & target);
    }
    for from in sliders.queens {
        sink.piece(PieceKind::Queen, from, K::queen_attacks(from, occupied) & target);
    }
}

/// Counts moves: a popcount per set.
pub(crate) struct Counter(pub(crate) u64);

impl Sink for Counter {
    #[inline(always)]
    fn piece(&mut self, _: PieceKind, _: Square, to: Bitboard) {
        self.0 += u64::from(to.count());
    }
    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, _: i8, kind: PawnMoves) {
        let n = u64::from(to.count());
        self.0 += if kind == PawnMoves::Promotion { 4 * n } else { n };
    }
    #[inline(always)]
    fn castle(&mut self, _: Square, _: Square) {
        self.0 += 1;
    }
    #[inline(always)]
    fn en_passant(&mut self, _: Square, _: Square) {
        self.0 += 1;
    }
    #[inline(always)]
    fn sliders<K: Isa>(&mut self, sliders: Sliders, occupied: Bitboard, target: Bitboard) {
        // Two or more sliders: counted by fills, one direction at a time,
        // with no table read and no branch per slider.
        #[cfg(target_arch = "x86_64")]
        if K::FILL && (sliders.bishops | sliders.rooks | sliders.queens).more_than_one() {
            let Sliders { bishops, rooks, queens } = sliders;
            // SAFETY: `K` runs here, and `FILL` is only set for instruction sets
            // with AVX2 (`AVX512` for those with AVX-512VL and VPOPCNTDQ).
            self.0 += unsafe {
                crate::attacks::fill::slider_move_count::<K>(
                    rooks | queens,
                    bishops | queens,
                    occupied,
                    target,
                )
            };
            return;
        }
        each_slider::<K, _>(self, sliders, occupied, target);
    }
}

impl Sink for MoveList {
    #[inline(always)]
    fn piece(&mut self, _: PieceKind, from: Square, to: Bitboard) {
        for sq in to {
            self.push(Move::new(from, sq, MoveKind::Normal));
        }
    }
    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, delta: i8, kind: PawnMoves) {
        for sq in to {
            let from = Square::from_bits_masked((sq as i32 - i32::from(delta)) as u32);
            match kind {
                PawnMoves::Push | PawnMoves::Capture => {
                    self.push(Move::new(from, sq, MoveKind::Normal));
                }
                PawnMoves::DoublePush => self.push(Move::new(from, sq, MoveKind::DoublePush)),
                PawnMoves::Promotion => {
                    for kind in [
                        MoveKind::PromoteQueen,
                        MoveKind::PromoteRook,
                        MoveKind::PromoteBishop,
                        MoveKind::PromoteKnight,
                    ] {
                        self.push(Move::new(from, sq, kind));
                    }
                }
            }
        }
    }
    #[inline(always)]
    fn castle(&mut self, king: Square, rook: Square) {
        self.push(Move::new(king, rook, MoveKind::Castle));
    }
    #[inline(always)]
    fn en_passant(&mut self, from: Square, to: Square) {
        self.push(Move::new(from, to, MoveKind::EnPassant));
    }
}

/// Runs the generator for the side to move.
#[inline(always)]
pub(crate) fn generate<P: Position, S: Sink>(board: &P, sink: &mut S) {
    match board.side_to_move() {
        Color::White => generate_for::<P, S, true>(board, sink),
        Color::Black => generate_for::<P, S, false>(board, sink),
    }
}

/// The generator for a known side to move (`WHITE`).
#[inline(always)]
pub(crate) fn generate_for<P: Position, S: Sink, const WHITE: bool>(board: &P, sink: &mut S) {
    let us = if WHITE { Color::White } else { Color::Black };
    let them = !us;
    let ours = board.color(us);
    let theirs = board.color(them);
    let occupied = ours | theirs;
    let king = board.colored(us, PieceKind::King).lsb();

    // Where the caller counted the pieces' moves, it knows the pins too.
    let known_pins = board.known_pins();
    let lines = match known_pins {
        Some(pins) => pins,
        None => board.checkers_and_pins(us, king),
    };
    let checkers = lines.checkers;

    // King moves: squares not attacked once the king has left its square
    // (so it cannot step back along a checking line). The enemy attacks are
    // gathered once, over the squares that matter: the king's targets and,
    // when castling may be possible (a right held, not in check, the squares
    // between empty), the king's castling paths.
    let mut castling_paths = Bitboard::EMPTY;
    if board.castling_rights().any_of(us) && checkers.is_empty() {
        for side in CastlingSide::ALL {
            if castling_candidate(board, us, side) {
                castling_paths |= board.castling_config().king_path[us as usize][side as usize];
            }
        }
    }
    let mut king_targets = king_attacks(king) - ours;
    let zone = king_targets | castling_paths;
    let mut danger = Bitboard::EMPTY;
    if zone.any() {
        danger = danger_map::<P, WHITE>(board, zone, occupied.without(king));
        king_targets = king_targets - danger;
    }
    if checkers.more_than_one() {
        sink.piece(PieceKind::King, king, king_targets);
        return;
    }
    let check_mask = match checkers.first() {
        None => Bitboard::FULL,
        Some(checker) => between(king, checker).with(checker),
    };
    generate_pawns::<P, S, WHITE>(board, sink, &lines, check_mask);
    if known_pins.is_none() {
        generate_pieces::<P, S, WHITE>(board, sink, &lines, check_mask - ours);
    }
    sink.piece(PieceKind::King, king, king_targets);

    if castling_paths.any() {
        generate_castling::<P, S, WHITE>(board, sink, danger);
    }
}

/// The moves of `WHITE`'s knights, bishops, rooks and queens onto `target`,
/// given the king's `lines`.
#[inline(always)]
pub(crate) fn generate_pieces<P: Position, S: Sink, const WHITE: bool>(
    board: &P,
    sink: &mut S,
    lines: &KingLines,
    target: Bitboard,
) {
    let us = if WHITE { Color::White } else { Color::Black };
    let ours = board.color(us);
    let occupied = ours | board.color(!us);
    let KingLines { pinned_straight, pinned_diagonal, .. } = *lines;
    let pinned = pinned_straight | pinned_diagonal;
    for from in board.colored(us, PieceKind::Knight) - pinned {
        sink.piece(PieceKind::Knight, from, knight_attacks(from) & target);
    }
    let bishops = board.colored(us, PieceKind::Bishop);
    let rooks = board.colored(us, PieceKind::Rook);
    let our_queens = board.colored(us, PieceKind::Queen);
    let unpinned = Sliders { bishops: bishops - pinned, rooks: rooks - pinned, queens: our_queens - pinned };
    sink.sliders::<P::Isa>(unpinned, occupied, target);
    // Pinned sliders move along their pin ray only (rare: a separate loop
    // keeps the common loops free of pin tests).
    if (pinned & ours).any() {
        for from in (bishops | our_queens) & pinned_diagonal {
            let kind = if bishops.has(from) { PieceKind::Bishop } else { PieceKind::Queen };
            sink.piece(kind, from, P::Isa::bishop_attacks(from, occupied) & target & pinned_diagonal);
        }
        for from in (rooks | our_queens) & pinned_straight {
            let kind = if rooks.has(from) { PieceKind::Rook } else { PieceKind::Queen };
            sink.piece(kind, from, P::Isa::rook_attacks(from, occupied) & target & pinned_straight);
        }
    }
}

/// Whether `us` may castle on `side` as far as rights and empty squares go
/// (not yet whether the king passes attacked squares).
#[inline(always)]
pub(crate) fn castling_candidate<P: Position>(board: &P, us: Color, side: CastlingSide) -> bool {
    let occupied = board.color(Color::White) | board.color(Color::Black);
    board.castling_rights().has(us, side)
        && (occupied & board.castling_config().empty[us as usize][side as usize]).is_empty()
}

/// The squares of `zone` and around it that the enemy of `WHITE` attacks
/// with `occupied` as blockers (our king already lifted off).
#[inline(always)]
fn danger_map<P: Position, const WHITE: bool>(board: &P, zone: Bitboard, occupied: Bitboard) -> Bitboard {
    let them = if WHITE { Color::Black } else { Color::White };
    let theirs = board.color(them);
    let queens = board.pieces(PieceKind::Queen);
    let danger = board.leaper_attacks(them);
    let diagonal = (board.pieces(PieceKind::Bishop) | queens) & theirs;
    let straight = (board.pieces(PieceKind::Rook) | queens) & theirs;
    danger | slider_danger::<P::Isa>(straight, diagonal, zone, occupied)
}

/// The squares of `zone` attacked by the rook-like sliders on `straight`
/// and the bishop-like ones on `diagonal` (queens in both), `occupied`
/// holding the blockers; outside `zone` the answer may say more or less.
/// With `K`'s AVX2 fills, two or more sliders are filled at once (no table
/// read and no branch per slider); otherwise each slider whose empty-board
/// rays reach `zone` is looked up.
#[inline(always)]
pub(crate) fn slider_danger<K: Isa>(
    straight: Bitboard,
    diagonal: Bitboard,
    zone: Bitboard,
    occupied: Bitboard,
) -> Bitboard {
    #[cfg(target_arch = "x86_64")]
    if K::FILL && (straight | diagonal).more_than_one() {
        // SAFETY: `K` runs here, and `FILL` is only set for instruction sets
        // with AVX2 (`AVX512` for those with AVX-512VL and VPOPCNTDQ).
        return unsafe { crate::attacks::fill::slider_attacks::<K>(straight, diagonal, occupied) };
    }
    let mut danger = Bitboard::EMPTY;
    for slider in diagonal {
        if (bishop_rays(slider) & zone).any() {
            danger |= K::bishop_attacks(slider, occupied);
        }
    }
    for slider in straight {
        if (rook_rays(slider) & zone).any() {
            danger |= K::rook_attacks(slider, occupied);
        }
    }
    danger
}

/// The pawn moves of `WHITE`, en passant included, given the king's
/// `lines` and the squares that answer a check (`check_mask`).
#[inline(always)]
fn generate_pawns<P: Position, S: Sink, const WHITE: bool>(
    board: &P,
    sink: &mut S,
    lines: &KingLines,
    check_mask: Bitboard,
) {
    let us = if WHITE { Color::White } else { Color::Black };
    let them = !us;
    let theirs = board.color(them);
    let occupied = board.color(us) | theirs;
    let KingLines { pinned_straight, pinned_diagonal, .. } = *lines;
    let pinned = pinned_straight | pinned_diagonal;
    // Pawns, set-wise. A pawn pinned along a file may still push, one
    // pinned along a diagonal may still capture along it; the pin rays all
    // start at the king, so moving inside their union keeps a pinned pawn on
    // its own ray.
    let pawns = board.colored(us, PieceKind::Pawn);
    let last_rank = Rank::Eighth.relative_to(us).bitboard();
    let third_rank = Rank::Third.relative_to(us).bitboard();
    let empty = !occupied;
    let free = pawns - pinned;
    let (up, up_west, up_east) = if WHITE { (8, 7, 9) } else { (-8, -9, -7) };

    // Most nodes have no pinned pawn: their pushes and captures skip the
    // pin rays.
    let (single, west, east) = if P::SHORTCUTS && free == pawns {
        let (west, east) = pawn_set_attacks_by_side(us, pawns);
        (pawn_set_pushes(us, pawns), west, east)
    } else {
        let (free_west, free_east) = pawn_set_attacks_by_side(us, free);
        let (pinned_west, pinned_east) = pawn_set_attacks_by_side(us, pawns & pinned_diagonal);
        (
            pawn_set_pushes(us, free) | (pawn_set_pushes(us, pawns & pinned_straight) & pinned_straight),
            free_west | (pinned_west & pinned_diagonal),
            free_east | (pinned_east & pinned_diagonal),
        )
    };
    let single = single & empty;
    let double = pawn_set_pushes(us, single & third_rank) & empty & check_mask;
    let single = single & check_mask;
    // Without a pawn on the seventh rank, no target is on the last.
    let last_rank = if P::PROMOTIONS { last_rank } else { Bitboard::EMPTY };
    sink.pawns(single - last_rank, up, PawnMoves::Push);
    sink.pawns(double, 2 * up, PawnMoves::DoublePush);

    let capture_target = theirs & check_mask;
    let west = west & capture_target;
    let east = east & capture_target;
    if P::PROMOTIONS && (pawns & Rank::Seventh.relative_to(us).bitboard()).any() {
        sink.pawns(east & last_rank, up_east, PawnMoves::Promotion);
        sink.pawns(west & last_rank, up_west, PawnMoves::Promotion);
        sink.pawns(single & last_rank, up, PawnMoves::Promotion);
    }
    sink.pawns(east - last_rank, up_east, PawnMoves::Capture);
    sink.pawns(west - last_rank, up_west, PawnMoves::Capture);

    if let Some(ep) = board.en_passant() {
        for from in pawn_attacks(them, ep) & pawns {
            if board.ep_capture_is_legal(from, ep) {
                sink.en_passant(from, ep);
            }
        }
    }
}

/// The castling moves of `WHITE`, whose king is not in check, given the
/// enemy's attacks on the king's paths (`danger`).
#[inline(always)]
fn generate_castling<P: Position, S: Sink, const WHITE: bool>(board: &P, sink: &mut S, danger: Bitboard) {
    let us = if WHITE { Color::White } else { Color::Black };
    let them = !us;
    let occupied = board.color(us) | board.color(them);
    let king = board.colored(us, PieceKind::King).lsb();
    let config = board.castling_config();
    for side in CastlingSide::ALL {
        if !castling_candidate(board, us, side) {
            continue;
        }
        let path = config.king_path[us as usize][side as usize];
        let rook = config.rook[us as usize][side as usize];
        let legal = if !board.is_chess960() {
            // In standard chess the danger map (the king lifted off its
            // square) is exact for the whole path, landing square
            // included: a slider that could see the landing square only
            // through the king's or the rook's start square would give
            // check now, and castling is not allowed in check.
            (path & danger).is_empty()
        } else {
            // In Chess960 the rook's start square can shadow the king's
            // landing square, so that square is tested with both pieces
            // moved.
            let king_to = king_destination(us, side);
            let rook_to = rook_destination(us, side);
            let after = occupied ^ king.bitboard() ^ rook.bitboard() ^ rook_to.bitboard();
            (path.without(king_to) & danger).is_empty() && board.attackers(king_to, them, after).is_empty()
        };
        if legal {
            sink.castle(king, rook);
        }
    }
}

/// Why a move given as text was not played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not UCI move notation.
    #[error("malformed move {0:?}: expected UCI notation such as e2e4 or e7e8q")]
    Malformed(String),
    /// The text is neither UCI nor SAN move notation.
    #[error("malformed move {0:?}: expected UCI notation such as e2e4 or e7e8q, or SAN such as e4, Nf3, exd5, e8=Q or O-O")]
    MalformedEither(String),
    /// Several legal moves match the SAN given (it needs the file or rank
    /// the piece comes from).
    #[error("ambiguous move {mv:?} in position {fen}: several legal moves match; add the file or rank the piece comes from")]
    Ambiguous {
        /// The move as given.
        mv: String,
        /// The position it was tried in.
        fen: String,
    },
    /// The move is well-formed but not legal in the position.
    #[error("illegal move {mv:?} in position {fen}")]
    Illegal {
        /// The move as given.
        mv: String,
        /// The position it was tried in.
        fen: String,
    },
}
