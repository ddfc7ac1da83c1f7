//! The last ply of rook endgames counted eight children at a time: where
//! no knight, bishop or queen stands and the kernel has AVX-512 (`v4`), a
//! node one ply above the leaves hands its children to [`Batch`], which
//! records each as what its move changed, and counts the legal moves of
//! eight of them at once, one child per 64-bit lane ([`count_lanes`]), with
//! no branch per child and no table read.
//!
//! The side to move next (`B`, the children's) has a king, rooks and
//! pawns that do not move in any child (the parent's side, `A`, moves), so
//! its king's lines and its rooks' rays are the parent's empty-board rays,
//! cut per lane at the first blocker by two bit tricks (the lowest set bit
//! going up, the highest going down). `A`'s rooks moved in some lanes, so
//! their attacks are filled (Kogge-Stone, four directions). An en-passant
//! capture in a child, rare and subtle, is tested on its own by the board's
//! test ([`Position::ep_capture_is_legal`]) and added to that lane's count.
//! In test builds each parent's count is also made the scalar way.

use core::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_and_si512, _mm512_andnot_si512, _mm512_castsi512_si128,
    _mm512_cmpeq_epi64_mask, _mm512_cvtepu8_epi64, _mm512_loadu_si512, _mm512_lzcnt_epi64,
    _mm512_mask_add_epi64, _mm512_mask_and_epi64, _mm512_mask_expand_epi8, _mm512_mask_mov_epi64,
    _mm512_mask_or_epi64, _mm512_mask_xor_epi64, _mm512_maskz_compress_epi8, _mm512_maskz_mov_epi64,
    _mm512_or_si512, _mm512_permutexvar_epi64, _mm512_popcnt_epi64, _mm512_reduce_add_epi64,
    _mm512_set1_epi64, _mm512_set1_epi8, _mm512_setzero_si512, _mm512_slli_epi64, _mm512_sllv_epi64,
    _mm512_srli_epi64, _mm512_sub_epi64, _mm512_sub_epi8, _mm512_ternarylogic_epi64, _mm512_test_epi64_mask,
    _mm512_xor_si512,
};
use core::marker::PhantomData;

use super::leaves::leaves;
use super::position::{sides, Compact, Known, ANY_CASTLING, NO_CASTLING};
use crate::kernel::{outlined, Isa, Job};
use crate::movegen::{generate_for, PawnMoves, Position, Sink};
use crate::types::{Bitboard, PieceKind, Rank, Square};

/// Children counted at once: the lanes of a 512-bit vector.
const LANES: usize = 8;

/// What the lanes are counted against: the parent's pieces, and the rays
/// of the pieces of `B` (the side that moves in the children), which stay
/// where they are in every child.
struct Base {
    our_king: u64,
    our_rooks: u64,
    our_pawns: u64,
    their_king: u64,
    their_rooks: u64,
    their_pawns: u64,
    /// The squares next to their king.
    king_zone: u64,
    /// The squares from which a pawn of ours would check their king.
    pawn_checks: u64,
    /// Their king's empty-board rays: north, east (towards higher squares),
    /// south, west.
    king_rays: [u64; 4],
}

/// The empty-board rays of a rook on `sq`: north, east, south, west.
#[inline(always)]
fn rays(sq: Square) -> [u64; 4] {
    let s = sq as u32;
    let rank = 0xffu64 << (s & 56);
    [
        0x0101_0101_0101_0100u64 << s,
        (0xfeu64 << s) & rank,
        0x0080_8080_8080_8080u64 >> (63 - s),
        ((1u64 << s) - 1) & rank,
    ]
}

impl Base {
    /// The parent's pieces, `WHITE` to move.
    #[inline(always)]
    fn of<const WHITE: bool>(parent: &Compact) -> Self {
        let (us, them) = sides::<WHITE>();
        let piece = |kind: PieceKind, side: crate::types::Color| {
            (parent.by_kind[kind as usize] & parent.by_color[side as usize]).0
        };
        let their_king = Bitboard(piece(PieceKind::King, them)).lsb();
        Base {
            our_king: piece(PieceKind::King, us),
            our_rooks: piece(PieceKind::Rook, us),
            our_pawns: piece(PieceKind::Pawn, us),
            their_king: their_king.bitboard().0,
            their_rooks: piece(PieceKind::Rook, them),
            their_pawns: piece(PieceKind::Pawn, them),
            king_zone: crate::attacks::king_attacks(their_king).0,
            pawn_checks: crate::attacks::pawn_attacks(them, their_king).0,
            king_rays: rays(their_king),
        }
    }
}

/// The legal moves of each child of a rook-endgame node one ply above the
/// leaves (see the module), summed: `parent`, `WHITE` to move, has no
/// knight, bishop or queen, `WHITE` no pawn on its seventh rank, the other
/// side no castling right; `PROMOTIONS` as in [`Known`] for the children.
#[inline(always)]
pub(super) fn last_children<K: Isa, const WHITE: bool, const PROMOTIONS: bool>(parent: &Compact) -> u64 {
    outlined::<K, _>(LastChildren::<WHITE, PROMOTIONS> { parent })
}

/// [`last_children`], compiled per kernel.
struct LastChildren<'p, 'a, const WHITE: bool, const PROMOTIONS: bool> {
    parent: &'p Compact<'a>,
}

impl<const WHITE: bool, const PROMOTIONS: bool> Job for LastChildren<'_, '_, WHITE, PROMOTIONS> {
    type Output = u64;

    #[inline(always)]
    fn run<K: Isa>(self) -> u64 {
        let parent = self.parent;
        debug_assert!(K::AVX512 && parent.rooks_only::<WHITE>());
        let mut moves = Moves::<K, WHITE, PROMOTIONS> {
            parent,
            sets: [Targets { squares: 0, from: 0, delta: 0, kind: 0 }; MAX_SETS],
            len: 0,
            alone: 0,
            isa: PhantomData,
        };
        let view = Known::<K, ANY_CASTLING, true, true, false, true>::new(parent, None, None);
        generate_for::<_, _, WHITE>(&view, &mut moves);
        let base = Base::of::<WHITE>(parent);
        // SAFETY: `K::AVX512` is set only for the `v4` kernel, which the
        // CPU runs only if it has AVX-512 F, BW, CD, DQ, VL and VPOPCNTDQ
        // (see `crate::kernel`), and this path is taken only where it also
        // has AVX-512 VBMI and VBMI2 ([`available`]).
        let nodes =
            moves.alone + unsafe { count_moves::<WHITE, PROMOTIONS>(&base, &moves.sets[..moves.len]) };
        debug_assert_eq!(
            nodes,
            super::descent::children::<K, WHITE, true, NO_CASTLING, PROMOTIONS, true>(parent, 1)
        );
        nodes
    }
}

/// Whether this CPU has the instructions [`count_moves`] uses beyond the
/// `v4` kernel's: AVX-512 VBMI and VBMI2 (Ice Lake, Zen 4 and later).
pub(super) fn available() -> bool {
    std::arch::is_x86_feature_detected!("avx512vbmi") && std::arch::is_x86_feature_detected!("avx512vbmi2")
}

/// The sets of moves a node hands out, at most: one of the king's, one
/// per rook (ten at most), four of pawns.
const MAX_SETS: usize = 16;

/// One set of moves of the parent's side: a king's or a rook's from
/// `from`, or pawns' onto `squares` from `delta` squares behind each.
#[derive(Clone, Copy)]
struct Targets {
    squares: u64,
    from: u8,
    delta: i8,
    /// 0 for the king, 1 for a rook, 2 for pawns.
    kind: u8,
}

/// Keeps the sets of moves it is handed, for [`count_moves`]; the
/// children it cannot count (castling, en passant: rare) are counted here
/// by the scalar leaves, and so are the en-passant captures that a double
/// push allows the other side.
struct Moves<'p, 'a, K, const WHITE: bool, const PROMOTIONS: bool> {
    parent: &'p Compact<'a>,
    sets: [Targets; MAX_SETS],
    len: usize,
    /// The moves of the children counted here.
    alone: u64,
    isa: PhantomData<K>,
}

impl<K: Isa, const WHITE: bool, const PROMOTIONS: bool> Moves<'_, '_, K, WHITE, PROMOTIONS> {
    /// Keeps a set of moves.
    #[inline(always)]
    fn keep(&mut self, squares: Bitboard, from: u8, delta: i8, kind: u8) {
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
            leaves::<K, false, NO_CASTLING, false, LEAPER_CHECKS, PROMOTIONS, true>(child, None)
        } else {
            leaves::<K, true, NO_CASTLING, false, LEAPER_CHECKS, PROMOTIONS, true>(child, None)
        };
    }

    /// The legal en-passant captures of the other side in the child after
    /// the double push from `from` to `to` (not counted by the lanes).
    #[inline(always)]
    fn en_passant_captures(&self, from: Square, to: Square) -> u64 {
        let child = self.parent.pushed::<WHITE>(from, to, true);
        let Some(ep) = child.en_passant else { return 0 };
        let (us, them) = sides::<WHITE>();
        let view = Known::<K, NO_CASTLING, true, true, PROMOTIONS, true>::new(&child, None, None);
        let capturers = crate::attacks::pawn_attacks(us, ep) & view.colored(them, PieceKind::Pawn);
        capturers.into_iter().map(|from| u64::from(view.ep_capture_is_legal(from, ep))).sum()
    }
}

impl<K: Isa, const WHITE: bool, const PROMOTIONS: bool> Sink for Moves<'_, '_, K, WHITE, PROMOTIONS> {
    #[inline(always)]
    fn piece(&mut self, kind: PieceKind, from: Square, to: Bitboard) {
        debug_assert!(matches!(kind, PieceKind::King | PieceKind::Rook));
        self.keep(to, from as u8, 0, u8::from(kind == PieceKind::Rook));
    }

    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, delta: i8, kind: PawnMoves) {
        debug_assert!(kind != PawnMoves::Promotion);
        if kind == PawnMoves::DoublePush {
            for sq in self.parent.en_passant_pushes::<WHITE>(to) {
                self.alone += self.en_passant_captures(super::sets::pawn_move_origin(sq, delta), sq);
            }
        }
        self.keep(to, 0, delta, 2);
    }

    #[inline(always)]
    fn castle(&mut self, king: Square, rook: Square) {
        self.count_alone::<false>(&self.parent.castled::<WHITE>(king, rook));
    }

    #[inline(always)]
    fn en_passant(&mut self, from: Square, to: Square) {
        self.count_alone::<true>(&self.parent.took_en_passant::<WHITE>(from, to));
    }
}

/// The legal moves of the children after the moves in `sets`, summed (but
/// the en-passant captures they allow, see [`Moves::en_passant_captures`]):
/// the moves listed as bytes, 64 at most at a time (each set's squares
/// packed by one compress, appended by one expand: no loop over them),
/// then counted eight at a time ([`lane_moves`]).
///
/// # Safety
/// The CPU must have AVX-512 F, BW, CD, DQ, VL, VPOPCNTDQ, VBMI and VBMI2.
#[target_feature(
    enable = "popcnt,bmi1,bmi2,lzcnt,avx2,avx512f,avx512bw,avx512cd,avx512dq,avx512vl,avx512vpopcntdq,avx512vbmi,avx512vbmi2"
)]
#[inline(never)]
unsafe fn count_moves<const WHITE: bool, const PROMOTIONS: bool>(base: &Base, sets: &[Targets]) -> u64 {
    const SQUARES: [u8; 64] = {
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
    let mut list =
        Listed { to: _mm512_setzero_si512(), from: _mm512_setzero_si512(), kings: 0, rooks: 0, len: 0 };
    let mut nodes = _mm512_setzero_si512();
    for set in sets {
        let n = set.squares.count_ones();
        if list.len + n > 64 {
            // SAFETY: this function runs with the features it needs.
            nodes = _mm512_add_epi64(nodes, unsafe { list.count::<WHITE, PROMOTIONS>(base) });
            list = Listed {
                to: _mm512_setzero_si512(),
                from: _mm512_setzero_si512(),
                kings: 0,
                rooks: 0,
                len: 0,
            };
        }
        let to = _mm512_maskz_compress_epi8(set.squares, squares);
        let from = if set.kind == 2 {
            _mm512_sub_epi8(to, _mm512_set1_epi8(set.delta))
        } else {
            _mm512_set1_epi8(set.from as i8)
        };
        let lanes = ((1u64 << n) - 1) << list.len;
        list.to = _mm512_mask_expand_epi8(list.to, lanes, to);
        list.from = _mm512_mask_expand_epi8(list.from, lanes, from);
        match set.kind {
            0 => list.kings |= lanes,
            1 => list.rooks |= lanes,
            _ => {}
        }
        list.len += n;
    }
    // SAFETY: as above.
    nodes = _mm512_add_epi64(nodes, unsafe { list.count::<WHITE, PROMOTIONS>(base) });
    _mm512_reduce_add_epi64(nodes) as u64
}

/// Moves listed as bytes: the square each left and the one it entered,
/// the moves by the king and by a rook (the others by pawns), and how
/// many.
struct Listed {
    to: __m512i,
    from: __m512i,
    kings: u64,
    rooks: u64,
    len: u32,
}

impl Listed {
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
                let word = _mm512_set1_epi64(i64::from(first / LANES as u32));
                let byte = |list: __m512i| {
                    _mm512_cvtepu8_epi64(_mm512_castsi512_si128(_mm512_permutexvar_epi64(word, list)))
                };
                let moved = _mm512_or_si512(
                    _mm512_sllv_epi64(one, byte(self.to)),
                    _mm512_sllv_epi64(one, byte(self.from)),
                );
                let left = self.len - first;
                let valid = if left >= LANES as u32 { !0 } else { (1u8 << left) - 1 };
                let moves = lane_moves::<WHITE, PROMOTIONS>(
                    base,
                    moved,
                    (self.kings >> first) as u8,
                    (self.rooks >> first) as u8,
                    valid,
                );
                nodes = _mm512_add_epi64(nodes, moves);
                first += LANES as u32;
            }
            nodes
        }
    }
}

const NOT_FILE_A: u64 = 0xfefe_fefe_fefe_fefe;
const NOT_FILE_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// `v` moved `N` squares towards h8 if `UP`, else towards a1.
#[inline(always)]
unsafe fn step<const UP: bool, const N: u32>(v: __m512i) -> __m512i {
    // SAFETY: the caller runs with AVX-512 F.
    unsafe {
        if UP {
            _mm512_slli_epi64::<N>(v)
        } else {
            _mm512_srli_epi64::<N>(v)
        }
    }
}

/// A Kogge-Stone fill of the rooks on `rooks` through `empty`, `S`
/// squares a step (towards h8 if `UP`; `S2` and `S4` are twice and four
/// times `S`), the squares a step wraps to kept out by `edge`: the squares
/// they attack in that direction.
#[inline(always)]
unsafe fn fill<const UP: bool, const S: u32, const S2: u32, const S4: u32>(
    rooks: __m512i,
    empty: __m512i,
    edge: __m512i,
) -> __m512i {
    // SAFETY: the caller runs with AVX-512 F.
    unsafe {
        let mut g = rooks;
        let mut p = _mm512_and_si512(empty, edge);
        // g |= p & (g << s): ternary logic 0xf8 is a | (b & c).
        g = _mm512_ternarylogic_epi64::<0xf8>(g, p, step::<UP, S>(g));
        p = _mm512_and_si512(p, step::<UP, S>(p));
        g = _mm512_ternarylogic_epi64::<0xf8>(g, p, step::<UP, S2>(g));
        p = _mm512_and_si512(p, step::<UP, S2>(p));
        g = _mm512_ternarylogic_epi64::<0xf8>(g, p, step::<UP, S4>(g));
        _mm512_and_si512(step::<UP, S>(g), edge)
    }
}

/// The squares of `ray` (an empty-board ray from a square towards higher
/// squares) up to the first of `blockers` on it, that one included.
#[inline(always)]
unsafe fn ray_up(ray: __m512i, blockers: __m512i) -> __m512i {
    // SAFETY: the caller runs with AVX-512 F.
    unsafe {
        let on = _mm512_and_si512(ray, blockers);
        let lowest = _mm512_and_si512(on, _mm512_sub_epi64(_mm512_setzero_si512(), on));
        let below = _mm512_sub_epi64(lowest, _mm512_set1_epi64(1));
        // ray & (lowest ^ below): 0x60 is a & (b ^ c). No blocker: all of it.
        _mm512_ternarylogic_epi64::<0x60>(ray, lowest, below)
    }
}

/// The squares of `ray` (towards lower squares) down to the first of
/// `blockers` on it, that one included.
#[inline(always)]
unsafe fn ray_down(ray: __m512i, blockers: __m512i) -> __m512i {
    // SAFETY: the caller runs with AVX-512 F and CD.
    unsafe {
        // Square a1 stands in for a blocker where there is none: the ray
        // then runs to its end (a1 is never beyond it).
        let on = _mm512_or_si512(_mm512_and_si512(ray, blockers), _mm512_set1_epi64(1));
        let highest = _mm512_sllv_epi64(
            _mm512_set1_epi64(1),
            _mm512_sub_epi64(_mm512_set1_epi64(63), _mm512_lzcnt_epi64(on)),
        );
        _mm512_andnot_si512(_mm512_sub_epi64(highest, _mm512_set1_epi64(1)), ray)
    }
}

/// The squares of each of `rays` (north, east, south, west from one
/// square) up to their first blocker, as one set per ray.
#[inline(always)]
unsafe fn cut_rays(rays: &[u64; 4], blockers: __m512i) -> [__m512i; 4] {
    // SAFETY: the caller runs with AVX-512 F and CD.
    unsafe {
        let ray = |i: usize| _mm512_set1_epi64(rays[i] as i64);
        [
            ray_up(ray(0), blockers),
            ray_up(ray(1), blockers),
            ray_down(ray(2), blockers),
            ray_down(ray(3), blockers),
        ]
    }
}

/// The number of set bits of each lane.
#[inline(always)]
unsafe fn popcnt(v: __m512i) -> __m512i {
    // SAFETY: the caller runs with AVX512-VPOPCNTDQ.
    unsafe { _mm512_popcnt_epi64(v) }
}

/// The legal moves of the child in each of the `valid` lanes (0
/// elsewhere; en-passant captures not counted, see
/// [`Moves::en_passant_captures`]): in each lane, the parent's piece of
/// ours that `kings` and `rooks` name (else a pawn) moved between the two
/// squares of `moved`, capturing what stood there.
///
/// # Safety
/// The CPU must have AVX-512 F, CD and VPOPCNTDQ (inlined into
/// [`count_moves`]).
#[inline(always)]
unsafe fn lane_moves<const WHITE: bool, const PROMOTIONS: bool>(
    base: &Base,
    moved: __m512i,
    kings: u8,
    rooks: u8,
    valid: u8,
) -> __m512i {
    // SAFETY: the caller runs with the features these need.
    unsafe {
        let v = |x: u64| _mm512_set1_epi64(x as i64);
        let or3 = |a, b, c| _mm512_ternarylogic_epi64::<0xfe>(a, b, c);
        // The pieces of each child: ours (the parent's side) moved, theirs
        // taken.
        let pawns = valid & !kings & !rooks;
        let removed = _mm512_and_si512(moved, v(base.their_rooks | base.their_pawns));
        let our_king = _mm512_mask_xor_epi64(v(base.our_king), kings, v(base.our_king), moved);
        let our_rooks = _mm512_mask_xor_epi64(v(base.our_rooks), rooks, v(base.our_rooks), moved);
        let our_pawns = _mm512_mask_xor_epi64(v(base.our_pawns), pawns, v(base.our_pawns), moved);
        let their_rooks = _mm512_andnot_si512(removed, v(base.their_rooks));
        let their_pawns = _mm512_andnot_si512(removed, v(base.their_pawns));
        let their_king = v(base.their_king);
        let ours = or3(our_king, our_rooks, our_pawns);
        let theirs = or3(their_king, their_rooks, their_pawns);
        let occupied = _mm512_or_si512(ours, theirs);

        // Our attacks, their king lifted off its square.
        let danger =
            our_attacks::<WHITE>(our_king, our_rooks, our_pawns, _mm512_xor_si512(occupied, their_king));
        // 0x02: c & !b & !a (a = danger, b = theirs, c = zone).
        let king_moves = popcnt(_mm512_ternarylogic_epi64::<0x02>(danger, theirs, v(base.king_zone)));

        // Their king's lines to our first piece: a check where none of theirs
        // stands between and the piece is a rook, a pin where one does.
        let lines = cut_rays(&base.king_rays, ours);
        let one = v(1);
        let pawn_checkers = _mm512_and_si512(v(base.pawn_checks), our_pawns);
        let mut checks = pawn_checkers;
        let mut checkers = _mm512_maskz_mov_epi64(_mm512_test_epi64_mask(pawn_checkers, pawn_checkers), one);
        let mut pins = _mm512_setzero_si512();
        for line in lines {
            let rook = _mm512_test_epi64_mask(line, our_rooks);
            let between = popcnt(_mm512_and_si512(line, theirs));
            let check = rook & _mm512_cmpeq_epi64_mask(between, _mm512_setzero_si512());
            let pin = rook & _mm512_cmpeq_epi64_mask(between, one);
            checks = _mm512_mask_or_epi64(checks, check, checks, line);
            checkers = _mm512_mask_add_epi64(checkers, check, checkers, one);
            pins = _mm512_mask_or_epi64(pins, pin, pins, line);
        }
        // Where non-king moves may go: anywhere, onto the one check's line, or
        // nowhere (two checks).
        let mut check_mask = _mm512_maskz_mov_epi64(_mm512_cmpeq_epi64_mask(checkers, one), checks);
        check_mask = _mm512_mask_mov_epi64(
            check_mask,
            _mm512_cmpeq_epi64_mask(checkers, _mm512_setzero_si512()),
            v(!0),
        );

        let mut moves = king_moves;
        let target = _mm512_andnot_si512(theirs, check_mask);
        for rook in Bitboard(base.their_rooks) {
            let square = rook.bitboard().0;
            let seen = cut_rays(&rays(rook), occupied);
            let mut to = _mm512_and_si512(or3(seen[0], seen[1], _mm512_or_si512(seen[2], seen[3])), target);
            // A pinned rook moves along its pin's line only.
            to = _mm512_mask_and_epi64(to, _mm512_test_epi64_mask(pins, v(square)), to, pins);
            // A taken rook has no move.
            let alive = _mm512_test_epi64_mask(_mm512_andnot_si512(removed, v(square)), v(square));
            moves = _mm512_mask_add_epi64(moves, alive, moves, popcnt(to));
        }
        moves = _mm512_add_epi64(
            moves,
            pawn_moves::<WHITE, PROMOTIONS>(their_pawns, pins, occupied, ours, check_mask),
        );
        _mm512_maskz_mov_epi64(valid, moves)
    }
}

/// The squares our king, rooks and pawns attack (the parent's side, which
/// is `WHITE`), with `occupied` as blockers.
#[inline(always)]
unsafe fn our_attacks<const WHITE: bool>(
    king: __m512i,
    rooks: __m512i,
    pawns: __m512i,
    occupied: __m512i,
) -> __m512i {
    // SAFETY: the caller runs with AVX-512 F.
    unsafe {
        let v = |x: u64| _mm512_set1_epi64(x as i64);
        let empty = _mm512_andnot_si512(occupied, v(!0));
        let (all, not_a, not_h) = (v(!0), v(NOT_FILE_A), v(NOT_FILE_H));
        let north = fill::<true, 8, 16, 32>(rooks, empty, all);
        let south = fill::<false, 8, 16, 32>(rooks, empty, all);
        let east = fill::<true, 1, 2, 4>(rooks, empty, not_a);
        let west = fill::<false, 1, 2, 4>(rooks, empty, not_h);
        let or3 = |a, b, c| _mm512_ternarylogic_epi64::<0xfe>(a, b, c);
        // 0xf8: a | (b & c).
        let pawn_attacks = if WHITE {
            _mm512_ternarylogic_epi64::<0xf8>(
                _mm512_and_si512(_mm512_slli_epi64::<9>(pawns), not_a),
                _mm512_slli_epi64::<7>(pawns),
                not_h,
            )
        } else {
            _mm512_ternarylogic_epi64::<0xf8>(
                _mm512_and_si512(_mm512_srli_epi64::<7>(pawns), not_a),
                _mm512_srli_epi64::<9>(pawns),
                not_h,
            )
        };
        let sideways = _mm512_ternarylogic_epi64::<0xf8>(
            _mm512_and_si512(_mm512_slli_epi64::<1>(king), not_a),
            _mm512_srli_epi64::<1>(king),
            not_h,
        );
        let row = _mm512_or_si512(sideways, king);
        let king_attacks = or3(sideways, _mm512_slli_epi64::<8>(row), _mm512_srli_epi64::<8>(row));
        let rook_attacks = _mm512_or_si512(or3(north, south, east), west);
        or3(rook_attacks, pawn_attacks, king_attacks)
    }
}

/// The moves of their pawns (the side not `WHITE`), pinned ones along
/// their pin's line, onto `check_mask`: pushes onto empty squares, two
/// steps from their third rank, captures of ours, four moves for each move
/// onto the last rank if `PROMOTIONS`.
#[inline(always)]
unsafe fn pawn_moves<const WHITE: bool, const PROMOTIONS: bool>(
    pawns: __m512i,
    pins: __m512i,
    occupied: __m512i,
    ours: __m512i,
    check_mask: __m512i,
) -> __m512i {
    // SAFETY: the caller runs with AVX-512 F and VPOPCNTDQ.
    unsafe {
        let v = |x: u64| _mm512_set1_epi64(x as i64);
        let them = sides::<WHITE>().1;
        // Their pushes go down the board if we are white.
        let push = |x: __m512i| if WHITE { _mm512_srli_epi64::<8>(x) } else { _mm512_slli_epi64::<8>(x) };
        let free = _mm512_andnot_si512(pins, pawns);
        let pinned = _mm512_and_si512(pawns, pins);
        // Rooks pin along ranks and files: a pawn pinned along its file
        // pushes along it, one pinned along a rank not at all; none
        // captures.
        let single =
            _mm512_andnot_si512(occupied, _mm512_ternarylogic_epi64::<0xf8>(push(free), push(pinned), pins));
        let third = v(Rank::Third.relative_to(them).bitboard().0);
        // 0x40: a & b & !c.
        let double =
            _mm512_ternarylogic_epi64::<0x40>(push(_mm512_and_si512(single, third)), check_mask, occupied);
        let single = _mm512_and_si512(single, check_mask);
        let targets = _mm512_and_si512(ours, check_mask);
        let (west, east) = if WHITE {
            (_mm512_srli_epi64::<9>(free), _mm512_srli_epi64::<7>(free))
        } else {
            (_mm512_slli_epi64::<7>(free), _mm512_slli_epi64::<9>(free))
        };
        // 0x80: a & b & c.
        let west = _mm512_ternarylogic_epi64::<0x80>(west, v(NOT_FILE_H), targets);
        let east = _mm512_ternarylogic_epi64::<0x80>(east, v(NOT_FILE_A), targets);
        let mut moves = _mm512_add_epi64(
            _mm512_add_epi64(popcnt(single), popcnt(double)),
            _mm512_add_epi64(popcnt(west), popcnt(east)),
        );
        if PROMOTIONS {
            let last = v(Rank::Eighth.relative_to(them).bitboard().0);
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
