//! The legal moves of eight children at once, one per lane ([`lane_moves`]):
//! the children of one node, each after one move of the node's side (`A`,
//! "ours"), counted for the other side (`B`, "theirs"), whose pieces do
//! not move in any child. So `B`'s king's lines and its pieces' rays are
//! the node's empty-board rays cut per lane ([`vector::cut_rays`]), while
//! `A`'s sliders, moved in some lanes, are filled.
//!
//! Every function here is `unsafe` and `#[inline(always)]`, for a caller
//! compiled with AVX-512 F, BW, CD, DQ, VL and VPOPCNTDQ (see
//! [`super::count_moves`]).

use core::arch::x86_64::{
    __m512i, __mmask8, _mm512_add_epi64, _mm512_and_si512, _mm512_andnot_si512, _mm512_cmpeq_epi64_mask,
    _mm512_mask_add_epi64, _mm512_mask_and_epi64, _mm512_mask_mov_epi64, _mm512_mask_or_epi64,
    _mm512_mask_xor_epi64, _mm512_maskz_mov_epi64, _mm512_or_si512, _mm512_setzero_si512, _mm512_slli_epi64,
    _mm512_srli_epi64, _mm512_ternarylogic_epi64, _mm512_test_epi64_mask, _mm512_testn_epi64_mask,
    _mm512_xor_si512,
};

use super::super::position::{sides, Compact, NO_CASTLING};
use super::vector::{
    cut_rays, diagonal_attacks, king_attacks, knight_attacks, or3, pawn_attacks, pawn_attacks_by_side,
    popcnt, slider_from, splat, straight_attacks, DIAGONAL, STRAIGHT,
};
use crate::types::{Bitboard, CastlingSide, Color, PieceKind, Rank, Square};

const PAWN: usize = PieceKind::Pawn as usize;
const KNIGHT: usize = PieceKind::Knight as usize;
const BISHOP: usize = PieceKind::Bishop as usize;
const ROOK: usize = PieceKind::Rook as usize;
const QUEEN: usize = PieceKind::Queen as usize;
const KING: usize = PieceKind::King as usize;

/// One castling of theirs as the children may have it: a right held in
/// the node, lost where a lane's move lands on one of `lost_on`, legal
/// where `empty` is empty, `path` unattacked and their king not in check.
#[derive(Clone, Copy)]
struct Castling {
    held: bool,
    lost_on: u64,
    empty: u64,
    path: u64,
}

/// What the lanes are counted against: the node's pieces by kind (ours
/// move in the children, theirs are only taken), and what follows from
/// where their king stands.
pub(super) struct Base {
    ours: [u64; 6],
    theirs: [u64; 6],
    their_king: Square,
    /// The squares next to their king.
    zone: u64,
    /// The squares from which a pawn, or a knight, of ours would check
    /// their king.
    pawn_checks: u64,
    knight_checks: u64,
    /// Their standard castlings, king's side then queen's side (none where
    /// `CASTLING` is [`NO_CASTLING`]).
    castling: [Castling; 2],
}

impl Base {
    /// The pieces of `node`, `WHITE` to move, whose children may castle as
    /// `CASTLING` says (no castling, or by standard rules).
    #[inline(always)]
    pub(super) fn of<const WHITE: bool, const CASTLING: u8>(node: &Compact) -> Self {
        let (us, them) = sides::<WHITE>();
        let side = |color: Color| {
            PieceKind::ALL.map(|kind| (node.by_kind[kind as usize] & node.by_color[color as usize]).0)
        };
        let theirs = side(them);
        let their_king = Bitboard(theirs[KING]).lsb();
        let castling = CastlingSide::ALL.map(|castle| {
            let config = node.config;
            Castling {
                held: CASTLING != NO_CASTLING && node.castling.has(them, castle),
                lost_on: config.rook[them as usize][castle as usize].bitboard().0 | theirs[KING],
                empty: config.empty[them as usize][castle as usize].0,
                path: config.king_path[them as usize][castle as usize].0,
            }
        });
        Base {
            ours: side(us),
            theirs,
            their_king,
            zone: crate::attacks::king_attacks(their_king).0,
            pawn_checks: crate::attacks::pawn_attacks(them, their_king).0,
            knight_checks: crate::attacks::knight_attacks(their_king).0,
            castling,
        }
    }
}

/// Which lanes moved which kind of piece of ours (indexed by
/// [`PieceKind`]; pawns are the valid lanes that moved none of the
/// others), and which lanes hold a child at all.
#[derive(Clone, Copy)]
pub(super) struct Movers {
    pub(super) kinds: [__mmask8; 6],
    pub(super) valid: __mmask8,
}

/// The pieces of each lane's child.
struct Child {
    ours: [__m512i; 6],
    theirs: [__m512i; 6],
    /// Ours and theirs, all kinds.
    our_all: __m512i,
    their_all: __m512i,
    occupied: __m512i,
}

/// The children after each lane's move: the squares our piece left and
/// entered (`moved`), capturing what stood there.
#[inline(always)]
unsafe fn children(base: &Base, moved: __m512i, movers: Movers) -> Child {
    // SAFETY: see the module.
    unsafe {
        let mut kinds = movers.kinds;
        kinds[PAWN] =
            movers.valid & !(kinds[KNIGHT] | kinds[BISHOP] | kinds[ROOK] | kinds[QUEEN] | kinds[KING]);
        let captured = _mm512_and_si512(moved, splat(base_theirs_but_king(base)));
        let ours: [__m512i; 6] = core::array::from_fn(|k| {
            let before = splat(base.ours[k]);
            _mm512_mask_xor_epi64(before, kinds[k], before, moved)
        });
        let theirs: [__m512i; 6] =
            core::array::from_fn(|k| _mm512_andnot_si512(captured, splat(base.theirs[k])));
        let our_all = _mm512_or_si512(or3(ours[0], ours[1], ours[2]), or3(ours[3], ours[4], ours[5]));
        let their_all = _mm512_andnot_si512(captured, splat(base.theirs.iter().fold(0, |all, &b| all | b)));
        Child { ours, theirs, our_all, their_all, occupied: _mm512_or_si512(our_all, their_all) }
    }
}

/// Their pieces but their king.
#[inline(always)]
fn base_theirs_but_king(base: &Base) -> u64 {
    base.theirs[..KING].iter().fold(0, |all, &b| all | b)
}

/// The squares our pieces attack (ours: `WHITE`), their king lifted off
/// its square.
#[inline(always)]
unsafe fn danger<const WHITE: bool>(base: &Base, child: &Child) -> __m512i {
    // SAFETY: see the module.
    unsafe {
        let empty = _mm512_andnot_si512(
            _mm512_xor_si512(child.occupied, splat(base.their_king.bitboard().0)),
            splat(!0),
        );
        let ours = &child.ours;
        let mut danger = _mm512_or_si512(pawn_attacks(WHITE, ours[PAWN]), king_attacks(ours[KING]));
        if base.ours[KNIGHT] != 0 {
            danger = _mm512_or_si512(danger, knight_attacks(ours[KNIGHT]));
        }
        if base.ours[ROOK] | base.ours[QUEEN] != 0 {
            danger =
                _mm512_or_si512(danger, straight_attacks(_mm512_or_si512(ours[ROOK], ours[QUEEN]), empty));
        }
        if base.ours[BISHOP] | base.ours[QUEEN] != 0 {
            danger =
                _mm512_or_si512(danger, diagonal_attacks(_mm512_or_si512(ours[BISHOP], ours[QUEEN]), empty));
        }
        danger
    }
}

/// Their king's checks and pins, per lane.
struct Lines {
    /// The squares a move other than the king's may go to: all, the one
    /// check's line (checker included), or none (two checks).
    check_mask: __m512i,
    /// The lanes where their king is in check.
    in_check: __mmask8,
    /// The rook-like pin lines (from the king, pinner included) and the
    /// bishop-like ones.
    pins_straight: __m512i,
    pins_diagonal: __m512i,
}

/// Their king's lines to our first piece along each: a check where none
/// of theirs stands between and our piece moves along it, a pin where one
/// does; and the checks of our pawns and knights.
#[inline(always)]
unsafe fn lines(base: &Base, child: &Child) -> Lines {
    // SAFETY: see the module.
    unsafe {
        let ours = &child.ours;
        let one = splat(1);
        let leapers = _mm512_or_si512(
            _mm512_and_si512(splat(base.pawn_checks), ours[PAWN]),
            _mm512_and_si512(splat(base.knight_checks), ours[KNIGHT]),
        );
        let mut checks = leapers;
        // Never two checks by leapers: one moved, the other would be ours
        // before the move, checking the side to move then.
        let mut checkers = _mm512_maskz_mov_epi64(_mm512_test_epi64_mask(leapers, leapers), one);
        let mut pins = [_mm512_setzero_si512(); 2];
        let kinds = [(STRAIGHT, ROOK), (DIAGONAL, BISHOP)];
        for (i, (directions, slider)) in kinds.into_iter().enumerate() {
            if base.ours[slider] | base.ours[QUEEN] == 0 {
                continue;
            }
            let sliders = _mm512_or_si512(ours[slider], ours[QUEEN]);
            for line in cut_rays(base.their_king, directions, child.our_all) {
                let attacker = _mm512_test_epi64_mask(line, sliders);
                let between = popcnt(_mm512_and_si512(line, child.their_all));
                let check = attacker & _mm512_cmpeq_epi64_mask(between, _mm512_setzero_si512());
                let pin = attacker & _mm512_cmpeq_epi64_mask(between, one);
                checks = _mm512_mask_or_epi64(checks, check, checks, line);
                checkers = _mm512_mask_add_epi64(checkers, check, checkers, one);
                pins[i] = _mm512_mask_or_epi64(pins[i], pin, pins[i], line);
            }
        }
        let mut check_mask = _mm512_maskz_mov_epi64(_mm512_cmpeq_epi64_mask(checkers, one), checks);
        let unchecked = _mm512_cmpeq_epi64_mask(checkers, _mm512_setzero_si512());
        check_mask = _mm512_mask_mov_epi64(check_mask, unchecked, splat(!0));
        Lines { check_mask, in_check: !unchecked, pins_straight: pins[0], pins_diagonal: pins[1] }
    }
}

/// The legal moves of the child in each of the `valid` lanes (0
/// elsewhere; en-passant captures not counted, see
/// [`super::Moves::en_passant_captures`]): in each lane, the node's piece
/// of ours of the kind `movers` names moved between the two squares of
/// `moved`, capturing what stood there. Ours are `WHITE`; their pawns may
/// promote if `PROMOTIONS`.
#[inline(always)]
pub(super) unsafe fn lane_moves<const WHITE: bool, const PROMOTIONS: bool>(
    base: &Base,
    moved: __m512i,
    movers: Movers,
) -> __m512i {
    // SAFETY: see the module.
    unsafe {
        let child = children(base, moved, movers);
        let danger = danger::<WHITE>(base, &child);
        let lines = lines(base, &child);
        let mut moves = king_moves(base, &child, danger, lines.in_check, moved);
        moves = _mm512_add_epi64(moves, piece_moves(base, &child, &lines));
        moves = _mm512_add_epi64(moves, pawn_moves::<WHITE, PROMOTIONS>(&child, &lines));
        _mm512_maskz_mov_epi64(movers.valid, moves)
    }
}

/// Their king's moves and castlings.
#[inline(always)]
unsafe fn king_moves(
    base: &Base,
    child: &Child,
    danger: __m512i,
    in_check: __mmask8,
    moved: __m512i,
) -> __m512i {
    // SAFETY: see the module.
    unsafe {
        // 0x02: c & !b & !a (a = danger, b = theirs, c = zone).
        let mut moves = popcnt(_mm512_ternarylogic_epi64::<0x02>(danger, child.their_all, splat(base.zone)));
        for castling in base.castling {
            if castling.held {
                // The right kept, the squares between empty, the path safe.
                let kept = _mm512_testn_epi64_mask(moved, splat(castling.lost_on));
                let free = _mm512_testn_epi64_mask(child.occupied, splat(castling.empty));
                let safe = _mm512_testn_epi64_mask(danger, splat(castling.path));
                moves = _mm512_mask_add_epi64(moves, kept & free & safe & !in_check, moves, splat(1));
            }
        }
        moves
    }
}

/// The moves of their knights, bishops, rooks and queens: each standing
/// where it stands in the node (if not taken), pinned ones along their
/// pin's line.
#[inline(always)]
unsafe fn piece_moves(base: &Base, child: &Child, lines: &Lines) -> __m512i {
    // SAFETY: see the module.
    unsafe {
        let target = _mm512_andnot_si512(child.their_all, lines.check_mask);
        let pinned = _mm512_or_si512(lines.pins_straight, lines.pins_diagonal);
        let mut moves = _mm512_setzero_si512();
        for kind in [KNIGHT, BISHOP, ROOK, QUEEN] {
            for sq in Bitboard(base.theirs[kind]) {
                let at = splat(sq.bitboard().0);
                let here = _mm512_test_epi64_mask(child.theirs[kind], at);
                let to = if kind == KNIGHT {
                    // A pinned knight never moves.
                    let free = here & _mm512_testn_epi64_mask(pinned, at);
                    _mm512_maskz_mov_epi64(
                        free,
                        _mm512_and_si512(splat(crate::attacks::knight_attacks(sq).0), target),
                    )
                } else {
                    let mut to = _mm512_setzero_si512();
                    if kind != BISHOP {
                        to = along(
                            sq,
                            STRAIGHT,
                            child.occupied,
                            target,
                            lines.pins_straight,
                            lines.pins_diagonal,
                        );
                    }
                    if kind != ROOK {
                        let diagonal = along(
                            sq,
                            DIAGONAL,
                            child.occupied,
                            target,
                            lines.pins_diagonal,
                            lines.pins_straight,
                        );
                        to = _mm512_or_si512(to, diagonal);
                    }
                    _mm512_maskz_mov_epi64(here, to)
                };
                moves = _mm512_add_epi64(moves, popcnt(to));
            }
        }
        moves
    }
}

/// The moves onto `target` of a slider on `sq` in the directions `ds`:
/// along its pin's line if it is pinned along lines of this kind (`pins`),
/// none if it is pinned along the other kind (`other_pins`).
#[inline(always)]
unsafe fn along(
    sq: Square,
    ds: [usize; 4],
    occupied: __m512i,
    target: __m512i,
    pins: __m512i,
    other_pins: __m512i,
) -> __m512i {
    // SAFETY: see the module.
    unsafe {
        let at = splat(sq.bitboard().0);
        let to = _mm512_and_si512(slider_from(sq, ds, occupied), target);
        let to = _mm512_mask_and_epi64(to, _mm512_test_epi64_mask(pins, at), to, pins);
        _mm512_maskz_mov_epi64(_mm512_testn_epi64_mask(other_pins, at), to)
    }
}

/// The moves of their pawns (the side not `WHITE`) onto the check mask,
/// pinned ones along their pin's line: pushes onto empty squares, two steps
/// from their third rank, captures of ours, four moves for each move onto
/// the last rank if `PROMOTIONS`.
#[inline(always)]
unsafe fn pawn_moves<const WHITE: bool, const PROMOTIONS: bool>(child: &Child, lines: &Lines) -> __m512i {
    // SAFETY: see the module.
    unsafe {
        let them = sides::<WHITE>().1;
        let pawns = child.theirs[PAWN];
        let (straight, diagonal) = (lines.pins_straight, lines.pins_diagonal);
        // Their pushes go down the board if we are white.
        let push = |x: __m512i| if WHITE { _mm512_srli_epi64::<8>(x) } else { _mm512_slli_epi64::<8>(x) };
        let free = _mm512_andnot_si512(_mm512_or_si512(straight, diagonal), pawns);
        // A pawn pinned along a file pushes along it; one pinned along a
        // diagonal captures along it; one pinned along a rank does neither.
        // 0xf8: a | (b & c).
        let single = _mm512_andnot_si512(
            child.occupied,
            _mm512_ternarylogic_epi64::<0xf8>(push(free), push(_mm512_and_si512(pawns, straight)), straight),
        );
        let third = splat(Rank::Third.relative_to(them).bitboard().0);
        // 0x40: a & b & !c.
        let double = _mm512_ternarylogic_epi64::<0x40>(
            push(_mm512_and_si512(single, third)),
            lines.check_mask,
            child.occupied,
        );
        let single = _mm512_and_si512(single, lines.check_mask);
        let targets = _mm512_and_si512(child.our_all, lines.check_mask);
        let (free_west, free_east) = pawn_attacks_by_side(!WHITE, free);
        let (pinned_west, pinned_east) = pawn_attacks_by_side(!WHITE, _mm512_and_si512(pawns, diagonal));
        // 0xf8 again, then & targets.
        let west =
            _mm512_and_si512(_mm512_ternarylogic_epi64::<0xf8>(free_west, pinned_west, diagonal), targets);
        let east =
            _mm512_and_si512(_mm512_ternarylogic_epi64::<0xf8>(free_east, pinned_east, diagonal), targets);
        let mut moves = _mm512_add_epi64(
            _mm512_add_epi64(popcnt(single), popcnt(double)),
            _mm512_add_epi64(popcnt(west), popcnt(east)),
        );
        if PROMOTIONS {
            let last = splat(Rank::Eighth.relative_to(them).bitboard().0);
            let promoting = _mm512_add_epi64(
                popcnt(_mm512_and_si512(single, last)),
                _mm512_add_epi64(popcnt(_mm512_and_si512(west, last)), popcnt(_mm512_and_si512(east, last))),
            );
            moves =
                _mm512_add_epi64(moves, _mm512_add_epi64(promoting, _mm512_add_epi64(promoting, promoting)));
        }
        moves
    }
}
