//! Moves counted as sets, the primitives of the last plies: the moves of a
//! side's pawns from their pushes and attacks ([`pawn_move_count`]), of its
//! sliders ([`count_slider_moves`]), a sink that counts moves by set sizes
//! while splitting them for the quiet children ([`SplitCounter`]), and what
//! sliders see ([`slider_sight`]).

use super::position::sides;
use crate::attacks::pawn_set_pushes;
use crate::kernel::{outlined, Isa, Job};
use crate::movegen::{Counter, PawnMoves, Sink, Sliders};
use crate::types::{Bitboard, PieceKind, Rank, Square};

/// The number of moves of the side not to move's pawns when `WHITE` is to
/// move, given the squares one step ahead of them (`pushes`), those they
/// attack towards the a-file and the h-file, the occupied squares, and
/// their targets for captures (`WHITE`'s pieces): pushes onto empty
/// squares, two steps from their third rank, captures, four moves for each
/// target on the last rank if `PROMOTIONS`.
#[inline(always)]
pub(super) fn pawn_move_count<const WHITE: bool, const PROMOTIONS: bool>(
    pushes: Bitboard,
    west: Bitboard,
    east: Bitboard,
    occupied: Bitboard,
    targets: Bitboard,
) -> u64 {
    let them = sides::<WHITE>().1;
    let single = pushes - occupied;
    let double = pawn_set_pushes(them, single & Rank::Third.relative_to(them).bitboard()) - occupied;
    let (west, east) = (west & targets, east & targets);
    let mut moves = u64::from(single.count() + double.count() + west.count() + east.count());
    if PROMOTIONS {
        let last_rank = Rank::Eighth.relative_to(them).bitboard();
        moves += 3 * u64::from(
            (single & last_rank).count() + (west & last_rank).count() + (east & last_rank).count(),
        );
    }
    moves
}

/// The moves of `sliders` onto `target`, `occupied` holding the blockers.
/// Outlined: inlined at each quiet child, the same count cost 1-2% fewer
/// instructions but 27% more time on the start position.
#[inline(always)]
pub(super) fn count_slider_moves<K: Isa>(sliders: Sliders, occupied: Bitboard, target: Bitboard) -> u64 {
    outlined::<K, _>(SliderMoves { sliders, occupied, target })
}

/// [`count_slider_moves`], compiled per kernel.
pub(super) struct SliderMoves {
    pub(super) sliders: Sliders,
    pub(super) occupied: Bitboard,
    pub(super) target: Bitboard,
}

impl Job for SliderMoves {
    type Output = u64;

    #[inline(always)]
    fn run<K: Isa>(self) -> u64 {
        let mut counter = Counter(0);
        counter.sliders::<K>(self.sliders, self.occupied, self.target);
        counter.0
    }
}

/// Counts moves but those of the unpinned bishops, rooks and queens, which
/// it keeps for [`slider_sight`].
pub(super) struct SplitCounter {
    pub(super) sliders: Sliders,
    pub(super) others: Counter,
}

impl Sink for SplitCounter {
    #[inline(always)]
    fn piece(&mut self, kind: PieceKind, from: Square, to: Bitboard) {
        self.others.piece(kind, from, to);
    }
    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, delta: i8, kind: PawnMoves) {
        self.others.pawns(to, delta, kind);
    }
    #[inline(always)]
    fn castle(&mut self, king: Square, rook: Square) {
        self.others.castle(king, rook);
    }
    #[inline(always)]
    fn en_passant(&mut self, from: Square, to: Square) {
        self.others.en_passant(from, to);
    }
    #[inline(always)]
    fn sliders<K: Isa>(&mut self, sliders: Sliders, _: Bitboard, _: Bitboard) {
        self.sliders = sliders;
    }
}

/// The squares `sliders` see, blockers included, the number of their moves
/// onto `target`, `occupied` holding the blockers, and the squares they see
/// where a piece arriving or leaving changes that number (see
/// [`crate::attacks::fill::slider_attacks_move_count_and_cuts`]): with
/// `K`'s AVX2 fills, one fill for all three where there are two or more
/// sliders; otherwise a lookup per slider, and every square seen counts as
/// one that changes the number.
#[inline(always)]
pub(super) fn slider_sight<K: Isa>(
    sliders: Sliders,
    occupied: Bitboard,
    target: Bitboard,
) -> (Bitboard, u64, Bitboard) {
    let Sliders { bishops, rooks, queens } = sliders;
    #[cfg(target_arch = "x86_64")]
    if K::FILL && (bishops | rooks | queens).more_than_one() {
        // SAFETY: `K` runs here, and `FILL` is only set for instruction sets
        // with AVX2 (`AVX512` for those with AVX-512VL and VPOPCNTDQ).
        return unsafe {
            crate::attacks::fill::slider_attacks_move_count_and_cuts::<K>(
                rooks | queens,
                bishops | queens,
                occupied,
                target,
            )
        };
    }
    let mut seen = Bitboard::EMPTY;
    let mut moves = 0;
    let mut add = |attacks: Bitboard| {
        seen |= attacks;
        moves += u64::from((attacks & target).count());
    };
    for from in bishops {
        add(K::bishop_attacks(from, occupied));
    }
    for from in rooks {
        add(K::rook_attacks(from, occupied));
    }
    for from in queens {
        add(K::queen_attacks(from, occupied));
    }
    (seen, moves, seen)
}
