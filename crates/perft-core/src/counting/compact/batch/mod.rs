//! The last ply counted eight children at a time, on CPUs with AVX-512
//! (the `v4` kernel, with VBMI and VBMI2): a node one ply above the leaves
//! keeps the sets of moves its generator hands out ([`Moves`]), lists
//! them as bytes with one compress and one expand per set (no loop over a
//! set's moves), and counts the legal moves of eight children at once, one
//! per 64-bit lane ([`lanes::lane_moves`]), with no branch per child.
//!
//! The children's side to move has pieces that stand where they stood in
//! the node, so its king's lines and its sliders' rays are the node's
//! empty-board rays cut per lane at the first blocker; the moving side's
//! sliders are filled. Children that may castle by Chess960 rules are left
//! to the scalar path (the caller's choice), and so are, one by one, the
//! rare children this path does not list: after castling, en passant or a
//! promotion. The en-passant captures a double push allows are tested on
//! their own ([`Position::ep_capture_is_legal`]). In test builds the
//! caller also counts each node the scalar way and compares.

mod lanes;
mod vector;

use core::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_castsi512_si128, _mm512_cvtepu8_epi64, _mm512_loadu_si512,
    _mm512_mask_expand_epi8, _mm512_maskz_compress_epi8, _mm512_or_si512, _mm512_permutexvar_epi64,
    _mm512_reduce_add_epi64, _mm512_set1_epi64, _mm512_set1_epi8, _mm512_setzero_si512, _mm512_sllv_epi64,
    _mm512_sub_epi8,
};
use core::marker::PhantomData;

use self::lanes::{lane_moves, Base, Movers};
use super::leaves::leaves;
use super::position::{sides, Compact, Known, ANY_CASTLING};
use crate::kernel::{outlined, Isa, Job};
use crate::movegen::{generate_for, PawnMoves, Position, Sink};
use crate::types::{Bitboard, PieceKind, Square};

/// Children counted at once: the lanes of a 512-bit vector.
const LANES: u32 = 8;

/// Whether this CPU has the instructions [`count_moves`] uses beyond the
/// `v4` kernel's: AVX-512 VBMI and VBMI2 (Ice Lake, Zen 4 and later).
pub(super) fn available() -> bool {
    std::arch::is_x86_feature_detected!("avx512vbmi") && std::arch::is_x86_feature_detected!("avx512vbmi2")
}

/// Whether the node's side (`WHITE`) hands out at most [`MAX_SETS`] sets
/// of moves: it has at most sixteen pieces (sixteen sets without pawns;
/// with `p` pawns, `16 - p` and four of pawns). Positions with more, which
/// standard chess never reaches, are counted the scalar way.
#[inline(always)]
pub(super) fn fits<const WHITE: bool>(node: &Compact) -> bool {
    node.by_color[sides::<WHITE>().0 as usize].count() <= 16
}

/// The legal moves of each child of `node`, `WHITE` to move, one ply above
/// the leaves, summed (see the module): the children's side may castle as
/// `CASTLING` says (not by Chess960 rules), its pawns promote if
/// `PROMOTIONS`. Only where [`available`] and the kernel is `v4`.
#[inline(always)]
pub(super) fn last_children<K: Isa, const WHITE: bool, const CASTLING: u8, const PROMOTIONS: bool>(
    node: &Compact,
) -> u64 {
    outlined::<K, _>(LastChildren::<WHITE, CASTLING, PROMOTIONS> { node })
}

/// [`last_children`], compiled per kernel.
struct LastChildren<'p, 'a, const WHITE: bool, const CASTLING: u8, const PROMOTIONS: bool> {
    node: &'p Compact<'a>,
}

impl<const WHITE: bool, const CASTLING: u8, const PROMOTIONS: bool> Job
    for LastChildren<'_, '_, WHITE, CASTLING, PROMOTIONS>
{
    type Output = u64;

    #[inline(always)]
    fn run<K: Isa>(self) -> u64 {
        let node = self.node;
        debug_assert!(K::AVX512 && CASTLING != super::position::CHESS960_CASTLING);
        let mut moves = Moves::<K, WHITE, CASTLING, PROMOTIONS> {
            node,
            sets: [Targets { squares: 0, from: 0, delta: 0, kind: PieceKind::Pawn }; MAX_SETS],
            len: 0,
            alone: 0,
            isa: PhantomData,
        };
        let view = Known::<K, ANY_CASTLING, true, true, true, false>::new(node, None, None);
        generate_for::<_, _, WHITE>(&view, &mut moves);
        let base = Base::of::<WHITE, CASTLING>(node);
        // SAFETY: `K::AVX512` is set only for the `v4` kernel, which the
        // CPU runs only if it has AVX-512 F, BW, CD, DQ, VL and VPOPCNTDQ
        // (see `crate::kernel`), and this path is taken only where it also
        // has VBMI and VBMI2 ([`available`]).
        moves.alone + unsafe { count_moves::<WHITE, PROMOTIONS>(&base, &moves.sets[..moves.len]) }
    }
}

/// The sets of moves a node hands out, at most, where [`fits`] holds: one
/// per piece, and four of pawns.
const MAX_SETS: usize = 20;

/// One set of moves of the node's side: a piece's from `from`, or pawns'
/// onto `squares` from `delta` squares behind each (`kind` a pawn).
#[derive(Clone, Copy)]
struct Targets {
    squares: u64,
    from: u8,
    delta: i8,
    kind: PieceKind,
}

/// Keeps the sets of moves it is handed, for [`count_moves`]; the
/// children it does not list (after castling, en passant or a promotion)
/// it counts one by one with the scalar leaves, and so the en-passant
/// captures that a double push allows the other side.
struct Moves<'p, 'a, K, const WHITE: bool, const CASTLING: u8, const PROMOTIONS: bool> {
    node: &'p Compact<'a>,
    sets: [Targets; MAX_SETS],
    len: usize,
    /// The moves of the children counted here.
    alone: u64,
    isa: PhantomData<K>,
}

impl<K: Isa, const WHITE: bool, const CASTLING: u8, const PROMOTIONS: bool>
    Moves<'_, '_, K, WHITE, CASTLING, PROMOTIONS>
{
    /// Keeps a set of moves.
    #[inline(always)]
    fn keep(&mut self, squares: Bitboard, from: u8, delta: i8, kind: PieceKind) {
        if squares.any() {
            debug_assert!(self.len < MAX_SETS);
            self.sets[self.len] = Targets { squares: squares.0, from, delta, kind };
            self.len += 1;
        }
    }

    /// Counts the legal moves of `child` by the scalar leaves.
    #[inline(always)]
    fn count_alone<const LEAPER_CHECKS: bool>(&mut self, child: &Compact) {
        self.alone += if WHITE {
            leaves::<K, false, CASTLING, false, LEAPER_CHECKS, PROMOTIONS, false>(child, None)
        } else {
            leaves::<K, true, CASTLING, false, LEAPER_CHECKS, PROMOTIONS, false>(child, None)
        };
    }

    /// The legal en-passant captures of the other side in the child after
    /// the double push from `from` to `to` (not counted by the lanes).
    #[inline(always)]
    fn en_passant_captures(&self, from: Square, to: Square) -> u64 {
        let child = self.node.pushed::<WHITE>(from, to, true);
        let Some(ep) = child.en_passant else { return 0 };
        let (us, them) = sides::<WHITE>();
        let view = Known::<K, CASTLING, true, true, PROMOTIONS, false>::new(&child, None, None);
        let capturers = crate::attacks::pawn_attacks(us, ep) & view.colored(them, PieceKind::Pawn);
        capturers.into_iter().map(|from| u64::from(view.ep_capture_is_legal(from, ep))).sum()
    }
}

impl<K: Isa, const WHITE: bool, const CASTLING: u8, const PROMOTIONS: bool> Sink
    for Moves<'_, '_, K, WHITE, CASTLING, PROMOTIONS>
{
    #[inline(always)]
    fn piece(&mut self, kind: PieceKind, from: Square, to: Bitboard) {
        self.keep(to, from as u8, 0, kind);
    }

    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, delta: i8, kind: PawnMoves) {
        match kind {
            PawnMoves::Promotion => {
                for sq in to {
                    let from = super::sets::pawn_move_origin(sq, delta);
                    for piece in [PieceKind::Queen, PieceKind::Rook, PieceKind::Bishop] {
                        self.count_alone::<false>(&self.node.promoted::<WHITE>(from, sq, piece));
                    }
                    self.count_alone::<true>(&self.node.promoted::<WHITE>(from, sq, PieceKind::Knight));
                }
            }
            PawnMoves::DoublePush => {
                for sq in self.node.en_passant_pushes::<WHITE>(to) {
                    self.alone += self.en_passant_captures(super::sets::pawn_move_origin(sq, delta), sq);
                }
                self.keep(to, 0, delta, PieceKind::Pawn);
            }
            PawnMoves::Push | PawnMoves::Capture => self.keep(to, 0, delta, PieceKind::Pawn),
        }
    }

    #[inline(always)]
    fn castle(&mut self, king: Square, rook: Square) {
        self.count_alone::<false>(&self.node.castled::<WHITE>(king, rook));
    }

    #[inline(always)]
    fn en_passant(&mut self, from: Square, to: Square) {
        self.count_alone::<true>(&self.node.took_en_passant::<WHITE>(from, to));
    }
}

/// The legal moves of the children after the moves in `sets`, summed (but
/// the en-passant captures they allow, see [`Moves::en_passant_captures`]):
/// the moves listed as bytes, 64 at most at a time (each set's squares
/// packed by one compress and appended by one expand), then counted eight
/// at a time ([`lane_moves`]).
///
/// # Safety
/// The CPU must have AVX-512 F, BW, CD, DQ, VL, VPOPCNTDQ, VBMI and VBMI2.
#[target_feature(
    enable = "popcnt,bmi1,bmi2,lzcnt,avx2,avx512f,avx512bw,avx512cd,avx512dq,avx512vl,avx512vpopcntdq,avx512vbmi,avx512vbmi2"
)]
#[inline(never)]
unsafe fn count_moves<const WHITE: bool, const PROMOTIONS: bool>(base: &Base, sets: &[Targets]) -> u64 {
    static SQUARES: [u8; 64] = {
        let mut squares = [0; 64];
        let mut i = 0;
        while i < 64 {
            squares[i] = i as u8;
            i += 1;
        }
        squares
    };
    // SAFETY: 64 bytes, read unaligned.
    let squares = unsafe { _mm512_loadu_si512(SQUARES.as_ptr().cast()) };
    let mut list = Listed::EMPTY;
    let mut nodes = _mm512_setzero_si512();
    for set in sets {
        let n = set.squares.count_ones();
        if list.len + n > 64 {
            // SAFETY: this function runs with the features it needs.
            nodes = _mm512_add_epi64(nodes, unsafe { list.count::<WHITE, PROMOTIONS>(base) });
            list = Listed::EMPTY;
        }
        let to = _mm512_maskz_compress_epi8(set.squares, squares);
        let from = if set.kind == PieceKind::Pawn {
            _mm512_sub_epi8(to, _mm512_set1_epi8(set.delta))
        } else {
            _mm512_set1_epi8(set.from as i8)
        };
        let lanes = ((1u64 << n) - 1) << list.len;
        list.to = _mm512_mask_expand_epi8(list.to, lanes, to);
        list.from = _mm512_mask_expand_epi8(list.from, lanes, from);
        list.kinds[set.kind as usize] |= lanes;
        list.len += n;
    }
    // SAFETY: as above.
    nodes = _mm512_add_epi64(nodes, unsafe { list.count::<WHITE, PROMOTIONS>(base) });
    _mm512_reduce_add_epi64(nodes) as u64
}

/// Moves listed as bytes: the square each entered and the one it left,
/// the moves by each kind of piece (indexed by [`PieceKind`]), and how
/// many.
struct Listed {
    to: __m512i,
    from: __m512i,
    kinds: [u64; 6],
    len: u32,
}

impl Listed {
    /// No move.
    // SAFETY: a zero vector is any vector's bits.
    const EMPTY: Listed = Listed {
        to: unsafe { core::mem::zeroed() },
        from: unsafe { core::mem::zeroed() },
        kinds: [0; 6],
        len: 0,
    };

    /// The legal moves of the children after the moves listed, per lane.
    ///
    /// # Safety
    /// As [`count_moves`], into which it is inlined.
    #[inline(always)]
    unsafe fn count<const WHITE: bool, const PROMOTIONS: bool>(&self, base: &Base) -> __m512i {
        // SAFETY: the caller runs with the features these need.
        unsafe {
            let mut nodes = _mm512_setzero_si512();
            let one = _mm512_set1_epi64(1);
            let mut first = 0;
            while first < self.len {
                // The eight bytes from `first` on, widened to lanes.
                let word = _mm512_set1_epi64(i64::from(first / LANES));
                let byte = |list: __m512i| {
                    _mm512_cvtepu8_epi64(_mm512_castsi512_si128(_mm512_permutexvar_epi64(word, list)))
                };
                let moved = _mm512_or_si512(
                    _mm512_sllv_epi64(one, byte(self.to)),
                    _mm512_sllv_epi64(one, byte(self.from)),
                );
                let left = self.len - first;
                let movers = Movers {
                    kinds: self.kinds.map(|lanes| (lanes >> first) as u8),
                    valid: if left >= LANES { !0 } else { (1u8 << left) - 1 },
                };
                nodes = _mm512_add_epi64(nodes, lane_moves::<WHITE, PROMOTIONS>(base, moved, movers));
                first += LANES;
            }
            nodes
        }
    }
}
